package replay

import (
	"fmt"
	"sort"
	"strings"

	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/yarnclient/history"
)

// Decisions-mode constants: how often a recorded attempt "reports" and how
// often the policy is asked, matching Hadoop's 3 s progress interval and the
// bridge's 1 s decide interval.
const (
	reportEvery = 3000
	decideEvery = 1000
)

// TimedDecision is a decision a policy made on a recorded timeline.
type TimedDecision struct {
	Job     string  `json:"job"`
	AtS     float64 `json:"at_s"` // seconds after the job's first attempt started
	Kind    string  `json:"kind"`
	Task    string  `json:"task"`
	Attempt string  `json:"attempt,omitempty"`
	Reason  string  `json:"reason"`
}

// ActualSpeculation is a speculative attempt Hadoop really ran.
type ActualSpeculation struct {
	Job     string  `json:"job"`
	AtS     float64 `json:"at_s"`
	Task    string  `json:"task"`
	Attempt string  `json:"attempt"`
	Status  string  `json:"status"`
}

// DecisionsResult is what one policy would have decided on the recorded
// jobs. Since the timeline is fixed, a decision is never applied: each
// (kind, task, attempt) is listed once, when first decided.
type DecisionsResult struct {
	Speculator      string          `json:"speculator"`
	Jobs            int             `json:"jobs"`
	Tasks           int             `json:"tasks"`
	Decisions       []TimedDecision `json:"decisions"`
	SpeculatedTasks int             `json:"speculated_tasks"`
	// MatchedActual counts speculated tasks that Hadoop also speculated.
	MatchedActual int `json:"matched_actual"`
	// SkippedEvents counts recorded events the engine refused (listed in
	// the log), for example a status for an attempt the history never
	// started.
	SkippedEvents int `json:"skipped_events"`
}

// Timeline is one recorded job as engine events.
type timeline struct {
	job     *history.Job
	info    speculators.JobInfo
	events  []speculators.Event
	start   speculators.Time
	end     speculators.Time
	taskIDs map[speculators.TaskID]string
	actual  []ActualSpeculation
}

