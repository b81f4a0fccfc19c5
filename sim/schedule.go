package sim

import (
	"math/bits"

	"github.com/specbridge/specbridge/speculators"
)

// pick is what a job would run in one free slot.
type pick struct {
	ty          speculators.TaskType
	task        int32
	source      uint8 // fromRetry, fromOriginal, fromCopy
	copyPos     int   // index in the copy queue (fromCopy) or original order (fromOriginal)
	speculative bool
}

const (
	fromRetry uint8 = iota
	fromOriginal
	fromCopy
	// The policy's choice (pull.go): a task's retry or original out of
	// queue order, or a copy of a running task not asked for by Decide.
	chosenRetry
	chosenOriginal
	chosenCopy
)

// schedule places waiting attempts on free slots. Nodes are visited round
// robin, one container per node per sweep, as YARN spreads allocations over
// NodeManager heartbeats; hung nodes get nothing. Each free slot goes to a
// job chosen by the scheduler (FIFO: earliest submitted; fair: fewest
// running containers) among the jobs with something to run there. When
// placement is done, reduces that starve their own job's maps are preempted
// (see preemptReduces) and placement runs again. Originals recorded on a
// node go there first when it has room (Task.Node, pin.go).
func (s *sim) schedule() error {
	s.needSchedule = false
	s.prioValid = false
	if s.cfg.JobOrder.Mode == JobOrderYARN && s.anyPrio && s.now >= s.yarnNext {
		s.readYARNOrder()
	}
	if !s.anythingWaiting() {
		return nil
	}
	nn := len(s.nodes)
	for {
		placed := false
		if s.freeSlots > 0 {
			s.gatherCandidates()
		} else {
			s.candidates.reset()
		}
		if s.pinWaiting > 0 && s.freeSlots > 0 {
			ok, err := s.placePinned()
			if err != nil {
				return err
			}
			if ok {
				s.gatherCandidates() // a job may have nothing left to place
			}
		}
		// With no candidate and nothing left in the job order every node
		// would refuse.
		sweep := s.candidates.n > 0 || s.orderLive()
		for ni := s.nextFree(s.cursor, nn); sweep && (s.candidates.n > 0 || s.orderLive()) && ni >= 0 && s.freeSlots > 0; ni = s.nextFree(ni+1, nn) {
			ok, err := s.offer(int32(ni))
			if err != nil {
				return err
			}
			placed = placed || ok
		}
		for ni := s.nextFree(0, s.cursor); sweep && (s.candidates.n > 0 || s.orderLive()) && ni >= 0 && s.freeSlots > 0; ni = s.nextFree(ni+1, s.cursor) {
			ok, err := s.offer(int32(ni))
			if err != nil {
				return err
			}
			placed = placed || ok
		}
		if placed && s.freeSlots > 0 {
			continue
		}
		freed, err := s.preemptReduces()
		if err != nil {
			return err
		}
		if !freed {
			break
		}
	}
	s.cursor = (s.cursor + 1) % nn
	return nil
}

// offer places at most one attempt in each free pool of node ni.
func (s *sim) offer(ni int32) (bool, error) {
	n := &s.nodes[ni]
	if n.hung {
		return false, nil
	}
	placed := false
	for p := 0; p < n.pools; p++ {
		if n.free[p] == 0 {
			continue
		}
		ok, err := s.placeOne(ni, p)
		if err != nil {
			return placed, err
		}
		placed = placed || ok
		for ok && n.free[p] > 0 && s.cfg.Placement == PlacementPack {
			if ok, err = s.placeOne(ni, p); err != nil {
				return placed, err
			}
		}
	}
	return placed, nil
}

// nextFree returns the first node in [from, to) with a free slot, or -1.
func (s *sim) nextFree(from, to int) int {
	for from < to {
		w := s.freeBits[from/64] >> (from % 64)
		if w != 0 {
			if ni := from + bits.TrailingZeros64(w); ni < to {
				return ni
			}
			return -1
		}
		from = (from/64 + 1) * 64
	}
	return -1
}

// takeSlot and giveSlot keep the free-slot counts and bits.
func (s *sim) takeSlot(ni int32, ty speculators.TaskType) {
	n := &s.nodes[ni]
	n.free[n.pool(ty)]--
	s.freeSlots--
	if n.pools == 2 && ty == speculators.Reduce {
		s.reduceFree--
	}
	if n.free[0]+n.free[1] == 0 {
		s.freeBits[ni/64] &^= 1 << (ni % 64)
	}
}

