package sim

import (
	"fmt"

	"github.com/specbridge/specbridge/speculators"
)

// Pull-based policies (speculators.SlotChooser). GRASS (§3) and LATE pick
// the next task to run when a slot frees, among waiting originals and copies
// of running tasks; the default path here instead places waiting originals
// first and copies only from the queue Decide fills. For a job whose policy
// implements SlotChooser, each slot the cluster scheduler offers the job is
// first offered to the policy (chosen); if it names something the simulator
// can run there, that runs, else the default order decides. Map retries
// (failed or killed maps) still go first, as Hadoop's allocator gives failed
// maps the higher priority (RMContainerAllocator PRIORITY_FAST_FAIL_MAP).
//
// Idle slots are offered again at every Decide tick (tick), as a NodeManager
// heartbeat offers its free containers each second, since a policy may want
// a copy later with nothing else having changed (a t_rem that has grown).
// Jobs whose policy does not implement SlotChooser never reach this file:
// their path is unchanged. A pull-based job is offered a slot only while its
// policy says it wants one (WantsSlot): one that would refuse every node is
// left out of the round's candidates (gatherCandidates, placeOne), so a
// round costs the jobs with something to place, not every running job for
// every free slot.

// chosen asks job j's policy what to run in a free slot of node ni that
// holds task types lo..hi, and checks that the simulator can run it there.
func (s *sim) chosen(j *jobState, ni int32, lo, hi speculators.TaskType) (pick, bool) {
	if lo == speculators.Map && j.retryCount[speculators.Map] > 0 {
		return pick{}, false
	}
	s.settle(j)
	if !j.offered {
		// The first slot offered to the job puts its policy in pull mode
		// (so Decides before it, with nothing of the job placed, ran in
		// push mode, as they always have here).
		j.offered = true
		j.engine.OfferSlots()
	}
	if !s.wants(j) {
		return pick{}, false
	}
	id, isCopy, ok := j.engine.ChooseForSlot(s.nodes[ni].id, s.now)
	if !ok || id.Type < lo || id.Type > hi {
		return pick{}, false
	}
	ty, ti, ok := s.taskOf(j, id)
	if !ok {
		return pick{}, false
	}
	t := &j.tasks[ty][ti]
	if t.done() || t.dropped || s.rampedDown(j, ty) {
		return pick{}, false
	}
	if isCopy {
		if t.running == 0 || j.spec.NoSpeculate[ty] || s.besideItself(j, ty, ti, ni) || !s.allowsCopyOn(j, ni) {
			return pick{}, false
		}
		return pick{ty: ty, task: ti, source: chosenCopy, speculative: true}, true
	}
	switch {
	case t.running > 0:
		return pick{}, false
	case t.inRetry:
		return pick{ty: ty, task: ti, source: chosenRetry}, true
	case t.launched:
		return pick{}, false
	case ty == speculators.Reduce && j.mapFraction() < j.slowstart(s.cfg.ReduceSlowstart):
		return pick{}, false
	}
	return pick{ty: ty, task: ti, source: chosenOriginal}, true
}

// rampedDown reports whether a task of type ty (an original, a retry or a
// copy) of job j must wait because the job's maps wait with none running
// (jobState.mapsWait; with reduces running they starve, the state
// preemptReduces acts on). Hadoop's RMContainerAllocator then ramps the
// job's reduce requests down (rampDownReduces) and asks for no reduce
// container until a map runs, a speculative one included. Without this a
// pull-based policy that preferred a reduce (its copy, or the preempted
// one's retry) to the waiting map took every container preemption freed,
// and preemption killed it at once, over and over at one instant: a replay
// that never ended (TestStarvingJobGetsNoReduceFromItsPolicy); and the
// job's own order, which puts copies after reduces, did the same when the
// maps waited only as copies (TestCopyStandingInForEndedMapIsPlaced). It
// holds with no reduce running too: a reduce placed then would starve the
// maps at once and be preempted at once.
func (s *sim) rampedDown(j *jobState, ty speculators.TaskType) bool {
	return ty == speculators.Reduce && j.mapsWait()
}

// pullWaiting reports whether a running job's policy is pull-based and has
// attempts running, so that an idle slot may be worth offering again.
func (s *sim) pullWaiting() bool {
	return s.index.pullRunning > 0
}

// wantsPull reports whether job j's pull-based policy would choose a task
// for some free slot now (speculators.SlotChooser's WantsSlot).
func (s *sim) wantsPull(j *jobState) bool {
	return j.chooser && j.running > 0 && (!j.offered || s.wants(j))
}

// wants is job j's policy's WantsSlot at now, asked once per scheduling
// round: within a round the answer changes only with an event the job's
// engine observes (observed forgets it) or what another job taught its
// prior (keepLearned starts a new round; no policy teaches at an attempt's
// start, the one event a round makes, so that is for safety). It is never
// asked before the job's first offer (wantsPull, chosen). A round
// asks a job at each slot its scan of the candidates reaches and again in
// placeOne's clean-up, which asked every candidate at every offer that
// dropped one: on xulau/ese under gs, 40% of the replay (issue 31).
//
// Not inlined: with cmd/specbridge/default.pgo the compiler inlined it
// into chosen, and mantri on xulau/ese took 5% more CPU time than without
// the profile (docs/scale.md, fifteenth round); kept out, it took less.
//
//go:noinline
func (s *sim) wants(j *jobState) bool {
	if j.wantRound == s.round && !s.checkWants {
		return j.wantOK
	}
	s.settle(j)
	ok := j.engine.WantsSlot(s.now)
	if s.checkWants && j.wantRound == s.round {
		s.wantsKept++
	}
	if s.checkWants && j.wantRound == s.round && ok != j.wantOK {
		s.wantsErr = fmt.Errorf("sim: job %s at %d ms: WantsSlot %v, %v kept from earlier in the round", j.spec.ID, s.now, ok, j.wantOK)
	}
	j.wantRound, j.wantOK = s.round, ok
	return ok
}
