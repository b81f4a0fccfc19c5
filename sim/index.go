package sim

import (
	"fmt"
	"math/bits"

	"github.com/specbridge/specbridge/speculators"
)

// The active-job index: which running jobs a scheduling round, a Decide
// tick and reduce preemption must look at, kept up to date by the events
// that change it instead of found by a pass over every running job at every
// round (issue 31). A job's place in the index is its submit rank (the
// order of s.active), so a pass over an index set visits jobs in submit
// order, as the passes over s.active it replaces did, and every choice is
// the same.
//
// What changes a job's membership is a change of its waiting work (a
// retry queued or placed, an original placed, a copy asked for or placed:
// touch), of its maps done (slow start, mapsChanged), of its running
// attempts (launch, end) or its end (finishJob); each calls reindex.

// jobSet is a set of submit ranks: a bit set with a summary word per 64
// words, so that a pass costs the members and the summary, not the day's
// jobs.
type jobSet struct {
	words   []uint64
	summary []uint64
	n       int
}

func (b *jobSet) put(r int32, on bool) {
	w := int(r >> 6)
	for w >= len(b.words) {
		b.words = append(b.words, 0)
		if (len(b.words)-1)>>6 >= len(b.summary) {
			b.summary = append(b.summary, 0)
		}
	}
	bit := uint64(1) << (r & 63)
	was := b.words[w]&bit != 0
	if was == on {
		return
	}
	if on {
		b.words[w] |= bit
		b.summary[w>>6] |= 1 << (w & 63)
		b.n++
		return
	}
	b.words[w] &^= bit
	if b.words[w] == 0 {
		b.summary[w>>6] &^= 1 << (w & 63)
	}
	b.n--
}

// next returns the least member at or after r, or -1.
func (b *jobSet) next(r int32) int32 {
	if r < 0 {
		r = 0
	}
	w := int(r >> 6)
	if w >= len(b.words) {
		return -1
	}
	if x := b.words[w] >> (r & 63); x != 0 {
		return r + int32(bits.TrailingZeros64(x))
	}
	// The next non-empty word after w, from the summary.
	w++
	for sw := w >> 6; sw < len(b.summary); sw++ {
		x := b.summary[sw]
		if sw == w>>6 {
			x &= ^uint64(0) << (w & 63)
		}
		if x != 0 {
			wi := sw<<6 + bits.TrailingZeros64(x)
			return int32(wi<<6 + bits.TrailingZeros64(b.words[wi]))
		}
	}
	return -1
}

// copyFrom makes b hold src's members. It costs the non-empty words of
// the two sets, not the ranks they span: a set's summary bit is on exactly
// when its word is non-empty (put).
func (b *jobSet) copyFrom(src *jobSet) {
	b.reset()
	if n := len(src.words) - len(b.words); n > 0 {
		b.words = append(b.words, make([]uint64, n)...)
	}
	if n := len(src.summary) - len(b.summary); n > 0 {
		b.summary = append(b.summary, make([]uint64, n)...)
	}
	copy(b.summary, src.summary)
	for sw, x := range src.summary {
		for ; x != 0; x &= x - 1 {
			w := sw<<6 + bits.TrailingZeros64(x)
			b.words[w] = src.words[w]
		}
	}
	b.n = src.n
}

// reset empties b at a cost of its non-empty words.
func (b *jobSet) reset() {
	for sw, x := range b.summary {
		for ; x != 0; x &= x - 1 {
			b.words[sw<<6+bits.TrailingZeros64(x)] = 0
		}
		b.summary[sw] = 0
	}
	b.n = 0
}

// jobIndex is the run's active-job index.
type jobIndex struct {
	// byRank maps a submit rank to its job.
	byRank []int32
	// placeable: a scheduling round's candidates (gatherCandidates: no
	// job order of their own, and something to place somewhere, or a
	// pull-based policy with attempts running). waiting: jobs for which a
	// free slot could be used (anythingWaiting). starving: jobs whose own
	// reduces may have to be preempted for their maps (preemptReduces).
	placeable, waiting, starving jobSet
	// copyJobs counts jobs with copies asked for and not placed;
	// pullRunning counts pull-based jobs with attempts running.
	copyJobs, pullRunning int
}

