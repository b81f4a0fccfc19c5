// Package scenario reads specbridge scenario files: YAML descriptions of a
// cluster (node groups with slots and slowdown factors), a workload (job
// groups with arrivals, task counts and duration distributions), faults and
// job bounds. A scenario is data; Materialize turns it into concrete nodes
// and jobs with a seeded random source, so the same file and seed always give
// the same workload.
//
// It must not know about speculators or the simulator: the replay package
// maps its output onto both. Every error names the file and the line.
package scenario
