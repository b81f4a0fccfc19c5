package late

import (
	"math/bits"
	"slices"
)

// percentile is speculators.Percentile (linear interpolation between the
// closest ranks) computed by selection instead of sorting: O(n) rather than
// O(n log n), which is most of Decide's cost on large jobs. It reorders xs.
// A test holds it equal to speculators.Percentile.
func percentile(xs []float64, p float64) float64 {
	n := len(xs)
	switch {
	case n == 0:
		return 0
	case p <= 0:
		return slices.Min(xs)
	case p >= 100:
		return slices.Max(xs)
	}
	pos := p / 100 * float64(n-1)
	lo := int(pos)
	frac := pos - float64(lo)
	selectRank(xs, lo)
	if lo+1 >= n {
		return xs[lo]
	}
	// Everything after rank lo is >= xs[lo]; the next rank is their least.
	next := slices.Min(xs[lo+1:])
	return xs[lo] + frac*(next-xs[lo])
}

// selectRank reorders xs so that xs[k] holds the value of rank k, with no
// larger value before it and no smaller after. It partitions three ways
// around a median-of-three pivot, so runs of equal rates cost nothing, and
// falls back to sorting after 2*log2(n) rounds, so it is never quadratic.
func selectRank(xs []float64, k int) {
	lo, hi := 0, len(xs) // the rank-k value lies in xs[lo:hi]
	for budget := 2 * bits.Len(uint(len(xs))); hi-lo > 16; budget-- {
		if budget == 0 {
			slices.Sort(xs[lo:hi])
			return
		}
		pivot := medianOf3(xs[lo], xs[lo+(hi-lo)/2], xs[hi-1])
		// xs[lo:lt] < pivot, xs[lt:i] == pivot, xs[gt:hi] > pivot.
		lt, i, gt := lo, lo, hi
		for i < gt {
			switch x := xs[i]; {
			case x < pivot:
				xs[lt], xs[i] = xs[i], xs[lt]
				lt++
				i++
			case x > pivot:
				gt--
				xs[gt], xs[i] = xs[i], xs[gt]
			default:
				i++
			}
		}
		switch {
		case k < lt:
			hi = lt
		case k >= gt:
			lo = gt
		default:
			return
		}
	}
	slices.Sort(xs[lo:hi])
}

func medianOf3(a, b, c float64) float64 {
	if a > b {
		a, b = b, a
	}
	if b > c {
		b = c
	}
	if a > b {
		return a
	}
	return b
}