// jobFlags are a job's memberships, as last indexed.
type jobFlags uint8

const (
	inPlaceable jobFlags = 1 << iota
	inWaiting
	inStarving
	hasCopies
	pullRunning
)

// rankJob gives a job just made active its submit rank.
func (s *sim) rankJob(j *jobState) {
	j.rank = int32(len(s.index.byRank))
	s.index.byRank = append(s.index.byRank, j.index)
	j.ranked = true
}

// flagsOf is what the index should hold of job j now.
func (s *sim) flagsOf(j *jobState) jobFlags {
	if j.finished || !j.ranked {
		return 0
	}
	var f jobFlags
	pullRun := j.chooser && j.running > 0
	if pullRun {
		f |= pullRunning
	}
	if j.copyCount[0]+j.copyCount[1] > 0 {
		f |= hasCopies
	}
	if j.needs(speculators.Map)+j.needs(speculators.Reduce) > 0 || pullRun {
		f |= inWaiting
	}
	if !s.orderedNow(j) && (pullRun || s.mayPlaceNow(j)) {
		f |= inPlaceable
	}
	if j.starving() {
		f |= inStarving
	}
	return f
}

// reindex brings job j's entries in the index up to date.
func (s *sim) reindex(j *jobState) {
	f := s.flagsOf(j)
	old := j.flags
	if f == old {
		return
	}
	j.flags = f
	ix, ch := &s.index, f^old
	if ch&inPlaceable != 0 {
		ix.placeable.put(j.rank, f&inPlaceable != 0)
	}
	if ch&inWaiting != 0 {
		ix.waiting.put(j.rank, f&inWaiting != 0)
	}
	if ch&inStarving != 0 {
		ix.starving.put(j.rank, f&inStarving != 0)
	}
	if ch&hasCopies != 0 {
		ix.copyJobs += count(f&hasCopies != 0)
	}
	if ch&pullRunning != 0 {
		ix.pullRunning += count(f&pullRunning != 0)
	}
}

// count is +1 for an entry added, -1 for one removed.
func count(added bool) int {
	if added {
		return 1
	}
	return -1
}

// verifyIndex checks the index against a pass over every running job (a
// test runs it after every event: sim.checkIndex).
func (s *sim) verifyIndex() error {
	var placeable, waiting, starving, copyJobs, pullRun int
	for _, ji := range s.active {
		j := &s.jobs[ji]
		f := s.flagsOf(j)
		if f != j.flags {
			return fmt.Errorf("sim: index at %d ms: job %s indexed %05b, is %05b", s.now, j.spec.ID, j.flags, f)
		}
		for _, m := range []struct {
			set  *jobSet
			flag jobFlags
			n    *int
		}{{&s.index.placeable, inPlaceable, &placeable}, {&s.index.waiting, inWaiting, &waiting}, {&s.index.starving, inStarving, &starving}} {
			in := m.set.next(j.rank) == j.rank
			if in != (f&m.flag != 0) {
				return fmt.Errorf("sim: index at %d ms: job %s: set bit %v, flag %05b", s.now, j.spec.ID, in, f)
			}
			if in {
				*m.n++
			}
		}
		if f&hasCopies != 0 {
			copyJobs++
		}
		if f&pullRunning != 0 {
			pullRun++
		}
	}
	ix := &s.index
	if placeable != ix.placeable.n || waiting != ix.waiting.n || starving != ix.starving.n || copyJobs != ix.copyJobs || pullRun != ix.pullRunning {
		return fmt.Errorf("sim: index at %d ms: sets hold %d, %d, %d jobs and counts %d, %d; a pass finds %d, %d, %d and %d, %d",
			s.now, ix.placeable.n, ix.waiting.n, ix.starving.n, ix.copyJobs, ix.pullRunning, placeable, waiting, starving, copyJobs, pullRun)
	}
	return nil
}
