package speculators

import "slices"

// FirstK returns the first k elements of xs in cmp order, sorted, and
// rearranges xs in place. It keeps the best k seen in a heap whose root is the
// worst of them, so it costs O(n log k) rather than sorting all of xs: a
// policy that may launch a few copies among thousands of running tasks
// ranks only what it can use. k <= 0 gives an empty slice.
func FirstK[T any](xs []T, k int, cmp func(a, b T) int) []T {
	if k <= 0 {
		return xs[:0]
	}
	if len(xs) <= k {
		slices.SortFunc(xs, cmp)
		return xs
	}
	h := xs[:k]
	for i := k/2 - 1; i >= 0; i-- {
		siftWorst(h, i, cmp)
	}
	for _, x := range xs[k:] {
		if cmp(x, h[0]) < 0 {
			h[0] = x
			siftWorst(h, 0, cmp)
		}
	}
	slices.SortFunc(h, cmp)
	return h
}

// siftWorst restores the heap below i in which every parent ranks after its
// children (the root is the worst element kept).
func siftWorst[T any](h []T, i int, cmp func(a, b T) int) {
	for {
		worst := i
		if l := 2*i + 1; l < len(h) && cmp(h[l], h[worst]) > 0 {
			worst = l
		}
		if r := 2*i + 2; r < len(h) && cmp(h[r], h[worst]) > 0 {
			worst = r
		}
		if worst == i {
			return
		}
		h[i], h[worst] = h[worst], h[i]
		i = worst
	}
}

// KthSmallest returns the value xs would hold at index k (0-based) if it
// were sorted with slices.Sort, rearranging xs in place, in O(n) expected
// time (quickselect with a median-of-three pivot, deterministic). A policy
// that needs the k-th shortest of thousands of durations, not their order,
// so avoids a full sort. NaNs sort first, as in slices.Sort. k must be in
// [0, len(xs)).
func KthSmallest(xs []float64, k int) float64 {
	for _, x := range xs {
		if x != x {
			slices.Sort(xs) // rare: keep slices.Sort's NaN order exactly
			return xs[k]
		}
	}
	lo, hi := 0, len(xs)-1
	for lo < hi {
		// Median of three to the middle, then a Hoare partition around it.
		mid := lo + (hi-lo)/2
		if xs[mid] < xs[lo] {
			xs[mid], xs[lo] = xs[lo], xs[mid]
		}
		if xs[hi] < xs[lo] {
			xs[hi], xs[lo] = xs[lo], xs[hi]
		}
		if xs[hi] < xs[mid] {
			xs[hi], xs[mid] = xs[mid], xs[hi]
		}
		pivot := xs[mid]
		i, j := lo, hi
		for i <= j {
			for xs[i] < pivot {
				i++
			}
			for pivot < xs[j] {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		// Now xs[lo..j] <= pivot <= xs[i..hi], and xs[j+1..i-1] == pivot.
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return xs[k]
		}
	}
	return xs[k]
}
