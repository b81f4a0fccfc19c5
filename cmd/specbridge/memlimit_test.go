package main

import (
	"strings"
	"testing"
)

// --memory-limit: auto takes half the machine's memory up to 800MiB, a size
// is read as GOMEMLIMIT writes it, off and a set GOMEMLIMIT set nothing,
// and a bad value is an error naming the flag.
func TestMemoryLimit(t *testing.T) {
	gib := func() int64 { return 1 << 30 }
	big := func() int64 { return 64 << 30 }
	unknown := func() int64 { return 0 }
	for _, c := range []struct {
		v, env  string
		machine func() int64
		want    int64
	}{
		{"auto", "", big, 800 << 20},
		{"", "", gib, 512 << 20},
		{"auto", "", unknown, 0},
		{"auto", "2GiB", big, 0},
		{"3GiB", "", big, 3 << 30},
		{"3GiB", "900MiB", big, 0},
		{"1500MiB", "", big, 1500 << 20},
		{"1073741824", "", big, 1 << 30},
		{"off", "", big, 0},
	} {
		got, err := memoryLimit(c.v, c.env, c.machine)
		if err != nil || got != c.want {
			t.Errorf("memoryLimit(%q, GOMEMLIMIT=%q) = %d, %v; want %d", c.v, c.env, got, err, c.want)
		}
	}
	for _, v := range []string{"lots", "-1GiB", "1.5GiB", "12", "9999999999TiB", "1 GiB"} {
		if _, err := memoryLimit(v, "", big); err == nil || !strings.Contains(err.Error(), "--memory-limit") {
			t.Errorf("memoryLimit(%q): err %v, want an error naming --memory-limit", v, err)
		}
	}
	if m := machineMemory(); m < 0 {
		t.Errorf("machineMemory() = %d, want >= 0", m)
	}
}
