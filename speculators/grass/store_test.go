package grass

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// The prior keeps the most recent PriorWindow run times of a type and size
// class: the oldest drop out of the median, PriorRuntimes lists what is kept
// oldest first, and other classes are untouched.
func TestPriorWindowKeepsRecent(t *testing.T) {
	m := NewMemoryStore()
	const block = 128 << 20
	m.AddRuntime(speculators.Map, 2000, 1<<20) // another class
	for i := 0; i < PriorWindow; i++ {
		m.AddRuntime(speculators.Map, 90000, block)
	}
	for i := 0; i < PriorWindow/2+1; i++ {
		m.AddRuntime(speculators.Map, float64(40000+i), block)
	}
	if n := m.PriorLen(); n != PriorWindow+1 {
		t.Fatalf("PriorLen %d, want %d", n, PriorWindow+1)
	}
	// Over half of the window is recent (40000, 40001, ... ms), so the
	// median is the mean of the recent values at ranks PriorWindow/2 - 1 and
	// PriorWindow/2; over every value added it would be 90 s.
	if ms, ok := m.PriorRuntime(speculators.Map, block); !ok || ms != 40000+float64(PriorWindow)/2-0.5 {
		t.Errorf("prior %v %v, want %v", ms, ok, 40000+float64(PriorWindow)/2-0.5)
	}
	if ms, ok := m.PriorRuntime(speculators.Map, 1<<20); !ok || ms != 2000 {
		t.Errorf("other class %v %v, want 2000", ms, ok)
	}
	recs := m.PriorRuntimes()
	var inBlock []RuntimeRecord
	for _, r := range recs {
		if r.InputBytes == block {
			inBlock = append(inBlock, r)
		}
	}
	if len(inBlock) != PriorWindow || inBlock[0].Ms != 90000 || inBlock[len(inBlock)-1].Ms != float64(40000+PriorWindow/2) {
		t.Errorf("PriorRuntimes: %d in the class, first %v, last %v; want %d, oldest kept first", len(inBlock), inBlock[0], inBlock[len(inBlock)-1], PriorWindow)
	}
	m.AddRuntime(speculators.NumTaskTypes, 1, 1)
	m.AddRuntime(speculators.Map, -1, block)
	if n := m.PriorLen(); n != PriorWindow+1 {
		t.Errorf("invalid records kept: PriorLen %d", n)
	}
}

// TestReplaceSortedMatchesDeleteInsert checks the prior's in-place
// replacement of its oldest value (replaceSorted) against a delete and an
// insert, on lists with many equal values, and a full window against its
// ring: the sorted list is always the window's values in order.
func TestReplaceSortedMatchesDeleteInsert(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for range 3_000 {
		l := make([]float64, 1+rng.IntN(30))
		for i := range l {
			l[i] = float64(rng.IntN(8))
		}
		slices.Sort(l)
		j, x := rng.IntN(len(l)), float64(rng.IntN(9))-0.5*float64(rng.IntN(2))
		want := slices.Delete(slices.Clone(l), j, j+1)
		i, _ := slices.BinarySearch(want, x)
		want = slices.Insert(want, i, x)
		replaceSorted(l, j, x)
		if !slices.Equal(l, want) {
			t.Fatalf("replaceSorted at %d with %v: %v, want %v", j, x, l, want)
		}
	}
	m := NewMemoryStore()
	for range PriorWindow + 5_000 {
		m.AddRuntime(speculators.Map, float64(1+rng.IntN(50)), 0)
	}
	var ring []float64
	for _, r := range m.PriorRuntimes() {
		ring = append(ring, r.Ms)
	}
	slices.Sort(ring)
	if got := m.prior.sorted[speculators.Map][0]; !slices.Equal(got, ring) {
		t.Errorf("sorted list of %d values is not the window's %d in order", len(got), len(ring))
	}
}
