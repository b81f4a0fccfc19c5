package late

import "github.com/specbridge/specbridge/speculators"

// liveTask is Decide's record of one task with a running attempt: what its
// pass needs of the task, kept by Observe, in one dense array per type.
//
// Why a record of its own: Decide runs every second over every running
// task, and reading the task, its attempt list and its oldest attempt cost
// three memory loads per task that were rarely in the cache (the FB-2010
// day, tens of thousands of tasks running: most of LATE's time,
// docs/scale.md). The records of a type sit together, so the pass reads
// them in order.
//
// Which order: the records are in no particular order (a task's record is
// swap-removed when it stops running). Decide's result does not depend on
// it: the threshold is a percentile of the rates' values, and the
// candidates are ranked by a total order (byTimeLeft breaks ties by type
// and index).
type liveTask struct {
	// start and progress are the oldest running attempt's Start and
	// Progress (oldestRunning): the attempt whose rate the task is sampled
	// by.
	start    speculators.Time
	progress float64
	oldest   *speculators.Attempt
	task     *speculators.Task
	index    int32
	// single: exactly one attempt runs. skip: the task is dropped or has
	// succeeded (its rate, if any, is in done): it is not sampled.
	// marked: this policy's mark on the task is not markNone.
	single, skip, marked bool
}

// rate is the record's ProgressRate at now: the oldest attempt's, computed
// as Attempt.ProgressRate does.
func (r *liveTask) rate(now speculators.Time) float64 {
	return speculators.ProgressRateAt(r.progress, r.elapsed(now))
}

// elapsed is the oldest attempt's Elapsed at now (it is running).
func (r *liveTask) elapsed(now speculators.Time) speculators.Time {
	return max(now-r.start, 0)
}

// setLive brings task t's record in line with the job: made when the task
// has a running attempt and has none, refreshed when it has one, removed
// when nothing runs. Observe calls it after every event that starts or ends
// one of t's attempts, the only events that change what the record holds
// but the oldest attempt's progress (noteProgress).
func (p *policy) setLive(t *speculators.Task) {
	ty, i := t.ID.Type, t.ID.Index
	pos := &p.livePos[ty][i]
	if t.RunningAttempts == 0 {
		if *pos == 0 {
			return
		}
		k, last := *pos-1, int32(len(p.liveRecs[ty])-1)
		moved := p.liveRecs[ty][last]
		p.liveRecs[ty][k] = moved
		p.livePos[ty][moved.index] = k + 1
		p.liveRecs[ty] = p.liveRecs[ty][:last]
		*pos = 0
		return
	}
	if *pos == 0 {
		p.liveRecs[ty] = append(p.liveRecs[ty], liveTask{})
		*pos = int32(len(p.liveRecs[ty]))
	}
	r := &p.liveRecs[ty][*pos-1]
	*r = liveTask{task: t, index: i, single: t.RunningAttempts == 1,
		skip: t.Dropped || t.Succeeded != nil, marked: p.marks[ty][i].state != markNone}
	if r.oldest = oldestRunning(t); r.oldest != nil {
		r.start, r.progress = r.oldest.Start, r.oldest.Progress
	}
}

// noteProgress copies a status report's progress into its task's record
// when it is the task's oldest running attempt.
func (p *policy) noteProgress(ev *speculators.Event) {
	id := ev.Attempt.Task
	if int(id.Type) >= len(p.livePos) || id.Index < 0 || int(id.Index) >= len(p.livePos[id.Type]) {
		return
	}
	pos := p.livePos[id.Type][id.Index]
	if pos == 0 {
		return
	}
	r := &p.liveRecs[id.Type][pos-1]
	if r.oldest != nil && r.oldest.ID == ev.Attempt {
		r.progress = r.oldest.Progress
	}
}

// setMark sets the policy's mark on a task and the record's copy of it.
func (p *policy) setMark(ty speculators.TaskType, i int32, m mark) {
	p.marks[ty][i] = m
	if pos := p.livePos[ty][i]; pos > 0 {
		p.liveRecs[ty][pos-1].marked = m.state != markNone
	}
}
