// Package speculators is specbridge's decision core: the Speculator contract,
// the per-job state model it reads, the estimators policies share, and the
// registry that maps policy names to constructors with typed parameters.
//
// It is a pure state machine in the manner of etcd's raft: an Engine is fed
// events (Observe) and asked for decisions (Decide(now)); the caller owns the
// network, the disk and the clock. Nothing in this package or its policy
// sub-packages may start goroutines, perform I/O, read the wall clock or use
// randomness other than the seeded source handed to a constructor, and no
// decision may depend on Go map iteration order. The same engine therefore runs
// unchanged inside the live bridge and inside the simulator, and the same
// inputs and seed give the same decisions byte for byte.
package speculators
