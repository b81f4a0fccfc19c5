package xulau

import (
	"math"

	"github.com/specbridge/specbridge/speculators"
)

// Straggler is a running task whose remaining time exceeds the threshold.
type Straggler struct {
	Task *speculators.Task
	// Left is the estimated remaining time t_rem in ms.
	Left float64
}

// Scan finds a job's stragglers (SDA's, and ESE's backup set D(l)) into
// buffers it keeps between calls, so that a Decide over thousands of
// running tasks allocates nothing once warm. The zero value is ready.
type Scan struct {
	buf, tmp   []Straggler
	keys, tmpK []uint64
	pos, tmpP  []int32
}

// Stragglers returns the tasks with a single attempt, running and never
// copied, whose remaining time t_rem (TimeLeft) exceeds threshold ms,
// longest t_rem first (ESE's order of D(l)), ties in the order of the scan
// (by type, then index). An attempt that has not reported progress yet is
// not judged. The slice is reused by the next call.
func (s *Scan) Stragglers(job *speculators.Job, c *Copies, threshold float64, now speculators.Time) []Straggler {
	c.size(job)
	s.buf = s.buf[:0]
	for ty := range job.Tasks {
		if job.RunningTasks[ty] == 0 {
			continue
		}
		asked := c.asked[ty]
		for _, t := range job.Tasks[ty] {
			if t.RunningAttempts != 1 || len(t.Attempts) != 1 || t.Done() || t.Dropped || asked[t.ID.Index] {
				continue
			}
			a := t.Attempts[0]
			if !a.Running() || a.Reports == 0 || a.Progress <= 0 {
				continue
			}
			if left := TimeLeft(a, now) * 1000; left > threshold {
				s.buf = append(s.buf, Straggler{Task: t, Left: left})
			}
		}
	}
	s.sortLongestFirst()
	return s.buf
}

// sortLongestFirst sorts buf by t_rem, longest first, keeping the scan's
// order among equal ones, in time linear in the stragglers (a comparison
// sort of ten thousand of them took most of a Decide): a stable LSD radix
// sort (11-bit digits) of each straggler's position keyed by the top 33
// bits of its t_rem's key, then a stable insertion sort on the whole key,
// which only moves stragglers whose keys agree in those 33 bits (t_rem
// within about one part in a million of each other), then one gather.
func (s *Scan) sortLongestFirst() {
	n := len(s.buf)
	if n < 2 {
		return
	}
	s.keys = speculators.Grow(s.keys[:0], n)[:n]
	s.tmpK = speculators.Grow(s.tmpK[:0], n)[:n]
	s.pos = speculators.Grow(s.pos[:0], n)[:n]
	s.tmpP = speculators.Grow(s.tmpP[:0], n)[:n]
	s.tmp = speculators.Grow(s.tmp[:0], n)[:n]
	for i, st := range s.buf {
		s.keys[i], s.pos[i] = descendingKey(st.Left), int32(i)
	}
	const bits, buckets, low = 11, 1 << 11, 64 - 3*11
	var count [buckets + 1]int32
	srcK, dstK, srcP, dstP := s.keys, s.tmpK, s.pos, s.tmpP
	for shift := uint(low); shift < 64; shift += bits {
		clear(count[:])
		for _, k := range srcK {
			count[(k>>shift)&(buckets-1)+1]++
		}
		if int(count[(srcK[0]>>shift)&(buckets-1)+1]) == n {
			continue // every key has this digit: the pass would not move anything
		}
		for b := 1; b < len(count); b++ {
			count[b] += count[b-1]
		}
		for i, k := range srcK {
			b := (k >> shift) & (buckets - 1)
			dstK[count[b]], dstP[count[b]] = k, srcP[i]
			count[b]++
		}
		srcK, dstK, srcP, dstP = dstK, srcK, dstP, srcP
	}
	for i := 1; i < n; i++ {
		k, p := srcK[i], srcP[i]
		j := i
		for ; j > 0 && srcK[j-1] > k; j-- {
			srcK[j], srcP[j] = srcK[j-1], srcP[j-1]
		}
		srcK[j], srcP[j] = k, p
	}
	for i, p := range srcP {
		s.tmp[i] = s.buf[p]
	}
	s.buf, s.tmp = s.tmp, s.buf
}

// descendingKey maps x to a key whose unsigned order is x's order reversed
// (the usual flip of IEEE 754 bits: negative numbers have every bit
// flipped, others the sign bit, which orders them ascending; then all bits
// are flipped again).
func descendingKey(x float64) uint64 {
	b := math.Float64bits(x)
	if b>>63 != 0 {
		return b // ^(^b)
	}
	return ^(b | 1<<63)
}
