package main

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
)

// defaultMemoryCap is the most the default soft memory limit grows to, and
// defaultMemoryShare the share of the machine's memory it takes below that.
// Our choice: the largest day we replay (SWIM FB-2010, 8.3 M tasks, three
// policies) keeps under 1 GiB of RSS at 800 MiB (docs/scale.md), and a
// smaller machine keeps half its memory for everything else. A replay whose
// live heap outgrows the limit is not stopped: the collector runs more often
// (Go caps it at about half the CPU), and --memory-limit raises the limit.
const (
	defaultMemoryCap   = 800 << 20
	defaultMemoryShare = 0.5
)

func memoryLimitFlag() cli.Flag {
	return &cli.StringFlag{Name: "memory-limit", Value: "auto",
		Usage:       "soft memory `LIMIT` of the process, as GOMEMLIMIT writes it (800MiB, 2GiB, 1073741824; off for none); the collector works harder near it instead of letting the heap grow to twice what is live; GOMEMLIMIT, when set, wins (docs/scale.md)",
		DefaultText: "auto: half the machine's memory (cgroup limit, else /proc/meminfo), at most 800MiB"}
}

// applyMemoryLimit sets the soft memory limit --memory-limit asks for
// (debug.SetMemoryLimit), unless GOMEMLIMIT is set: the runtime has read
// that already, and it wins.
func applyMemoryLimit(c *cli.Context) error {
	limit, err := memoryLimit(c.String("memory-limit"), os.Getenv("GOMEMLIMIT"), machineMemory)
	if err != nil {
		return err
	}
	if limit > 0 {
		debug.SetMemoryLimit(limit)
	}
	return nil
}

// memoryLimit is the limit to set for flag value v with GOMEMLIMIT env, 0
// for none (env set, "off", or the machine's memory unknown under "auto").
func memoryLimit(v, env string, machine func() int64) (int64, error) {
	if env != "" {
		return 0, nil
	}
	switch strings.TrimSpace(v) {
	case "off":
		return 0, nil
	case "", "auto":
		m := machine()
		if m <= 0 {
			return 0, nil
		}
		return min(int64(float64(m)*defaultMemoryShare), defaultMemoryCap), nil
	}
	n, err := parseByteSize(strings.TrimSpace(v))
	if err != nil {
		return 0, fmt.Errorf("--memory-limit %q: %w", v, err)
	}
	return n, nil
}

// parseByteSize reads a size as GOMEMLIMIT does: a whole number of bytes
// with an optional B, KiB, MiB, GiB or TiB suffix; at least 1 MiB.
func parseByteSize(s string) (int64, error) {
	units := []struct {
		suffix string
		shift  uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}}
	shift := uint(0)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			s, shift = strings.TrimSuffix(s, u.suffix), u.shift
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("want a whole number of bytes with an optional B, KiB, MiB, GiB or TiB suffix, or off or auto")
	}
	if n > math.MaxInt64>>shift {
		return 0, fmt.Errorf("larger than %d bytes", int64(math.MaxInt64))
	}
	n <<= shift
	if n < 1<<20 {
		return 0, fmt.Errorf("%d bytes is below 1MiB: the collector would run without pause", n)
	}
	return n, nil
}

// machineMemory is the memory this process may use in bytes: the cgroup's
// limit (v2 memory.max, else v1 memory.limit_in_bytes) when it is below
// the machine's MemTotal, else MemTotal; 0 when neither can be read.
func machineMemory() int64 {
	total := memTotal()
	for _, f := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		n, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64)
		if err != nil || n <= 0 { // "max": no limit
			continue
		}
		if total <= 0 || n < total {
			return n
		}
	}
	return total
}

// memTotal is /proc/meminfo's MemTotal in bytes, 0 if unknown.
func memTotal() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) >= 2 && fs[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(fs[1], 10, 64)
			if err != nil || kb <= 0 || kb > math.MaxInt64>>10 {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
