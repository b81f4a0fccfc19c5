// Package late is the LATE speculator (Longest Approximate Time to End,
// Zaharia et al., OSDI'08, §4): among running tasks that are slow for their
// category, launch a copy of the one estimated to finish farthest in the
// future, under a cap on concurrent copies, and keep copies off slow nodes.
//
// The policy reads the job state the engine folds from events and keeps only
// one piece of decision state of its own: the tasks it asked to speculate
// (see Observe); the rest is scratch space and a cache of the nodes' work.
// It must not start goroutines, perform I/O, read the wall clock,
// use randomness or depend on Go map iteration order, and it does not choose
// nodes: the allocator (the AM live, the simulator offline) places copies and
// asks AllowSpeculativeOn before using a node.
//
// Where the paper is vague, the choice and its reason are written beside the
// code that makes it: the cap's base (Params and capacity), the per-Decide
// launch limit (capacity), the samples behind SlowTaskThreshold (Decide), the
// node measure behind SlowNodeThreshold (AllowSpeculativeOn) and how the map
// and reduce categories share the cap (Decide).
package late

import "github.com/specbridge/specbridge/speculators"

// Name is the policy's registry name.
const Name = "late"

// Parameter names.
const (
	ParamSpeculativeCap    = "speculative-cap"
	ParamSlowNodeThreshold = "slow-node-threshold"
	ParamSlowTaskThreshold = "slow-task-threshold"
	ParamMinRuntimeMs      = "min-runtime-ms"
)

// Policy registers LATE with the paper's defaults (§4: "we set
// SpeculativeCap to 10% of available task slots and SlowNodeThreshold and
// SlowTaskThreshold to the 25th percentile"; the one-minute wait is
// Hadoop's, which LATE keeps).
var Policy = speculators.Declare(Name, "LATE: speculate the slow task with the longest estimated time left, capped, never on slow nodes (Zaharia et al. OSDI'08 §4)", func(b *speculators.Binder, p *policy) {
	p.nodeIx = map[speculators.NodeID]int{}
	p.nodesStale = true
	p.fullStale = true
	b.Float(&p.capFraction, ParamSpeculativeCap, 0.1, speculators.Fraction,
		"SpeculativeCap: most speculative attempts running at once, as a fraction of the job's task slots "+
			"(JobInfo.Slots; running attempts when unknown); at least one when > 0, 0 disables (LATE §4, 10%; §5.4.1)")
	b.Float(&p.slowNodePct, ParamSlowNodeThreshold, 25.0, speculators.PercentileRange,
		"SlowNodeThreshold: percentile (0-100) of nodes' total progress below which a node may not run a copy (LATE §4, 25th; §5.4.3)")
	b.Float(&p.slowTaskPct, ParamSlowTaskThreshold, 25.0, speculators.PercentileRange,
		"SlowTaskThreshold: percentile (0-100) of the category's task progress rates a task must be below to be speculated (LATE §4, 25th; §5.4.2)")
	b.Int64(&p.minRuntime, ParamMinRuntimeMs, 60000, speculators.NonNegative,
		"ms an attempt must have run before it is evaluated for speculation (LATE §4: \"wait until a task has run for 1 minute\", as Hadoop §2.1)")
	p.pctLabel = ordinal(p.slowTaskPct) + " pct"
})

