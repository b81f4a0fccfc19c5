package sim

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/specbridge/specbridge/speculators"
)

// ErrStalled is returned (with the partial Result) when no Horizon is set and
// jobs are unfinished but nothing can happen any more: no attempt runs, no
// job or episode is due, and the engines' decisions change nothing for
// TaskTimeout of virtual time (for example when every node is hung for
// good). As a backstop against livelock, a run in which no attempt starts or
// ends, no job arrives, no node changes speed and no decision applies for
// 100 x TaskTimeout plus twice the longest task at the slowest node speed
// stalls too. With a Horizon, a stalled run stops early without an error and
// its jobs are reported unfinished.
var ErrStalled = errors.New("simulation stalled")

// sim is one run's state.
type sim struct {
	cfg Config
	// curves holds the attempts' progress-noise curves (progress.go).
	curves    []float64
	fair      bool
	heartbeat speculators.Time
	decide    speculators.Time
	timeout   speculators.Time
	newEngine EngineFactory
	// placeRng draws the node of each copy under YARNPlacement (yarnNode).
	placeRng    *rand.Rand
	nodeScratch []int32

	now      speculators.Time
	queue    timers
	nodes    []nodeState
	jobs     []jobState
	attempts attemptStore
	slots    int // cluster capacity, JobInfo.Slots
	// slotPools: some node has separate map and reduce slots (Hadoop 1),
	// JobInfo.SlotPools.
	slotPools bool
	// reduceSlots and reduceFree are the reduce pools' capacity and free
	// slots on slot pools (nodes of two pools; takeSlot and giveSlot keep
	// reduceFree), auto's rule v67's reading (ClusterView.ReduceIdle).
	reduceSlots, reduceFree int
	// recycle: nothing reads an ended job's attempts and tasks once it
	// has finished (stream.go), so a streamed job's are let go and its
	// attempts' slots reused; freeAttempts lists the reusable slots.
	recycle      bool
	freeAttempts []int32

	active      []int32 // running jobs in submit order
	tickScratch []int32
	candidates  jobSet // jobs placeOne offers a slot to (gatherCandidates)
	index       jobIndex
	tickPending bool
	stallSince  speculators.Time
	stalled     bool
	// lastProgress is when an attempt last started or ended, a job arrived,
	// a node changed speed or a decision was applied; stallLimit is how long
	// the run may go without any (see ErrStalled).
	lastProgress speculators.Time
	stallLimit   speculators.Time
	done         int
	needSchedule bool
	dirty        []int32  // jobs whose container needs may have changed
	cursor       int      // node the next scheduling pass starts at
	freeSlots    int      // free slots in the cluster, hung nodes included
	freeBits     []uint64 // bit ni set: node ni has a free slot
	// anyPrio: some job's policy orders jobs (clone.go); specRunning counts
	// running attempts started as copies, cluster-wide.
	anyPrio     bool
	prioValid   bool // prioScratch and prioHeap hold this scheduling pass's order
	specRunning int
	prioScratch []prioJob // the pass's job order, sorted head (takeJobOrder)
	prioHeap    []prioJob // the rest, a heap
	prioTail    []prioJob // or the rest, sorted: the part of ord not yet read (takeKeptOrder)
	prioRead    int       // how far the pass's offers have read prioScratch (orderAt)
	prioAll     []prioJob // the pass's ordered jobs in submit order (a buffer)
	// ord: the ordered jobs kept sorted from pass to pass (takeKeptOrder),
	// ordGone the jobs that left it since (finishJob), ordMoved a buffer;
	// ordOff: an ordered job's priority is not kept by events, and every
	// pass sorts afresh (takeJobOrder).
	ord      []prioJob
	ordMoved []prioJob
	ordGone  int
	ordOff   bool
	// ordTouched: the ordered jobs whose PriorityVersion stepped since the
	// last pass (touchPrio), ordTouchedPasses the passes that read only
	// them (tests).
	ordTouched       []int32
	ordTouchedPasses int
	// JobOrderYARN (clone.go): each job's level at the last reading, the
	// time of the next, and the reading's scratch.
	yarnLevel   []int32
	yarnNext    speculators.Time
	yarnScratch []prioJob
	yarnPris    []speculators.Priority
	sizeScratch []speculators.JobSize

	ev speculators.Event // reused for every Observe
	// evStatus: s.ev holds a status report statusEvent filled, every
	// field but those it sets at each report as the zero Event has them,
	// so that the next report sets only those (a report at every
	// heartbeat of every attempt; docs/scale.md). Whatever else writes
	// s.ev goes through setEvent, which clears it.
	evStatus bool
	events   int64
	result   Result
	faults   faultRun // the failure model (faults.go)
	// checkIndex: verify the active-job index after every event (tests).
	checkIndex bool
	// round numbers the scheduling rounds (gatherCandidates) for the
	// pull-based policies' answers kept within one (wants, pull.go);
	// checkWants: ask afresh at every use too and compare (tests).
	round uint64
	// eagerDrop: placeOne also drops every candidate with nothing left to
	// place at each offer that drops one, as it did before (tests).
	eagerDrop  bool
	checkWants bool
	// sweepAll: schedule offers every free node while some job orders
	// jobs, as it did before orderLive (tests); pastOrder counts the
	// offers it made that orderLive leaves out.
	sweepAll  bool
	pastOrder int
	// checkPrio: jobPriority asks afresh at every pass and compares with
	// the priority it would have kept (tests); prioKeptChecked counts the
	// comparisons, prioErr holds the first mismatch.
	checkPrio       bool
	prioKeptChecked int
	prioErr         error
	// freshOrder: every pass sorts the job order afresh, as before
	// takeKeptOrder; checkOrder: each kept order is compared with the
	// sorted one, ordChecked counts the comparisons (tests).
	freshOrder, checkOrder bool
	ordChecked             int
	// askIdle: the tick asks SkipDecide of idle jobs too, as it did
	// before (tests); decides counts the Decides it made.
	askIdle bool
	// deferred lists the jobs whose Decides are deferred (idleDeferred) by
	// the samples' bucket they read (settleBucket), those that read none
	// last (deferNoBucket); zeroKept: a run time of 0 ms has been kept
	// (settleAll).
	deferred  [deferNoBucket + 1][]int32
	settling  []int32
	zeroKept  bool
	decides   int
	wantsErr  error
	wantsKept int // answers checkWants compared (tests)
	// pins: per node, the originals waiting for it as their recorded node
	// (Task.Node, pin.go); pinWaiting counts the entries; nodeByName is
	// built when a job first names a node.
	pins       [][]pinEntry
	pinWaiting int
	nodeByName map[string]int32
}

