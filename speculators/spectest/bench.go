package spectest

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// HeavyTail fills h's job with the benchmarks' load and returns the time to
// decide at (120 s): maps 0..done-1 completed after 20-30 s, then maps
// done..done+running-1 running, started 30-90 s in and reported within the
// last 3 s, their progress rates heavy-tailed (1/(60 s x (1 + Exp/2)) per
// ms, capped at 0.99), on nodes node000..node099. The same seed every time.
func HeavyTail(h *Harness, done, running int) speculators.Time {
	h.T.Helper()
	rng := rand.New(rand.NewPCG(7, 7))
	node := func(i int) speculators.NodeID { return speculators.NodeID(fmt.Sprintf("node%03d", i%100)) }
	for i := 0; i < done; i++ {
		h.Complete(Map(i), node(i), 0, 20_000+rng.Int64N(10_000))
	}
	now := speculators.Time(120_000)
	for i := done; i < done+running; i++ {
		start := 30_000 + rng.Int64N(60_000)
		report := now - rng.Int64N(3_000)
		rate := 1 / (60_000 * (1 + rng.ExpFloat64()*0.5)) // progress per ms
		h.Running(Map(i), node(i), start, report, min(0.99, float64(report-start)*rate))
	}
	return now
}

// BenchDecide times the policy's own Decide at now (not the engine's, which
// would not return a decision it already gave), calling reset outside the
// timer before each so that every call does a first Decide's whole work. A
// Decide that returns fewer than least decisions fails the benchmark: it
// would measure nothing.
func BenchDecide(b *testing.B, h *Harness, now speculators.Time, least int, reset func()) {
	b.Helper()
	var out []speculators.Decision
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		reset()
		b.StartTimer()
		if out = h.Engine.Policy.Decide(h.Job(), now, out[:0]); len(out) < least {
			b.Fatalf("decide returned %d decisions, want at least %d: the benchmark measures nothing", len(out), least)
		}
	}
}

// BenchEngineDecide times the engine's Decide at now, calling reset inside
// the timer before each (a policy's forgetting what it asked for is part of
// the work timed) so that every call does a first Decide's whole work. A
// first Decide, untimed, that returns fewer than least decisions fails the
// benchmark: it would time an empty scan.
func BenchEngineDecide(b *testing.B, h *Harness, now speculators.Time, least int, reset func()) {
	b.Helper()
	if first := len(h.Decide(now)); first < least {
		b.Fatalf("the first Decide returned %d decisions, want at least %d: the benchmark would time an empty scan", first, least)
	}
	reset()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		reset()
		h.Engine.Decide(now)
	}
}

// Spread fills h's job with the benchmarks' steady load and returns the time
// to decide at (3600 s): maps 0..maps-1 running on nodes node000..node099,
// map i started at 1200 + i%1200 s with a progress rate of 0.0001-0.0004 per
// second, reported at that time.
func Spread(h *Harness, maps int) speculators.Time {
	h.T.Helper()
	now := Sec(3600)
	for i := 0; i < maps; i++ {
		node := speculators.NodeID(fmt.Sprintf("node%03d", i%100))
		start := Sec(float64(1200 + i%1200))
		rate := 0.0001 + 0.000003*float64((i*7919)%100)
		h.Run(Map(i), node, start, rate, now)
	}
	return now
}

// BenchSpread is a policy's benchmark over Spread's steady load: a job of
// pol with info (info.Maps maps, all running) and the policy parameters
// params, timed as BenchEngineDecide with forget making the policy forget
// what it asked for.
func BenchSpread(b *testing.B, pol speculators.Policy, info speculators.JobInfo, params map[string]string, forget func(speculators.Speculator)) {
	b.Helper()
	h := For(b, pol, info, params)
	now := Spread(h, info.Maps)
	BenchEngineDecide(b, h, now, 1, func() { forget(h.Policy()) })
}

// BenchHeavyTail is a policy's benchmark over HeavyTail's load: done
// completed and running running maps with free slots beyond them, timed as
// BenchDecide (at least least decisions) with reset clearing the policy's
// memory of its requests.
func BenchHeavyTail(b *testing.B, pol speculators.Policy, done, running, free, least int, reset func(speculators.Speculator)) {
	b.Helper()
	h := For(b, pol, speculators.JobInfo{Maps: done + running, Slots: running + free}, nil)
	now := HeavyTail(h, done, running)
	BenchDecide(b, h, now, least, func() { reset(h.Policy()) })
}
