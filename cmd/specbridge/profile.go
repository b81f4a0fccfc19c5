package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// startProfiles starts a CPU profile into cpuTo (if set); the returned stop
// ends it and writes a heap profile into memTo (if set). Both are hidden
// replay flags for measuring where a big replay's time and memory go
// (docs/scale.md).
func startProfiles(cpuTo, memTo string) (stop func() error, err error) {
	var cpu *os.File
	if cpuTo != "" {
		if cpu, err = os.Create(cpuTo); err != nil {
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(cpu); err != nil {
			cpu.Close()
			return nil, fmt.Errorf("--cpuprofile %s: %w", cpuTo, err)
		}
	}
	return func() error {
		if cpu != nil {
			pprof.StopCPUProfile()
			if err := cpu.Close(); err != nil {
				return fmt.Errorf("--cpuprofile: %w", err)
			}
		}
		if memTo == "" {
			return nil
		}
		f, err := os.Create(memTo)
		if err != nil {
			return fmt.Errorf("--memprofile: %w", err)
		}
		runtime.GC() // the profile shows what is live at the end
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			f.Close()
			return fmt.Errorf("--memprofile %s: %w", memTo, err)
		}
		return f.Close()
	}, nil
}
