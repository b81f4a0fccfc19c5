package sim

import (
	"math/rand/v2"

	"github.com/specbridge/specbridge/speculators"
)

// none marks an absent attempt, task or position.
const none = -1

// nodeState is a node during the run.
type nodeState struct {
	id       speculators.NodeID
	slowdown float64
	episodes []Episode
	// mult is the current duration multiplier: slowdown times the factors
	// of the active episodes; +Inf when hung.
	mult float64
	// mapMult is mult for maps: mult without the static slowdown when
	// that applies to reduces only.
	mapMult float64
	hung    bool
	// reducesOnly: the static slowdown applies to reduces only.
	reducesOnly bool
	// pools is 1 for shared YARN containers, 2 for dedicated map and reduce
	// slots (pool index = task type).
	pools int
	free  [speculators.NumTaskTypes]int
	// running holds the indices of the attempts running here.
	running []int32
	fault   nodeFault // crashes, expiry and the analyzer's view (faults.go)
}

func (n *nodeState) pool(ty speculators.TaskType) int {
	if n.pools == 2 {
		return int(ty)
	}
	return 0
}

// taskState is a task during the run.
type taskState struct {
	work       float64 // nominal ms of the original attempt
	inputBytes int64
	// copyEnd and sortEnd are the fractions of an attempt's work at which
	// a reduce's copy and sort phases end.
	copyEnd, sortEnd float64

	// winner is the attempt whose output the job uses, none until one
	// succeeds (forgotten once forgetDone let the task's slots go).
	winner  int32
	dropped bool
	// launched: the original attempt has been placed (or the task was
	// dropped or done before it was).
	launched      bool
	inRetry       bool  // waiting in the job's retry queue
	inCopyQueue   bool  // has an entry in the job's copy queue
	pendingCopies int32 // speculative copies asked for and not yet placed
	running       int32 // running attempts
	nextN         int32 // next attempt number
	first         int32 // first attempt (list linked by attempt.nextInTask)
	last          int32
	// outputPos is a done map's place in its job's output order; lost: its
	// output sits on a crashed node and the AM does not know yet (faults.go).
	outputPos int32
	lost      bool
	failures  int32 // failed attempts (for Job.MaxAttempts)
	// resumeCopies of the pending copies resume at fraction resumeFrac of
	// the task's work (Speculative-Resume; resume.go).
	resumeCopies int32
	resumeFrac   float64
}

func (t *taskState) done() bool { return t.winner != none }

// attempt is one task attempt. Work done is kept lazily: done is the work
// (nominal ms) completed as of lastT, and advance brings it to now.
type attempt struct {
	job, task, node int32
	// scriptedFail: the attempt fails when its work is done (Task.Script).
	scriptedFail bool
	// clone: started with its original (launchCloned), with the job's
	// CloneExtra and CloneStartup in place of CopyExtra and CopyStartup;
	// on an original, that it started with clones and pays CloneExtra
	// too (Job.WaveOriginals, inWave).
	clone bool
	// startup: an original or retry replaying a scripted attempt with a
	// Startup (ScriptedAttempt.Startup): silent, then reporting the rest
	// of its work as the whole (progress.go).
	startup     bool
	n           int32
	ty          speculators.TaskType
	state       speculators.AttemptState
	speculative bool
	silent      bool // on a hung node: no heartbeats

	start, end speculators.Time
	lastT      speculators.Time
	lastReport speculators.Time
	work, done float64

	finGen, hbGen uint32
	nextInTask    int32
	nodePos       int32 // index in nodeState.running
	reducePos     int32 // index in jobState.runningReduces
	// missing counts map outputs this reduce needs that sit on a crashed
	// node; fetchGen times its fetch-failure reports (faults.go).
	missing  int32
	fetchGen uint32
	// curve is the attempt's progress-noise curve in sim.curves, offset
	// + 1; 0: none, progress is linear (progress.go).
	curve int32
	// view is the engine's record of the attempt, kept from its start so
	// that a status report needs no lookup (speculators.Engine.ObserveStatus).
	view *speculators.Attempt
	// inputBytes, copyEnd and sortEnd are the task's (taskState), copied
	// at launch: every heartbeat reads them, and the attempt is at hand
	// where its task's record, in a job of 400,000 tasks, is a cache miss.
	inputBytes       int64
	copyEnd, sortEnd float64
	// offset is the fraction of the task's input a resumed attempt started
	// at (resume.go); 0 for attempts that start at the beginning.
	offset float64
}

// idleMark is whether the tick passes over a job (jobState.idle).
type idleMark uint8

const (
	idleNone     idleMark = iota
	idleKept              // SkipDecide said yes
	idleDeferred          // DeferDecides said yes: each tick counts a Decide left out
)

