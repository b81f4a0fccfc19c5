package grass

import (
	"fmt"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// benchEngine builds a job of 10,100 maps: 100 done in 1 s each and 10,000
// running on 100 nodes with varied progress (elapsed 1200-2400 s, rates
// 0.0001-0.0004/s, so far behind t_new), with ten free slots.
func benchEngine(b *testing.B, name string, errorBound float64, params map[string]string) *speculators.Engine {
	const running, done = 10000, 100
	sizes := make([]int64, running+done)
	for i := range sizes {
		sizes[i] = 1000
	}
	e, err := registry(b).NewEngine(speculators.JobInfo{ID: "bench", Maps: running + done, MapInputBytes: sizes,
		Slots: running + 10, ErrorBound: errorBound}, name, params, 1)
	if err != nil {
		b.Fatal(err)
	}
	observe := func(ev speculators.Event) {
		if err := e.Observe(&ev); err != nil {
			b.Fatal(err)
		}
	}
	now := speculators.Time(3600 * 1000)
	for i := 0; i < running+done; i++ {
		a := speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map, Index: int32(i)}}
		node := speculators.NodeID(fmt.Sprintf("node%03d", i%100))
		if i < done {
			observe(speculators.Event{Kind: speculators.AttemptStarted, Time: 0, Attempt: a, Node: node})
			observe(speculators.Event{Kind: speculators.AttemptSucceeded, Time: 1000, Attempt: a})
			continue
		}
		start := speculators.Time(1200+i%1200) * 1000
		rate := 0.0001 + 0.000003*float64((i*7919)%100)
		observe(speculators.Event{Kind: speculators.AttemptStarted, Time: start, Attempt: a, Node: node})
		observe(speculators.Event{Kind: speculators.AttemptStatus, Time: now, Attempt: a, Progress: rate * float64(now-start) / 1000})
	}
	return e
}

// BenchmarkDecide10kTasks times one Decide of RAS, GS and GRASS over 10,000
// running maps of an error-bound (10%) job: estimates for every task, the
// pruning stage's earliest-tasks cut, and selection of ten copies (one
// allocation each: its reason). With the default estimator every running
// task, having run longer than the completions' 1 s, also counts in t_new
// (estimate.go) at its extrapolated duration, which puts t_new near the
// tasks' own durations: RAS's saving turns negative and it asks for no copy,
// while GS, and GRASS starting with it here, still ask for ten; with
// t-new-running=false (§5.1's estimate) all three ask for ten.
func BenchmarkDecide10kTasks(b *testing.B) {
	for _, c := range []struct {
		name   string
		params map[string]string
		copies int
	}{
		{NameRAS, nil, 0}, {NameGS, nil, 10}, {NameGRASS, nil, 10},
		{NameRAS, map[string]string{ParamTnewRunning: "false"}, 10},
	} {
		label := c.name
		if c.params != nil {
			label += "-completions-only"
		}
		b.Run(label, func(b *testing.B) {
			e := benchEngine(b, c.name, 0.1, c.params)
			now := speculators.Time(3600 * 1000)
			if got := len(e.Decide(now)); got != c.copies {
				b.Fatalf("decide launched %d copies, want %d", got, c.copies)
			}
			// The policy's own Decide on a fresh engine: the engine's copy
			// ledger (and its de-duplication) would hold the first Decide's
			// copies, and every later Decide would find them asked for.
			e = benchEngine(b, c.name, 0.1, c.params)
			var out []speculators.Decision
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				out = e.Policy.Decide(e.Job, now, out[:0])
			}
		})
	}
}
