package speculators

import (
	"math/bits"
	"slices"
)

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
// were sorted with slices.Sort, rearranging xs in place, in O(n) time: a
// policy that needs the k-th shortest of thousands of durations, or a
// percentile of thousands of rates, not their order, so avoids a full sort.
// It partitions three ways around a median-of-three pivot, so runs of equal
// values cost nothing, and falls back to sorting after 2*log2(n) rounds, so
// it is never quadratic (deterministic: no random pivot). NaNs sort first, as
// in slices.Sort. k must be in [0, len(xs)). This is the project's one
// selection; Percentile is built on it.
func KthSmallest(xs []float64, k int) float64 {
	if hasNaN(xs) {
		slices.Sort(xs) // rare: keep slices.Sort's NaN order exactly
		return xs[k]
	}
	lo, hi := 0, len(xs) // the rank-k value lies in xs[lo:hi]
	for budget := 2 * bits.Len(uint(len(xs))); hi-lo > 16; budget-- {
		if budget == 0 {
			break
		}
		pivot := medianOf3(xs[lo], xs[lo+(hi-lo)/2], xs[hi-1])
		lt, gt := partition3(xs[lo:hi], pivot)
		lt, gt = lo+lt, lo+gt
		switch {
		case k < lt:
			hi = lt
		case k >= gt:
			lo = gt
		default:
			return xs[k]
		}
	}
	slices.Sort(xs[lo:hi])
	return xs[k]
}

func hasNaN(xs []float64) bool {
	for _, x := range xs {
		if x != x {
			return true
		}
	}
	return false
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

// partition3 rearranges xs around pivot, three ways: xs[:lt] < pivot,
// xs[lt:gt] == pivot, xs[gt:] > pivot. It is the one partition of
// KthSmallest and kthOfUnion.
func partition3(xs []float64, pivot float64) (lt, gt int) {
	i := 0
	gt = len(xs)
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
	return lt, gt
}
