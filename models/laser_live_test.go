package models_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/models"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/laser"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// liveJob runs one job under LASER with the bundled model as live reports
// it: maps of times within 2x of the job's median (times m x 2^u, u uniform
// in [-1, 1]), all starting at 0, each reporting every 3 s its progress and
// counters a real map shows (records up to 10 M, GC up to 10 s, CPU, bytes
// and spills in proportion), and a deadline of 2.5 x the median, which
// every map meets. It returns the decisions made and how many maps' task
// features were outside the networks' training range at tau_est.
func liveJob(t *testing.T, model *laser.Model, rng *rand.Rand, maps int, median float64) ([]speculators.Decision, int) {
	t.Helper()
	deadline := spectest.Sec(2.5 * median)
	h := spectest.For(t, laser.Policy(model), speculators.JobInfo{ID: "job_1_0001", Maps: maps, Deadline: deadline}, nil)
	type m struct {
		a                    speculators.AttemptID
		time                 float64
		records, gc, cpu, in float64
		spills, outR, outB   float64
	}
	ms := make([]m, maps)
	for i := range ms {
		recs := math.Exp(math.Log(1e4) + rng.Float64()*(math.Log(1e7)-math.Log(1e4))) // up to 10 M
		in := recs * (10 + 990*rng.Float64())                                         // 10 B..1 KB a record
		ms[i] = m{a: h.Start(spectest.Map(i), speculators.NodeID(fmt.Sprintf("n%d", i%4)), 0),
			time: median * math.Pow(2, 2*rng.Float64()-1), records: recs, gc: 10000 * rng.Float64(), cpu: 0.3 + 0.9*rng.Float64(),
			in: in, spills: recs * 2 * rng.Float64(), outR: recs * (0.1 + 3*rng.Float64()), outB: in * (0.05 + rng.Float64())}
	}
	var out []speculators.Decision
	outside := 0
	done := make([]bool, maps)
	for now := 3.0; ; now += 3 {
		left := 0
		for i := range ms {
			if done[i] {
				continue
			}
			p := &ms[i]
			if now >= p.time {
				h.Succeed(p.a, spectest.Sec(p.time))
				done[i] = true
				continue
			}
			left++
			phi := now / p.time
			h.Observe(speculators.Event{Kind: speculators.AttemptStatus, Time: spectest.Sec(now), Attempt: p.a, Progress: phi,
				Counters: speculators.Counters{InputBytes: int64(phi * p.in), InputRecords: int64(phi * p.records), OutputRecords: int64(phi * p.outR),
					OutputBytes: int64(phi * p.outB), CPUMillis: int64(p.cpu * now * 1000), GCMillis: int64(phi * p.gc), SpilledRecords: int64(phi * p.spills)}})
		}
		if left == 0 {
			return out, outside
		}
		if now >= 120 && now < 123 {
			for i := range ms {
				if a := h.Job().Attempt(ms[i].a); a != nil && a.Running() && model.Task.OutOfRange(laser.TaskFeatures(nil, a, spectest.Sec(now), 0)) >= 0 {
					outside++
				}
			}
		}
		out = append(out, h.Decide(spectest.Sec(now))...)
	}
}

// TestBundledLaserFlagsNoOrdinaryMapLive is issue 25's done-when for LASER:
// with live-like counters (records up to 10 M, GC up to 10 s), the bundled
// model flags no map whose time is within 2x of its job's median, over jobs
// of 5 to 20 maps with medians of 150 to 600 s.
func TestBundledLaserFlagsNoOrdinaryMapLive(t *testing.T) {
	model, err := models.LaserDefault()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(25, 2))
	jobs, maps, outside := 0, 0, 0
	for _, n := range []int{5, 10, 20} {
		for _, median := range []float64{150, 300, 600} {
			for rep := 0; rep < 3; rep++ {
				ds, out := liveJob(t, model, rng, n, median)
				jobs++
				maps += n
				outside += out
				for _, d := range ds {
					t.Errorf("%d maps, median %.0f s: LASER decided %v on %v: %s", n, median, d.Kind, d.Task, d.Reason)
				}
			}
		}
	}
	t.Logf("%d jobs, %d maps: no decision; %d maps' features were outside the training range at tau_est (decided as srquant)", jobs, maps, outside)
}

// A map whose features are outside the networks' training range is decided
// as srquant, and the reason says which feature.
func TestBundledLaserFallsBackOutsideItsRange(t *testing.T) {
	model, err := models.LaserDefault()
	if err != nil {
		t.Fatal(err)
	}
	h := spectest.For(t, laser.Policy(model), speculators.JobInfo{ID: "job_1_0002", Maps: 2, Deadline: spectest.Sec(250)}, nil)
	a0 := h.Start(spectest.Map(0), "n1", 0)
	a1 := h.Start(spectest.Map(1), "n2", 0)
	h.Observe(speculators.Event{Kind: speculators.AttemptStatus, Time: spectest.Sec(118), Attempt: a0, Progress: 0.9})
	// 10^15 records read: far beyond any training row.
	h.Observe(speculators.Event{Kind: speculators.AttemptStatus, Time: spectest.Sec(118), Attempt: a1, Progress: 0.2,
		Counters: speculators.Counters{InputRecords: 1e15}})
	ds := h.Decide(spectest.Sec(120))
	if len(ds) != 2 || ds[0].Task != spectest.Map(1) || !strings.Contains(ds[0].Reason, "decided as srquant: task records_read_log") {
		t.Fatalf("decisions %+v: want map 1 resumed as srquant decides, the reason naming records_read_log", ds)
	}
}
