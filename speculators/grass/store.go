package grass

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sync"

	"github.com/specbridge/specbridge/speculators"
)

// Bound kinds a Sample records.
const (
	KindDeadline = "deadline"
	KindError    = "error"
)

// Algorithms a Sample records.
const (
	AlgoGS  = "gs"
	AlgoRAS = "ras"
)

// Sample is one earlier job's performance, run with GS or with RAS all
// through (§4.1-4.2), keyed by the three factors of §4.1 (the bound, cluster
// utilisation and estimation accuracy) and by its size bucket (§4.2, §6.1).
//
// Curve describes how the job did over its final stretch of work, so that a
// later job can estimate the effect of switching to GS at any remaining
// amount of work w: Curve[i] is the value at w = (i+1) x CurveStep waves.
// For deadline jobs w is time before the deadline in median task lengths and
// the value is the input tasks completed in that final time, in waves (tasks
// / slots); for error-bound jobs w is the final needed input tasks in waves
// and the value is the time they took, in median task lengths. Waves and
// median task lengths make jobs of different sizes and speeds comparable.
type Sample struct {
	Bucket      int       `json:"bucket"`
	Kind        string    `json:"kind"`
	Algorithm   string    `json:"algorithm"`
	Bound       float64   `json:"bound"` // error: epsilon; deadline: slack over the ideal duration (§6.1)
	Utilisation float64   `json:"utilisation"`
	Accuracy    float64   `json:"accuracy"` // mean of t_rem and t_new accuracies (§5.1), 0..1
	Tasks       int       `json:"tasks"`
	CurveStep   float64   `json:"curve_step"`
	Curve       []float64 `json:"curve"`
}

// Validate reports what is wrong with a sample read from outside.
func (s *Sample) Validate() error {
	switch {
	case s.Bucket < 0 || s.Bucket > 2:
		return fmt.Errorf("bucket %d: want 0, 1 or 2", s.Bucket)
	case s.Kind != KindDeadline && s.Kind != KindError:
		return fmt.Errorf("kind %q: want %q or %q", s.Kind, KindDeadline, KindError)
	case s.Algorithm != AlgoGS && s.Algorithm != AlgoRAS:
		return fmt.Errorf("algorithm %q: want %q or %q", s.Algorithm, AlgoGS, AlgoRAS)
	case !(s.CurveStep > 0):
		return fmt.Errorf("curve_step %g: want > 0", s.CurveStep)
	case s.Bound != s.Bound || s.Utilisation != s.Utilisation || s.Accuracy != s.Accuracy:
		return fmt.Errorf("bound, utilisation and accuracy must be numbers")
	}
	for i, v := range s.Curve {
		if v != v || v < 0 {
			return fmt.Errorf("curve[%d] = %g: want a number >= 0", i, v)
		}
	}
	return nil
}

// SampleStore holds samples of earlier jobs across jobs, sidecar restarts and
// replays. Load returns the samples of one size bucket in the order they
// were added; callers must not modify the slice. Add records one; an error
// means it was not kept (the policy carries on without it). Implementations
// shared by concurrent engines must be safe for concurrent use. Load is called
// from Decide and so must not touch a disk: file-backed stores read at open.
type SampleStore interface {
	Load(bucket int) []Sample
	Add(Sample) error
}

// SampleProvider is what a store shared by several policies (Env.Store holds
// one value) implements to hand GRASS its samples.
type SampleProvider interface {
	GRASSSamples() SampleStore
}

// MemoryStore is a SampleStore in memory, safe for concurrent use. Replays
// that want learning across their jobs without persistence use one per run.
type MemoryStore struct {
	mu      sync.Mutex
	buckets [3][]Sample
	prior   priorRuntimes
}

// NewMemoryStore returns an empty store, optionally holding samples.
func NewMemoryStore(samples ...Sample) *MemoryStore {
	m := &MemoryStore{}
	for _, s := range samples {
		_ = m.Add(s)
	}
	return m
}

