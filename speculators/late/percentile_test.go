package late

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// TestPercentileMatchesCore checks that the selection-based percentile gives
// exactly what speculators.Percentile gives, on sizes around the small-slice
// cutoff, with many ties, sorted and reversed input.
func TestPercentileMatchesCore(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 500; trial++ {
		n := r.IntN(200)
		if trial%10 == 0 {
			n = r.IntN(2000)
		}
		xs := make([]float64, n)
		for i := range xs {
			switch trial % 4 {
			case 0:
				xs[i] = r.Float64()
			case 1:
				xs[i] = float64(r.IntN(3)) // ties
			case 2:
				xs[i] = float64(i) // sorted
			default:
				xs[i] = float64(n - i) // reversed
			}
		}
		for _, p := range []float64{0, 5, 25, 50, 75, 99.9, 100, r.Float64() * 100} {
			want := speculators.Percentile(slices.Clone(xs), p)
			if got := percentile(slices.Clone(xs), p); got != want {
				t.Fatalf("trial %d n=%d p=%g: got %g, want %g", trial, n, p, got, want)
			}
		}
	}
}
