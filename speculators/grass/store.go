package grass

import (
	"errors"
	"math"
	"math/bits"
	"slices"
	"sync"

	"github.com/specbridge/specbridge/speculators"
)

// Bound kinds and algorithms a Sample records.
const (
	KindDeadline = speculators.SampleDeadline
	KindError    = speculators.SampleError
	AlgoGS       = speculators.SampleGS
	AlgoRAS      = speculators.SampleRAS
)

// Sample is one earlier job's performance (speculators.Sample; the core
// carries it in Learned and Prior).
type Sample = speculators.Sample

// RuntimeRecord is one completed task of an earlier job, as MemoryStore
// keeps it and grassamples persists it.
type RuntimeRecord = speculators.RuntimeRecord

// MemoryStore keeps what GRASS policies learned (speculators.Learned) in
// memory and hands it to later jobs as their speculators.Prior. It is the
// drivers' object, not the policies': a policy only reads it through Prior
// and hands its lessons out through Engine.Learned; the driver Keeps them
// (sim/replay after every engine call, the bridge the same, store/grassamples
// on disk around one). Safe for concurrent use.
type MemoryStore struct {
	mu      sync.Mutex
	buckets [3][]Sample
	prior   priorRuntimes
	// zeroRuntime: a run time of 0 ms was kept, so a median of the
	// prior's may fall to 0 again (positiveRuntimes).
	zeroRuntime bool
	// tails are the most recent finished jobs' map-time spreads, oldest
	// first, at most TailWindow (speculators.TailPrior).
	tails []speculators.TailFit
}

// TailWindow is how many finished jobs' TailFits a store keeps: the most
// recent ones, so that what a later job reads follows the workload as it
// changes (auto reads fewer still).
const TailWindow = 32

var _ speculators.TailPrior = (*MemoryStore)(nil)

