package late

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// TestPercentileMatchesCore checks that the selection-based percentile gives
// exactly what speculators.Percentile gives, on sizes around the small-slice
// cutoff, with many ties, sorted and reversed input (spectest.Agree).
func TestPercentileMatchesCore(t *testing.T) {
	each := func(of func([]float64, float64) float64) func([]float64, int) []float64 {
		return func(xs []float64, trial int) []float64 {
			var out []float64
			for _, p := range []float64{0, 5, 25, 50, 75, 99.9, 100, float64(trial%1000) / 10} {
				out = append(out, of(append([]float64(nil), xs...), p))
			}
			return out
		}
	}
	spectest.Agree(t, 1, 500, 200, each(percentile), each(speculators.Percentile))
}
