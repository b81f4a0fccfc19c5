package speculators_test

import (
	"math"
	"slices"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// sortedPercentile is the definition Percentile implements by selection:
// sort, then interpolate linearly between the closest ranks.
func sortedPercentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	if p <= 0 {
		return xs[0]
	}
	if p >= 100 {
		return xs[len(xs)-1]
	}
	pos := p / 100 * float64(len(xs)-1)
	lo := int(pos)
	if lo+1 >= len(xs) {
		return xs[lo]
	}
	return xs[lo] + (pos-float64(lo))*(xs[lo+1]-xs[lo])
}

// TestPercentileMatchesSorting checks that the selection-based Percentile
// gives exactly what sorting gives, on sizes around the small-slice cutoff,
// with many ties, sorted and reversed input, and NaNs (spectest.Agree).
func TestPercentileMatchesSorting(t *testing.T) {
	each := func(of func([]float64, float64) float64) func([]float64, int) []float64 {
		return func(xs []float64, trial int) []float64 {
			if trial%40 == 0 && len(xs) > 0 {
				xs[trial%len(xs)] = math.NaN()
			}
			var out []float64
			for _, p := range []float64{0, 5, 25, 50, 75, 99.9, 100, float64(trial%1000) / 10} {
				out = append(out, of(append([]float64(nil), xs...), p))
			}
			return out
		}
	}
	spectest.Agree(t, 1, 500, 200, each(speculators.Percentile), each(sortedPercentile))
}

// TestPercentileMergedMatchesPercentile checks that PercentileMerged, given
// part of the values sorted and the rest as they come, returns exactly what
// Percentile returns on all of them: the split point varies from trial to
// trial (none sorted, all sorted, anything between), on the shapes of
// spectest.Agree (ties, runs, sorted and reversed input), with NaNs among
// the unsorted values now and then.
func TestPercentileMergedMatchesPercentile(t *testing.T) {
	pcts := func(trial int) []float64 {
		return []float64{0, 5, 25, 50, 75, 99.9, 100, float64(trial%1000) / 10}
	}
	split := func(xs []float64, trial int) ([]float64, []float64) {
		k := 0
		if len(xs) > 0 {
			k = (trial * 7919) % (len(xs) + 1)
		}
		sorted := slices.Clone(xs[:k])
		sorted = slices.DeleteFunc(sorted, func(x float64) bool { return x != x })
		slices.Sort(sorted)
		rest := slices.Clone(xs[k:])
		if trial%40 == 0 && len(rest) > 0 {
			rest[trial%len(rest)] = math.NaN()
		}
		return sorted, rest
	}
	merged := func(xs []float64, trial int) []float64 {
		sorted, rest := split(xs, trial)
		var out []float64
		for _, p := range pcts(trial) {
			keep := slices.Clone(sorted)
			out = append(out, speculators.PercentileMerged(sorted, slices.Clone(rest), p))
			if !slices.Equal(keep, sorted) {
				t.Fatalf("trial %d: PercentileMerged changed its sorted values", trial)
			}
		}
		return out
	}
	whole := func(xs []float64, trial int) []float64 {
		sorted, rest := split(xs, trial)
		var out []float64
		for _, p := range pcts(trial) {
			out = append(out, speculators.Percentile(append(slices.Clone(sorted), rest...), p))
		}
		return out
	}
	spectest.Agree(t, 3, 2000, 300, merged, whole)
}