// policy is LATE's state: its parameters, the tasks it asked to speculate,
// and scratch space reused across calls so that Decide does not allocate
// beyond the reasons of the decisions it returns.
type policy struct {
	capFraction float64
	slowNodePct float64
	slowTaskPct float64
	minRuntime  speculators.Time

	// marks[type][index] is what this policy knows of its own request for a
	// copy of the task; the requests not yet started are counted in the
	// engine's ledger (Job.PendingCopies).
	marks [speculators.NumTaskTypes][]mark
	// doneRates[type][index] caches the progress rate of the task's
	// succeeded attempt, which no longer changes (Decide).
	doneRates [speculators.NumTaskTypes][]doneRate
	// liveRecs[type] holds a record of each task with a running attempt,
	// in no particular order, and livePos[type][i] is 1 + the index of
	// task i's record there, 0 without one (live.go; Observe keeps them,
	// size rebuilds them from the job when the task counts change).
	// done[type] holds the rates of the succeeded tasks that have one
	// (doneset.go).
	liveRecs [speculators.NumTaskTypes][]liveTask
	livePos  [speculators.NumTaskTypes][]int32
	sized    [speculators.NumTaskTypes]int
	done     [speculators.NumTaskTypes]doneSet

	// Scratch reused by Decide.
	rates      []float64
	candidates []candidate
	reason     []byte
	pctLabel   string // "25th pct"

	// AllowSpeculativeOn's state: nodeIx maps a node to its index in
	// job.Nodes (append-only, so indices are stable); nodeTotals, nodeSeen
	// and nodeThreshold hold the last sums, valid until an attempt event
	// sets nodesStale.
	nodeIx        map[speculators.NodeID]int
	nodeTotals    []float64
	nodeSeen      []bool
	nodeSample    []float64
	nodeThreshold float64
	nodesStale    bool
	// nodeAtt[k] lists the attempts on job.Nodes[k] in the order a pass
	// over job.Tasks meets them; nodeDirty and dirtyList mark the nodes
	// whose totals the events since the last sums may have changed;
	// fullStale asks for a full pass instead (totalWork).
	nodeAtt   [][]*speculators.Attempt
	nodeDirty []bool
	dirtyList []int
	fullStale bool
}

// doneRate is a succeeded attempt's progress rate (ok: it ran for some
// time, so it has one), computed when the task's state last changed
// (noteDone).
type doneRate struct {
	attempt *speculators.Attempt
	rate    float64
	ok      bool // the rate is in done
}

// candidate is a running task LATE may speculate.
type candidate struct {
	task     *speculators.Task
	attempt  *speculators.Attempt
	rate     float64 // progress per second
	timeLeft float64 // seconds, (1-PS)/PR
}

// NeverReruns: it only copies tasks (speculators.NoReruns).
func (*policy) NeverReruns() {}

// Decide launches copies of the running tasks with the longest estimated time
// left among those slow for their category, up to the launch limit of
// capacity.
//
// Categories. Hadoop (§2.1) and the paper rank maps and reduces as separate
// categories, because their progress rates are not comparable (a reduce's
// score includes its copy phase). So SlowTaskThreshold is a percentile of
// each category's own rates. Hadoop 0.20 had separate map and reduce slots;
// YARN containers run either, so the two categories share one cap and one
// launch limit, and the eligible tasks of both are ranked together by time
// left, which is in seconds in both categories: LATE's principle is to copy
// the task that will finish farthest in the future, whichever its category.
//
// SlowTaskThreshold samples. The paper says the threshold is a percentile of
// "task progress rates" and that it exists to prevent "needless speculation
// when only fast tasks are running" (§4, §5.4.2). If only running tasks were
// sampled, a quarter of whatever runs would always lie below the 25th
// percentile, and a tail of fast tasks would still be copied. So the sample
// is one rate per task of the category: completed tasks (the successful
// attempt's progress 1 over its run time) and running tasks whose oldest
// running attempt has passed the one-minute rule (that attempt's
// ProgressScore/T; younger attempts' rates are dominated by start-up and are
// what the one-minute rule exists to ignore). A task whose copy is running
// is sampled by its original, which is what made it slow. Dropped tasks are
// left out.
func (p *policy) Decide(job *speculators.Job, now speculators.Time, out []speculators.Decision) []speculators.Decision {
	p.size(job)
	limit := p.capacity(job)
	if limit <= 0 {
		return out
	}
	p.candidates = p.candidates[:0]
	var threshold [speculators.NumTaskTypes]float64
	for ty := range job.Tasks {
		if job.RunningAttempts[ty] == 0 {
			continue // no candidate; the threshold is only for candidates
		}
		p.rates = p.rates[:0]
		first := len(p.candidates)
		// Succeeded tasks add their rate, kept since they succeeded
		// (done: most of them sorted, read by the percentile in place, the
		// latest added here); running tasks add theirs and may be
		// candidates: visit only those, from their records (live.go).
		// Neither's order matters: the percentile depends on the values,
		// and the ranking is a total order.
		done := &p.done[ty]
		p.rates = append(p.rates, done.recent...)
		for k := range p.liveRecs[ty] {
			r := &p.liveRecs[ty][k]
			if r.skip || r.oldest == nil || r.elapsed(now) < p.minRuntime {
				continue
			}
			rate := r.rate(now)
			p.rates = append(p.rates, rate)
			// Candidates: exactly one running attempt, no copy of ours
			// requested or running, past the one-minute rule (oldest is
			// then that one attempt).
			if !r.single || r.marked {
				continue
			}
			p.candidates = append(p.candidates, candidate{task: r.task, attempt: r.oldest, rate: rate,
				timeLeft: speculators.TimeLeftAt(r.progress, rate)})
		}
		if len(p.candidates) == first {
			continue
		}
		threshold[ty] = speculators.PercentileMerged(done.sorted, p.rates, p.slowTaskPct)
		// Keep only the candidates of this category below its threshold.
		kept := first
		for _, c := range p.candidates[first:] {
			if c.rate < threshold[ty] {
				p.candidates[kept] = c
				kept++
			}
		}
		p.candidates = p.candidates[:kept]
	}
	for _, c := range longestFirst(p.candidates, limit) {
		id := c.task.ID
		p.setMark(id.Type, id.Index, mark{state: markRequested})
		out = append(out, speculators.Decision{
			Kind:   speculators.Speculate,
			Task:   id,
			Copies: 1,
			Reason: p.reasonFor(c, threshold[id.Type], now),
		})
	}
	return out
}

