package xulau

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// The radix sort of the stragglers gives what a stable comparison sort by
// t_rem, longest first, gives: the order of SDA's and ESE's decisions (and
// so the simulator's results) does not depend on which sort runs. Ties keep
// the scan order (spectest.Agree's inputs: many equal t_rem, ±Inf, zero,
// tiny and huge values, near-equal neighbours). Both sides give the tasks'
// indexes in their sorted order.
func TestSortLongestFirstIsStableDescending(t *testing.T) {
	scan := func(lefts []float64) (Scan, []speculators.Task) {
		var s Scan
		tasks := make([]speculators.Task, len(lefts))
		for i, left := range lefts {
			tasks[i].ID = speculators.TaskID{Type: speculators.TaskType(i % 2), Index: int32(i)}
			s.buf = append(s.buf, Straggler{Task: &tasks[i], Left: left})
		}
		return s, tasks
	}
	order := func(buf []Straggler) []float64 {
		out := make([]float64, len(buf))
		for i, st := range buf {
			out[i] = float64(st.Task.ID.Index)
		}
		return out
	}
	spectest.Agree(t, 7, 100, 100,
		func(lefts []float64, _ int) []float64 {
			s, _ := scan(lefts)
			s.sortLongestFirst()
			return order(s.buf)
		},
		func(lefts []float64, _ int) []float64 {
			s, _ := scan(lefts)
			slices.SortStableFunc(s.buf, func(a, b Straggler) int { return cmp.Compare(b.Left, a.Left) })
			return order(s.buf)
		})
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
