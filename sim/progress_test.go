package sim

import (
	"math"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// OrderByInput sorts originals by input size, not by their (unknown) work;
// equal inputs keep index order.
func TestOriginalOrderByInput(t *testing.T) {
	maps := works(3000, 1000, 2000, 1000)
	for i, in := range []int64{2, 2, 1, 3} {
		maps[i].InputBytes = in << 20
	}
	for _, tc := range []struct {
		order TaskOrder
		want  []speculators.Time
	}{
		{OrderSJF, []speculators.Time{5000, 6000, 2000, 7000}}, // 2, 0, 1, 3
		{OrderLJF, []speculators.Time{4000, 5000, 7000, 1000}}, // 3, 0, 1, 2
	} {
		t.Run(tc.order.String(), func(t *testing.T) {
			res := runScript(t, cfgFor(nodes(1)), []Job{{ID: "j", Maps: maps, Order: tc.order, OrderKey: OrderByInput}})
			for i, want := range tc.want {
				expectTime(t, "map finish", res.Jobs[0].TaskFinish[speculators.Map][i], want)
			}
		})
	}
}

// Progress noise changes what attempts report, not when they finish: the
// finish times are those without noise, reported progress is monotone,
// within [0, 1] and not linear in time, and the same seed gives the same
// reports.
func TestProgressNoise(t *testing.T) {
	job := func(noise ProgressNoise) []Job {
		return []Job{{ID: "j", Maps: works(30000, 60000, 45000), ProgressNoise: noise}}
	}
	plain := runScript(t, cfgFor(nodes(3)), job(ProgressNoise{}))
	reports := func() [][]speculators.Event {
		p := &script{}
		res := runScript(t, cfgFor(nodes(3)), job(ProgressNoise{Segments: 4, Sigma: 0.5}), p)
		for i, f := range res.Jobs[0].TaskFinish[speculators.Map] {
			expectTime(t, "map finish", f, plain.Jobs[0].TaskFinish[speculators.Map][i])
		}
		out := make([][]speculators.Event, 3)
		for _, ev := range p.seen {
			if ev.Kind == speculators.AttemptStatus {
				out[ev.Attempt.Task.Index] = append(out[ev.Attempt.Task.Index], ev)
			}
		}
		return out
	}
	a, b := reports(), reports()
	nonlinear := false
	for i := range a {
		last := 0.0
		for k, ev := range a[i] {
			if ev.Progress < last || ev.Progress > 1 || ev.Progress != b[i][k].Progress || ev.Time != b[i][k].Time {
				t.Fatalf("map %d report %d: progress %g after %g (rerun %+v)", i, k, ev.Progress, last, b[i][k])
			}
			last = ev.Progress
			if linear := float64(ev.Time) / float64([]int{30000, 60000, 45000}[i]); ev.Progress < 1 && math.Abs(ev.Progress-linear) > 0.01 {
				nonlinear = true
			}
		}
	}
	if !nonlinear {
		t.Error("progress stayed linear in time")
	}
	if err := (&Job{ProgressNoise: ProgressNoise{Segments: -1}}).validate(); err == nil {
		t.Error("negative segments accepted")
	}
}
