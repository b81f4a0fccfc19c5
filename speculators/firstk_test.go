package speculators

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestFirstKMatchesFullSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 500; trial++ {
		n := r.IntN(60)
		xs := make([]int, n)
		for i := range xs {
			xs[i] = r.IntN(20) // ties on purpose
		}
		want := slices.Clone(xs)
		slices.Sort(want)
		k := r.IntN(70) - 5
		got := FirstK(slices.Clone(xs), k, cmp.Compare[int])
		wantK := want[:max(0, min(k, n))]
		if !slices.Equal(got, wantK) {
			t.Fatalf("n=%d k=%d: got %v, want %v", n, k, got, wantK)
		}
	}
}
