package speculators

import (
	"fmt"
	"slices"
)

// Speculator is a policy: it reads a job's state and returns decisions. It
// must be deterministic given the job state, now and its seeded source.
type Speculator interface {
	// Decide appends the policy's decisions at now to out and returns it.
	Decide(job *Job, now Time, out []Decision) []Decision
}

// Observer is implemented by policies that keep state of their own beyond
// the Job (for example what they have already speculated). Observe is called
// after the event has been folded into job.
type Observer interface {
	Observe(job *Job, ev *Event)
}

// ReportBlind is implemented by policies whose decisions never depend on
// attempts' status reports (progress, phase, counters, report times): the
// no-speculation baseline. A driver that uses the reports for nothing else
// (the simulator without a fault analyzer) may leave them out: the
// decisions are the same, and a replay of a large cluster's day is spared
// the heartbeats that are most of its events (docs/scale.md).
type ReportBlind interface {
	IgnoresReports()
}

// Inert is implemented by policies that never return a decision (the
// no-speculation baseline). An engine whose policy is Inert and ReportBlind
// and has no other hook (Observer, NodeGate, SlotChooser, JobPrioritizer,
// Cloner, Teacher) returns the same from every call whatever events it was
// told (Engine.Inert), so a driver that reads the job's state for nothing
// else (the simulator without a trace) may leave Observe out: on a large
// cluster's day the engine's record of every task and attempt was a
// quarter of a no-speculation replay (docs/scale.md).
type Inert interface {
	NeverDecides()
}

// NoReruns is implemented by policies that never ask for a Rerun (they copy
// tasks, or do nothing): no decision of theirs names a done task's
// succeeded attempt, so a driver need not keep its own record of the
// attempts of a done task (the simulator reuses their slots at once,
// docs/scale.md). The engine drops a Rerun such a policy returns anyway,
// live and in replay alike.
type NoReruns interface {
	NeverReruns()
}

// NodeGate is implemented by policies that choose where a speculative copy
// may run (LATE's SlowNodeThreshold). The simulator asks before placing a
// copy; live, the shim may kill a copy the policy refuses and retry later.
type NodeGate interface {
	AllowSpeculativeOn(job *Job, node NodeID, now Time) bool
}

// SlotChooser is implemented by pull-based policies (GRASS §3: "the key
// choice ... is to pick the next task to schedule given a vacant slot",
// among queued originals and copies of running tasks). Simulator-only: the
// simulator offers each free slot to the job the cluster scheduler picked
// and asks the policy what to run there. Live, the AM's allocator places
// originals and only Decide's Speculate reaches it (DESIGN.md, "What is
// live and what is simulation-only": GRASS's ordering is complete in the
// simulator only). A replay of a history, which predicts a live run, does
// not offer slots either (sim.Config.YARNPlacement).
//
// A driver that offers slots says so once, through Engine.OfferSlots,
// before the job's first Decide: the policy is then in pull mode for the
// job's life and may stop asking for copies from Decide (it still decides
// everything else there, such as Drop). A driver that never calls it (the
// live bridge) gets the policy's push form. Pull mode is the driver's
// declaration, never a side effect of a first ChooseForSlot.
//
// WantsSlot reports whether ChooseForSlot could name a task on some node at
// now: false promises that ChooseForSlot answers ok false on every node
// until the job's state or the clock changes, so a driver need not offer
// the job its free slots (with thousands of free slots and hundreds of
// running jobs, asking each job about each slot was most of a replay's time,
// docs/scale.md). It must not change what Decide sees.
//
// ChooseForSlot returns the task to run in the free slot on node: copy false
// names a task with nothing running (an original not yet placed, or a task
// waiting to run again), copy true a running task to start one more attempt
// of. ok false leaves the slot to the default order (retries and originals
// in the job's order, then copies asked for by Decide). A choice the caller
// cannot honour (a task done or dropped, a copy on a node where the task
// already runs, a reduce before slow start, a type the slot cannot hold) is
// read as ok false. ChooseForSlot must not change what Decide sees. A driver
// in pull mode offers the job every free slot the cluster scheduler gives
// it while WantsSlot holds, and re-offers idle slots at every Decide tick.
type SlotChooser interface {
	OfferSlots(job *Job)
	WantsSlot(job *Job, now Time) bool
	ChooseForSlot(job *Job, node NodeID, now Time) (task TaskID, copy bool, ok bool)
}

