package sda

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// BenchmarkDecide10kTasks times one Decide over spectest.Spread's 10,000
// running maps (a-priori mean task time 600 s, tail index 2): SDA scans them
// for stragglers, t_rem against sigma* E[t_new], and asks for a copy of each;
// its record is cleared between iterations so every Decide does the full work.
func BenchmarkDecide10kTasks(b *testing.B) {
	spectest.BenchSpread(b, Policy(), speculators.JobInfo{Maps: 10_000, Slots: 10010, TaskMillis: 600_000, TailIndex: 2}, nil,
		func(s speculators.Speculator) { s.(*policy).book.Forget() })
}
