package auto

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// bigMapJob is a job of n maps: the first done (originals that took 10 s,
// every tenth with a copy that lost), the rest running at 40% after 8 s.
func bigMapJob(n, done int) *speculators.Job {
	s := speculators.Time(1000)
	job := &speculators.Job{}
	job.Live[speculators.Map] = speculators.NewTaskSet(n)
	for i := range n {
		t := &speculators.Task{ID: speculators.TaskID{Type: speculators.Map, Index: int32(i)}}
		o := &speculators.Attempt{Start: 0, LastReport: 8 * s, Progress: 0.4, State: speculators.StateRunning}
		if i < done {
			o.State, o.Finish, o.Progress, o.LastReport = speculators.StateSucceeded, 10*s+speculators.Time(i%7), 1, 10*s
			t.Succeeded = o
		}
		t.Attempts = append(t.Attempts, o)
		if i < done && i%10 == 0 {
			t.Attempts = append(t.Attempts, &speculators.Attempt{Speculative: true, State: speculators.StateKilled, Start: 5 * s})
		}
		if i >= done {
			job.Live[speculators.Map].Set(i, true)
		}
		job.Tasks[speculators.Map] = append(job.Tasks[speculators.Map], t)
	}
	job.Completed[speculators.Map] = done
	job.RunningTasks[speculators.Map] = n - done
	return job
}

// BenchmarkLimpingMapCheck10k is rule v59's check at one Decide of a job of
// 10,000 maps (9,000 done, 1,000 running) where no map limps: the check a
// job on rule v28's member pays at every Decide while maps run. A scan of
// every map and a sort of their logs cost about 0.3 ms a check; the kept
// reading (mapsKept) leaves a visit of the running maps.
func BenchmarkLimpingMapCheck10k(b *testing.B) {
	job := bigMapJob(10000, 9000)
	a := &fitted{policy: &policy{limpFactor: 5.5}, limpAt: 0, spreadAt: 0, chosen: 0}
	a.limpingMap(job, 20000, a.limpAt, a.policy.limpFactor, "a limping tracker", ParamLimpMember)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		a.limpingMap(job, 20000, a.limpAt, a.policy.limpFactor, "a limping tracker", ParamLimpMember)
	}
	if a.chosen != 0 {
		b.Fatal("a job with no limping map was moved")
	}
}

// BenchmarkOwnCopiesLost10k is rule v57's reading at one map-copy ask of
// the same job (900 copied maps, none won): what a Decide, or a slot
// offer, pays when its member asks for a map copy. A count over every map
// cost about 35 µs an ask; the kept counts (mapsKept) cost nothing.
func BenchmarkOwnCopiesLost10k(b *testing.B) {
	job := bigMapJob(10000, 9000)
	a := &fitted{policy: &policy{ownLostCopied: 3, ownLostWins: 0.1}}
	a.ownCopiesLost(job)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if !a.ownCopiesLost(job) {
			b.Fatal("900 lost copies read as won")
		}
	}
}
