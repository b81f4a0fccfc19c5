package spectest

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Shapes of the slices floats draws: the inputs that break selection and
// sorting code.
const (
	uniform    = iota // uniform in [0, 1)
	ties              // three distinct values
	ascending         // already sorted
	descending        // sorted the other way
	hard              // ties, zero, negatives, tiny and huge values, ±Inf and near-equal neighbours, beside uniform values up to 1e6
	numShapes
)

// near and its neighbours differ in their last bits only: a radix or
// bucketed sort that drops low bits must still order them.
const near = 12345.678

var hardValues = []float64{0, 1, 1, 2.5, 1e-300, 1e300, math.Inf(1), math.Inf(-1), 3, 3, 3, -1, -2.5,
	near, math.Nextafter(near, 0), math.Nextafter(near, math.Inf(1)), near * (1 + 1e-9), near * (1 - 1e-9)}

// floats returns n values drawn by r in the given shape.
func floats(r *rand.Rand, n, shape int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		switch shape {
		case uniform:
			xs[i] = r.Float64()
		case ties:
			xs[i] = float64(r.IntN(3))
		case ascending:
			xs[i] = float64(i)
		case descending:
			xs[i] = float64(n - i)
		default:
			xs[i] = hardValues[r.IntN(len(hardValues))]
			if r.IntN(2) == 0 {
				xs[i] = r.Float64() * 1e6
			}
		}
	}
	return xs
}

// Agree checks a fast selection or sorting routine against a plain
// reference on random inputs: for trials slices from floats, the shapes in
// turn, of random lengths below maxLen (one in ten up to ten times longer,
// to cross size cutoffs), drawn from a generator seeded with seed so that a
// failure reproduces, fast and ref each get their own copy and the trial's
// number (for its own choices, such as k) and must return the same values,
// NaN matching NaN.
func Agree(t testing.TB, seed uint64, trials, maxLen int, fast, ref func(xs []float64, trial int) []float64) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, seed+1))
	for trial := range trials {
		n := r.IntN(maxLen)
		if trial%10 == 9 {
			n = r.IntN(10 * maxLen)
		}
		xs := floats(r, n, trial%numShapes)
		got, want := fast(slices.Clone(xs), trial), ref(slices.Clone(xs), trial)
		if !slices.EqualFunc(got, want, func(a, b float64) bool { return a == b || a != a && b != b }) {
			t.Fatalf("trial %d, %d values: got %v, want %v (input %v)", trial, n, got, want, xs)
		}
	}
}