// Load returns the bucket's samples (a snapshot; later Adds do not change it).
func (m *MemoryStore) Load(bucket int) []Sample {
	if bucket < 0 || bucket > 2 {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	b := m.buckets[bucket]
	return b[:len(b):len(b)]
}

// Add keeps a valid sample.
func (m *MemoryStore) Add(s Sample) error {
	if err := s.Validate(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.buckets[s.Bucket] = append(m.buckets[s.Bucket], s)
	return nil
}

// Bucket is a job's size bucket by its number of tasks (§6.1: small < 50,
// medium 51-500, large > 500). The paper leaves a job of exactly 50 tasks
// out; we count it small, so the buckets are <= smallMax, <= mediumMax, more.
func Bucket(tasks, smallMax, mediumMax int) int {
	switch {
	case tasks <= smallMax:
		return 0
	case tasks <= mediumMax:
		return 1
	default:
		return 2
	}
}

// RuntimePrior is what a SampleStore may also keep: the run times of
// completed tasks of earlier jobs, so that a job can estimate t_new before
// any of its own tasks has completed (see estimators). MemoryStore keeps it;
// a store without it leaves t_new unknown until the job's first completion.
type RuntimePrior interface {
	// AddRuntime records one completed task: its type, run time in ms and
	// input size in bytes (0: unknown).
	AddRuntime(ty speculators.TaskType, ms float64, inputBytes int64)
	// PriorRuntime is the estimate of a new task's run time in ms from
	// earlier jobs' completions, and whether there is one.
	PriorRuntime(ty speculators.TaskType, inputBytes int64) (float64, bool)
}

// PriorWindow is how many completions RuntimePrior keeps per task type and
// input size class: the most recent ones, older ones dropping out as new
// ones arrive, so that a long-running sidecar's memory (and its data file,
// grassamples) stays bounded and the prior follows the cluster as it
// changes. 10,000 is more than one replay of a bundled scenario completes in
// one class (about 7,800 tasks in a grass-*.yaml run), so a replay's prior
// is every earlier completion of the run.
const PriorWindow = 10000

// RuntimeRecord is one completed task of an earlier job, as RuntimePrior
// keeps it and grassamples persists it.
type RuntimeRecord struct {
	Type       speculators.TaskType
	Ms         float64
	InputBytes int64
}

// priorRuntimes holds RuntimePrior's completions: per task type and input
// size class (bits.Len64 of the input bytes, so that inputs in one
// power-of-two range [2^(k-1), 2^k) share class k; class 0 is unknown
// size), the run times per input byte (ms per byte; ms for class 0), sorted,
// and the same completions in arrival order (a ring of at most PriorWindow;
// head is the oldest once it is full).
type priorRuntimes struct {
	sorted [speculators.NumTaskTypes][65][]float64
	recent [speculators.NumTaskTypes][65][]RuntimeRecord
	head   [speculators.NumTaskTypes][65]int
}

// AddRuntime records a completed task of an earlier job (RuntimePrior). A
// record with a negative, NaN or infinite run time or an unknown type is
// ignored. Beyond PriorWindow completions of a type and class the oldest
// is forgotten.
func (m *MemoryStore) AddRuntime(ty speculators.TaskType, ms float64, inputBytes int64) {
	if !validRuntime(ty, ms) {
		return
	}
	class, x := priorKey(ms, inputBytes)
	r := RuntimeRecord{Type: ty, Ms: ms, InputBytes: max(inputBytes, 0)}
	m.mu.Lock()
	defer m.mu.Unlock()
	l, ring, head := &m.prior.sorted[ty][class], &m.prior.recent[ty][class], &m.prior.head[ty][class]
	if len(*ring) < PriorWindow {
		*ring = append(*ring, r)
	} else {
		_, old := priorKey((*ring)[*head].Ms, (*ring)[*head].InputBytes)
		if i, found := slices.BinarySearch(*l, old); found {
			*l = slices.Delete(*l, i, i+1)
		}
		(*ring)[*head] = r
		*head = (*head + 1) % PriorWindow
	}
	i, _ := slices.BinarySearch(*l, x)
	*l = slices.Insert(*l, i, x)
}

func validRuntime(ty speculators.TaskType, ms float64) bool {
	return ty < speculators.NumTaskTypes && ms >= 0 && !math.IsInf(ms, 0)
}

// PriorRuntimes returns the completions RuntimePrior holds, oldest first
// within each type and size class, for a store to write them out.
func (m *MemoryStore) PriorRuntimes() []RuntimeRecord {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []RuntimeRecord
	for ty := range m.prior.recent {
		for class := range m.prior.recent[ty] {
			ring, head := m.prior.recent[ty][class], m.prior.head[ty][class]
			out = append(out, ring[head:]...)
			out = append(out, ring[:head]...)
		}
	}
	return out
}

// PriorLen is how many completions RuntimePrior holds.
func (m *MemoryStore) PriorLen() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for ty := range m.prior.recent {
		for class := range m.prior.recent[ty] {
			n += len(m.prior.recent[ty][class])
		}
	}
	return n
}

func priorKey(ms float64, inputBytes int64) (int, float64) {
	if inputBytes <= 0 {
		return 0, ms
	}
	return bits.Len64(uint64(inputBytes)), ms / float64(inputBytes)
}

// PriorRuntime is the median run time per input byte of earlier jobs'
// completed tasks of the type in the same input size class, times
// inputBytes (RuntimePrior; see estimators in estimate.go).
func (m *MemoryStore) PriorRuntime(ty speculators.TaskType, inputBytes int64) (float64, bool) {
	if ty >= speculators.NumTaskTypes {
		return 0, false
	}
	class, _ := priorKey(0, inputBytes)
	m.mu.Lock()
	defer m.mu.Unlock()
	l := m.prior.sorted[ty][class]
	if len(l) == 0 {
		return 0, false
	}
	x := median(l)
	if class > 0 {
		x *= float64(inputBytes)
	}
	return x, true
}

// median is the middle of sorted values (the mean of the two middle ones).
func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}
