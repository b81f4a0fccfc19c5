package sim

import "testing"

// BenchmarkSimulate runs ~200 jobs of 10-2000 tasks on 100 nodes of 8
// containers with the none policy and reports simulation events per second
// of wall time, and per second of this process's CPU time where the
// platform tells it (a shared, loaded machine slows the first, not the
// second).
func BenchmarkSimulate(b *testing.B) {
	jobs := workload(42, 200, 10, 2000, 20000, SameWork)
	cfg := DefaultConfig(clusterNodes(100, 8))
	var events int64
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		res, err := Run(cfg, jobs, noneFactory)
		if err != nil {
			b.Fatal(err)
		}
		events += res.Events
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(events)/float64(b.N), "events/op")
	if cpu := cpuTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(events)/cpu.Seconds(), "events/cpu-s")
	}
}