// Priority orders jobs on free slots for a JobPrioritizer: the lower Tier
// first, then the lower Key.
type Priority struct {
	Tier int
	Key  float64
}

// JobPrioritizer is implemented by policies that order jobs across the
// cluster (Xu and Lau's SCA, SDA and ESE: stragglers' copies first, then
// the running jobs with the least left, then the waiting jobs with the
// least work). The simulator gives each free slot to the job whose engine
// reports the lowest Priority among those with something to run there,
// before any job whose policy has no opinion (a replay of a history,
// sim.Config.YARNPlacement, asks no priority). Live, YARN's scheduler
// orders jobs; with serve --rm-job-order the bridge publishes each job's
// Priority after every decide and the sidecar sets the jobs' YARN
// application priorities from their ranks, which the capacity scheduler
// serves first (yarnclient/rmorder; coarser: a few levels, every few
// seconds). JobPriority must be cheap (it is asked for every slot) and must
// not change what Decide sees.
type JobPrioritizer interface {
	JobPriority(job *Job, now Time) Priority
}

// PriorityByEvents is implemented by a JobPrioritizer whose priority for a
// job moves only when the engine is told or asked something that may
// change the job or the policy (an event observed, a Decide and its
// deferrals, the pull mode declared, a slot's choice, the copies at
// launch, what was learned taken), never with the clock alone nor with
// the queries WantsSlot, AllowSpeculativeOn and SkipDecide: a driver may
// then keep a job's priority while the engine's PriorityVersion stays.
// The simulator asks every ordered job's priority at each scheduling pass;
// most of a queue's jobs have not moved since the last (issue 31). The
// method says whether the promise holds for this policy (asked once, when
// the engine is made): a policy that orders through others holds it only
// if they do.
type PriorityByEvents interface {
	JobPrioritizer
	PriorityByEvents() bool
}

// JobSize is what the cluster knows of a job that has not started: its
// task count and the a-priori task-time model of JobInfo.
type JobSize struct {
	Tasks      int
	TaskMillis float64
	TailIndex  float64
}

// ClusterView is the cluster as the simulator sees it when a job's first
// task is placed, for a Cloner.
type ClusterView struct {
	// Idle is the number of free slots, counting the one being filled.
	Idle int
	// Slots is the cluster's capacity.
	Slots int
	// SpeculativeRunning counts running attempts, of every job, that were
	// started as copies.
	SpeculativeRunning int
	// ReduceSlots and ReduceIdle, on Hadoop 1 slot pools only (JobInfo.
	// SlotPools), are the reduce pool's capacity and free reduce slots,
	// counted in Slots and Idle too; 0 on containers (one pool) and live.
	ReduceSlots, ReduceIdle int
	// Waiting lists the jobs with nothing placed yet (chi(l) of Xu and Lau
	// §IV), this one included, in the order the scheduler serves them.
	Waiting []JobSize
}

// Cloner is implemented by policies that clone at launch (Dolly; SCA and
// ESE's cloning of small jobs): several attempts of a task start together.
// When the simulator places the first original attempt of the job it asks
// LaunchCopies how many attempts each of the job's tasks starts with (1 =
// no clone) and, for every original it places from then on, starts the
// extra attempts on other free slots at the same instant; copies that find
// no free slot are not started. Live, the AM launches originals one at a
// time and allows copies only of RUNNING tasks, so a Cloner also asks for
// its copies from Decide as soon as a task's first attempt runs.
type Cloner interface {
	LaunchCopies(job *Job, view ClusterView, now Time) int
}

// JobFitter is implemented by a policy that becomes a policy fitted to one
// job before the engine looks at it (a composite such as auto, whose
// members, and so whose optional interfaces, depend on the job's bounds
// and task-time model): NewEngine calls ForJob once and drives what it
// returns, asking that for the optional interfaces above.
type JobFitter interface {
	ForJob(info JobInfo) Speculator
}