// AddTail keeps a finished job's map-time spread; an invalid one is
// ignored. Beyond TailWindow of its kind the oldest of that kind is
// forgotten: records of a reduce ratio alone (TailFit.RatioOnly, auto's
// rule v39) and the others each have a window of their own, so that the
// ratio records, one a finished job of few reduces, push no map or reduce
// record out of what earlier rules read (at most 2 x TailWindow fits in
// all).
func (m *MemoryStore) AddTail(f speculators.TailFit) {
	if !f.Valid() {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	kind, oldest, n := tailKind(f), -1, 0
	for i, g := range m.tails {
		if tailKind(g) == kind {
			if oldest < 0 {
				oldest = i
			}
			n++
		}
	}
	if n >= TailWindow {
		m.tails = append(m.tails[:oldest:oldest], m.tails[oldest+1:]...)
	}
	m.tails = append(m.tails, f)
}

// tailKind is the window a fit is kept in: map and reduce records (0),
// rule v39's ratio-only records (1) and each kind of deadline record (rule
// v41's and its later kinds, 2 + its DeadlineMark) have TailWindow of their
// own, so that one kind never pushes another out. A record reaches here
// only if Valid, which admits known marks alone.
func tailKind(f speculators.TailFit) int {
	switch {
	case f.IsDeadline():
		return 2 + int(f.Mark)
	case f.RatioOnly():
		return 1
	}
	return 0
}

// TailFits returns the kept map-time spreads, oldest first (a snapshot).
func (m *MemoryStore) TailFits() []speculators.TailFit {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.tails[:len(m.tails):len(m.tails)]
}

var _ speculators.Prior = (*MemoryStore)(nil)

// NewMemoryStore returns an empty store, optionally holding samples.
func NewMemoryStore(samples ...Sample) *MemoryStore {
	m := &MemoryStore{}
	for _, s := range samples {
		_ = m.Add(s)
	}
	return m
}

// Samples returns the bucket's samples (a snapshot; later Adds do not
// change it).
func (m *MemoryStore) Samples(bucket int) []Sample {
	if bucket < 0 || bucket > 2 {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	b := m.buckets[bucket]
	return b[:len(b):len(b)]
}

// Keep adds everything l carries: its samples (an invalid one is skipped
// and reported in the error) and its run times.
func (m *MemoryStore) Keep(l speculators.Learned) error { return Keep(m, l) }

// Keeper is a store of what GRASS learned: MemoryStore, grassamples.Store.
type Keeper interface {
	Add(Sample) error
	AddRuntime(ty speculators.TaskType, ms float64, inputBytes int64)
}

// TailKeeper is a Keeper that also keeps finished jobs' map-time spreads.
type TailKeeper interface {
	AddTail(speculators.TailFit)
}

// Keep adds everything l carries to k: each sample with Add (the errors of
// those it could not keep are joined), each run time with AddRuntime, and
// each map-time spread with AddTail when k is a TailKeeper.
func Keep(k Keeper, l speculators.Learned) error {
	if tk, ok := k.(TailKeeper); ok {
		for _, f := range l.Tails {
			tk.AddTail(f)
		}
	}
	var errs []error
	for _, s := range l.Samples {
		if err := k.Add(s); err != nil {
			errs = append(errs, err)
		}
	}
	for _, r := range l.Runtimes {
		k.AddRuntime(r.Type, r.Ms, r.InputBytes)
	}
	return errors.Join(errs...)
}

// Clone returns an independent copy: a snapshot that later Keeps to either
// store do not change. A replay starts every policy run from one.
func (m *MemoryStore) Clone() *MemoryStore {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := &MemoryStore{tails: slices.Clone(m.tails), zeroRuntime: m.zeroRuntime}
	for b := range m.buckets {
		c.buckets[b] = slices.Clone(m.buckets[b])
	}
	for ty := range m.prior.sorted {
		for class := range m.prior.sorted[ty] {
			c.prior.sorted[ty][class] = m.prior.sorted[ty][class].clone()
			c.prior.recent[ty][class] = slices.Clone(m.prior.recent[ty][class])
			c.prior.head[ty][class] = m.prior.head[ty][class]
		}
	}
	return c
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

// PriorWindow is how many completions the prior keeps per task type and
// input size class: the most recent ones, older ones dropping out as new
// ones arrive, so that a long-running sidecar's memory (and its data file,
// grassamples) stays bounded and the prior follows the cluster as it
// changes. 10,000 is more than one replay of a bundled scenario completes in
// one class (about 7,800 tasks in a grass-*.yaml run), so a replay's prior
// is every earlier completion of the run.
const PriorWindow = 10000

// priorRuntimes holds the prior's completions: per task type and input
// size class (bits.Len64 of the input bytes, so that inputs in one
// power-of-two range [2^(k-1), 2^k) share class k; class 0 is unknown
// size), the run times per input byte (ms per byte; ms for class 0), sorted,
// and the same completions in arrival order (a ring of at most PriorWindow;
// head is the oldest once it is full).
type priorRuntimes struct {
	sorted [speculators.NumTaskTypes][65]sortedBlocks
	recent [speculators.NumTaskTypes][65][]RuntimeRecord
	head   [speculators.NumTaskTypes][65]int
}

// AddRuntime records a completed task of an earlier job. A
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
	m.zeroRuntime = m.zeroRuntime || ms == 0
	l, ring, head := &m.prior.sorted[ty][class], &m.prior.recent[ty][class], &m.prior.head[ty][class]
	if len(*ring) < PriorWindow {
		*ring = append(*ring, r)
	} else {
		_, old := priorKey((*ring)[*head].Ms, (*ring)[*head].InputBytes)
		(*ring)[*head] = r
		*head = (*head + 1) % PriorWindow
		l.remove(old)
	}
	l.insert(x)
}

// positiveRuntimes reports whether every run time the store kept is above
// 0 ms: then each PriorRuntime answer, once above 0, stays above 0 (a
// median of positive values), whatever the store keeps later, as long as
// it keeps no 0 ms run time (policy.DeferDecides).
func (m *MemoryStore) positiveRuntimes() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return !m.zeroRuntime
}

// sortedBlocks is a sorted list of values (a multiset) kept in blocks of
// at most priorBlock values, each sorted and each block's values at most
// the next block's, with its median kept until the list changes. The
// prior's window is full after PriorWindow completions, and then every
// completion takes the oldest value out and puts the new one in: in one
// sorted slice that moved a third of the window's 80 kB on average
// (replaceSorted then: 6% of gs's replay of xulau/sca-sda, issue 31); in
// blocks it moves at most a block's values, and the median, asked at every
// t_new from the prior, is found by a walk over the blocks' lengths once
// per change.
type sortedBlocks struct {
	blocks [][]float64
	n      int
	med    float64
	medOK  bool
}

// priorBlock is the most values a block of sortedBlocks holds; a block
// that grows past it is split in two halves.
const priorBlock = 256

// find is the first block whose last value is at least x (where x is, or
// goes), or the last block when x is above every value; -1 when empty.
func (s *sortedBlocks) find(x float64) int {
	lo, hi := 0, len(s.blocks)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if b := s.blocks[m]; b[len(b)-1] < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return min(lo, len(s.blocks)-1)
}

// insert puts x in at its place.
func (s *sortedBlocks) insert(x float64) {
	s.medOK = false
	s.n++
	if len(s.blocks) == 0 {
		s.blocks = append(s.blocks, append(make([]float64, 0, priorBlock+1), x))
		return
	}
	k := s.find(x)
	b := s.blocks[k]
	i, _ := slices.BinarySearch(b, x)
	b = slices.Insert(b, i, x)
	if len(b) > priorBlock {
		h := len(b) / 2
		next := append(make([]float64, 0, priorBlock+1), b[h:]...)
		b = b[:h]
		s.blocks = slices.Insert(s.blocks, k+1, next)
	}
	s.blocks[k] = b
}

// remove takes one value equal to x out and reports whether there was
// one. A block left with under a quarter of priorBlock values takes in
// the next block's when they fit in one; an empty block goes.
func (s *sortedBlocks) remove(x float64) bool {
	k := s.find(x)
	if k < 0 {
		return false
	}
	// Every block before k ends below x, so the first value equal to x,
	// if any, is in block k.
	b := s.blocks[k]
	i, found := slices.BinarySearch(b, x)
	if !found {
		return false
	}
	s.medOK = false
	s.n--
	b = slices.Delete(b, i, i+1)
	switch {
	case len(b) == 0:
		s.blocks = slices.Delete(s.blocks, k, k+1)
		return true
	case len(b) < priorBlock/4 && k+1 < len(s.blocks) && len(b)+len(s.blocks[k+1]) <= priorBlock:
		b = append(b, s.blocks[k+1]...)
		s.blocks = slices.Delete(s.blocks, k+1, k+2)
	}
	s.blocks[k] = b
	return true
}

// at is the value at place i (0-based) in order.
func (s *sortedBlocks) at(i int) float64 {
	for _, b := range s.blocks {
		if i < len(b) {
			return b[i]
		}
		i -= len(b)
	}
	panic("sortedBlocks: place out of range")
}

// median is the middle value (the mean of the two middle ones); the
// list must not be empty.
func (s *sortedBlocks) median() float64 {
	if !s.medOK {
		if s.n%2 == 1 {
			s.med = s.at(s.n / 2)
		} else {
			s.med = (s.at(s.n/2-1) + s.at(s.n/2)) / 2
		}
		s.medOK = true
	}
	return s.med
}

// values is the list's values in order (a new slice).
func (s *sortedBlocks) values() []float64 {
	out := make([]float64, 0, s.n)
	for _, b := range s.blocks {
		out = append(out, b...)
	}
	return out
}

// clone is an independent copy of s.
func (s *sortedBlocks) clone() sortedBlocks {
	c := *s
	c.blocks = make([][]float64, len(s.blocks))
	for i, b := range s.blocks {
		c.blocks[i] = append(make([]float64, 0, priorBlock+1), b...)
	}
	return c
}

func validRuntime(ty speculators.TaskType, ms float64) bool {
	return ty < speculators.NumTaskTypes && ms >= 0 && !math.IsInf(ms, 0)
}

// PriorRuntimes returns the completions the prior holds, oldest first
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

// PriorLen is how many completions the prior holds.
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
// inputBytes (speculators.Prior; see estimators in estimate.go).
func (m *MemoryStore) PriorRuntime(ty speculators.TaskType, inputBytes int64) (float64, bool) {
	if ty >= speculators.NumTaskTypes {
		return 0, false
	}
	class, _ := priorKey(0, inputBytes)
	m.mu.Lock()
	defer m.mu.Unlock()
	l := &m.prior.sorted[ty][class]
	if l.n == 0 {
		return 0, false
	}
	x := l.median()
	if class > 0 {
		x *= float64(inputBytes)
	}
	return x, true
}
