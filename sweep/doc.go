// Package sweep runs a grid of replays — inputs x policies x parameter
// values x seeds — as independent cells, one simulation each, and writes one
// result row per cell: locally on all cores (Run), or as a MapReduce job on
// the user's YARN cluster whose mappers run the specbridge binary on one cell
// each (YARN.Run, yarn.go). See docs/sweep.md.
//
// A cell is self-contained: its JSON line (Cell) names the input, the policy,
// the policy's parameter values, the seed and every replay option, so that
// `specbridge sweep --cell LINE` on any machine computes exactly the row the
// local sweep computes for it. A cell's row is exactly what
// `specbridge replay --runs 1 --speculators POLICY --param ... --seed SEED`
// reports for that policy: the cell goes through replay's public entry points
// (Load with Stream, WorkloadOf, LimitJobs, Simulate), one simulation at a time.
//
// Rows are ordered by cell index, input-major, then policy, then parameter
// combination, then seed, whatever order the cells finish in: a grid's rows
// are byte-identical serial, parallel or on YARN.
//
// The package must not change how a replay simulates (that is replay's and
// sim's), nor read flags: the command line is cmd/specbridge's.
package sweep
