package grass

import (
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
