//go:build !amd64 && !arm64

package sim

// prefetch3 is a no-op where no prefetch instruction is wired up.
func prefetch3(addr uintptr) {}