// jobState is a job during the run.
type jobState struct {
	spec  *Job
	index int32
	// passed: the ticks that left out a Decide since the job's Decides
	// were deferred (idleDeferred); deferIdx: the job's place in
	// sim.deferred[deferBucket], the list of the jobs whose left-out
	// Decides read the prior's samples of that bucket (deferNoBucket:
	// none). They fill the struct's padding.
	passed int32
	engine *speculators.Engine
	// chooser: the engine's policy picks what runs in each slot offered to
	// the job (speculators.SlotChooser; pull.go).
	chooser bool
	// offered: the job has been offered a slot, and its policy is in pull
	// mode (Engine.OfferSlots, pull.go).
	offered     bool
	deferBucket int8
	deferIdx    int32
	// wantRound and wantOK: the policy's WantsSlot as asked in scheduling
	// round wantRound (0: not asked since the job's engine last changed;
	// wants, pull.go).
	wantRound uint64
	wantOK    bool
	// idle: idleKept, the engine's SkipDecide said yes, kept until its
	// next event (observed clears it), or idleDeferred, its DeferDecides
	// said yes after the Decide at the tick before the first of passed
	// ticks (settle hands them over); either way the job has no bound to
	// enforce, and the tick passes over it without reading its engine or
	// its spec (decide.go).
	idle idleMark
	// prio: the policy orders jobs (speculators.JobPrioritizer); cloner:
	// it clones at launch and clones is the attempts each task starts
	// with, 0 until the job's first original is placed (clone.go).
	prio, cloner bool
	// prioHave: prioLast is the priority the job's engine gave at its
	// PriorityVersion prioVer, kept while that stays (jobPriority).
	prioHave bool
	prioVer  uint64
	prioLast speculators.Priority
	// inOrd: the job is in the kept job order, at its place ordAt
	// (takeKeptOrder).
	inOrd bool
	ordAt prioJob
	// prioTouched: the job is in s.ordTouched (touchPrio).
	prioTouched bool
	// teaches: the policy learns for later jobs (keepLearned asks it);
	// blind: nothing reads the job's status reports (a
	// speculators.ReportBlind policy and no fault analyzer), so its
	// attempts send none (heartbeats.go).
	teaches, blind bool
	// inert: the engine returns the same whatever it is told
	// (speculators.Engine.Inert) and no trace watches it: its events are
	// not sent to it (observe, report).
	inert bool
	// forget: a done task's attempt slots are reused at once (forgetDone):
	// the job is streamed, the run recycles (stream.go) and its policy
	// never asks for a Rerun (speculators.NoReruns).
	forget bool
	clones int
	rng    *rand.Rand
	// noise draws progress-noise curves (progress.go); nil until needed.
	noise *rand.Rand
	tasks [speculators.NumTaskTypes][]taskState

	submitted, finished bool
	// streamed: the job's tasks came from Job.Load into a copy of the
	// job the run owns (stream.go); header is the workload's job.
	streamed bool
	header   *Job
	// slim: the run's copy of the job no longer holds its tasks (slim).
	slim bool

	// retry queues tasks whose attempts failed or were killed, and re-run
	// maps; entries whose task left the queue (inRetry false) are skipped.
	retry      [speculators.NumTaskTypes][]int32
	retryHead  [speculators.NumTaskTypes]int
	retryCount [speculators.NumTaskTypes]int
	// origNext is the lowest index whose original attempt may still be
	// unplaced; origPending counts tasks whose original is unplaced.
	origNext    [speculators.NumTaskTypes]int
	origPending [speculators.NumTaskTypes]int
	// order is the placement order of originals by position (nil: index
	// order); origNext is then a position in it (see Job.Order).
	order [speculators.NumTaskTypes][]int32
	// copies queues tasks with pending speculative copies, in request order.
	copies    [speculators.NumTaskTypes][]int32
	copyCount [speculators.NumTaskTypes]int

	satisfiedMaps  int // maps done or dropped
	unfinished     int // tasks neither done nor dropped
	running        int // running containers
	runningMaps    int
	runningReduces []int32
	needsSent      [speculators.NumTaskTypes]int
	needsDirty     bool
	// rank is the job's submit rank in the active-job index, once ranked;
	// flags its memberships there (index.go).
	rank   int32
	ranked bool
	flags  jobFlags

	result JobResult
	fault  jobFault // fetch failures, lost outputs, cleanup (faults.go)
}

// starving reports whether the job's maps starve: a map waiting for a
// container (an original, a retry or a speculative copy), none running,
// and reduces holding containers. Its reduces are then preempted for the
// maps (preemptReduces, through the index's starving set) and no reduce of
// the job is placed (rampedDown). A copy counts as Hadoop's
// RMContainerAllocator counts it: a speculative map attempt's container
// request is one of the job's scheduled map requests like any other, and
// with no map running it is the task's only way forward (an attempt that
// fails while a copy is asked for is not queued again: the copy runs the
// task, abort). Counting originals and retries alone let reduces, cloned
// ones included, hold every container while the failed maps' copies waited:
// a replay of node hangs under auto that never ended.
func (j *jobState) starving() bool {
	return j.mapsWait() && len(j.runningReduces) > 0
}

// mapsWait reports whether a map of the job waits for a container (an
// original, a retry or a copy) with none running (rampedDown).
func (j *jobState) mapsWait() bool {
	return j.needs(speculators.Map) > 0 && j.runningMaps == 0
}

// needs is the ContainerNeeds level of a type: attempts waiting for a
// container (unplaced originals, retries and speculative copies).
func (j *jobState) needs(ty speculators.TaskType) int {
	return j.retryCount[ty] + j.origPending[ty] + j.copyCount[ty]
}

// mapFraction is the fraction of maps done or dropped (1 without maps).
func (j *jobState) mapFraction() float64 {
	m := len(j.tasks[speculators.Map])
	if m == 0 {
		return 1
	}
	return float64(j.satisfiedMaps) / float64(m)
}

func (j *jobState) allMapsSatisfied() bool { return j.satisfiedMaps == len(j.tasks[speculators.Map]) }

// slowstart is the job's reduce slow-start: its own when set, else the
// cluster's def.
func (j *jobState) slowstart(def float64) float64 {
	if j.spec.ReduceSlowstart != nil {
		return *j.spec.ReduceSlowstart
	}
	return def
}
