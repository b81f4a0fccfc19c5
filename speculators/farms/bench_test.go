package farms

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// BenchmarkDecide10kTasks times one Decide of farms over late on 10,000
// running maps on 100 nodes (as late's benchmark) plus 1,000 completed maps
// and 20 reduces, with one node failed and a fetch failure reported: the
// failure layer scans every task for the failed node's work and outputs,
// copies a batch and re-runs eleven outputs, then late ranks every task and
// launches one copy (Slots unknown). The layer's state is reset outside the
// timer so that every Decide does all of it (the policy's Decide: the engine
// would not return decisions it already gave); late keeps its marks, and its
// cap (base-params speculative-cap=1) leaves room for 10,000 iterations.
func BenchmarkDecide10kTasks(b *testing.B) {
	const running, done = 10000, 1000
	info := speculators.JobInfo{Maps: running + done, Reduces: 20}
	h := newHarness(b, Name, info, map[string]string{ParamBaseParams: "speculative-cap=1"})
	now := spectest.Sec(3600)
	for i := range running {
		start := spectest.Sec(float64(1200 + i%1200))
		rate := 0.0001 + 0.000003*float64((i*7919)%100)
		h.Running(spectest.Map(i), node(i%100), start, now-spectest.Sec(60), rate*float64(now-start)/1000)
	}
	for i := running; i < running+done; i++ {
		h.Complete(spectest.Map(i), node(i%100), spectest.Sec(0), spectest.Sec(600))
	}
	var reduce speculators.AttemptID
	for i := range 20 {
		reduce = h.Running(spectest.Reduce(i), node(100+i), spectest.Sec(600), now-spectest.Sec(60), 0.2)
	}
	h.FetchFailed(reduce, now-spectest.Sec(30), 0.1, spectest.Map(running+1))
	h.Node(speculators.NodeFailed, node(42), now-spectest.Sec(10))
	p := h.Engine.Policy.(*policy)
	reset := func() {
		for ty := range p.marks {
			clear(p.marks[ty])
			clear(p.baseAsked[ty])
		}
		clear(p.rerun)
		e := &p.episodes[0]
		e.rounds, e.nextCheck, e.tasks = 0, e.failedAt, e.tasks[:0]
		p.fetchReported = append(p.fetchReported[:0], spectest.Map(running+1))
	}
	ds := h.Decide(now)
	if n, m := len(spectest.Only(ds, speculators.Rerun)), len(spectest.Only(ds, speculators.Speculate)); n != 11 || m != 3 {
		b.Fatalf("decide re-ran %d outputs and copied %d tasks, want 11 and 3: %v", n, m, ds)
	}
	spectest.BenchDecide(b, h, now, 11, reset)
}