// Run simulates jobs on the cluster cfg describes, building each job's
// engine with newEngine when the job is submitted, and returns per-job
// results. It fails on an invalid configuration or workload and when an
// engine rejects an event (which would be a bug in the simulator or the
// engine); on ErrStalled it also returns the partial Result.
func Run(cfg Config, jobs []Job, newEngine EngineFactory) (*Result, error) {
	if newEngine == nil {
		return nil, fmt.Errorf("sim: no engine factory")
	}
	s, err := newSim(cfg, jobs, newEngine)
	if err != nil {
		return nil, err
	}
	if err := s.loop(); err != nil {
		if errors.Is(err, ErrStalled) {
			return s.finish(), err
		}
		return nil, err
	}
	return s.finish(), nil
}

func newSim(cfg Config, jobs []Job, newEngine EngineFactory) (*sim, error) {
	hb, dec, to, err := cfg.validate()
	if err != nil {
		return nil, err
	}
	s := &sim{cfg: cfg, fair: cfg.Scheduler == SchedulerFair, heartbeat: hb, decide: dec, timeout: to,
		newEngine: newEngine, stallSince: none}
	if cfg.YARNPlacement {
		s.placeRng = rand.New(rand.NewPCG(cfg.Seed^0x7961726e706c6163, 3)) // "yarnplac"
	}
	s.nodes = make([]nodeState, len(cfg.Nodes))
	s.freeBits = make([]uint64, (len(cfg.Nodes)+63)/64)
	timers := 16
	for i := range cfg.Nodes {
		spec := &cfg.Nodes[i]
		n := &s.nodes[i]
		n.id = speculators.NodeID(spec.Name)
		n.slowdown = spec.Slowdown
		if n.slowdown == 0 {
			n.slowdown = 1
		}
		n.episodes = spec.Episodes
		n.reducesOnly = spec.SlowdownReducesOnly
		if spec.MapSlots+spec.ReduceSlots > 0 {
			n.pools = 2
			n.free = [speculators.NumTaskTypes]int{spec.MapSlots, spec.ReduceSlots}
			s.slotPools = true
			s.reduceSlots += spec.ReduceSlots
			s.reduceFree += spec.ReduceSlots
		} else {
			n.pools = 1
			n.free[0] = spec.Slots
		}
		slots := n.free[0] + n.free[1]
		s.slots += slots
		s.freeSlots += slots
		n.running = make([]int32, 0, slots)
		if slots > 0 {
			s.freeBits[i/64] |= 1 << (i % 64)
		}
		timers += 2 * len(spec.Episodes)
	}
	longest := speculators.Time(0)
	s.jobs = make([]jobState, len(jobs))
	for i := range jobs {
		if jobs[i].Load != nil {
			if err := jobs[i].checkSubmit(); err != nil {
				return nil, fmt.Errorf("sim: job %d (%s): %w", i, jobs[i].ID, err)
			}
			if jobs[i].LongestWork > MaxWork {
				return nil, fmt.Errorf("sim: job %d (%s): a task's work %d ms is over the limit of %d ms (30 days)", i, jobs[i].ID, jobs[i].LongestWork, MaxWork)
			}
			longest = max(longest, jobs[i].LongestWork)
			continue
		}
		if err := jobs[i].validate(); err != nil {
			return nil, fmt.Errorf("sim: job %d (%s): %w", i, jobs[i].ID, err)
		}
		for _, t := range jobs[i].Maps {
			longest = max(longest, t.Work)
		}
		for _, t := range jobs[i].Reduces {
			longest = max(longest, t.Work)
		}
	}
	slowest := 1.0
	for i := range s.nodes {
		slowest = max(slowest, s.nodes[i].slowdown)
	}
	s.stallLimit = 100*to + 2*speculators.Time(math.Min(float64(longest)*slowest, math.MaxInt64/4))
	s.recycle = !s.canSilence() && cfg.RunningSamples <= 0
	s.queue.heap.items = make([]event, 0, timers+2*s.slots)
	s.queue.lane = make([]event, 0, 2*s.slots+1024)
	for i := range s.nodes {
		s.setSpeed(int32(i), false)
		for _, e := range s.nodes[i].episodes {
			s.queue.push(e.Start, evSpeed, int32(i), 0)
			if e.End > 0 {
				s.queue.push(e.End, evSpeed, int32(i), 0)
			}
		}
	}
	for i := range jobs {
		s.jobs[i].spec = &jobs[i]
		s.jobs[i].index = int32(i)
	}
	s.queue.submits(func(i int) speculators.Time { return jobs[i].Submit }, len(jobs))
	if err := s.initFaults(jobs); err != nil {
		return nil, err
	}
	return s, nil
}

