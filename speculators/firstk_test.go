package speculators

import (
	"cmp"
	"math"
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

func TestKthSmallestMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 2000; trial++ {
		n := 1 + r.IntN(80)
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(r.IntN(15)) // ties on purpose
			if trial%7 == 0 && r.IntN(10) == 0 {
				xs[i] = math.Inf(1 - 2*r.IntN(2))
			}
			if trial%50 == 0 && r.IntN(20) == 0 {
				xs[i] = math.NaN()
			}
		}
		want := slices.Clone(xs)
		slices.Sort(want)
		k := r.IntN(n)
		got := KthSmallest(slices.Clone(xs), k)
		if got != want[k] && !(got != got && want[k] != want[k]) {
			t.Fatalf("n=%d k=%d: got %v, want %v (of %v)", n, k, got, want[k], xs)
		}
	}
}