// byTimeLeft orders candidates longest time left first; ties go to maps
// before reduces, then the lower task index, so the order never depends on
// anything but the job state.
func byTimeLeft(a, b candidate) int {
	switch {
	case a.timeLeft > b.timeLeft:
		return -1
	case a.timeLeft < b.timeLeft:
		return 1
	case a.task.ID.Type != b.task.ID.Type:
		return int(a.task.ID.Type) - int(b.task.ID.Type)
	default:
		return int(a.task.ID.Index) - int(b.task.ID.Index)
	}
}

// longestFirst returns the k candidates with the longest time left, in
// byTimeLeft order, rearranging cs in place (O(n log k): only a few copies
// can be launched).
func longestFirst(cs []candidate, k int) []candidate {
	return speculators.FirstK(cs, k, byTimeLeft)
}

// oldestRunning is the running attempt that started first (the original, or
// what the task has instead when the original ended).
func oldestRunning(t *speculators.Task) *speculators.Attempt {
	var best *speculators.Attempt
	for _, a := range t.Attempts {
		if a.Running() && (best == nil || a.Start < best.Start) {
			best = a
		}
	}
	return best
}

// capacity is how many copies this Decide may launch.
//
// SpeculativeCap (§4): fewer than cap x "available task slots" speculative
// attempts may run at once. The slots are JobInfo.Slots, the containers the
// job can hold; when unknown (0) the job's running attempts stand for them,
// the base Hadoop's own speculative-cap-running-tasks uses. The product is
// rounded down, but a positive cap allows at least one copy: at 10% a job
// with fewer than ten slots could otherwise never speculate, and the paper
// (§5.4.1) finds too small a cap the harmful side. Copies count as running
// from the moment this policy asks for them (job.SpeculativeRunning plus the
// requests not yet started), so back-to-back Decides do not overshoot.
//
// Launch limit per Decide: the paper launches one copy each time a node with
// a free slot asks for work, after failed and not-yet-running tasks have had
// theirs (§2.1, §4). Our Decide runs every second instead of on heartbeats, so
// it stands for every request of that second: when Slots is known it
// launches up to the free slots (Slots minus running attempts, requested
// copies and containers the AM still needs for its own tasks), within the
// cap's room; when Slots is unknown there is no measure of free slots and it
// launches at most one, as one heartbeat would.
func (p *policy) capacity(job *speculators.Job) int {
	running, speculative, needs := 0, 0, 0
	for ty := range job.Tasks {
		running += job.RunningAttempts[ty]
		speculative += job.SpeculativeRunning[ty]
		needs += job.ContainerNeeds[ty]
	}
	base := job.Info.Slots
	if base <= 0 {
		base = running
	}
	capN := int(p.capFraction * float64(base))
	if capN < 1 && p.capFraction > 0 && base > 0 {
		capN = 1
	}
	room := capN - speculative - job.PendingCopies
	if job.Info.Slots <= 0 {
		return min(room, 1)
	}
	return min(room, job.FreeSlots())
}
