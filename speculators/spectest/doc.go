// Package spectest is the one test harness every policy's tests use: it
// builds a job, feeds a real speculators.Engine events at the times a test
// gives, asks it to Decide and checks the decisions, either from Go (New,
// Harness.Start, Harness.Decide, WantSpeculated) or from data-driven text
// files in a policy's testdata/ directory (RunDir), so that a paper's worked
// example reads as a short script of events in and decisions out.
//
// It is test support: it must not be imported by non-test code, and like the
// engine it performs no I/O of its own (the text files are read by
// github.com/cockroachdb/datadriven, which also rewrites their expectations
// when the test runs with -rewrite).
//
// # Text format
//
// A file is a sequence of directives in datadriven's layout:
//
//	command args...
//	more commands, one per line (optional)
//	----
//	expected output
//
// The directive's own command runs first, then each line of its input (blank
// lines and lines starting with # are skipped); the output is what all of
// them printed. An error prints "error: ..." as the output, so a test can
// also expect a bad input to be refused. Times are t=SECONDS from the job's
// virtual zero (decimals allowed); tasks are m<i> and r<i> (map i, reduce
// i); an attempt is its task ("m3": the task's latest attempt, for start its
// next one, numbered 0, 1, ... in start order) or TASK.N for attempt N.
//
//	job policy=late maps=3 reduces=1 slots=4 input=64,64,128 deadline=90 error=0.1 seed=1 late.speculative-cap=0.2
//	    builds a fresh engine (an earlier job's state is dropped). input= and
//	    reduce-input= are byte counts, one per task or one for all;
//	    deadline= and start= are in seconds; task-s= (seconds) and tail= are
//	    the job's a-priori mean task time and Pareto tail index
//	    (JobInfo.TaskMillis, JobInfo.TailIndex); resume=yes says copies
//	    asked for with Resume start at the offset (JobInfo.Resume; the
//	    default no is live Hadoop's); slot-pools=yes says the cluster has
//	    Hadoop 1's separate map and reduce slots (JobInfo.SlotPools; the
//	    default no is live YARN's containers); job-order=yes says the
//	    cluster applies a JobPrioritizer's order to free slots
//	    (JobInfo.JobOrder; the default no is live without serve
//	    --rm-job-order); POLICY.NAME=VALUE (or a
//	    Hadoop key) overrides a parameter. Prints nothing.
//	tail maps=40 sigma=0.8 [slow=0.25] [upper=0.8]
//	    an earlier job's map-time spread (speculators.TailFit: sigma of
//	    its maps' log run times, fitted from maps maps, and slow, the
//	    share of its nodes where its maps ran slow, 0 unless given), for the next job
//	    command: tail lines given before a job command, oldest first, are
//	    that job's Prior (its speculators.TailPrior; no samples, no
//	    run-time prior), and the job command takes them, so the job after
//	    starts with none unless tail lines precede it too. maps is 1 to
//	    speculators.MaxJobTasks, sigma a number in [0,
//	    speculators.MaxTailSigma], slow in [0, 1]; anything else is an error naming the
//	    file and line. Prints nothing.
//	runtime reduce ms=4000 | runtime map ms=20000
//	    an earlier job's completed task (speculators.RuntimeRecord, its
//	    input size unknown), for the next job command: its Prior's
//	    PriorRuntime is the median of the type's runtime lines (Records).
//	    Prints nothing.
//	tail deadline=300 | tail bound=60 | tail lost-output=25
//	    a deadline record (auto's rule v41: a job with that absolute
//	    deadline in seconds runs now), a bound record (rule v44: a job
//	    with an error bound was still short of it shortly before that
//	    time, speculators.MarkBoundAhead) or a lost-output record
//	    (rule v51: a job lost a map output at that time that a reducer
//	    had reported it could not fetch, speculators.MarkOutputLost),
//	    for the next job command as a tail line; each takes nothing else.
//	tail node-failed=350 | tail node-resumed=400
//	    a node record (rule v69: a job was told at that time that a
//	    node was declared failed, speculators.MarkNodeFailed, or back,
//	    speculators.MarkNodeResumed); each takes nothing else.
//	tail bound-copies=30 copied=9 wins=0
//	    a bound-copy record (rule v52: a job with an error bound reached
//	    it at that time; copied of its done maps had a copy, wins of them
//	    won by one; speculators.MarkBoundCopies), for the next job command.
//	tail bound-spread=30 maps=27 sigma=0.3 upper=0.25
//	    a bound-spread record (rule v56: a job with an error bound reached
//	    it at that time; its original maps then spread sigma, their upper
//	    half upper; speculators.MarkBoundSpread), for the next job command.
//	tail reduce-pool=30 busy=0.94
//	    a reduce-pool record (rule v67: a job was placed at that time on
//	    slot pools whose reduce pool was busy that fraction, in [0, 1];
//	    speculators.MarkReducePool), for the next job command.
//	run
//	    does nothing itself: a directive whose input is the script.
//	start t=0 m1 node=n1 [copy] [restated] [container=ID]
//	progress t=60 m1 0.5 [phase=shuffle|sort|reduce|map] [input-bytes=N] [output-bytes=N] [cpu-ms=N] [fetch-failed=m0,m2]
//	    a status report with progress score 0.5 (a reduce's phase defaults
//	    to reduce, a map's to map).
//	succeed t=70 m1 | fail t=70 m1 | kill t=70 m1.1
//	needs t=5 map=3 | needs t=5 reduce=1
//	    the AM waits for that many containers of the type (a level).
//	node-suspected t=30 node=n2 | node-failed ... | node-resumed ...
//	bounds t=0 deadline=120 error=0.05
//	    these print nothing; an event the engine refuses prints its error.
//	decide t=60
//	    prints "t=60 none", or "t=60:" and one decision a line:
//	    "speculate m_000001 copies=1: REASON", "kill m_000001_0: REASON",
//	    "rerun m_000002_0: REASON", "drop m_000003: REASON".
//	gate t=60 node=n3
//	    whether the policy lets a copy run on n3 (NodeGate): "allowed" or
//	    "refused".
//	choose t=60 node=n3
//	    what a pull-based policy runs in a free slot on n3 (SlotChooser);
//	    the first choose puts the job in pull mode (Engine.OfferSlots), as
//	    the simulator's first slot offer does.
//	place t=0 slots=96 idle=40 [reduce-slots=32 reduce-idle=0] [copies-running=6]
//	    the simulator's first placement of the job's tasks: the cluster
//	    view (speculators.ClusterView: the reduce pool on Hadoop 1 slot
//	    pools; copies of other jobs running, SpeculativeRunning, which live
//	    a job sees only with the cluster's capacity, JobInfo.Copies; the job the one waiting) handed to a Cloner's
//	    LaunchCopies; prints "t=0 attempts a task: N" (1 for a policy that
//	    does not clone).
//	priority t=60
//	    the job's order on free slots (JobPrioritizer): "tier T key K", the
//	    simulator serving the lowest first, or "none".
//	why
//	    the policy's account of its choice (a Why method, as auto's,
//	    whose reason names the rules that chose its member): "why: TEXT",
//	    or "why: none" for a policy without one.
//	learned
//	    what the engine handed out for later jobs since the last learned
//	    (speculators.Learned): one "runtime ...", "tail maps=N sigma=S"
//	    ("tail deadline=SEC", "tail bound=SEC", "tail lost-output=SEC" or
//	    "tail bound-copies=SEC copied=C wins=W", "tail bound-spread=SEC
//	    maps=N sigma=S upper=U", "tail reduces-built=SEC", "tail
//	    reduce-pool=SEC busy=B", "tail node-failed=SEC" or "tail
//	    node-resumed=SEC" for a deadline, bound, lost-output, bound-copy,
//	    bound-spread, reduces-built, reduce-pool or node record) or
//	    "sample ..." a line.
//
// For example, LATE's §4.2 case (testdata in speculators/late):
//
//	job policy=late maps=2 slots=10 late.min-runtime-ms=0
//	----
//
//	run
//	start t=0 m0 node=n1
//	start t=10 m1 node=n2
//	progress t=20 m0 0.6
//	progress t=20 m1 0.5
//	decide t=20
//	----
//	t=20:
//	speculate m_000000 copies=1: time left 13.3s (...)
package spectest
