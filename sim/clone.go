package sim

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/specbridge/specbridge/speculators"
)

// Job ordering and cloning at launch, for policies that span jobs (Xu and
// Lau's SCA, SDA and ESE order jobs by what they have left; Dolly, SCA and
// ESE clone a job's tasks at launch). The simulator only asks the
// speculators contract (JobPrioritizer, Cloner); it knows no policy.

// prioJob is an active job and its policy's priority, for one slot.
type prioJob struct {
	ji, rank int32 // rank: the job's submit rank
	pri      speculators.Priority
	key      uint64 // pri.Key as orderKey has it
}

// orderKey maps a priority's key onto integers in cmp.Compare's order:
// NaN below every number (and equal to NaN), -0 equal to 0, so that the
// job order compares integers (prioBefore) and gives ComparePriority's
// order.
func orderKey(f float64) uint64 {
	if f != f {
		return 0
	}
	if f == 0 {
		f = 0 // -0
	}
	b := math.Float64bits(f)
	if b>>63 != 0 {
		return ^b
	}
	return b | 1<<63
}

// newPrioJob is job ji's place in a pass's order.
func newPrioJob(ji, rank int32, pri speculators.Priority) prioJob {
	return prioJob{ji: ji, rank: rank, pri: pri, key: orderKey(pri.Key)}
}

// pickByPriority offers a free slot of node ni (task types lo..hi) to the
// jobs whose policies order jobs, lowest Priority first (ties by submit
// order), and returns the first that has something to run there. Jobs
// whose policies have no opinion are offered the slot afterwards, in the
// configured scheduler's order (placeOne).
//
// The order is taken once per scheduling pass (schedule), the time slot of
// Xu and Lau §IV ("the scheduling decisions are made at the beginning of
// each time slot"): placing a job's tasks does not reorder the jobs until
// the next pass. This also keeps a pass over thousands of waiting jobs
// from sorting them again for every slot.
func (s *sim) pickByPriority(ni int32, lo, hi speculators.TaskType) (int32, pick, bool) {
	if !s.prioValid {
		s.takeJobOrder()
		s.prioValid = true
	}
	drop := false
	for i := 0; ; i++ {
		c, ok := s.orderAt(i)
		if !ok {
			break
		}
		j := &s.jobs[c.ji]
		if j.finished {
			drop = true
			continue
		}
		if pk, ok := s.pickFor(j, ni, lo, hi); ok {
			if drop {
				s.dropUnplaceable(c.ji)
			}
			return c.ji, pk, true
		}
		drop = drop || !s.mayPlace(j)
	}
	if drop {
		s.dropUnplaceable(none)
	}
	return 0, pick{}, false
}

// orderLive reports whether a free slot's offer might go to a job in the
// pass's job order: some job's policy orders jobs, and the order is not
// yet taken this pass or still holds a job. An offer's walk that places
// nothing reads the whole order and drops every job with nothing left to
// place anywhere (pickByPriority), so an order read to its end and left
// empty refuses every further slot of the pass; with no candidate either,
// schedule stops offering. Sweeping every free node after that was most of
// auto's replay on xulau/sca-sda (issue 31): its jobs, placed, left the
// order empty while thousands of slots stayed free.
func (s *sim) orderLive() bool {
	live := s.anyPrio && (!s.prioValid || len(s.prioScratch)+len(s.prioTail)+len(s.prioHeap) > 0)
	if !live && s.sweepAll && s.anyPrio {
		s.pastOrder++
		return true
	}
	return live
}

