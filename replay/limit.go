package replay

import (
	"sort"

	"github.com/specbridge/specbridge/sim"
)

// LimitJobs keeps the n earliest-submitted jobs of every workload build
// makes (ties by workload order), in workload order, with the per-job
// fields and the faults that watch them: a quick look at a large input
// (replay --max-jobs). n <= 0 keeps everything. The jobs kept run on the
// same cluster as before, so they see less contention than in the whole
// workload: figures of a limited replay are a preview, not the input's.
func LimitJobs(build WorkloadFunc, n int) WorkloadFunc {
	if n <= 0 {
		return build
	}
	return func(seed uint64) (*Workload, error) {
		w, err := build(seed)
		if err != nil || len(w.Jobs) <= n {
			return w, err
		}
		order := make([]int, len(w.Jobs))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return w.Jobs[order[a]].Submit < w.Jobs[order[b]].Submit })
		keep := order[:n]
		sort.Ints(keep)
		out := *w
		out.Jobs = make([]sim.Job, 0, n)
		out.Groups = pick(w.Groups, keep)
		out.Overhead = pick(w.Overhead, keep)
		out.Recorded = pick(w.Recorded, keep)
		kept := map[string]bool{}
		for _, i := range keep {
			out.Jobs = append(out.Jobs, w.Jobs[i])
			kept[w.Jobs[i].ID] = true
		}
		out.Config.Triggers = nil
		for _, t := range w.Config.Triggers {
			if kept[t.Job] {
				out.Config.Triggers = append(out.Config.Triggers, t)
			}
		}
		return &out, nil
	}
}

// pick returns xs[i] for every i in keep, nil for an empty xs.
func pick[T any](xs []T, keep []int) []T {
	if len(xs) == 0 {
		return xs
	}
	out := make([]T, 0, len(keep))
	for _, i := range keep {
		out = append(out, xs[i])
	}
	return out
}