// Decide replays each recorded job's timeline through every policy. The
// jobs are read one at a time (Input.EachJob): a job's timeline exists
// while the policies run on it.
func Decide(in *Input, opts Options) ([]DecisionsResult, []ActualSpeculation, error) {
	if in.Scenario != nil {
		return nil, nil, fmt.Errorf("%s: decisions mode needs a recorded history, not a scenario", in.Path)
	}
	out := make([]DecisionsResult, len(opts.Speculators))
	for i, name := range opts.Speculators {
		out[i] = DecisionsResult{Speculator: name, Decisions: []TimedDecision{}}
	}
	// Per policy, each job's decisions (in job order) and the tasks it
	// speculated, matched against Hadoop's once every job is read.
	speculated := make([][]string, len(opts.Speculators))
	var actual []ActualSpeculation
	jobs, tasks := 0, 0
	err := in.EachJob(func(j *history.Job) error {
		tl, err := buildTimeline(j)
		if err != nil {
			return err
		}
		if tl == nil {
			return nil
		}
		jobs++
		actual = append(actual, tl.actual...)
		tasks += tl.info.Maps + tl.info.Reduces
		for i, name := range opts.Speculators {
			ds, skipped, err := tl.run(name, opts)
			if err != nil {
				return err
			}
			res := &out[i]
			res.SkippedEvents += skipped
			for _, d := range ds {
				res.Decisions = append(res.Decisions, d)
				if d.Kind == speculators.Speculate.String() {
					speculated[i] = append(speculated[i], d.Job+"/"+d.Task)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if jobs == 0 {
		return nil, nil, fmt.Errorf("%s: no job has timed attempts to replay", in.Path)
	}
	actualTasks := map[string]bool{}
	for _, a := range actual {
		actualTasks[a.Job+"/"+a.Task] = true
	}
	for i := range out {
		out[i].Jobs, out[i].Tasks = jobs, tasks
		seen := map[string]bool{}
		for _, t := range speculated[i] {
			if !seen[t] {
				seen[t] = true
				out[i].SpeculatedTasks++
				if actualTasks[t] {
					out[i].MatchedActual++
				}
			}
		}
	}
	return out, actual, nil
}

func (tl *timeline) run(name string, opts Options) ([]TimedDecision, int, error) {
	e, err := opts.Registry.NewEngine(tl.info, name, opts.Params[name], jobSeed(opts.Seed, tl.info.ID))
	if err != nil {
		return nil, 0, err
	}
	var out []TimedDecision
	seen := map[string]bool{}
	skipped := 0
	next := 0
	for now := tl.start; now <= tl.end+decideEvery; now += decideEvery {
		for next < len(tl.events) && tl.events[next].Time <= now {
			if e.Observe(&tl.events[next]) != nil {
				skipped++
			}
			next++
		}
		for _, d := range e.Decide(now) {
			td := TimedDecision{Job: tl.job.ID, AtS: float64(now-tl.start) / 1000, Kind: d.Kind.String(),
				Task: tl.taskName(d.Task), Reason: d.ReasonText()}
			if d.Kind == speculators.Kill || d.Kind == speculators.Rerun {
				td.Attempt = attemptName(tl.job.ID, td.Task, d.Attempt)
			}
			key := td.Kind + " " + td.Task + " " + td.Attempt
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, td)
		}
	}
	return out, skipped, nil
}

// attemptName is an attempt's id as Hadoop writes it,
// attempt_<cluster>_<job>_<m|r>_<task>_<n>, from the task's recorded id
// (task_<cluster>_<job>_...) or, when the task has none, the job's.
func attemptName(job, task string, a speculators.AttemptID) string {
	if rest, ok := strings.CutPrefix(task, "task_"); ok {
		return fmt.Sprintf("attempt_%s_%d", rest, a.N)
	}
	if rest, ok := strings.CutPrefix(job, "job_"); ok {
		return fmt.Sprintf("attempt_%s_%s_%d", rest, a.Task, a.N)
	}
	return fmt.Sprintf("%s_%d", task, a.N)
}

func (tl *timeline) taskName(id speculators.TaskID) string {
	if s, ok := tl.taskIDs[id]; ok {
		return s
	}
	return id.String()
}

// buildTimeline turns a recorded job into engine events: each attempt's
// start, a status report every 3 s with progress interpolated over its
// recorded run (a reduce's phases from its shuffle and sort finish times,
// else a third each), and its end. It returns nil for a job without timed
// attempts, and an error for one whose attempts span more than sim.MaxWork
// (a damaged time): its reports every 3 s and the policies' decisions
// every second would never end.
func buildTimeline(j *history.Job) (*timeline, error) {
	tl := &timeline{job: j, taskIDs: map[speculators.TaskID]string{}}
	counts := [speculators.NumTaskTypes]int{}
	for _, t := range j.Tasks {
		ty := typeOf(t.Type)
		counts[ty] = max(counts[ty], t.Index+1)
	}
	tl.info = speculators.JobInfo{ID: j.ID, Maps: counts[speculators.Map], Reduces: counts[speculators.Reduce], Start: j.Submit}
	// The job's deadline (specbridge.grass.deadline-ms in its configuration),
	// as a simulated replay and the live sidecar give it: without it a
	// deadline job's policy decides as for an exact job. A value of the
	// configuration that does not parse is an error naming the file and
	// key, as in a simulated replay (workload.go), not a job without its
	// deadline.
	set, err := readSettings(j)
	if err != nil {
		return nil, err
	}
	if set.deadlineMs > 0 && j.Submit > 0 {
		tl.info.Deadline = j.Submit + set.deadlineMs
	}
	first := true
	// Nodes are named as the replay's cluster names them (hostPeaks), from
	// this job's attempts alone: a timeline is built job by job.
	var ports history.NodePorts
	ports.Add(j)
	shared := ports.Shared()
	for ti := range j.Tasks {
		t := &j.Tasks[ti]
		id := speculators.TaskID{Type: typeOf(t.Type), Index: int32(t.Index)}
		tl.taskIDs[id] = t.ID
		for ai := range t.Attempts {
			a := &t.Attempts[ai]
			if a.Start <= 0 {
				continue
			}
			if first || a.Start < tl.start {
				tl.start = a.Start
			}
			first = false
			end := a.Finish
			if end < a.Start {
				end = a.Start
			}
			tl.end = max(tl.end, end)
			if tl.end-tl.start > sim.MaxWork {
				return nil, fmt.Errorf("%s: job %s: its attempts span %d ms (up to %s), over the limit of %d ms (30 days): a damaged time?",
					j.Source, j.ID, tl.end-tl.start, a.ID, sim.MaxWork)
			}
			aid := speculators.AttemptID{Task: id, N: int32(a.N)}
			spec := a.Speculative || overlapsEarlier(t, ai)
			tl.events = append(tl.events, speculators.Event{Kind: speculators.AttemptStarted, Time: a.Start,
				Attempt: aid, Node: speculators.NodeID(a.NodeKey(shared)), Container: a.Container, Speculative: spec})
			if spec {
				tl.actual = append(tl.actual, ActualSpeculation{Job: j.ID, Task: t.ID, Attempt: a.ID, Status: a.Status})
			}
			for at := a.Start + reportEvery; at < end; at += reportEvery {
				p, ph := progressAt(t.Type, a, at)
				tl.events = append(tl.events, speculators.Event{Kind: speculators.AttemptStatus, Time: at,
					Attempt: aid, Progress: p, Phase: ph})
			}
			kind, ok := endKind(a.Status)
			if ok && a.Finish >= a.Start {
				tl.events = append(tl.events, speculators.Event{Kind: kind, Time: a.Finish, Attempt: aid})
			}
		}
	}
	if first {
		return nil, nil
	}
	for i := range tl.actual {
		for ti := range j.Tasks {
			for _, a := range j.Tasks[ti].Attempts {
				if a.ID == tl.actual[i].Attempt {
					tl.actual[i].AtS = float64(a.Start-tl.start) / 1000
				}
			}
		}
	}
	tl.info.Start = tl.start
	sort.SliceStable(tl.events, func(a, b int) bool { return tl.events[a].Time < tl.events[b].Time })
	return tl, nil
}

// overlapsEarlier reports whether attempt ai started while an earlier
// attempt of the same task was still running: a speculative attempt in a
// history that does not record avataars (Hadoop 0.23).
func overlapsEarlier(t *history.Task, ai int) bool {
	a := &t.Attempts[ai]
	for k := 0; k < ai; k++ {
		b := &t.Attempts[k]
		if b.Start > 0 && b.Start <= a.Start && b.Finish > a.Start {
			return true
		}
	}
	return false
}

func typeOf(t history.TaskType) speculators.TaskType {
	if t == history.Reduce {
		return speculators.Reduce
	}
	return speculators.Map
}

func endKind(status string) (speculators.EventKind, bool) {
	switch status {
	case history.Succeeded:
		return speculators.AttemptSucceeded, true
	case history.Failed:
		return speculators.AttemptFailed, true
	case history.Killed:
		return speculators.AttemptKilled, true
	}
	return 0, false
}

// progressAt is an attempt's progress score at time at. Where the history
// has its clock splits (history.Attempt.ClockSplits: the time it spent in
// each twelfth of its progress) the score follows them, scaled to its
// recorded run and linear within a twelfth, a reduce's phase being the
// score's third (Hadoop's reduce score is a third a phase): so a task
// silent until its end reports 0 until then, and a straggler killed a
// sixth of the way reports a sixth, as it did live. Without splits the
// score is interpolated linearly over the run (a reduce's phases from its
// shuffle and sort finish times, else a third each): a killed or failed
// attempt then reaches 1 at its end, which it never did, and a straggler
// that a copy beat looks like any other task.
func progressAt(ty history.TaskType, a *history.Attempt, at int64) (float64, speculators.Phase) {
	span := float64(a.Finish - a.Start)
	if span <= 0 {
		return 0, speculators.PhaseMap
	}
	f := float64(at-a.Start) / span
	if p, ok := splitProgress(a.ClockSplits, a.FirstReport, f, a.Status == history.Killed || a.Status == history.Failed); ok {
		switch {
		case ty == history.Map:
			return p, speculators.PhaseMap
		case p < 1.0/3:
			return p, speculators.PhaseShuffle
		case p < 2.0/3:
			return p, speculators.PhaseSort
		}
		return p, speculators.PhaseReduce
	}
	if ty == history.Map {
		return min(f, 1), speculators.PhaseMap
	}
	if a.ShuffleFinish > a.Start && a.SortFinish >= a.ShuffleFinish && a.Finish > a.SortFinish {
		switch {
		case at < a.ShuffleFinish:
			return speculators.ReduceProgress(speculators.PhaseShuffle, float64(at-a.Start)/float64(a.ShuffleFinish-a.Start)), speculators.PhaseShuffle
		case at < a.SortFinish:
			return speculators.ReduceProgress(speculators.PhaseSort, float64(at-a.ShuffleFinish)/float64(max(a.SortFinish-a.ShuffleFinish, 1))), speculators.PhaseSort
		default:
			return speculators.ReduceProgress(speculators.PhaseReduce, float64(at-a.SortFinish)/float64(a.Finish-a.SortFinish)), speculators.PhaseReduce
		}
	}
	switch {
	case f < 1.0/3:
		return f, speculators.PhaseShuffle
	case f < 2.0/3:
		return f, speculators.PhaseSort
	}
	return min(f, 1), speculators.PhaseReduce
}

// splitProgress is the progress score at fraction f of an attempt's run
// from its clock splits, their total taken as the run: the twelfths
// reached by then, and the part of the next one its time gives. Before its
// first report (history.Attempt.FirstReport, from the same splits: Hadoop
// draws the twelfths before it as one line from the launch) it reports 0,
// as live; then the splits' line. An attempt killed or
// failed (ended true) holds the progress it had reached: Hadoop ends
// every attempt's splits at 1, spreading the time since its last report
// evenly over the twelfths it never reached, so the trailing run of equal
// twelfths is not progress (a straggler killed after two twelfths,
// [20553 9192 401 401 ... 401], reports two twelfths until its kill). false
// without splits (or with a zero total).
func splitProgress(splits []int32, silent int64, f float64, ended bool) (float64, bool) {
	var total int64
	for _, v := range splits {
		total += int64(v)
	}
	if total <= 0 {
		return 0, false
	}
	n := len(splits)
	if ended {
		for n > 0 && history.SameTwelfth(splits[n-1], splits[len(splits)-1]) {
			n--
		}
	}
	t, cum := f*float64(total), 0.0
	if t < float64(silent) {
		return 0, true
	}
	for i, v := range splits[:n] {
		d := float64(v)
		if t < cum+d {
			return (float64(i) + (t-cum)/d) / float64(len(splits)), true
		}
		cum += d
	}
	return float64(n) / float64(len(splits)), true
}
