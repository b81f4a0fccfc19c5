package mantri

import (
	"math/rand/v2"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// WantsSlot's quiet time must never answer no where the duplicate
// candidates ranked afresh at the same instant hold a copyable task. Random
// jobs (Pareto task times, maps and reduces, reports every 3 s, copies
// started when asked for; spectest.RandomJob) are asked every 100 ms; the
// test also requires that the quiet answer was used.
func TestQuietMatchesCandidates(t *testing.T) {
	quiet := 0
	for seed := uint64(1); seed <= 16; seed++ {
		rng := rand.New(rand.NewPCG(seed, 5))
		const maps, reduces = 12, 2
		sizes := make([]int64, maps)
		for i := range sizes {
			sizes[i] = int64(5+rng.IntN(10)) << 20
		}
		h := spectest.For(t, Policy(), speculators.JobInfo{ID: "job_quiet", Maps: maps, Reduces: reduces, MapInputBytes: sizes, Slots: 20}, nil)
		p := h.Engine.Policy.(*policy)
		h.Engine.OfferSlots()
		j := &spectest.RandomJob{H: h, Rand: rng, LateStragglers: true,
			Work: func(speculators.TaskID) float64 { return 8000 }}
		for i := range maps {
			j.Start(spectest.Map(i), 0, false)
		}
		for i := range reduces {
			j.Start(spectest.Reduce(i), 0, false)
		}
		j.Run(120000, nil, func(now speculators.Time) (speculators.TaskID, bool) {
			fromQuiet := p.quietValid && p.quietVer == p.ver && now >= p.quietFrom && now < p.quietUntil
			got := h.Engine.WantsSlot(now)
			p.dupValid = false
			want := false
			var pick speculators.TaskID
			for _, c := range p.dupsAt(h.Job(), now) {
				if p.copyable(c) {
					want, pick = true, c.task.ID
					break
				}
			}
			if got != want {
				t.Fatalf("seed %d at %d ms: WantsSlot %v, candidates afresh %v (quiet %d..%d, from it %v)", seed, now, got, want, p.quietFrom, p.quietUntil, fromQuiet)
			}
			if fromQuiet {
				quiet++
			}
			return pick, want
		})
	}
	if quiet == 0 {
		t.Fatal("no answer came from a quiet time: the test checks nothing")
	}
}
