package speculators_test

import (
	"cmp"
	"math"
	"slices"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// firstK is how many values TestFirstKMatchesFullSort asks for: -5 to
// len(xs)+4, beyond both ends.
func firstK(xs []float64, trial int) int { return trial%(len(xs)+10) - 5 }

func TestFirstKMatchesFullSort(t *testing.T) {
	spectest.Agree(t, 1, 500, 60,
		func(xs []float64, trial int) []float64 {
			return speculators.FirstK(xs, firstK(xs, trial), cmp.Compare[float64])
		},
		func(xs []float64, trial int) []float64 {
			slices.Sort(xs)
			return xs[:max(0, min(firstK(xs, trial), len(xs)))]
		})
}

// kth picks the rank KthSmallest is asked for and, one trial in fifty, puts
// a NaN among the values.
func kth(xs []float64, trial int) (int, bool) {
	if len(xs) == 0 {
		return 0, false
	}
	if trial%50 == 0 {
		xs[trial%len(xs)] = math.NaN()
	}
	return (trial * 7919) % len(xs), true
}

func TestKthSmallestMatchesSort(t *testing.T) {
	spectest.Agree(t, 3, 2000, 80,
		func(xs []float64, trial int) []float64 {
			if k, ok := kth(xs, trial); ok {
				return []float64{speculators.KthSmallest(xs, k)}
			}
			return nil
		},
		func(xs []float64, trial int) []float64 {
			if k, ok := kth(xs, trial); ok {
				slices.Sort(xs)
				return []float64{xs[k]}
			}
			return nil
		})
}