// takeJobOrder takes the ordered jobs' priorities now, for this pass's
// order. The order is a total one, priority then submit rank
// (ComparePriority orders NaN keys too), the order a stable sort of the
// jobs in submit order by priority gives, whichever way it is sorted. The
// way follows how near sorted the jobs come in submit order:
//   - Near sorted already (at most one adjacent pair in presortedRun out
//     of order; sca's, sda's and ese's levels mostly follow submit order):
//     a stable sort, near linear on such input, as before.
//   - Otherwise (auto's order by work left and its tiers): lazily. The jobs
//     go into a binary heap (s.prioHeap, built in linear time) and orderAt
//     moves them into s.prioScratch, the sorted head, only as far as a
//     slot's offer reads it. A full sort here was a third of auto's replay
//     time on xulau/ese (issue 31); a heap there made sca's 2.6 times
//     slower, its offers reading most of the order.
//
// Where every ordered job's priority is kept by events (jobPriority) and
// the order is the policies' own (not YARN's levels), the order is kept
// sorted from pass to pass instead (takeKeptOrder).
func (s *sim) takeJobOrder() {
	yarn := s.cfg.JobOrder.Mode == JobOrderYARN
	if !yarn && !s.ordOff && !s.freshOrder {
		if s.takeKeptOrder() {
			return
		}
	}
	all := s.prioAll[:0]
	for _, ji := range s.active {
		j := &s.jobs[ji]
		if !s.orderedNow(j) {
			continue
		}
		var pri speculators.Priority
		if yarn {
			pri = speculators.Priority{Key: -float64(s.yarnLevel[ji])}
		} else {
			s.settle(j)
			pri = s.jobPriority(j)
		}
		all = append(all, newPrioJob(ji, j.rank, pri))
	}
	s.startOrder(all)
}

// takeKeptOrder makes the pass's order from s.ord, the ordered jobs kept
// sorted (prioBefore) from the last pass: each ordered job's priority is
// taken as takeJobOrder takes it, and only the jobs whose place moved are
// taken out and put back (by binary search; when more than one in
// ordRebuild moved, the whole order is sorted again); the pass reads the
// order through s.prioTail, copying into its head only what its offers
// read, from which they drop jobs. On xulau/ese-overload sca's
// passes each held about 480 ordered jobs, of which the job order built a
// heap afresh and its offers read about 285 (issue 31); most of the
// queue's places had not moved since the last pass. It reports false,
// and leaves the order to takeJobOrder for good, at the first ordered job
// whose priority is not kept by events (speculators.PriorityByEvents).
//
// Only the jobs whose PriorityVersion stepped since the last pass
// (s.ordTouched, kept by the engines' WatchPriority) are asked: on
// xulau/ese under auto a pass read about 190 ordered jobs' versions, of
// which 4% had stepped, and that reading was a tenth of the replay (issue
// 31). Every ordered job is read, in the order of s.active, while some
// job's Decides are deferred (its settle hands them over, which may step
// its version) and under checkPrio (tests).
func (s *sim) takeKeptOrder() bool {
	if s.ordGone > 0 {
		s.ord = slices.DeleteFunc(s.ord, func(c prioJob) bool { return !s.jobs[c.ji].inOrd })
		s.ordGone = 0
	}
	moved := s.ordMoved[:0]
	visit := func(ji int32) bool {
		j := &s.jobs[ji]
		pri := s.jobPriority(j)
		if !j.prioHave {
			s.ordOff = true
			for _, c := range s.ord {
				s.jobs[c.ji].inOrd = false
			}
			s.ord = s.ord[:0]
			s.untouch()
			return false
		}
		e := newPrioJob(ji, j.rank, pri)
		if !j.inOrd || e.pri.Tier != j.ordAt.pri.Tier || e.key != j.ordAt.key {
			moved = append(moved, e)
		}
		return true
	}
	if s.checkPrio || s.anyDeferred() {
		for _, ji := range s.active {
			j := &s.jobs[ji]
			if !j.prio {
				continue
			}
			s.settle(j)
			if !visit(ji) {
				return false
			}
		}
	} else {
		s.ordTouchedPasses++
		// A visit may step a version again (the watcher appends): the
		// list is read to its end as it grows.
		for i := 0; i < len(s.ordTouched); i++ {
			ji := s.ordTouched[i]
			j := &s.jobs[ji]
			j.prioTouched = false
			if j.finished || !j.prio {
				continue
			}
			if !visit(ji) {
				return false
			}
		}
	}
	s.untouch()
	s.ordMoved = moved
	if len(moved)*ordRebuild > len(s.ord) || !s.moveInOrder(moved) {
		for _, e := range moved {
			if j := &s.jobs[e.ji]; !j.inOrd {
				j.inOrd = true
				s.ord = append(s.ord, e)
			}
		}
		for _, e := range moved {
			s.jobs[e.ji].ordAt = e
		}
		for i, c := range s.ord {
			s.ord[i] = s.jobs[c.ji].ordAt
		}
		slices.SortFunc(s.ord, prioOrder)
	}
	if s.checkOrder {
		s.checkKeptOrder()
	}
	s.prioScratch, s.prioTail = s.prioScratch[:0], s.ord
	s.prioHeap, s.prioRead = s.prioHeap[:0], 0
	return true
}

