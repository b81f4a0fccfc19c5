// Package sim is specbridge's discrete-event simulator of a Hadoop MapReduce
// cluster on YARN with a virtual clock. It runs a workload of jobs on a set
// of nodes and drives one speculators.Engine per job exactly as the live
// bridge does: attempts report AttemptStarted, AttemptStatus every
// Config.Heartbeat, and AttemptSucceeded/Failed/Killed; the AM's container
// needs are reported as ContainerNeeds levels; every Config.DecideInterval
// each running job's engine is asked to Decide and its decisions are applied
// (Speculate, Kill, Rerun, Drop). The replay package builds the inputs from
// scenario files and job histories and turns a Result into reports.
//
// What it models, each choice documented where it is made:
//
//   - nodes with shared YARN containers or dedicated Hadoop-1 map/reduce
//     slots, a static slowdown and time windows (episodes) of extra slowdown;
//     an episode with an infinite factor is a hung node: its attempts make no
//     progress, send no heartbeats and fail after Config.TaskTimeout;
//   - map progress as the fraction of the map's work done, reduce progress
//     as LATE's copy/sort/reduce thirds, with the copy phase unable to get
//     ahead of the job's completed maps;
//   - a FIFO or fair scheduler placing attempts on free slots, per job maps
//     (retries, then originals) before reduces (retries, then originals
//     after slow start) before speculative copies, asking the engine where
//     copies may run; and Hadoop's reduce preemption when a job's reduces
//     starve its maps; a job whose policy is pull-based
//     (speculators.SlotChooser, pull.go) is instead asked, for each slot
//     offered to it, which original or copy runs there (map retries still
//     go first), and idle slots are offered to it again at every tick;
//   - first finisher wins, the other attempts of the task are killed; a
//     task left with nothing running or waiting after a failure or kill
//     runs again, as Hadoop's TaskImpl does;
//   - mapreduce.task.timeout for attempts that stop reporting;
//   - approximation jobs (approx.go): original attempts placed SJF or LJF
//     (Job.Order, by input size or Work: Job.OrderKey; live the AM orders
//     them, not the speculator), optional progress noise that makes
//     progress-based estimates of remaining time err (Job.ProgressNoise,
//     progress.go), and, with
//     Job.EnforceBounds, the sidecar's rule of dropping what is left once a
//     deadline passes or an error bound is met.
//
// Not modelled: task max-attempts (a task is retried forever), data
// locality, container start-up latency, memory-sized containers.
//
// What it must not do: read the wall clock, start goroutines, perform I/O,
// use randomness other than the PCG source seeded from Config.Seed, or let Go
// map iteration order affect anything. The same inputs and seed give the same
// Result, field for field. It must not know about any particular policy: it
// only talks to engines through the speculators contract.
//
// Failures (faults.go, analyzer.go, triggers.go): node crashes at a time or
// at a job's map-progress point lose the map outputs stored on the node;
// reduces that need them report fetch failures after the shuffle read
// timeout and the AM re-runs a map after repeated reports; NM expiry marks a
// long-hung node LOST and re-runs its completed maps; an optional container
// cleanup delay; the fault analyzer (cfa/analyzer, the one the live sidecar
// runs, driven in virtual time: faultanalyzer.go) sends NodeSuspected,
// NodeFailed and NodeResumed from heartbeat gaps, with a speculators/detect
// detector and the FAS feedback loop. A paused (hung, not crashed) node's
// finished map outputs stay available.
package sim
