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