// touchPrio notes that job ji's PriorityVersion stepped (its engine's
// WatchPriority): takeKeptOrder asks it at the next pass.
func (s *sim) touchPrio(ji int32) {
	j := &s.jobs[ji]
	if j.prioTouched || s.ordOff {
		return
	}
	j.prioTouched = true
	s.ordTouched = append(s.ordTouched, ji)
}

// untouch empties s.ordTouched.
func (s *sim) untouch() {
	for _, ji := range s.ordTouched {
		s.jobs[ji].prioTouched = false
	}
	s.ordTouched = s.ordTouched[:0]
}

// anyDeferred reports whether some job's Decides are deferred
// (idleDeferred): settle would hand them over.
func (s *sim) anyDeferred() bool {
	for b := range s.deferred {
		if len(s.deferred[b]) > 0 {
			return true
		}
	}
	return false
}

// moveInOrder takes each moved job out of the kept order and puts it back
// at its new place. It reports false, having moved none, if a job's entry
// is not where its place says (a bug; the caller sorts again).
func (s *sim) moveInOrder(moved []prioJob) bool {
	for _, e := range moved {
		if j := &s.jobs[e.ji]; j.inOrd {
			if _, found := slices.BinarySearchFunc(s.ord, j.ordAt, prioOrder); !found {
				return false
			}
		}
	}
	for _, e := range moved {
		j := &s.jobs[e.ji]
		if j.inOrd {
			i, _ := slices.BinarySearchFunc(s.ord, j.ordAt, prioOrder)
			s.ord = slices.Delete(s.ord, i, i+1)
		}
		i, _ := slices.BinarySearchFunc(s.ord, e, prioOrder)
		s.ord = slices.Insert(s.ord, i, e)
		j.inOrd, j.ordAt = true, e
	}
	return true
}

// ordRebuild: a pass in which more than one ordered job in this many moved
// sorts the kept order again rather than moving each (takeKeptOrder).
const ordRebuild = 8

// prioOrder is prioBefore as a comparison: the job order, a total one.
func prioOrder(a, b prioJob) int {
	if c := prioCmp(a, b); c != 0 {
		return c
	}
	return cmp.Compare(a.rank, b.rank)
}

// checkKeptOrder compares the kept order with the stable sort of the
// ordered jobs' priorities taken afresh (tests: checkOrder).
func (s *sim) checkKeptOrder() {
	all := s.prioAll[:0]
	for _, ji := range s.active {
		if j := &s.jobs[ji]; j.prio {
			all = append(all, newPrioJob(ji, j.rank, j.engine.JobPriority(s.now)))
		}
	}
	slices.SortStableFunc(all, prioCmp)
	s.prioAll = all
	s.ordChecked++
	if len(all) != len(s.ord) {
		s.prioErr = fmt.Errorf("sim: at %d ms the kept job order holds %d jobs, %d are ordered", s.now, len(s.ord), len(all))
		return
	}
	for i := range all {
		if all[i].ji != s.ord[i].ji {
			s.prioErr = fmt.Errorf("sim: at %d ms the kept job order has job %s at %d, the sorted one job %s", s.now, s.jobs[s.ord[i].ji].spec.ID, i, s.jobs[all[i].ji].spec.ID)
			return
		}
	}
}