// loop processes events until every job is done, the horizon is reached or
// the run stalls. The scheduler and container-need reports run once per
// instant, after every event at that instant, as YARN allocates on
// heartbeats rather than mid-event.
func (s *sim) loop() error {
	for s.done < len(s.jobs) && s.queue.len() > 0 && !s.stalled {
		if s.cfg.Horizon > 0 && s.queue.peekAt() > s.cfg.Horizon {
			s.now = s.cfg.Horizon
			break
		}
		e := s.queue.pop()
		s.now = e.at
		counted, err := s.handle(e)
		if err != nil {
			return err
		}
		if counted {
			s.events++
		}
		if s.queue.len() == 0 || s.queue.peekAt() > s.now {
			if s.needSchedule {
				if err := s.schedule(); err != nil {
					return err
				}
			}
			if err := s.flushNeeds(); err != nil {
				return err
			}
		}
		if s.checkIndex {
			if err := s.verifyIndex(); err != nil {
				return err
			}
		}
		if s.wantsErr != nil {
			return s.wantsErr
		}
		if s.prioErr != nil {
			return s.prioErr
		}
	}
	if s.done < len(s.jobs) && (s.stalled || s.queue.len() == 0) && s.cfg.Horizon == 0 {
		return fmt.Errorf("sim: %w at %d ms with %d of %d jobs unfinished", ErrStalled, s.now, len(s.jobs)-s.done, len(s.jobs))
	}
	return nil
}