func (s *sim) giveSlot(ni int32, ty speculators.TaskType) {
	n := &s.nodes[ni]
	n.free[n.pool(ty)]++
	s.freeSlots++
	if n.pools == 2 && ty == speculators.Reduce {
		s.reduceFree++
	}
	s.freeBits[ni/64] |= 1 << (ni % 64)
}

// anythingWaiting reports whether a free slot could be used: a job needs
// containers, or a pull-based job has attempts running that it might copy
// (the index's waiting set, index.go).
func (s *sim) anythingWaiting() bool {
	return s.index.waiting.n > 0
}

// gatherCandidates takes, as a set of submit ranks, the running jobs
// without a job order of their own (placeOne asks those first) that might
// place an attempt on some node in this scheduling round: jobs that have
// nothing anywhere (every original launched, no retry, no copy asked for,
// reduces behind slow start) would refuse every node, and with thousands
// of nodes asking each of them about each free node was most of a big
// replay's time (docs/scale.md). Placing an attempt of one job does not
// make another placeable, so the set holds for the round; it only narrows
// the loop and changes no choice. Jobs with an order of their own are
// asked first, by pickByPriority, and are not in it; a pull-based job with
// attempts running is in it and asked whether it wants a slot only when
// placeOne reaches it (FIFO stops at the first job that takes the slot).
// The set is a copy of the index's placeable set (index.go), kept by the
// events that change it, and placeOne walks it in submit order: a copy
// costs the set's non-empty words. It was a list of every placeable job,
// built at each round though FIFO's scan mostly stops at the first few: on
// xulau/ese under gs (thousands of queued jobs), 16% of the replay (issue
// 31).
func (s *sim) gatherCandidates() {
	s.round++ // a new round: pull-based policies asked afresh (wants)
	s.candidates.copyFrom(&s.index.placeable)
}

// mayPlace reports whether job j might place an attempt on some node now:
// a retry, a copy asked for, an original (reduces once slow start is met),
// or a pull-based policy that wants a slot (pull.go).
func (s *sim) mayPlace(j *jobState) bool {
	return s.mayPlaceNow(j) || s.wantsPull(j)
}

// mayPlaceNow is mayPlace without asking a pull-based policy: what the
// simulator's own queues hold.
func (s *sim) mayPlaceNow(j *jobState) bool {
	return j.retryCount[0]+j.retryCount[1]+j.copyCount[0]+j.copyCount[1] > 0 ||
		j.origPending[speculators.Map] > 0 ||
		j.origPending[speculators.Reduce] > 0 && j.mapFraction() >= j.slowstart(s.cfg.ReduceSlowstart)
}

// placeOne launches one attempt in pool p of node ni, if any job has one
// that may run there.
func (s *sim) placeOne(ni int32, p int) (bool, error) {
	n := &s.nodes[ni]
	lo, hi := speculators.Map, speculators.Reduce
	if n.pools == 2 {
		lo, hi = speculators.TaskType(p), speculators.TaskType(p)
	}
	if s.anyPrio {
		if ji, pk, ok := s.pickByPriority(ni, lo, hi); ok {
			return true, s.place(ji, ni, pk)
		}
	}
	best, bestPick, found := int32(none), pick{}, false
	cands, byRank, dropped := &s.candidates, s.index.byRank, false
	for r := cands.next(0); r >= 0; r = cands.next(r + 1) {
		ji := byRank[r]
		j := &s.jobs[ji]
		if found && j.running >= s.jobs[best].running {
			continue // fair: only a job with fewer running containers can beat best
		}
		if pk, ok := s.pickFor(j, ni, lo, hi); ok {
			best, bestPick, found = ji, pk, true
			if !s.fair {
				break
			}
		} else if !s.mayPlace(j) {
			// A job that has nothing left to place anywhere would refuse
			// every other node of the round too (a placement changes only
			// its own job): keep it out of the rest of the round. Only the
			// jobs this scan visits are judged; one further on that has
			// nothing left is judged when a scan reaches it, where it
			// refuses as it would have been left out: a job out of a
			// round's set is one whose visit changes nothing (not offered
			// before: it would place, or have nothing at all and not be
			// in the set; wants keeps its answer). Judging every job of
			// the set at each such offer asked each policy again and
			// again (issue 31).
			cands.put(r, false)
			dropped = true
		}
	}
	if dropped && s.eagerDrop {
		// The former clean-up, for TestLazyDropMatchesEager.
		for r := cands.next(0); r >= 0; r = cands.next(r + 1) {
			if ji := byRank[r]; ji != best && !s.mayPlace(&s.jobs[ji]) {
				cands.put(r, false)
			}
		}
	}
	if !found {
		return false, nil
	}
	return true, s.place(best, ni, bestPick)
}

