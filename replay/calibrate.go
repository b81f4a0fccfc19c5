package replay

import (
	"sort"

	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/yarnclient/history"
)

// Calibration of the task model from a recorded history (issue 13, item 1).
// A job's recorded time, submit to finish, holds more than its tasks' run
// times; each part is measured on the job's own history:
//
//   - AM start-up: submit to launch (JobInited's launchTime: the AM is up
//     and has read the splits). The simulated job is submitted that much
//     later and the delay is added to its time.
//   - Container allocation: launch to the first attempt's start, the time
//     the AM took to get and start its first container. Every attempt
//     pays it again (originals, retries, copies alike), so it is added to
//     every attempt's work: the container is held from the request on, as
//     the simulator has no separate allocation phase.
//   - A copy's late start (sim.Job.CopyStartup): live, a copy reports no
//     progress until its container is allocated, its JVM has started and
//     its task has sent its first status report, so for its first seconds
//     the policy sees it at 0. The history gives both: the allocation as
//     above, and each attempt's silence from its progress splits
//     (history.Attempt.FirstReport: the leading twelfths Hadoop drew as
//     one line from the launch, at least its start-up, Attempt.Startup:
//     the time it spent in its first twelfth of progress beyond a typical
//     twelfth). The job's copy start-up is the allocation plus the median
//     silence of its succeeded maps, and a recorded original's or retry's
//     own silence is the allocation plus its own (sim.ScriptedAttempt's
//     Silent; its Startup shapes the progress it then reports) (the JVM
//     and the task's set-up are the same process for a
//     reduce, whose first twelfth is mostly waiting for maps). A history
//     without progress splits leaves it 0. The time is already in every
//     attempt's work (recorded attempts and the draws of copies alike):
//     only what a copy reports changes, not when it ends.
//   - Commit and clean-up: the last attempt's end to the job's finish,
//     added to the job's time.
//   - Attempts: each task replays its recorded attempts in start order
//     (sim.Task.Script): a FAILED attempt fails again after its recorded run
//     time, a KILLED one (a lost race, or killed with its job) runs for at
//     least its recorded time, which is all the history says of it.
//     Attempts past the record draw their work from the job's completed
//     tasks (sim.ResampleOthers: the other tasks, so that a straggler's
//     copy does not repeat the straggler's own time). A job fails, as Hadoop's does, once a task has
//     failed its type's max attempts: the job's own
//     mapreduce.map.maxattempts / mapreduce.reduce.maxattempts, else what
//     its history proves, else Hadoop's 4 (jobconf.go).
//   - Shuffle: a reduce's recorded copy phase mostly waits for maps. Its
//     own copy work is taken as the tail after the last map finished times
//     the number of maps (the simulator caps a copy at the fraction of
//     maps done, so the last map's share is then that tail), bounded by the
//     recorded copy phase; sort and reduce keep their recorded times.
//   - A KILLED job (killed by a user or operator) is killed again at the
//     same time after its submit if it is still running then.
//   - Tasks the history lists without a timed attempt (a FAILED or KILLED
//     job's tasks that never ran) are replayed too, with the mean work of
//     the job's timed tasks of their type (of any type when none).
//
// Histories without a recorded finish (SWIM) are not calibrated.

// calibration is what one job's history says beyond its task run times.
type calibration struct {
	ok                          bool // the history has submit, launch, finish and timed attempts
	startDelay, alloc, finDelay speculators.Time
	recorded                    speculators.Time // submit to finish
	// copyStartup is how long a copy reports no progress (sim.Job.CopyStartup).
	copyStartup speculators.Time
}

func calibrate(j *history.Job) calibration {
	var first, last int64
	for _, t := range j.Tasks {
		for _, a := range t.Attempts {
			if a.Start <= 0 || a.Finish < a.Start {
				continue
			}
			if first == 0 || a.Start < first {
				first = a.Start
			}
			last = max(last, a.Finish)
		}
	}
	if j.Submit <= 0 || j.Finish <= j.Submit || first == 0 {
		return calibration{}
	}
	c := calibration{ok: true, recorded: j.Finish - j.Submit}
	launch := j.Launch
	if launch < j.Submit || launch > first {
		launch = j.Submit
	}
	c.startDelay = launch - j.Submit
	c.alloc = first - launch
	c.finDelay = max(j.Finish-last, 0)
	if s, ok := mapStartup(j); ok {
		c.copyStartup = c.alloc + s
	}
	return c
}

