package mantri

// Tests of Mantri's rules as the GRASS (NSDI'14 §5-6) and SCA (Xu and Lau,
// §II) papers state them, driven through the real Engine. Each ends with the
// section it checks.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// The duplicate rule's examples are in testdata/duplicate.txt.

func kinds(ds []speculators.Decision) string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Kind.String()+" "+d.Task.String())
	}
	return strings.Join(out, ", ")
}

// TestPaperRestartExcessiveRemainingTime checks that Mantri "may terminate a
// task which shows an excessively large remaining-time-to-finish": while a
// task waits for a slot, a map whose t_rem exceeds E[t_new] (14.5 s) plus
// Delta (3 s) is killed so that it restarts, at most gamma = 3 times; a map
// with t_rem 16 s is left alone.
//
// Reference: SCA paper §II (Mantri); Mantri OSDI'10 §5.1
func TestPaperRestartExcessiveRemainingTime(t *testing.T) {
	// Map 6 never starts: a task waits.
	h := spectest.For(t, Policy(), speculators.JobInfo{ID: "job_mantri", Maps: 7, Slots: 6}, nil)
	node := func(i int) speculators.NodeID { return speculators.NodeID(fmt.Sprintf("n%d", i)) }
	for i, d := range []float64{10, 14, 16, 18} {
		h.Complete(spectest.Map(i), node(i), 0, spectest.Sec(d))
	}
	// Progress at 20 s that leaves 16 s and 30 s by extrapolation.
	steady := h.Running(spectest.Map(4), node(4), 0, spectest.Sec(20), 20.0/36)
	a := h.Running(spectest.Map(5), node(5), 0, spectest.Sec(20), 20.0/50)
	now := 20.0
	for restart := 1; restart <= 4; restart++ {
		ds := h.Decide(spectest.Sec(now))
		if restart == 4 {
			if strings.Contains(kinds(ds), "kill") {
				t.Fatalf("fourth restart: %v; want at most 3", ds)
			}
			break
		}
		if len(ds) != 1 || ds[0].Kind != speculators.Kill || ds[0].Attempt != a {
			t.Fatalf("restart %d: decisions %v, want kill of %s", restart, ds, a)
		}
		h.Kill(a, spectest.Sec(now))
		// The AM reruns the task; the new attempt is as slow.
		a = h.Start(spectest.Map(5), "n9", spectest.Sec(now))
		h.Status(a, spectest.Sec(now+5), 5.0/35)
		now += 5
		h.Status(steady, spectest.Sec(now), now/(now+16))
	}
}
