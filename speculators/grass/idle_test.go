package grass

import (
	"fmt"
	"slices"
	"testing"
)

// TestDecideIdleChangesNothing plays random jobs under gs and ras (most in
// pull mode, some in push mode, where Decide asks for the copies) twice, once leaving out every Decide the policy says is idle
// (DecideIdle, as the simulator's tick does) and once running it: the
// decisions and slot choices must be the same, and an idle Decide must
// return nothing. Deadline- and error-bound jobs are never idle.
func TestDecideIdleChangesNothing(t *testing.T) {
	idle := 0
	for _, name := range []string{NameGS, NameRAS} {
		for seed := uint64(1); seed <= 12; seed++ {
			j := paretoJob(seed, 30, 8)
			j.pull = seed%3 != 0
			if seed%2 == 0 {
				j.first = nil // the first Decide sees nothing running
			}
			switch seed % 4 {
			case 1:
				j.deadline = 6
			case 2:
				j.err = 0.2
			}
			run := func(skip bool) *driver {
				d := newDriver(t, name, j, nil, nil)
				d.skipIdle = skip
				d.run(0)
				return d
			}
			with, without := run(false), run(true)
			if !slices.Equal(with.log, without.log) || !slices.Equal(with.finished, without.finished) {
				t.Fatalf("%s seed %d: leaving idle Decides out changed the run:\n%v\n%v", name, seed, with.log, without.log)
			}
			if (j.deadline > 0 || j.err > 0) && with.idle > 0 {
				t.Fatalf("%s seed %d: a bound job's Decide said idle %d times", name, seed, with.idle)
			}
			idle += with.idle
		}
	}
	if idle == 0 {
		t.Fatal("no Decide was idle: the test checks nothing")
	}
}

// TestDecideIdleGRASSChangesNothing plays random GRASS jobs (switching to
// GS at two waves left, or perturbed and recording a sample; most in pull
// mode, some exact jobs in push mode) twice, once leaving out every Decide
// DecideIdle says is idle and once running them all: the decisions, slot
// choices, finish times and samples kept must be the same, and some
// Decides of jobs whose learner is done must have been idle.
func TestDecideIdleGRASSChangesNothing(t *testing.T) {
	idle := 0
	for seed := uint64(1); seed <= 24; seed++ {
		j := paretoJob(seed, 30, 6)
		j.pull, j.seed = seed%4 != 0, seed
		if seed%2 == 0 {
			j.first = nil
		}
		params := map[string]string{ParamXi: "0", ParamCheckInterval: "0", ParamFallbackWaves: "2"}
		if seed%3 == 0 {
			params[ParamXi] = "1"
		}
		if seed%5 == 1 {
			j.err = 0.2
		}
		run := func(skip bool) (*driver, []Sample) {
			known := NewMemoryStore()
			d := newDriver(t, NameGRASS, j, params, known)
			d.skipIdle = skip
			d.run(0)
			return d, known.Samples(0)
		}
		with, withSamples := run(false)
		without, withoutSamples := run(true)
		if !slices.Equal(with.log, without.log) || !slices.Equal(with.finished, without.finished) {
			t.Fatalf("seed %d: leaving idle Decides out changed the run:\n%v\n%v", seed, with.log, without.log)
		}
		if fmt.Sprint(withSamples) != fmt.Sprint(withoutSamples) {
			t.Fatalf("seed %d: samples %v, idle Decides left out %v", seed, withSamples, withoutSamples)
		}
		if j.err > 0 && with.idle > 0 {
			t.Fatalf("seed %d: a bound job's Decide said idle %d times", seed, with.idle)
		}
		idle += with.idle
	}
	if idle == 0 {
		t.Fatal("no Decide was idle: the test checks nothing")
	}
}

// TestRecordLeftOutChangesNothing plays random GRASS jobs in pull mode
// (some switching to GS at two waves left, some perturbed, which run one
// algorithm and record a sample) twice: once leaving out Decide's record
// of t_rem where the learner reads the accuracy no more (readsAccuracy),
// and once recording always. The decisions, slot choices, WantsSlot's
// answers after every Decide, finish times and the samples kept must be
// the same, and some Decides must have left the record out.
func TestRecordLeftOutChangesNothing(t *testing.T) {
	defer func() { recordAlways = false }()
	skipped := 0
	for seed := uint64(1); seed <= 24; seed++ {
		j := paretoJob(seed, 30, 6)
		j.pull, j.seed = true, seed
		params := map[string]string{ParamXi: "0", ParamCheckInterval: "0", ParamFallbackWaves: "2"}
		if seed%3 == 0 {
			params[ParamXi] = "1"
		}
		run := func(always bool) (*driver, []Sample, int) {
			recordAlways = always
			known := NewMemoryStore()
			d := newDriver(t, NameGRASS, j, params, known)
			left := 0
			d.afterDecide = func(d *driver) {
				if !d.policy.learn.readsAccuracy() {
					left++
				}
				d.log = append(d.log, fmt.Sprintf("t=%g wants %v", float64(d.now)/unit, d.engine.WantsSlot(d.now)))
			}
			d.run(0)
			return d, known.Samples(0), left
		}
		with, withSamples, _ := run(true)
		without, withoutSamples, left := run(false)
		if !slices.Equal(with.log, without.log) || !slices.Equal(with.finished, without.finished) {
			t.Fatalf("seed %d: leaving the record out changed the run:\n%v\n%v", seed, with.log, without.log)
		}
		if len(withSamples) != len(withoutSamples) || (len(withSamples) > 0 && withSamples[0].Accuracy != withoutSamples[0].Accuracy) {
			t.Fatalf("seed %d: samples %v, left out %v", seed, withSamples, withoutSamples)
		}
		skipped += left
	}
	if skipped == 0 {
		t.Fatal("no Decide left the record out: the test checks nothing")
	}
}