// handle dispatches one event; counted is false for a superseded timer.
func (s *sim) handle(e event) (counted bool, err error) {
	switch e.kind() {
	case evSubmit:
		return true, s.submit(e.ref)
	case evSpeed:
		return true, s.setSpeed(e.ref, true)
	case evFinish:
		a := s.attempts.at(e.ref)
		if a.state != speculators.StateRunning || a.finGen != e.gen {
			return false, nil
		}
		if a.scriptedFail {
			return true, s.failScripted(e.ref)
		}
		return true, s.succeed(e.ref)
	case evHeartbeat:
		s.prefetchReports()
		a := s.attempts.at(e.ref)
		if a.state != speculators.StateRunning || a.hbGen != e.gen {
			return false, nil
		}
		if err := s.report(e.ref); err != nil {
			return true, err
		}
		s.queue.pushOrdered(s.now+s.heartbeat, evHeartbeat, e.ref, a.hbGen)
		return true, nil
	case evTimeout:
		a := s.attempts.at(e.ref)
		if a.state != speculators.StateRunning || !a.silent || s.now-a.lastReport < s.timeout {
			return false, nil
		}
		return true, s.abort(e.ref, speculators.StateFailed)
	case evKillJob:
		return true, s.killJob(e.ref)
	case evDecide:
		if err := s.beforeTick(); err != nil {
			return true, err
		}
		return true, s.tick()
	}
	return s.handleFault(e)
}

