package sim

import (
	"fmt"
	"math"
	"sort"

	"github.com/specbridge/specbridge/speculators"
)

// TaskOrder is the order in which a job's original attempts are placed.
//
// Live, the ApplicationMaster's allocator orders original tasks, not the
// speculator: stock Hadoop places maps by locality and index. GRASS (§3.1)
// assumes SJF for deadline-bound jobs and LJF for error-bound ones, so the
// simulator offers both orders; a live job gets whatever its AM does (see
// DESIGN.md, "What is live and what is simulation-only").
type TaskOrder uint8

const (
	// OrderIndex places originals in task index order (Hadoop's order).
	OrderIndex TaskOrder = iota
	// OrderSJF places the smallest task first (shortest job first; GRASS
	// §3.1.1, deadline-bound jobs), by Job.OrderKey. Ties by index.
	OrderSJF
	// OrderLJF places the largest task first (longest job first; GRASS
	// §3.1.2, error-bound and exact jobs), by Job.OrderKey. Ties by index.
	OrderLJF
)

var taskOrderNames = [...]string{"index", "sjf", "ljf"}

// OrderKey is the task size SJF and LJF sort by.
type OrderKey uint8

const (
	// OrderByWork sorts by each task's Work: its true run time, noise
	// included. No scheduler knows that before the task runs, so it is an
	// oracle; it is the zero value so that hand-written jobs whose Work is
	// their given size (tests, examples) keep their order.
	OrderByWork OrderKey = iota
	// OrderByInput sorts by InputBytes, ties by index: the size a real
	// scheduler knows before a task runs. GRASS orders tasks by their
	// estimated duration, and its t_new is the job's completed durations
	// normalised by input size times the task's input (§5.1), so before
	// and while a job runs its estimated order is its input order. Tasks
	// of equal input (whole HDFS blocks) keep index order: a straggler's
	// extra time is not known until it runs. Replays of scenarios and
	// histories use this key.
	OrderByInput
)

func (o TaskOrder) String() string {
	if int(o) < len(taskOrderNames) {
		return taskOrderNames[o]
	}
	return fmt.Sprintf("TaskOrder(%d)", o)
}

// ParseTaskOrder reads "index" (or ""), "sjf" or "ljf".
func ParseTaskOrder(s string) (TaskOrder, error) {
	if s == "" {
		return OrderIndex, nil
	}
	for i, n := range taskOrderNames {
		if s == n {
			return TaskOrder(i), nil
		}
	}
	return 0, fmt.Errorf("unknown task order %q (index, sjf, ljf)", s)
}

// orderOriginals computes the placement order of j's original attempts:
// nil for index order, else a permutation of task indices by Job.OrderKey
// (Work or InputBytes), ties by index.
func (s *sim) orderOriginals(j *jobState) {
	if j.spec.Order == OrderIndex {
		return
	}
	for ty, specs := range [speculators.NumTaskTypes][]Task{j.spec.Maps, j.spec.Reduces} {
		perm := make([]int32, len(specs))
		for i := range perm {
			perm[i] = int32(i)
		}
		longest := j.spec.Order == OrderLJF
		sort.SliceStable(perm, func(a, b int) bool {
			wa, wb := specs[perm[a]].Work, specs[perm[b]].Work
			if j.spec.OrderKey == OrderByInput {
				wa, wb = specs[perm[a]].InputBytes, specs[perm[b]].InputBytes
			}
			if longest {
				return wa > wb
			}
			return wa < wb
		})
		j.order[ty] = perm
	}
}

// original returns the task at position pos of j's original order.
func (j *jobState) original(ty speculators.TaskType, pos int) int32 {
	if o := j.order[ty]; o != nil {
		return o[pos]
	}
	return int32(pos)
}

// enforces reports whether enforceBounds may ever drop a task of the job:
// it enforces bounds and has one (a scenario's jobs enforce by default,
// most with no bound).
func enforces(spec *Job) bool {
	return spec.EnforceBounds && (spec.Deadline > 0 || spec.ErrorBound > 0)
}

// enforceBounds plays the sidecar's bound rule for a job with
// Job.EnforceBounds, at the Decide cadence as the live sidecar checks it:
// once the job's Deadline has passed, every task not done is dropped (the
// job ends with the accuracy it has); once ceil((1-ErrorBound) x maps) maps
// are done, the remaining maps are dropped (reduces still run). Drops go
// through the same path as Drop decisions and count in DroppedTasks. It may
// finish the job.
func (s *sim) enforceBounds(ji int32) error {
	j := &s.jobs[ji]
	spec := j.spec
	if !enforces(spec) || j.finished {
		return nil
	}
	var types []speculators.TaskType
	switch {
	case spec.Deadline > 0 && s.now >= spec.Deadline:
		types = []speculators.TaskType{speculators.Map, speculators.Reduce}
	case spec.ErrorBound > 0 && s.mapsDone(j) >= BoundMaps(len(spec.Maps), spec.ErrorBound):
		types = []speculators.TaskType{speculators.Map}
	default:
		return nil
	}
	for _, ty := range types {
		for ti := range j.tasks[ty] {
			if j.finished {
				return nil
			}
			t := &j.tasks[ty][ti]
			if t.done() || t.dropped {
				continue
			}
			s.lastProgress = s.now
			if _, err := s.drop(ji, ty, int32(ti)); err != nil {
				return err
			}
		}
	}
	return nil
}

// mapsDone counts j's maps with a winning attempt.
func (s *sim) mapsDone(j *jobState) int {
	n := 0
	for i := range j.tasks[speculators.Map] {
		if j.tasks[speculators.Map][i].done() {
			n++
		}
	}
	return n
}

// BoundMaps is how many of a job's maps must be done to meet an error
// bound: ceil((1-errorBound) x maps), at least 1 when there are maps. A
// tiny epsilon forgives float noise (0.8 x 10 is 8, not 8.000000001).
func BoundMaps(maps int, errorBound float64) int {
	if maps == 0 {
		return 0
	}
	need := int(math.Ceil((1-errorBound)*float64(maps) - 1e-9))
	return min(max(need, 1), maps)
}
