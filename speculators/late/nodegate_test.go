package late

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// TestNodeGateIncrementalMatchesFullPass drives a job through random starts
// (out of task order, several attempts per task and node), status reports
// and ends (succeeded attempts killed afterwards too), and checks after each
// event that the totals the gate keeps by summing only the touched nodes are
// the very float64 values, seen flags and threshold a full pass over the
// job's tasks gives, that Decide's kept rates and running tasks' records
// are a pass's, and, every third event, that Decide returns what a plain
// pass over the tasks decides (decideByPass).
func TestNodeGateIncrementalMatchesFullPass(t *testing.T) {
	const maps, reduces, nodes = 40, 10, 7
	h := spectest.For(t, Policy(), speculators.JobInfo{Maps: maps, Reduces: reduces, Slots: 1000}, nil)
	p := h.Policy().(*policy)
	rng := rand.New(rand.NewSource(7))
	var running, succeeded []speculators.AttemptID
	now := speculators.Time(0)
	incremental, decided := 0, 0
	for step := 0; step < 3000; step++ {
		now += speculators.Time(rng.Intn(500))
		switch r := rng.Intn(10); {
		case r < 3 || len(running) == 0:
			task := spectest.Map(rng.Intn(maps))
			if rng.Intn(4) == 0 {
				task = spectest.Reduce(rng.Intn(reduces))
			}
			id := h.NextAttempt(task)
			h.Observe(speculators.Event{Kind: speculators.AttemptStarted, Time: now, Attempt: id,
				Node: speculators.NodeID(fmt.Sprintf("n%d", rng.Intn(nodes)))})
			running = append(running, id)
		case r < 8:
			id := running[rng.Intn(len(running))]
			h.Observe(speculators.Event{Kind: speculators.AttemptStatus, Time: now, Attempt: id, Progress: rng.Float64()})
		case r == 8 && len(succeeded) > 0 && rng.Intn(3) == 0: // output lost
			k := rng.Intn(len(succeeded))
			id := succeeded[k]
			succeeded = append(succeeded[:k], succeeded[k+1:]...)
			h.Observe(speculators.Event{Kind: speculators.AttemptKilled, Time: now, Attempt: id})
		default:
			k := rng.Intn(len(running))
			id := running[k]
			running = append(running[:k], running[k+1:]...)
			kind := []speculators.EventKind{speculators.AttemptSucceeded, speculators.AttemptFailed, speculators.AttemptKilled}[rng.Intn(3)]
			h.Observe(speculators.Event{Kind: kind, Time: now, Attempt: id})
			if kind == speculators.AttemptSucceeded {
				succeeded = append(succeeded, id)
			}
		}
		if p.nodesStale && !p.fullStale && len(p.nodeTotals) == len(h.Job().Nodes) {
			incremental++
		}
		node := h.Job().Nodes[rng.Intn(len(h.Job().Nodes))].ID
		got := p.AllowSpeculativeOn(h.Job(), node, now)
		totals, seen := fullPass(h.Job())
		var sample []float64
		for k := range totals {
			if seen[k] {
				sample = append(sample, totals[k])
			}
		}
		threshold := speculators.Percentile(sample, p.slowNodePct)
		i := p.nodeIx[node]
		want := !seen[i] || totals[i] >= threshold
		if got != want || threshold != p.nodeThreshold {
			t.Fatalf("step %d: gate %v threshold %v incrementally, %v %v by a full pass", step, got, p.nodeThreshold, want, threshold)
		}
		for k := range totals {
			if totals[k] != p.nodeTotals[k] || seen[k] != p.nodeSeen[k] {
				t.Fatalf("step %d node %d: total %v seen %v incrementally, %v %v by a full pass", step, k, p.nodeTotals[k], p.nodeSeen[k], totals[k], seen[k])
			}
		}
		checkDoneRates(t, step, p, h.Job())
		if step%3 == 0 {
			want := decideByPass(p, h.Job(), now)
			got := p.Decide(h.Job(), now, nil)
			if !slices.Equal(got, want) {
				t.Fatalf("step %d: Decide %v, a pass over the tasks %v", step, got, want)
			}
			decided += len(got)
		}
	}
	if decided < 15 {
		t.Fatalf("only %d copies decided: the comparison of Decide with a pass proves little", decided)
	}
	if incremental < 1000 {
		t.Fatalf("only %d of 3000 events were summed incrementally", incremental)
	}
}