// pickFor chooses what job j would run on node ni with task types lo..hi:
// maps first (retries of failed, killed or re-run maps, then originals in
// index order), then reduces (retries, then originals once slow start is
// met), then speculative copies in the order asked for, only where the
// policy allows copies and the task has no running attempt on the node.
// Reduce retries wait behind maps so that a preempted reduce does not take
// back the container its maps need, and while the job's maps wait with
// none running no reduce of it is placed in a shared container
// (rampedDown). A copy of a task with no attempt running stands in for the
// attempt that ended (jobState.starving): the policy's node gate, which
// chooses where a second attempt may run, does not hold it back.
func (s *sim) pickFor(j *jobState, ni int32, lo, hi speculators.TaskType) (pick, bool) {
	if j.chooser {
		if pk, ok := s.chosen(j, ni, lo, hi); ok {
			return pk, true
		}
	}
	shared := lo != hi // a dedicated reduce slot cannot serve the maps
	for ty := lo; ty <= hi; ty++ {
		if shared && s.rampedDown(j, ty) {
			continue
		}
		if j.retryCount[ty] > 0 {
			q := j.retry[ty]
			for h := j.retryHead[ty]; h < len(q); h++ {
				if j.tasks[ty][q[h]].inRetry {
					j.retryHead[ty] = h
					return pick{ty: ty, task: q[h], source: fromRetry}, true
				}
			}
		}
		if j.origPending[ty] == 0 {
			continue
		}
		if ty == speculators.Reduce && j.mapFraction() < j.slowstart(s.cfg.ReduceSlowstart) {
			continue
		}
		tasks := j.tasks[ty]
		for i := j.origNext[ty]; i < len(tasks); i++ {
			if ti := j.original(ty, i); !tasks[ti].launched {
				j.origNext[ty] = i
				return pick{ty: ty, task: ti, source: fromOriginal, copyPos: i}, true
			}
		}
	}
	gateAsked, allowed := false, false
	for ty := lo; ty <= hi; ty++ {
		if j.copyCount[ty] == 0 || shared && s.rampedDown(j, ty) {
			continue
		}
		if !gateAsked {
			gateAsked, allowed = true, s.allowsCopyOn(j, ni)
		}
		for k, ti := range j.copies[ty] {
			t := &j.tasks[ty][ti]
			if t.pendingCopies > 0 && (allowed || t.running == 0) && !s.besideItself(j, ty, ti, ni) {
				return pick{ty: ty, task: ti, source: fromCopy, copyPos: k, speculative: true}, true
			}
		}
	}
	return pick{}, false
}

// allowsCopyOn reports whether job j's policy lets a copy run on node ni:
// always under YARNPlacement, where the policy cannot choose the node.
func (s *sim) allowsCopyOn(j *jobState, ni int32) bool {
	if s.cfg.YARNPlacement {
		return true
	}
	s.settle(j)
	return j.engine.AllowSpeculativeOn(s.nodes[ni].id, s.now)
}

// besideItself reports whether a copy of the task placed on node ni would
// run beside one of its running attempts, which the simulator avoids unless
// it places copies as YARN does (YARNPlacement).
func (s *sim) besideItself(j *jobState, ty speculators.TaskType, ti int32, ni int32) bool {
	return !s.cfg.YARNPlacement && s.runsOn(j, ty, ti, ni)
}

// runsOn reports whether a task has a running attempt on node ni.
func (s *sim) runsOn(j *jobState, ty speculators.TaskType, ti int32, ni int32) bool {
	for ai := j.tasks[ty][ti].first; ai != none; ai = s.attempts.at(ai).nextInTask {
		a := s.attempts.at(ai)
		if a.node == ni && a.state == speculators.StateRunning {
			return true
		}
	}
	return false
}