// jobPriority is job j's priority now (j settled), kept from the last pass
// while its engine's PriorityVersion stays (speculators.PriorityByEvents):
// in a queue of thousands, a pass asked each waiting job's policy for a
// priority that had not moved since the last (issue 31). Under checkPrio
// it asks afresh and compares (tests).
func (s *sim) jobPriority(j *jobState) speculators.Priority {
	v, byEvents := j.engine.PriorityVersion()
	kept := byEvents && j.prioHave && j.prioVer == v
	if kept && !s.checkPrio {
		return j.prioLast
	}
	pri := j.engine.JobPriority(s.now)
	if kept {
		s.prioKeptChecked++
		if pri.Tier != j.prioLast.Tier || math.Float64bits(pri.Key) != math.Float64bits(j.prioLast.Key) {
			s.prioErr = fmt.Errorf("sim: job %s at %d ms: priority %+v, %+v kept at the same version", j.spec.ID, s.now, pri, j.prioLast)
		}
	}
	j.prioHave, j.prioVer, j.prioLast = byEvents, v, pri
	return pri
}

// presortedRun: a pass's jobs in submit order with at most one adjacent
// pair in this many out of order are sorted at once (takeJobOrder).
const presortedRun = 16

// startOrder makes all, the pass's ordered jobs in submit order, the
// order orderAt reads: sorted at once when near sorted, else as a heap
// (takeJobOrder).
func (s *sim) startOrder(all []prioJob) {
	s.prioRead, s.prioTail = 0, nil
	descents := 0
	for i := 1; i < len(all); i++ {
		if prioCmp(all[i], all[i-1]) < 0 {
			descents++
		}
	}
	if descents*presortedRun <= len(all) {
		slices.SortStableFunc(all, prioCmp)
		s.prioAll, s.prioScratch = s.prioScratch[:0], all
		s.prioHeap = s.prioHeap[:0]
		return
	}
	h := append(s.prioHeap[:0], all...)
	for i := len(h)/2 - 1; i >= 0; i-- {
		siftDown(h, i)
	}
	s.prioAll, s.prioHeap, s.prioScratch = all, h, s.prioScratch[:0]
}

// orderAt returns the pass's i-th job in order, taking jobs from the kept
// order's tail or the heap into the sorted head as far as i; false past the
// last job.
func (s *sim) orderAt(i int) (prioJob, bool) {
	for i >= len(s.prioScratch) {
		if t := s.prioTail; len(t) > 0 {
			s.prioScratch, s.prioTail = append(s.prioScratch, t[0]), t[1:]
			continue
		}
		h := s.prioHeap
		if len(h) == 0 {
			return prioJob{}, false
		}
		s.prioScratch = append(s.prioScratch, h[0])
		last := len(h) - 1
		h[0] = h[last]
		h = h[:last]
		siftDown(h, 0)
		s.prioHeap = h
	}
	s.prioRead = max(s.prioRead, i+1)
	return s.prioScratch[i], true
}

// prioCmp orders a and b by priority alone: ComparePriority, on the
// integer key.
func prioCmp(a, b prioJob) int {
	if a.pri.Tier != b.pri.Tier {
		return cmp.Compare(a.pri.Tier, b.pri.Tier)
	}
	return cmp.Compare(a.key, b.key)
}

// prioBefore is the job order: a's priority lower, or equal and a
// submitted first.
func prioBefore(a, b prioJob) bool {
	if a.pri.Tier != b.pri.Tier {
		return a.pri.Tier < b.pri.Tier
	}
	if a.key != b.key {
		return a.key < b.key
	}
	return a.rank < b.rank
}

// siftDown restores the heap property of h below position i, moving the
// item there down through a hole (as eventHeap.pop does: the moves of
// swapping, half the writes).
func siftDown(h []prioJob, i int) {
	if i >= len(h) {
		return
	}
	x := h[i]
	for {
		l := 2*i + 1
		if l >= len(h) {
			break
		}
		m := l
		if r := l + 1; r < len(h) && prioBefore(h[r], h[l]) {
			m = r
		}
		if !prioBefore(h[m], x) {
			break
		}
		h[i] = h[m]
		i = m
	}
	h[i] = x
}

