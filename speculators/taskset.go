package speculators

import "math/bits"

// TaskSet is a set of task indices of one type, for a policy that visits
// only some of a job's tasks in index order (the tasks it visits, in the
// order it visits them, stay those of a loop over Job.Tasks).
type TaskSet []uint64

// NewTaskSet is an empty set for n tasks.
func NewTaskSet(n int) TaskSet { return make(TaskSet, (n+63)/64) }

// Set adds (on) or removes task i.
func (b TaskSet) Set(i int, on bool) {
	if on {
		b[i/64] |= 1 << (i % 64)
	} else {
		b[i/64] &^= 1 << (i % 64)
	}
}

// Each calls f with every index in b or in also (nil: none), ascending. f
// may change either set; a word's members are read before its first call.
func (b TaskSet) Each(also TaskSet, f func(i int)) {
	for k := range b {
		w := b[k]
		if also != nil {
			w |= also[k]
		}
		for w != 0 {
			f(k*64 + bits.TrailingZeros64(w))
			w &= w - 1
		}
	}
}

// Next is the least index >= i in b, or -1: for a loop that may stop early,
// for i := b.Next(0); i >= 0; i = b.Next(i + 1).
func (b TaskSet) Next(i int) int {
	k := i / 64
	if i < 0 || k >= len(b) {
		return -1
	}
	w := b[k] >> (i % 64)
	if w != 0 {
		return i + bits.TrailingZeros64(w)
	}
	for k++; k < len(b); k++ {
		if b[k] != 0 {
			return k*64 + bits.TrailingZeros64(b[k])
		}
	}
	return -1
}
