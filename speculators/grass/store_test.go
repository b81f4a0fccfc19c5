package grass

import (
	"math"
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

// TestSortedBlocksMatchesSortedSlice checks the prior's blocked sorted
// list (sortedBlocks) against one sorted slice under random inserts and
// removals (many equal values, values absent, lists growing past several
// blocks and shrinking to nothing): the same values in order and the same
// median, bit for bit, after every change; and a full window against its
// ring: the sorted list is always the window's values in order.
func TestSortedBlocksMatchesSortedSlice(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	splits, merges := 0, 0
	for round := range 40 {
		var s sortedBlocks
		var want []float64
		grow := 200 + rng.IntN(4*priorBlock)
		for step := range 3 * grow {
			x := float64(rng.IntN(1+round*20)) + 0.25*float64(rng.IntN(4))
			blocks := len(s.blocks)
			if step < grow || rng.IntN(2) == 0 && step < 2*grow {
				i, _ := slices.BinarySearch(want, x)
				want = slices.Insert(want, i, x)
				s.insert(x)
				if len(s.blocks) > blocks {
					splits++
				}
			} else {
				i, found := slices.BinarySearch(want, x)
				if found {
					want = slices.Delete(want, i, i+1)
				}
				if got := s.remove(x); got != found {
					t.Fatalf("round %d step %d: remove(%v) %v, want %v", round, step, x, got, found)
				}
				if len(s.blocks) < blocks && len(want) > 0 {
					merges++
				}
			}
			if got := s.values(); !slices.Equal(got, want) || s.n != len(want) {
				t.Fatalf("round %d step %d: %d values %v, want %v", round, step, s.n, got, want)
			}
			for k, b := range s.blocks {
				if len(b) == 0 || len(b) > priorBlock {
					t.Fatalf("round %d step %d: block %d holds %d values", round, step, k, len(b))
				}
			}
			if len(want) > 0 && math.Float64bits(s.median()) != math.Float64bits(sliceMedian(want)) {
				t.Fatalf("round %d step %d: median %v, want %v", round, step, s.median(), sliceMedian(want))
			}
		}
	}
	if splits == 0 || merges == 0 {
		t.Fatalf("%d splits, %d merges: the test checks too little", splits, merges)
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
	if got := m.prior.sorted[speculators.Map][0].values(); !slices.Equal(got, ring) {
		t.Errorf("sorted list of %d values is not the window's %d in order", len(got), len(ring))
	}
}

// sliceMedian is the middle of sorted values (the mean of the two middle
// ones).
func sliceMedian(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// Rule v39: records of a reduce ratio alone have a window of their own, so
// that one a finished job pushes no other record out: after TailWindow map
// records and 2 x TailWindow ratio-only ones, interleaved, every map
// record is kept and the last TailWindow ratio records, in the order
// added; one more map record drops the oldest map record only.
func TestTailWindowKeepsRatioRecordsApart(t *testing.T) {
	m := NewMemoryStore()
	var want []speculators.TailFit
	for i := 0; i < 2*TailWindow; i++ {
		r := speculators.TailFit{Reduces: 1, ReduceRatio: float64(i + 1)}
		m.AddTail(r)
		if i >= TailWindow {
			want = append(want, r)
		}
		if i%2 == 0 {
			f := speculators.TailFit{Maps: i + 1, Sigma: 0.3}
			m.AddTail(f)
			want = append(want, f)
		}
	}
	// want, as built, holds the map records in order among the last
	// ratio records, but not interleaved as added: compare by kind.
	split := func(fs []speculators.TailFit) (maps, ratios []speculators.TailFit) {
		for _, f := range fs {
			if f.RatioOnly() {
				ratios = append(ratios, f)
			} else {
				maps = append(maps, f)
			}
		}
		return maps, ratios
	}
	gotMaps, gotRatios := split(m.TailFits())
	wantMaps, wantRatios := split(want)
	if !slices.Equal(gotMaps, wantMaps) || !slices.Equal(gotRatios, wantRatios) {
		t.Fatalf("kept %d map and %d ratio records, want %d and %d: %v", len(gotMaps), len(gotRatios), len(wantMaps), len(wantRatios), m.TailFits())
	}
	m.AddTail(speculators.TailFit{Maps: 99, Sigma: 0.3})
	gotMaps2, gotRatios2 := split(m.TailFits())
	if len(gotMaps2) != TailWindow || gotMaps2[0] != wantMaps[1] || !slices.Equal(gotRatios2, wantRatios) {
		t.Errorf("after a map record beyond the window: %d map records from %v, ratio records kept %t; want %d from %v, every ratio record kept", len(gotMaps2), gotMaps2[0], slices.Equal(gotRatios2, wantRatios), TailWindow, wantMaps[1])
	}
}

// Each marked kind of deadline record (rules v41, v44, v51, v52, v56) has a
// window of its own: after a full window of rule v41's deadline records,
// 2 x TailWindow records of every other mark leave them all kept, and each
// other mark keeps its last TailWindow.
func TestTailWindowKeepsMarkedRecordsApart(t *testing.T) {
	m := NewMemoryStore()
	var deadlines []speculators.TailFit
	for i := 0; i < TailWindow; i++ {
		f := speculators.TailFit{Deadline: speculators.Time(1000 * (i + 1)), Mark: speculators.MarkDeadline}
		m.AddTail(f)
		deadlines = append(deadlines, f)
	}
	others := []func(i int) speculators.TailFit{
		func(i int) speculators.TailFit {
			return speculators.TailFit{Deadline: speculators.Time(1000 * (i + 1)), Mark: speculators.MarkBoundAhead}
		},
		func(i int) speculators.TailFit {
			return speculators.TailFit{Deadline: speculators.Time(1000 * (i + 1)), Mark: speculators.MarkOutputLost}
		},
		func(i int) speculators.TailFit {
			return speculators.TailFit{Deadline: speculators.Time(1000 * (i + 1)), Mark: speculators.MarkBoundCopies, Copied: i + 1}
		},
		func(i int) speculators.TailFit {
			return speculators.TailFit{Deadline: speculators.Time(1000 * (i + 1)), Mark: speculators.MarkBoundSpread, Maps: i + 1, Sigma: 0.3, Upper: 0.2}
		},
	}
	for i := 0; i < 2*TailWindow; i++ {
		for _, mk := range others {
			if f := mk(i); !f.Valid() {
				t.Fatalf("record %+v is not valid", f)
			} else {
				m.AddTail(f)
			}
		}
	}
	count := map[speculators.DeadlineMark]int{}
	var kept []speculators.TailFit
	for _, f := range m.TailFits() {
		count[f.Mark]++
		if f.Mark == speculators.MarkDeadline {
			kept = append(kept, f)
		}
	}
	if !slices.Equal(kept, deadlines) {
		t.Errorf("deadline records kept %v, want every one of %v", kept, deadlines)
	}
	for _, mk := range []speculators.DeadlineMark{speculators.MarkBoundAhead, speculators.MarkOutputLost, speculators.MarkBoundCopies, speculators.MarkBoundSpread} {
		if count[mk] != TailWindow {
			t.Errorf("mark %d: %d records kept, want %d", mk, count[mk], TailWindow)
		}
	}
}