// orderedNow reports whether job j takes free slots in its policy's order
// now (pickByPriority) rather than in the scheduler's (placeOne): always
// for a job whose policy orders jobs, but under JobOrderYARN only once a
// reading gave it a level; until then it is at YARN's level 0, beside the
// jobs whose policies do not order, and the scheduler serves it among them
// in submission order, as the capacity scheduler does live.
func (s *sim) orderedNow(j *jobState) bool {
	if !j.prio {
		return false
	}
	if s.cfg.JobOrder.Mode != JobOrderYARN {
		return true
	}
	return s.yarnLevel != nil && s.yarnLevel[j.index] > 0
}

// readYARNOrder reads the job order as serve --rm-job-order does live
// (JobOrderYARN): every ordered job's priority now, ranked (ties in
// submission order) and mapped onto the levels, kept until the next
// reading, which is at the first scheduling pass of the next period
// (schedule calls it before it gathers the jobs to serve).
func (s *sim) readYARNOrder() {
	if s.yarnLevel == nil {
		s.yarnLevel = make([]int32, len(s.jobs))
	}
	ranked := s.yarnScratch[:0]
	for _, ji := range s.active {
		if j := &s.jobs[ji]; j.prio {
			s.settle(j)
			ranked = append(ranked, prioJob{ji: ji, pri: j.engine.JobPriority(s.now)})
		}
	}
	slices.SortStableFunc(ranked, func(a, b prioJob) int { return speculators.ComparePriority(a.pri, b.pri) }) // stable: s.active is in submit order
	pris := s.yarnPris[:0]
	for _, r := range ranked {
		pris = append(pris, r.pri)
	}
	for i, l := range speculators.PriorityLevels(pris, s.cfg.JobOrder.Levels) {
		ji := ranked[i].ji
		was := s.yarnLevel[ji]
		s.yarnLevel[ji] = int32(l)
		if was == 0 {
			s.reindex(&s.jobs[ji]) // it leaves the scheduler's jobs for the order
		}
	}
	s.yarnScratch, s.yarnPris = ranked, pris
	every := s.cfg.JobOrder.Every
	s.yarnNext = (s.now/every + 1) * every
}

// dropUnplaceable takes the jobs that have nothing left to place anywhere
// (or have finished) out of the round's job order, keeping job keep: they
// would refuse every other node of the round too, as placeOne's candidates
// (a placement changes only its own job, and the order holds for the
// round), so asking them again at each free slot changed nothing but the
// cost (issue 31: sda and ese spent most of a replay here).
//
// Only the part of the order the pass's offers have read is looked at
// (s.prioRead); a job further on, or still in the heap (takeJobOrder), is
// asked when an offer reaches it and dropped then. Judging the whole kept
// or sorted order at each drop asked every queued job again and again
// (issue 31).
func (s *sim) dropUnplaceable(keep int32) {
	read := s.prioScratch[:s.prioRead]
	kept := slices.DeleteFunc(read, func(c prioJob) bool {
		j := &s.jobs[c.ji]
		return c.ji != keep && (j.finished || !s.mayPlace(j))
	})
	if len(kept) == len(read) {
		return
	}
	n := copy(s.prioScratch[len(kept):], s.prioScratch[s.prioRead:])
	s.prioScratch = s.prioScratch[:len(kept)+n]
	s.prioRead = len(kept)
}