// mapStartup is the median silence of the job's succeeded maps: the time to
// their first report (history.Attempt.FirstReport), at least their
// start-up; false when the history records none (no progress splits).
func mapStartup(j *history.Job) (speculators.Time, bool) {
	var s []float64
	known := false
	for _, t := range j.Tasks {
		if t.Type != history.Map {
			continue
		}
		for _, a := range t.Attempts {
			if a.Status == history.Succeeded {
				s = append(s, float64(max(a.FirstReport, a.Startup)))
				known = known || a.Startup > 0
			}
		}
	}
	if !known {
		return 0, false
	}
	return speculators.Time(speculators.Percentile(s, 50)), true
}

// overhead is what the job's time holds beyond its simulated run.
func (c calibration) overhead() speculators.Time { return c.startDelay + c.finDelay }

// calibratedJob builds the simulator job of a recorded job whose calibration
// is ok: every task, with its recorded attempts scripted, under the job's
// settings set (readSettings).
func calibratedJob(j *history.Job, c calibration, set *jobSettings, origin int64, facts *nodeFacts) sim.Job {
	sj := sim.Job{ID: j.ID, CopyWork: sim.ResampleOthers, Submit: j.Submit - origin + c.startDelay, CopyStartup: c.copyStartup}
	facts.applyCopyCost(&sj)
	sj.WaveOriginals = !startedWithClones(j)
	set.apply(&sj)
	set.deadline(&sj)
	if j.Status == history.Killed {
		// Killed by a user or operator: at the same time after submit,
		// unless the policy has finished it by then.
		sj.KillAt = max(c.recorded-c.overhead(), 1)
	}
	lastMap := lastMapFinish(j)
	var sum [2]speculators.Time
	var n [2]int
	type pending struct {
		reduce bool
		task   sim.Task
		timed  bool
	}
	tasks := make([]pending, 0, len(j.Tasks))
	for i := range j.Tasks {
		t := &j.Tasks[i]
		st := sim.Task{InputBytes: t.InputBytes}
		work, phases, timed := taskWork(t)
		if timed {
			st.Work, st.Phases = max(work+c.alloc, 1), phases
			if t.Type == history.Reduce {
				st.Work, st.Phases = shuffleWork(t, st.Work, phases, c.alloc, lastMap, countType(j, history.Map))
			}
			st.Script = script(t, c.alloc, st.Work, facts)
			st.Node = facts.recordedNode(t)
			// The recorded work ran on its node: the simulator takes the
			// base time out of it (sim.Task.Slowdown, nodespeed.go).
			if f := facts.speed(workAttempt(t)); f != 1 {
				st.Slowdown = f
			}
			k := typeIndex(t.Type)
			sum[k] += st.Work
			n[k]++
		}
		tasks = append(tasks, pending{reduce: t.Type == history.Reduce, task: st, timed: timed})
	}
	for _, p := range tasks {
		if !p.timed {
			k := 0
			if p.reduce {
				k = 1
			}
			p.task.Work = meanWork(sum, n, k)
		}
		if p.reduce {
			sj.Reduces = append(sj.Reduces, p.task)
		} else {
			sj.Maps = append(sj.Maps, p.task)
		}
	}
	return sj
}

func typeIndex(t history.TaskType) int {
	if t == history.Reduce {
		return 1
	}
	return 0
}

func countType(j *history.Job, ty history.TaskType) int {
	n := 0
	for _, t := range j.Tasks {
		if t.Type == ty {
			n++
		}
	}
	return n
}

// meanWork is the mean work of the timed tasks of type k, of any type when
// there are none, and 1 s when nothing is timed.
func meanWork(sum [2]speculators.Time, n [2]int, k int) speculators.Time {
	if n[k] > 0 {
		return sum[k] / speculators.Time(n[k])
	}
	if n[0]+n[1] > 0 {
		return (sum[0] + sum[1]) / speculators.Time(n[0]+n[1])
	}
	return 1000
}

