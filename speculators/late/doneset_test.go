package late

import (
	"math"
	"math/rand"
	"slices"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// TestDoneSetKeepsRates adds and removes rates at random (ties, and a NaN
// now and then) and checks every fifth step that the set holds exactly the
// rates a plain list holds, that sorted is in order without NaN, and that
// the 25th percentile Decide takes from it (PercentileMerged over sorted and
// the rest) is Percentile's over the list. The set grows past several
// merges, so both its halves are exercised.
func TestDoneSetKeepsRates(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	var d doneSet
	var list []float64
	merges := 0
	for step := 0; step < 3000; step++ {
		if len(list) > 0 && rng.Intn(4) == 0 {
			k := rng.Intn(len(list))
			d.remove(list[k])
			list = slices.Delete(list, k, k+1)
		} else {
			x := float64(rng.Intn(200)) / 64
			if rng.Intn(500) == 0 {
				x = math.NaN()
			}
			before := len(d.sorted)
			d.add(x)
			list = append(list, x)
			if len(d.sorted) > before {
				merges++
			}
		}
		if !slices.IsSorted(d.sorted) || slices.ContainsFunc(d.sorted, func(x float64) bool { return x != x }) {
			t.Fatalf("step %d: sorted part out of order or holding NaN: %v", step, d.sorted)
		}
		if step%5 != 0 {
			continue
		}
		got, want := d.values(), slices.Clone(list)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.EqualFunc(got, want, func(a, b float64) bool { return a == b || a != a && b != b }) {
			t.Fatalf("step %d: set holds %v, want %v", step, got, want)
		}
		running := []float64{float64(step%7) / 3, 0.5}
		p := speculators.PercentileMerged(d.sorted, append(slices.Clone(d.recent), running...), 25)
		q := speculators.Percentile(append(slices.Clone(list), running...), 25)
		if p != q && !(p != p && q != q) {
			t.Fatalf("step %d: percentile %v from the set, %v from the list", step, p, q)
		}
	}
	if merges < 10 {
		t.Fatalf("only %d merges: the sorted part is not exercised", merges)
	}
}
