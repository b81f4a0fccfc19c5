// Package cfa is the centralized fault analyzer of FARMS §3.1: one per
// cluster, it sees the events of every job session and keeps
//
//   - job-level records: jobs, their attempts, each attempt's node and
//     container, and so which completed maps' outputs live on which node;
//   - system-level records: per node, every unresponsive episode (start,
//     end, duration, when it was declared suspected and failed, who was
//     told), gathered every interval (5 s) from heartbeat gaps of all
//     attempts on the node across all jobs and, for nodes running nothing,
//     from the ResourceManager's node list and NodeManager probes;
//   - a failure detector per node (speculators/detect: TWS by default) with
//     the FAS feedback loop of §3.3, Fig. 7: a node silent longer than its
//     threshold is declared failed; when it resumes, the episode's real
//     duration joins its history and so sets its next threshold.
//
// It publishes NodeSuspected, NodeFailed and NodeResumed to every job with
// work on the node (a running attempt, or a completed map's output), and
// tells a job's new sessions of the nodes still suspected or failed. Only
// jobs whose sessions are connected speak for their nodes (analyzer.Analyzer, "alive").
//
// Layers: the pure logic (records, episodes, the detector, node states; a
// function of events and time, no I/O, no goroutines) is package
// cfa/analyzer, which the simulator drives too. This package is the live
// service around it: Store persists its records (an append-only log of
// checksummed records plus a snapshot, in a local directory or on HDFS).
// Service runs it live: locking, the wall clock, the gathering loop,
// RESTProber, the store, delivery; it implements bridge.Feed, the
// interface the bridge calls. Handler serves Service over HTTP for
// `specbridge cfa`, and Remote is the bridge.Feed a sidecar uses to reach a
// standalone analyzer.
//
// The package must not make speculation decisions (the policies do, from
// the node events it publishes), and must not import bridge/ (the Feed
// interface is declared there, where it is used; bridge's tests check that
// Service and Remote implement it).
package cfa