// script lists the task's timed attempts in start order as the simulator
// replays them, each with the allocation delay added; a succeeded attempt
// has the task's calibrated work. Attempts an inferred node crash failed
// are left out: the replayed crash fails what runs there (crash.go), but
// for the task's original (its first attempt), which the simulator places
// on its recorded node (sim.Task.Node, recordedNode): it stays in the
// script, not failing, with work max(the task's work, its recorded life
// from start to timeout). The history says it had not finished when the
// node stopped; with the task's work alone (another attempt's time) it
// could finish in replay just before the inferred crash (live-bench run 1's
// stock failure job: 21 s of work against a crash 21.4 s after its start)
// and the crash would cost nothing. Where its recorded node is busy and it
// runs elsewhere, it is a slow original, which is all the history says.
func script(t *history.Task, alloc, work speculators.Time, facts *nodeFacts) []sim.ScriptedAttempt {
	as := make([]*history.Attempt, 0, len(t.Attempts))
	var first *history.Attempt
	for i := range t.Attempts {
		if a := &t.Attempts[i]; a.Start > 0 && a.Finish >= a.Start {
			if first == nil || a.Start < first.Start {
				first = a
			}
			if !facts.explains(a) {
				as = append(as, a)
			}
		}
	}
	hung := first != nil && facts.explains(first) && facts.recordedNode(t) != ""
	if hung {
		as = append(as, first)
	}
	sort.SliceStable(as, func(x, y int) bool { return as[x].Start < as[y].Start })
	out := make([]sim.ScriptedAttempt, len(as))
	for i, a := range as {
		out[i] = sim.ScriptedAttempt{Work: a.Finish - a.Start + alloc, Fail: a.Status == history.Failed, Startup: startup(a, alloc), Silent: silent(a, alloc)}
		switch {
		case hung && a == first:
			out[i] = sim.ScriptedAttempt{Work: max(work, a.Finish-a.Start+alloc), Startup: startup(a, alloc), Silent: silent(a, alloc)}
		case a.Status == history.Succeeded:
			out[i].Work = work
		}
	}
	return out
}

// startup is how long a recorded attempt sends no status report in replay
// (sim.ScriptedAttempt.Startup): the job's first container allocation, which
// its work holds (script), and its own start-up from the history's progress
// splits (history.Attempt.Startup); 0 when the history has none, and the
// attempt then reports from its start. Live, an original slow to start is
// seen without progress (LATE's rate 0, no estimate for Hadoop's
// speculator) until its first report; a replay that reported its progress
// from its start had LATE and FARMS copy a straggler 10 s or more sooner
// than live (docs/live-bench.md).
func startup(a *history.Attempt, alloc speculators.Time) speculators.Time {
	if a.Startup <= 0 {
		return 0
	}
	return alloc + a.Startup
}

// silent is how long a recorded attempt sends no status report in replay
// (sim.ScriptedAttempt.Silent): the allocation, as for startup, and the
// time to its first report (history.Attempt.FirstReport); 0 when unknown.
func silent(a *history.Attempt, alloc speculators.Time) speculators.Time {
	if a.FirstReport <= 0 {
		return 0
	}
	return alloc + a.FirstReport
}

// lastMapFinish is when the job's last map finished, 0 if unknown.
func lastMapFinish(j *history.Job) int64 {
	var last int64
	for _, t := range j.Tasks {
		if t.Type != history.Map {
			continue
		}
		for _, a := range t.Attempts {
			if a.Status == history.Succeeded && a.Finish > last {
				last = a.Finish
			}
		}
	}
	return last
}

// shuffleWork replaces a reduce's recorded copy time by its own copy work
// (see the calibration notes above) and returns the new work and phases;
// work includes the allocation delay alloc, which is counted in the copy.
func shuffleWork(t *history.Task, work speculators.Time, phases [3]float64, alloc speculators.Time, lastMap int64, maps int) (speculators.Time, [3]float64) {
	var best *history.Attempt
	for i := range t.Attempts {
		if a := &t.Attempts[i]; a.Status == history.Succeeded {
			best = a
		}
	}
	if best == nil || best.ShuffleFinish <= 0 || lastMap <= best.Start || best.ShuffleFinish < lastMap || maps <= 0 ||
		best.SortFinish < best.ShuffleFinish || best.Finish < best.SortFinish {
		return work, phases
	}
	copyRec := best.ShuffleFinish - best.Start + alloc
	own := min(copyRec, max((best.ShuffleFinish-lastMap)*int64(maps), alloc+1))
	sortRec, reduceRec := best.SortFinish-best.ShuffleFinish, best.Finish-best.SortFinish
	total := own + sortRec + reduceRec
	c, so := float64(own)/float64(total), float64(sortRec)/float64(total)
	return total, [3]float64{c, so, max(1-c-so, 0)}
}
