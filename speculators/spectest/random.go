package spectest

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/specbridge/specbridge/speculators"
)

// RandomJob plays a random job on a Harness in steps of 100 ms, for the
// tests that check an answer a policy keeps between events (grass's and
// mantri's quiet times) against the same answer computed afresh at every
// step: each attempt runs a Pareto time (shape 1.5, heavy-tailed as the
// GRASS and Mantri traces) and reports every 3 s from its own start; a
// task's first attempt to end succeeds and its other attempts are killed;
// the engine decides once a second; a copy the check asks for is started
// every 2 s, as a scheduler would.
type RandomJob struct {
	H    *Harness
	Rand *rand.Rand
	// Work is the shortest time of an attempt of task, in ms: its Pareto
	// scale.
	Work func(task speculators.TaskID) float64
	// Floor, when > 0, is a share of Work every attempt takes on top of its
	// Pareto draw scaled by 1-Floor (so that no attempt is much quicker
	// than the rest).
	Floor float64
	// LateStragglers: from a random point (20-70% of its time) a third of
	// the attempts report a tenth of their progress rate, a straggler seen
	// only later, so that a report can bring a kept answer forward.
	LateStragglers bool
	// Recover: a third of the attempts report a third of their progress
	// rate up to a random point (20-70% of their time) and then catch up,
	// so that a report can take an estimate down.
	Recover bool
	// Succeeded, if set, is called after a task's first attempt succeeds.
	Succeeded func(now speculators.Time)

	attempts []*randomAttempt
	done     map[speculators.TaskID]bool
}

type randomAttempt struct {
	id         speculators.AttemptID
	start, end speculators.Time
	done       bool
	brk        float64 // the share of its time after which it slows down (> 1: never)
	rec        float64 // the share of its time after which it catches up (> 1: never slow)
}

// Start starts an attempt of task at at, a copy or the task's original,
// on a node of its own.
func (j *RandomJob) Start(task speculators.TaskID, at speculators.Time, copy bool) {
	node := speculators.NodeID(fmt.Sprintf("n%d", len(j.attempts)))
	var id speculators.AttemptID
	if copy {
		id = j.H.StartCopy(task, node, at)
	} else {
		id = j.H.Start(task, node, at)
	}
	w := j.Work(task)
	dur := w*j.Floor + w*(1-j.Floor)/math.Pow(1-j.Rand.Float64(), 1/1.5)
	brk := 2.0
	if j.LateStragglers && j.Rand.IntN(3) == 0 {
		brk = 0.2 + 0.5*j.Rand.Float64()
	}
	rec := 2.0
	if j.Recover && j.Rand.IntN(3) == 0 {
		rec = 0.2 + 0.5*j.Rand.Float64()
	}
	j.attempts = append(j.attempts, &randomAttempt{id: id, start: at, end: at + speculators.Time(dur), brk: brk, rec: rec})
}

// Run plays the job from 0 to end. At each step, after the step's reports
// and ends, it calls tick (may be nil; events of the test's own, such as
// late originals), lets the engine decide on whole seconds, then calls
// check, which compares the kept answer with a fresh one and returns the
// task to copy when the fresh answer wants a copy.
func (j *RandomJob) Run(end speculators.Time, tick func(now speculators.Time), check func(now speculators.Time) (copy speculators.TaskID, want bool)) {
	if j.done == nil {
		j.done = map[speculators.TaskID]bool{}
	}
	for now := speculators.Time(0); now <= end; now += 100 {
		j.report(now)
		j.end(now)
		if tick != nil {
			tick(now)
		}
		if now%1000 == 0 {
			j.H.Engine.Decide(now)
		}
		if task, want := check(now); want && now%2000 == 0 {
			j.Start(task, now, true)
		}
	}
}

func (j *RandomJob) report(now speculators.Time) {
	for _, r := range j.attempts {
		if r.done || now >= r.end || now <= r.start || (now-r.start)%3000 != 0 {
			continue
		}
		prog := float64(now-r.start) / float64(r.end-r.start)
		switch {
		case prog < r.rec:
			prog /= 3
		case r.rec < 1:
			prog = r.rec/3 + (prog-r.rec)*(1-r.rec/3)/(1-r.rec)
		}
		if prog > r.brk {
			prog = r.brk + (prog-r.brk)/10
		}
		if r.id.Task.Type == speculators.Reduce {
			j.H.Observe(speculators.Event{Kind: speculators.AttemptStatus, Time: now, Attempt: r.id, Progress: prog, Phase: speculators.PhaseReduce})
		} else {
			j.H.Status(r.id, now, prog)
		}
	}
}

func (j *RandomJob) end(now speculators.Time) {
	for _, r := range j.attempts {
		if r.done || now < r.end {
			continue
		}
		r.done = true
		if j.done[r.id.Task] {
			continue
		}
		j.done[r.id.Task] = true
		j.H.Succeed(r.id, now)
		for _, o := range j.attempts {
			if o != r && !o.done && o.id.Task == r.id.Task {
				o.done = true
				j.H.Kill(o.id, now)
			}
		}
		if j.Succeeded != nil {
			j.Succeeded(now)
		}
	}
}