// fullPass is the gate's measure written plainly: each node's running
// attempts' progress plus one per succeeded attempt, added in task order.
func fullPass(job *speculators.Job) ([]float64, []bool) {
	totals := make([]float64, len(job.Nodes))
	seen := make([]bool, len(job.Nodes))
	for ty := range job.Tasks {
		for _, t := range job.Tasks[ty] {
			for _, a := range t.Attempts {
				i := a.NodeIndex()
				seen[i] = true
				switch a.State {
				case speculators.StateRunning:
					totals[i] += a.Progress
				case speculators.StateSucceeded:
					totals[i]++
				}
			}
		}
	}
	return totals, seen
}

// checkDoneRates checks that Decide's list of succeeded tasks' rates holds
// the rates a pass over the tasks finds, and that the tasks with a running
// attempt, and only those, have a record equal to what the task holds.
func checkDoneRates(t *testing.T, step int, p *policy, job *speculators.Job) {
	t.Helper()
	for ty := range job.Tasks {
		var want []float64
		for i, task := range job.Tasks[ty] {
			if a := task.Succeeded; a != nil && a.Elapsed(job.Now) > 0 {
				want = append(want, a.ProgressRate(job.Now))
			}
			if live := p.livePos[ty][i] > 0; live != (task.RunningAttempts > 0) {
				t.Fatalf("step %d: task %v has a record %v, %d attempts running", step, task.ID, live, task.RunningAttempts)
			}
			if pos := p.livePos[ty][i]; pos > 0 {
				r, o := p.liveRecs[ty][pos-1], oldestRunning(task)
				want := liveTask{oldest: o, start: o.Start, progress: o.Progress, task: task, index: int32(i),
					single: task.RunningAttempts == 1, skip: task.Dropped || task.Succeeded != nil,
					marked: p.marks[ty][i].state != markNone}
				if r != want {
					t.Fatalf("step %d: task %v record %+v, a pass finds %+v", step, task.ID, r, want)
				}
			}
		}
		got := slices.Clone(p.done[ty].values())
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("step %d type %d: done rates %v, a pass finds %v", step, ty, got, want)
		}
	}
}

// decideByPass is Decide written as a pass over every task in index order,
// reading each task's attempts (what Decide did before its records): the
// decisions it would return, without marking anything.
func decideByPass(p *policy, job *speculators.Job, now speculators.Time) []speculators.Decision {
	limit := p.capacity(job)
	if limit <= 0 {
		return nil
	}
	var cands []candidate
	var threshold [speculators.NumTaskTypes]float64
	for ty := range job.Tasks {
		rates := slices.Clone(p.done[ty].values())
		var mine []candidate
		for _, task := range job.Tasks[ty] {
			if task.Dropped || task.Succeeded != nil || task.RunningAttempts == 0 {
				continue
			}
			o := oldestRunning(task)
			if o.Elapsed(now) < p.minRuntime {
				continue
			}
			rate := o.ProgressRate(now)
			rates = append(rates, rate)
			if task.RunningAttempts == 1 && p.marks[ty][task.ID.Index].state == markNone {
				mine = append(mine, candidate{task: task, attempt: o, rate: rate, timeLeft: o.TimeLeft(now)})
			}
		}
		if len(rates) == 0 || len(mine) == 0 {
			continue
		}
		threshold[ty] = speculators.Percentile(rates, p.slowTaskPct)
		for _, c := range mine {
			if c.rate < threshold[ty] {
				cands = append(cands, c)
			}
		}
	}
	slices.SortFunc(cands, byTimeLeft)
	var out []speculators.Decision
	for _, c := range cands[:min(limit, len(cands))] {
		out = append(out, speculators.Decision{Kind: speculators.Speculate, Task: c.task.ID, Copies: 1,
			Reason: p.reasonFor(c, threshold[c.task.ID.Type], now)})
	}
	return out
}
