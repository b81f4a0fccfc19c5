// Package replay compares speculation policies on a workload: a scenario
// file, or recorded job histories (.jhist, Rumen, SWIM). In simulate mode it
// re-executes the workload in the simulator once per policy and seed and
// reports job times and the cost of speculation; in decisions mode it feeds
// each recorded job's timeline to each policy and lists what the policy would
// have decided and when, beside what Hadoop actually did.
//
// It wires readers (yarnclient), the simulator (sim) and the policies
// (speculators); it holds no policy logic of its own. Output is a pure
// function of the inputs, the options and the seed.
package replay