// submit builds the job's engine and makes its tasks schedulable.
func (s *sim) submit(ji int32) error {
	j := &s.jobs[ji]
	if j.spec.Load != nil {
		if err := s.load(j); err != nil {
			return err
		}
	}
	spec := j.spec
	info := speculators.JobInfo{ID: spec.ID, Maps: len(spec.Maps), Reduces: len(spec.Reduces), Slots: s.slots,
		Start: s.now, Deadline: spec.Deadline, ErrorBound: spec.ErrorBound, TaskMillis: spec.TaskMillis, TailIndex: spec.TailIndex,
		Resume: s.cfg.Resume, SlotPools: s.slotPools,
		JobOrder: s.cfg.JobOrder.orders(s.cfg.YARNPlacement)}
	counts := [speculators.NumTaskTypes][]Task{spec.Maps, spec.Reduces}
	sizes := [speculators.NumTaskTypes][]int64{}
	for ty, specs := range counts {
		sizes[ty] = make([]int64, len(specs))
		known := false
		tasks := make([]taskState, len(specs))
		for i := range specs {
			t := &tasks[i]
			t.work = float64(specs[i].Work)
			if sd := specs[i].Slowdown; sd > 0 {
				t.work = min(t.work/sd, float64(MaxWork)) // the base time (Task.Slowdown)
			}
			t.inputBytes = specs[i].InputBytes
			sizes[ty][i] = t.inputBytes
			known = known || t.inputBytes > 0
			t.winner, t.first, t.last = none, none, none
			if ty == int(speculators.Reduce) {
				p := specs[i].Phases
				if p == ([3]float64{}) {
					p = [3]float64{1.0 / 3, 1.0 / 3, 1.0 / 3}
				}
				t.copyEnd, t.sortEnd = p[0], p[0]+p[1]
			}
		}
		if !known {
			sizes[ty] = nil
		}
		j.tasks[ty] = tasks
		j.origPending[ty] = len(specs)
		j.unfinished += len(specs)
	}
	info.MapInputBytes, info.ReduceInputBytes = sizes[0], sizes[1]
	s.orderOriginals(j)
	eng, err := s.newEngine(info)
	if err != nil {
		return fmt.Errorf("sim: build engine for job %s: %w", spec.ID, err)
	}
	if eng == nil {
		return fmt.Errorf("sim: engine factory returned no engine for job %s", spec.ID)
	}
	j.engine = eng
	// Under YARN placement (a history's replay: a prediction of the live
	// run) the policy runs as the live bridge runs it, in Decide's push
	// form: live, the AM's allocator places originals and YARN's scheduler
	// orders jobs, and of a pull-based policy (speculators.SlotChooser) or
	// a job order (JobPrioritizer) only Decide's Speculate reaches the AM.
	// A pulled copy started the instant a slot freed, where live the copy
	// waits for the policy's next Decide and the AM's container.
	j.chooser = eng.ChoosesSlots() && !s.cfg.YARNPlacement
	j.prio = eng.Prioritizes() && s.cfg.JobOrder.orders(s.cfg.YARNPlacement)
	if j.prio && s.cfg.JobOrder.Mode != JobOrderYARN && !s.ordOff && !s.freshOrder {
		// The kept job order asks only the jobs whose priority may have
		// moved (takeKeptOrder).
		eng.WatchPriority(func() { s.touchPrio(ji) })
		s.touchPrio(ji)
	}
	j.cloner = eng.Clones()
	j.teaches = eng.Teaches()
	j.blind = !eng.ReadsReports() && s.faults.an == nil
	j.inert = eng.Inert() && s.cfg.Trace == nil
	j.forget = j.streamed && s.recycle && !eng.Reruns()
	s.anyPrio = s.anyPrio || j.prio
	s.pinJob(j)
	if err := s.attachJob(j); err != nil {
		return err
	}
	s.lastProgress = s.now
	j.rng = rand.New(rand.NewPCG(s.cfg.Seed, uint64(ji)*0x9e3779b97f4a7c15+1))
	j.submitted = true
	j.result = JobResult{ID: spec.ID, Submit: s.now, Start: none, Finish: none, Maps: len(spec.Maps), Reduces: len(spec.Reduces)}
	s.slim(j)
	for ty := range j.tasks {
		if j.streamed {
			break // a streamed job's results carry no per-task times
		}
		j.result.TaskFinish[ty] = make([]speculators.Time, len(j.tasks[ty]))
		for i := range j.result.TaskFinish[ty] {
			j.result.TaskFinish[ty][i] = none
		}
	}
	if j.unfinished == 0 {
		s.finishJob(ji)
		return nil
	}
	if spec.KillAt > 0 {
		s.queue.push(s.now+spec.KillAt, evKillJob, ji, 0)
	}
	s.active = append(s.active, ji)
	s.rankJob(j)
	s.touch(j)
	s.needSchedule = true
	if !s.tickPending {
		s.tickPending = true
		next := (s.now + s.decide - 1) / s.decide * s.decide
		s.queue.push(next, evDecide, 0, 0)
	}
	return nil
}

// touch marks j's container needs for reporting at the end of the instant.
func (s *sim) touch(j *jobState) {
	if !j.needsDirty {
		j.needsDirty = true
		s.dirty = append(s.dirty, j.index)
	}
	s.reindex(j)
}

// flushNeeds reports changed ContainerNeeds levels, map before reduce.
func (s *sim) flushNeeds() error {
	for _, ji := range s.dirty {
		j := &s.jobs[ji]
		j.needsDirty = false
		if j.finished {
			continue
		}
		for ty := speculators.TaskType(0); ty < speculators.NumTaskTypes; ty++ {
			level := j.needs(ty)
			if level == j.needsSent[ty] {
				continue
			}
			j.needsSent[ty] = level
			s.setEvent(speculators.Event{Kind: speculators.ContainerNeeds, Time: s.now, TaskType: ty, Count: level})
			if err := s.observe(j); err != nil {
				return err
			}
		}
	}
	s.dirty = s.dirty[:0]
	return nil
}

