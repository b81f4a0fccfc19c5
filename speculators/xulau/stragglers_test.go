package xulau

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// The radix sort of the stragglers gives what a stable comparison sort by
// t_rem, longest first, gives: the order of SDA's and ESE's decisions (and
// so the simulator's results) does not depend on which sort runs. Ties
// (many equal t_rem, +Inf, zero, tiny and huge values) keep the scan order.
func TestSortLongestFirstIsStableDescending(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	near := 12345.678
	values := []float64{0, 1, 1, 2.5, 1e-300, 1e300, math.Inf(1), 3, 3, 3, -1, -2.5,
		near, math.Nextafter(near, 0), math.Nextafter(near, math.Inf(1)), near * (1 + 1e-9), near * (1 - 1e-9)}
	for _, n := range []int{0, 1, 2, 3, 17, 1000, 5000} {
		var s Scan
		tasks := make([]speculators.Task, n)
		for i := range n {
			tasks[i].ID = speculators.TaskID{Type: speculators.TaskType(i % 2), Index: int32(i)}
			left := values[r.IntN(len(values))]
			if r.IntN(2) == 0 {
				left = r.Float64() * 1e6
			}
			s.buf = append(s.buf, Straggler{Task: &tasks[i], Left: left})
		}
		want := slices.Clone(s.buf)
		slices.SortStableFunc(want, func(a, b Straggler) int { return cmp.Compare(b.Left, a.Left) })
		s.sortLongestFirst()
		for i := range want {
			if s.buf[i] != want[i] {
				t.Fatalf("n %d: position %d holds task %d (%g), want task %d (%g)", n, i,
					s.buf[i].Task.ID.Index, s.buf[i].Left, want[i].Task.ID.Index, want[i].Left)
			}
		}
	}
}

func BenchmarkSortLongestFirst10k(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 11))
	var s Scan
	tasks := make([]speculators.Task, 10000)
	orig := make([]Straggler, len(tasks))
	for i := range orig {
		orig[i] = Straggler{Task: &tasks[i], Left: 20000 + r.Float64()*80000}
	}
	for b.Loop() {
		s.buf = append(s.buf[:0], orig...)
		s.sortLongestFirst()
	}
}
