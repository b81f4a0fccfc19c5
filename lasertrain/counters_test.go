package lasertrain

import (
	"math"
	"testing"

	"github.com/specbridge/specbridge/replay"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/yarnclient/history"
)

// The rows' live counters are the ones the histories record: every
// successful map attempt of the bundled mini-cluster and Hadoop histories
// with counters of a real input gives its rates, and a simulated attempt of that job at
// progress phi reports phi x the recorded attempt's records, bytes and
// spills, and its CPU and GC per wall second.
func TestLiveCountersAreTheHistoriesOwn(t *testing.T) {
	in, err := replay.Load("../yarnclient/history/testdata", replay.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	real := countersOf(in.Jobs)
	n := 0
	for _, j := range in.Jobs {
		for _, task := range j.Tasks {
			for _, a := range task.Attempts {
				// A map whose records outnumber its bytes read (a sleep or
				// generator job's synthetic input) says nothing of records
				// per byte and is left out.
				if rec := a.Counters["MAP_INPUT_RECORDS"]; task.Type == history.Map && a.Status == history.Succeeded && rec > 0 && rec <= a.Counters["HDFS_BYTES_READ"] {
					n++
				}
			}
		}
	}
	got := 0
	for _, rs := range real {
		got += len(rs)
	}
	if n == 0 || got != n {
		t.Fatalf("%d map attempts with records and bytes in the histories, %d rates kept", n, got)
	}
	var id string
	for k := range real {
		if id == "" || k < id {
			id = k
		}
	}
	r := real[id][0]
	book := counterBook{real: real}
	if book.rates(id, 0, 0) != r {
		t.Fatal("a map of a recorded job does not take its recorded attempt's rates")
	}
	a := &speculators.Attempt{Progress: 0.5}
	c := r.liveCounters(a, 10)
	if want := 0.5 * r.split * r.recPerByte; math.Abs(float64(c.InputRecords)-want) > 1 || c.InputBytes != int64(0.5*r.split) {
		t.Errorf("at half progress: %d records and %d bytes, want %.0f and %.0f", c.InputRecords, c.InputBytes, want, 0.5*r.split)
	}
	if want := r.cpuPerWall * 10000; math.Abs(float64(c.CPUMillis)-want) > 1 {
		t.Errorf("CPU %d ms in 10 s, want %.0f", c.CPUMillis, want)
	}
	// A job without counters draws its rates, the same for the same seed.
	if x, y := book.rates("job_none", 3, 1), book.rates("job_none", 3, 1); x != y || x == r {
		t.Errorf("drawn rates %+v and %+v", x, y)
	}
}
