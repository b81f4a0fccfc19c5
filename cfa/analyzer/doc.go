// Package analyzer is the pure logic of the centralized fault analyzer of
// FARMS §3.1 and §3.3: job-level records (jobs, attempts, their nodes,
// completed maps' outputs), system-level records (each node's unresponsive
// episodes), the failure detector per node (speculators/detect: Temporal
// Window Smoothing by default) with the FAS feedback of Fig. 7, and the
// node states that follow: suspected, failed, resumed.
//
// It is a function of the events it is fed and the times it is given:
// every call takes now, and nothing else moves it. It starts no goroutine,
// does no I/O, reads no clock and takes no lock; the caller serialises
// calls. Two drivers run it: the live service in package cfa (a wall clock,
// HTTP, the store, NodeManager probes, delivery to sessions) and the
// simulator in package sim (virtual time), so that a replay declares nodes
// as the live analyzer would.
//
// Every change to the durable state is a Record applied to State; Drain
// hands the new records to whoever persists them (cfa's Store). The package
// must not make speculation decisions, and must import nothing beyond the
// standard library and speculators.
package analyzer