// Engine is one job's state plus its policy: the unit the bridge and the
// simulator drive. It is not safe for concurrent use; the caller serialises
// Observe and Decide.
type Engine struct {
	Job    *Job
	Policy Speculator
	Name   string
	Params Params

	observer Observer
	gate     NodeGate
	chooser  SlotChooser
	offered  bool // OfferSlots was called: the policy is in pull mode
	prio     JobPrioritizer
	// byEvents: prio is a PriorityByEvents; version moves at every call
	// that may change its answer (PriorityVersion).
	byEvents bool
	version  uint64
	watch    func() // WatchPriority's f
	cloner   Cloner
	teacher  Teacher
	pending  LearnedPending // the teacher's, if it implements it
	idle     IdleDecider
	idleKept bool // DecideIdle said yes, and no event came since (SkipDecide)
	// deferred: DeferDecides said yes after the Decide at deferAt, and the
	// driver has not handed the ticks since over (DecidesLeftOut).
	deferred bool
	blind    bool
	noReruns bool
	inert    bool
	learned  Learned // scratch for Learned
	buf      []Decision
	// givenKinds and given remember the decisions other than Speculate
	// (the copy ledger, Job.PendingCopies, has those) that Decide returned
	// per task since one of the task's attempts last started or ended (see
	// Decide): givenKinds a bit for Drop, indexed like
	// Job.Tasks, so that a policy asking for copies of thousands of tasks
	// at once costs no map; given the decisions that name an attempt (Kill,
	// Rerun) or a task the job does not have.
	givenKinds [NumTaskTypes][]uint8
	given      map[TaskID][]givenDecision
	// deferrer is the policy's DecideDeferrer, and deferAt the Decide a
	// deferral in force followed (DeferDecides).
	deferrer DecideDeferrer
	deferAt  Time
}

// givenDecision is what makes two decisions about a task the same: the
// kind, and for Kill and Rerun the attempt.
type givenDecision struct {
	kind    DecisionKind
	attempt AttemptID
}

// NewEngine builds an engine for job with an already constructed policy.
func NewEngine(info JobInfo, name string, policy Speculator, params Params) (*Engine, error) {
	job, err := NewJob(info)
	if err != nil {
		return nil, err
	}
	if f, ok := policy.(JobFitter); ok {
		policy = f.ForJob(job.Info)
	}
	e := &Engine{Job: job, Policy: policy, Name: name, Params: params}
	e.observer, _ = policy.(Observer)
	e.gate, _ = policy.(NodeGate)
	e.chooser, _ = policy.(SlotChooser)
	e.prio, _ = policy.(JobPrioritizer)
	if pe, ok := policy.(PriorityByEvents); ok {
		e.byEvents = pe.PriorityByEvents()
	}
	e.cloner, _ = policy.(Cloner)
	e.teacher, _ = policy.(Teacher)
	e.idle, _ = policy.(IdleDecider)
	e.deferrer, _ = policy.(DecideDeferrer)
	if e.teacher != nil {
		e.pending, _ = policy.(LearnedPending)
	}
	_, e.blind = policy.(ReportBlind)
	_, e.noReruns = policy.(NoReruns)
	_, inert := policy.(Inert)
	e.inert = inert && e.blind && e.observer == nil && e.gate == nil && e.chooser == nil &&
		e.prio == nil && e.cloner == nil && e.teacher == nil
	return e, nil
}

// Observe folds one event into the job's state and lets the policy see it.
// An error leaves the state as it was and names what was wrong.
func (e *Engine) Observe(ev *Event) error {
	e.owes()
	e.step()
	e.idleKept = false
	if err := e.Job.apply(ev); err != nil {
		return e.eventError(ev, err)
	}
	if ev.Kind.Lifecycle() {
		e.Job.settleCopies(ev)
	}
	if e.observer != nil {
		e.observer.Observe(e.Job, ev)
	}
	if ev.Kind.Lifecycle() {
		if id := ev.Attempt.Task; int(id.Type) < NumTaskTypes && id.Index >= 0 && int(id.Index) < len(e.givenKinds[id.Type]) {
			e.givenKinds[id.Type][id.Index] = 0
		}
		if len(e.given) > 0 {
			delete(e.given, ev.Attempt.Task)
		}
	}
	return nil
}