// observe feeds s.ev to j's engine.
func (s *sim) observe(j *jobState) error {
	s.settle(j)
	if j.inert {
		return s.observed(j, nil)
	}
	return s.observed(j, j.engine.Observe(&s.ev))
}

// observed completes an engine call that fed s.ev to j's engine: its
// error, or what the policy learned kept and the event passed on to the
// fault analyzer.
func (s *sim) observed(j *jobState, err error) error {
	if err != nil {
		return fmt.Errorf("sim: %w", err)
	}
	j.wantRound = 0   // the engine saw an event: WantsSlot asked afresh
	j.idle = idleNone // and its SkipDecide's yes is forgotten
	if s.cfg.Trace != nil {
		s.cfg.Trace.Event(j.spec.ID, &s.ev)
	}
	s.keepLearned(j)
	s.feedAnalyzer(j)
	return nil
}

// keepLearned hands what j's policy learned for later jobs to Config.Keep
// (speculators.Engine.Learned), right after the engine call that produced
// it, so that a later job's Prior sees it as soon as the engine had it.
func (s *sim) keepLearned(j *jobState) {
	if s.cfg.Keep == nil || !j.teaches {
		return
	}
	if l := j.engine.Learned(); !l.Empty() {
		if !s.zeroKept && zeroRuntime(l.Runtimes) {
			s.zeroKept = true
			s.settleAll() // the prior's map lengths may fall to 0
		}
		for _, smp := range l.Samples {
			s.settleBucket(smp.Bucket) // a deferred job's left-out Decides read the samples as they were
		}
		s.cfg.Keep(l)
		s.round++ // another job's prior moved: every answer asked afresh (wants)
	}
}

// finishJob records j as done now and takes it out of scheduling.
func (s *sim) finishJob(ji int32) {
	if s.deferFinish(ji) {
		return
	}
	j := &s.jobs[ji]
	s.settle(j)
	j.finished = true
	if j.inOrd {
		j.inOrd = false
		s.ordGone++ // out of the kept job order at the next pass (takeKeptOrder)
	}
	j.result.Finish = s.now
	s.reindex(j)
	s.detachJob(j)
	j.engine = nil // the run no longer drives it; let it be collected
	if j.streamed && s.recycle {
		s.release(j)
	}
	s.done++
	if s.cfg.JobDone != nil {
		s.cfg.JobDone(s.done, len(s.jobs), s.now)
	}
	for k, a := range s.active {
		if a == ji {
			s.active = append(s.active[:k], s.active[k+1:]...)
			break
		}
	}
}

// finish assembles the Result; attempts still running (at the horizon or a
// stall) count their run time up to now.
func (s *sim) finish() *Result {
	r := &s.result
	r.End = s.now
	r.Events = s.events
	s.countWrongSpeculations()
	r.Jobs = make([]JobResult, len(s.jobs))
	first, last := speculators.Time(math.MaxInt64), speculators.Time(0)
	for i := range s.attempts.len() {
		a := s.attempts.at(i)
		if a.state == speculators.StateRunning && a.job != none {
			s.jobs[a.job].result.ContainerMs += s.now - a.start
		}
	}
	for i := range s.jobs {
		j := &s.jobs[i]
		if !j.submitted {
			maps, reduces := j.spec.TaskCounts()
			j.result = JobResult{ID: j.spec.ID, Submit: j.spec.Submit, Start: none, Finish: none,
				Maps: maps, Reduces: reduces}
		}
		r.Jobs[i] = j.result
		if j.result.Finish < 0 {
			r.Unfinished++
			continue
		}
		first = min(first, j.result.Submit)
		last = max(last, j.result.Finish)
	}
	if last >= first {
		r.Makespan = last - first
	}
	if s.cfg.RunningSamples > 0 {
		r.Running = s.runningSeries(s.cfg.RunningSamples)
	}
	return r
}