// launchCloned starts an original attempt of a cloning job and, at the same
// instant, the extra attempts its policy asked for (speculators.Cloner), each
// on another node with a free slot for the type, visited from the node after
// ni on. The job's clone count is asked once, when its first original is
// placed; extra attempts that find no free slot are not started (live, the
// policy would ask for them from Decide; here a clone is only a clone if it
// starts with its original). A type whose speculation is off
// (Job.NoSpeculate) gets no clone, as the AM refuses one live.
func (s *sim) launchCloned(ji int32, ty speculators.TaskType, ti int32, ni int32) error {
	j := &s.jobs[ji]
	if j.clones == 0 {
		s.settle(j)
		j.clones = j.engine.LaunchCopies(s.clusterView(ji), s.now)
	}
	if err := s.launch(ji, ty, ti, ni, false, false); err != nil {
		return err
	}
	orig := j.tasks[ty][ti].last
	nn := int32(len(s.nodes))
	clones := min(j.clones, copyRoom(j, &j.tasks[ty][ti], ty)+1) // the original runs: room counts it
	if j.spec.NoSpeculate[ty] {
		// Speculation off for the type (mapreduce.reduce.speculative=false):
		// live, the AM refuses a clone as it refuses any copy of the type.
		clones = 1
	}
	started := 0
	for k := 1; k < clones && s.freeSlots > 0; k++ {
		var at int32
		if s.cfg.YARNPlacement {
			at = s.yarnNode(ty, -1) // any node with room, its original's too
		} else {
			at = s.cloneNode(ji, ty, ti, ni, nn)
		}
		if at < 0 {
			break
		}
		if err := s.launch(ji, ty, ti, at, true, true); err != nil {
			return err
		}
		j.result.ClonesLaunched++
		started++
	}
	if started > 0 && j.spec.WaveOriginals && j.spec.CloneExtra > 0 {
		s.inWave(orig)
	}
	return nil
}

// inWave charges original attempt ai, launched at this instant, the job's
// CloneExtra (Job.WaveOriginals): more work, silent for it (startupWork).
func (s *sim) inWave(ai int32) {
	a := s.attempts.at(ai)
	if a.speculative || a.clone || a.state != speculators.StateRunning || a.start != s.now {
		return
	}
	a.work += float64(s.jobs[a.job].spec.CloneExtra)
	a.clone, a.startup = true, true
	s.scheduleFinish(ai)
}

// cloneNode is the first node after ni (wrapping) that is not hung, has a
// free slot for ty and runs no attempt of the task; -1 if none.
func (s *sim) cloneNode(ji int32, ty speculators.TaskType, ti int32, ni, nn int32) int32 {
	j := &s.jobs[ji]
	for k := s.nextFree(int(ni)+1, int(nn)); k >= 0; k = s.nextFree(k+1, int(nn)) {
		if n := &s.nodes[k]; !n.hung && n.free[n.pool(ty)] > 0 && !s.runsOn(j, ty, ti, int32(k)) {
			return int32(k)
		}
	}
	for k := s.nextFree(0, int(ni)+1); k >= 0; k = s.nextFree(k+1, int(ni)+1) {
		if n := &s.nodes[k]; !n.hung && n.free[n.pool(ty)] > 0 && !s.runsOn(j, ty, ti, int32(k)) {
			return int32(k)
		}
	}
	return -1
}

// clusterView is what a Cloner sees when job ji's first task is placed: the
// free slots, the capacity, the copies running and the jobs with nothing
// placed yet (this one first, then the others in the order the scheduler
// serves them: by priority when their policies order jobs, else submit
// order).
func (s *sim) clusterView(ji int32) speculators.ClusterView {
	sizes := s.sizeScratch[:0]
	sizes = append(sizes, jobSize(&s.jobs[ji]))
	type waiting struct {
		ji  int32
		pri speculators.Priority
	}
	var rest []waiting
	for _, k := range s.active {
		o := &s.jobs[k]
		if k == ji || o.result.Start != none {
			continue
		}
		w := waiting{ji: k}
		if o.prio {
			s.settle(o)
			w.pri = s.jobPriority(o) // kept while its version stays
		}
		rest = append(rest, w)
	}
	slices.SortStableFunc(rest, func(a, b waiting) int { return speculators.ComparePriority(a.pri, b.pri) })
	for _, w := range rest {
		sizes = append(sizes, jobSize(&s.jobs[w.ji]))
	}
	s.sizeScratch = sizes
	v := speculators.ClusterView{Idle: s.freeSlots, Slots: s.slots, SpeculativeRunning: s.specRunning, Waiting: sizes}
	if s.slotPools {
		v.ReduceSlots, v.ReduceIdle = s.reduceSlots, s.reduceFree
	}
	return v
}

func jobSize(j *jobState) speculators.JobSize {
	return speculators.JobSize{Tasks: len(j.tasks[speculators.Map]) + len(j.tasks[speculators.Reduce]),
		TaskMillis: j.spec.TaskMillis, TailIndex: j.spec.TailIndex}
}