// ObserveStatus is Observe for an AttemptStatus event about an attempt the
// caller already holds (Job.Attempt, kept since the attempt started): the
// same state change, policy call and errors, without looking the task and
// the attempt up again. A driver that sends a report at every heartbeat of
// every attempt (the simulator) spends most of its time there otherwise.
// An event naming another attempt takes Observe's path.
func (e *Engine) ObserveStatus(a *Attempt, ev *Event) error {
	if a == nil || ev.Kind != AttemptStatus || a.ID != ev.Attempt {
		return e.Observe(ev)
	}
	e.owes()
	e.step()
	e.idleKept = false
	j := e.Job
	j.reach(ev.Time)
	if err := j.statusOf(a, ev); err != nil {
		return e.eventError(ev, err)
	}
	if e.observer != nil {
		// The policy most likely looks the attempt up: it is at hand.
		j.hot = a
		e.observer.Observe(j, ev)
		j.hot = nil
	}
	return nil
}

// eventError names the job, the event and its time in an error of
// Observe's.
func (e *Engine) eventError(ev *Event, err error) error {
	return fmt.Errorf("job %s: %s at %d: %w", e.Job.Info.ID, ev.Kind, ev.Time, err)
}

// ReadsReports reports whether the policy's decisions may depend on status
// reports (false for a ReportBlind policy).
func (e *Engine) ReadsReports() bool { return !e.blind }

// Inert reports whether the engine returns nothing from Decide, nothing
// from its other calls but their defaults, whatever it observes (an Inert
// policy without other hooks): a driver may then leave Observe out, and
// Job then holds nothing of the job's events.
func (e *Engine) Inert() bool { return e.inert }

// Reruns reports whether the policy may ask for a Rerun (false for a
// NoReruns policy).
func (e *Engine) Reruns() bool { return !e.noReruns }

// Teaches reports whether the policy learns for later jobs (Learned can
// return something).
func (e *Engine) Teaches() bool { return e.teacher != nil }

// SkipDecide reports whether Decide at now would return nothing and change
// nothing a later call reads, as the policy's IdleDecider says for the job
// as it is (its yes kept until the next event observed), or always for an
// Inert engine; it then notes the time as Decide does, and a driver may
// leave Decide out.
func (e *Engine) SkipDecide(now Time) bool {
	e.owes()
	if !e.idleKept {
		if !e.inert && (e.idle == nil || !e.idle.DecideIdle(e.Job)) {
			return false
		}
		e.idleKept = true // until the next event (IdleDecider)
	}
	if now > e.Job.Now {
		e.Job.Now = now
	}
	return true
}

