//go:build amd64 || arm64

package sim

// prefetch3 asks the processor to bring the three cache lines from addr
// into its cache without waiting for them (PREFETCHT0, PRFM PLDL1KEEP).
// It never faults, whatever addr is.
//
//go:noescape
func prefetch3(addr uintptr)