// place takes pk off its queue and launches it.
func (s *sim) place(ji int32, ni int32, pk pick) error {
	j := &s.jobs[ji]
	t := &j.tasks[pk.ty][pk.task]
	switch pk.source {
	case fromRetry:
		t.inRetry = false
		j.retryCount[pk.ty]--
		j.retryHead[pk.ty]++
		s.compactRetry(j, pk.ty)
	case fromOriginal:
		t.launched = true
		j.origPending[pk.ty]--
		j.origNext[pk.ty] = pk.copyPos + 1
	case chosenRetry:
		t.inRetry = false
		j.retryCount[pk.ty]--
		s.compactRetry(j, pk.ty)
	case chosenOriginal:
		t.launched = true
		j.origPending[pk.ty]--
	case fromCopy:
		t.pendingCopies--
		j.copyCount[pk.ty]--
		if t.pendingCopies == 0 {
			t.inCopyQueue = false
			q := j.copies[pk.ty]
			j.copies[pk.ty] = append(q[:pk.copyPos], q[pk.copyPos+1:]...)
		}
	}
	s.touch(j)
	if (pk.source == fromOriginal || pk.source == chosenOriginal) && j.cloner {
		return s.launchCloned(ji, pk.ty, pk.task, ni)
	}
	if pk.speculative {
		ni = s.yarnNode(pk.ty, ni)
	}
	return s.launch(ji, pk.ty, pk.task, ni, pk.speculative, false)
}

// yarnNode is the node a copy of type ty offered node ni runs on: under
// YARNPlacement a node drawn at random (placeRng, seeded by Config.Seed)
// among those not hung with room for it (ni among them; ni when there is
// none, -1 for a clone that was offered no node), as the
// ResourceManager gives the AM's container to whichever NodeManager with
// room heartbeats first; else ni. So a replay's runs place a copy on the
// cluster's nodes in proportion, a slow node as often as it is one, instead
// of on the node the round-robin sweep happens to offer (the same node in
// every run where the recorded originals pin the sweep).
func (s *sim) yarnNode(ty speculators.TaskType, ni int32) int32 {
	if !s.cfg.YARNPlacement {
		return ni
	}
	free := s.nodeScratch[:0]
	for k := s.nextFree(0, len(s.nodes)); k >= 0; k = s.nextFree(k+1, len(s.nodes)) {
		if n := &s.nodes[k]; !n.hung && n.free[n.pool(ty)] > 0 {
			free = append(free, int32(k))
		}
	}
	s.nodeScratch = free
	if len(free) == 0 {
		return ni
	}
	return free[s.placeRng.IntN(len(free))]
}

// compactRetry drops the consumed head of a retry queue once it is empty.
func (s *sim) compactRetry(j *jobState, ty speculators.TaskType) {
	if j.retryCount[ty] == 0 {
		j.retry[ty] = j.retry[ty][:0]
		j.retryHead[ty] = 0
	}
}

// pushRetry queues a new attempt of a task that must run again.
func (s *sim) pushRetry(j *jobState, ty speculators.TaskType, ti int32) {
	t := &j.tasks[ty][ti]
	t.inRetry = true
	j.retry[ty] = append(j.retry[ty], ti)
	j.retryCount[ty]++
	s.touch(j)
	s.needSchedule = true
}

// clearPending removes every waiting attempt of a task that is done or
// dropped: its retry, its unplaced original and its speculative copies.
func (s *sim) clearPending(j *jobState, ty speculators.TaskType, ti int32) {
	t := &j.tasks[ty][ti]
	if t.inRetry {
		t.inRetry = false
		j.retryCount[ty]--
		s.compactRetry(j, ty)
	}
	if !t.launched {
		t.launched = true
		j.origPending[ty]--
	}
	if t.pendingCopies > 0 {
		j.copyCount[ty] -= int(t.pendingCopies)
		t.pendingCopies = 0
	}
	t.resumeCopies = 0
	if t.inCopyQueue {
		t.inCopyQueue = false
		q := j.copies[ty]
		for k, x := range q {
			if x == ti {
				j.copies[ty] = append(q[:k], q[k+1:]...)
				break
			}
		}
	}
	s.touch(j)
}