// Decide asks the policy for its decisions at now and returns the new ones.
// The returned slice is reused by the next call; copy what must outlive it.
//
// De-duplication: a Speculate of a task with copies pending in the ledger
// (Job.PendingCopies) is not returned; every other decision the engine
// already returned for a task (the same kind, and for Kill and Rerun the
// same attempt) is not returned again until one of the task's attempts
// starts or ends. A policy that asks for the same copy at every tick while
// the AM has not launched it yet so yields one decision, live (the bridge
// sends what Decide returns) and in replay (the simulator applies it) alike.
// What the AM does with a decision shows as an attempt starting or ending,
// which settles the ledger and lets the policy ask again. The Speculates
// returned enter the ledger.
func (e *Engine) Decide(now Time) []Decision {
	e.owes()
	e.step()
	if now > e.Job.Now {
		e.Job.Now = now
	}
	e.buf = e.Policy.Decide(e.Job, now, e.buf[:0])
	if len(e.buf) == 0 {
		return e.buf
	}
	for ty := range e.givenKinds {
		e.givenKinds[ty] = Grow(e.givenKinds[ty], len(e.Job.Tasks[ty]))
	}
	kept := e.buf[:0]
	for _, d := range e.buf {
		if id := d.Task; (d.Kind == Speculate || d.Kind == Drop) && int(id.Type) < NumTaskTypes && id.Index >= 0 && int(id.Index) < len(e.givenKinds[id.Type]) {
			if d.Kind == Speculate {
				// A copy asked for and not started is in the ledger: a
				// second request for the task waits until it settles.
				if e.Job.Tasks[id.Type][id.Index].PendingCopies > 0 {
					continue
				}
				e.Job.askCopies(id, d.Copies)
				kept = append(kept, d)
				continue
			}
			bits, bit := &e.givenKinds[id.Type][id.Index], uint8(1)<<d.Kind
			if *bits&bit != 0 {
				continue
			}
			*bits |= bit
			kept = append(kept, d)
			continue
		}
		if d.Kind == Rerun && e.noReruns {
			continue // a NoReruns policy's: not passed on (NoReruns)
		}
		if e.given == nil {
			e.given = map[TaskID][]givenDecision{}
		}
		task, g := d.Task, givenDecision{kind: d.Kind}
		if d.Kind == Kill || d.Kind == Rerun {
			task, g.attempt = d.Attempt.Task, d.Attempt
		}
		if slices.Contains(e.given[task], g) {
			continue
		}
		e.given[task] = append(e.given[task], g)
		kept = append(kept, d)
	}
	e.buf = kept
	return e.buf
}

// DeferDecides reports, right after a Decide that returned nothing, whether
// the driver may leave out the job's Decides at its later ticks until the
// job's next event, as the policy's DecideDeferrer says, and the size
// bucket whose samples those Decides read (-1: none). After a yes the
// driver hands the ticks over (DecidesLeftOut) before any other call to
// the engine and before it keeps into the policy's prior a sample of that
// bucket another job taught (a call to the engine in between panics: a
// driver's bug). Live, the bridge never asks: it calls Decide at its own
// cadence, every tick of every job, so a policy's deferral changes nothing
// there. The simulator asks when no trace watches the job's Decides
// (sim/decide.go).
func (e *Engine) DeferDecides() (ok bool, bucket int) {
	e.owes()
	e.step()
	if e.deferrer == nil {
		return false, -1
	}
	if ok, bucket = e.deferrer.DeferDecides(e.Job, e.Job.Now); !ok {
		return false, -1
	}
	e.deferred, e.deferAt = true, e.Job.Now
	return true, bucket
}

// DecidesLeftOut hands the policy the n Decides the driver left out since
// DeferDecides said yes, at the ticks step, 2 step, ..., n step after the
// Decide it followed; the policy runs them in order as each would have run
// (DecideDeferrer), and the engine is then as after a Decide at the last
// (n 0: none was left out). Without a deferral in force it does nothing.
func (e *Engine) DecidesLeftOut(n int, step Time) {
	if !e.deferred {
		return
	}
	e.step()
	e.deferred = false
	if n <= 0 {
		return
	}
	last := e.deferAt + Time(n)*step
	if last > e.Job.Now {
		e.Job.Now = last
	}
	e.deferrer.DecidesLeftOut(e.Job, e.deferAt+step, step, n)
}

// owes panics while a deferral's Decides have not been handed over: a
// call now would reach the policy with its state behind the job's clock.
func (e *Engine) owes() {
	if e.deferred {
		panic(fmt.Sprintf("speculators: job %s: engine called with Decides deferred since %d and not handed over (DecidesLeftOut)", e.Job.Info.ID, e.deferAt))
	}
}

// AllowSpeculativeOn reports whether the policy lets a speculative copy run
// on node; policies without an opinion allow every node.
func (e *Engine) AllowSpeculativeOn(node NodeID, now Time) bool {
	e.owes()
	if e.gate == nil {
		return true
	}
	return e.gate.AllowSpeculativeOn(e.Job, node, now)
}

