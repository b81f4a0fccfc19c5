// Package srquant is SRQuant, Speculative-Resume with Quantitative Analysis
// (the SRQuant/LASER paper, "LASER: a deep learning approach for
// speculative execution and replication of deadline-critical jobs", §III
// and §IV-A): at tau_est after a task starts its time is estimated as
// t_jvm + (tau_est - t_jvm)/phi; a task whose estimate overruns the job's
// deadline is killed and r+1 attempts resume from the byte offset it
// reached; at tau_kill the attempt with the most progress is kept. r maximises
// U(r) = log(R(r) - Rmin) - theta C E_r(T) (Theorems 1-2, Algorithm 1) for
// Pareto task times fitted from the job's own attempts.
//
// The math (quant.go) is pure functions; the policy (srquant.go) is a
// speculators.Speculator. Like everything under speculators/ it does no I/O,
// reads no clock and keeps no goroutines. Resuming from an offset is
// complete in the simulator only: live, Hadoop starts the extra attempts
// from the beginning of the split, and the decision's reason says so.
package srquant