// ChoosesSlots reports whether the policy is pull-based (SlotChooser).
func (e *Engine) ChoosesSlots() bool { return e.chooser != nil }

// OfferSlots declares that the driver offers this job's free slots to its
// pull-based policy from now on (see SlotChooser); call it before the first
// Decide. It reports whether the policy is pull-based; for another policy
// it does nothing.
func (e *Engine) OfferSlots() bool {
	e.owes()
	e.step()
	if e.chooser == nil {
		return false
	}
	if !e.offered {
		e.offered = true
		e.chooser.OfferSlots(e.Job)
	}
	return true
}

// WantsSlot reports whether a pull-based policy that has been offered slots
// (OfferSlots) could choose a task for some free slot at now (see
// SlotChooser); false for every other policy.
func (e *Engine) WantsSlot(now Time) bool {
	e.owes()
	if !e.offered {
		return false
	}
	if now > e.Job.Now {
		e.Job.Now = now
	}
	return e.chooser.WantsSlot(e.Job, now)
}

// ChooseForSlot asks a pull-based policy that has been offered slots
// (OfferSlots) what to run in a free slot on node (see SlotChooser); ok is
// false for a policy without an opinion or not offered slots.
func (e *Engine) ChooseForSlot(node NodeID, now Time) (task TaskID, copy bool, ok bool) {
	e.owes()
	e.step()
	if !e.offered {
		return TaskID{}, false, false
	}
	if now > e.Job.Now {
		e.Job.Now = now
	}
	return e.chooser.ChooseForSlot(e.Job, node, now)
}

// Prioritizes reports whether the policy orders jobs (JobPrioritizer).
func (e *Engine) Prioritizes() bool { return e.prio != nil }

// JobPriority is the policy's priority for the job (the zero Priority for a
// policy without an opinion).
func (e *Engine) JobPriority(now Time) Priority {
	e.owes()
	if e.prio == nil {
		return Priority{}
	}
	return e.prio.JobPriority(e.Job, now)
}

// PriorityVersion is a count that moves at every call that may change the
// job's priority; ok is false unless the policy is a PriorityByEvents, and
// then its priority must be asked afresh each time.
func (e *Engine) PriorityVersion() (v uint64, ok bool) { return e.version, e.byEvents }

// WatchPriority has f called at every step of PriorityVersion, so that a
// driver keeping many jobs' priorities learns which may have moved without
// reading every job's version (the simulator's kept job order: reading each
// queued job's version at every scheduling pass was a tenth of auto's
// replay of xulau/ese, issue 31). f runs inside the engine's call and must
// not call back into the engine. nil stops the calls.
func (e *Engine) WatchPriority(f func()) { e.watch = f }

// step moves PriorityVersion, and tells the watcher (WatchPriority).
func (e *Engine) step() {
	e.version++
	if e.watch != nil {
		e.watch()
	}
}

// Clones reports whether the policy clones at launch (Cloner).
func (e *Engine) Clones() bool { return e.cloner != nil }

// LaunchCopies asks a Cloner how many attempts each task starts with; 1 for
// other policies and for answers below 1.
func (e *Engine) LaunchCopies(view ClusterView, now Time) int {
	e.owes()
	e.step()
	if e.cloner == nil {
		return 1
	}
	if now > e.Job.Now {
		e.Job.Now = now
	}
	return max(e.cloner.LaunchCopies(e.Job, view, now), 1)
}

// Learned returns what the policy learned for later jobs since the last call
// (see learned.go): part of the engine's output, like its decisions. The
// driver calls it after Observe and Decide and keeps what it gets; the
// engine keeps nothing. The slices are the caller's.
func (e *Engine) Learned() Learned {
	if e.teacher == nil || (e.pending != nil && !e.pending.HasLearned()) {
		return Learned{}
	}
	e.step()
	// Filled in the engine's own scratch: a local passed by pointer to the
	// interface method escaped, one allocation at every call, which was
	// half of what a big replay allocated (docs/scale.md).
	e.learned = Learned{}
	e.teacher.TakeLearned(&e.learned)
	l := e.learned
	e.learned = Learned{}
	return l
}
