package replay

import (
	"bytes"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/speculators"
)

// TestDeadlinesTableCountsDeadlineJobs: PoCD and the table's jobs column
// are over the jobs with a deadline, not every job of the workload (the
// column printed every job: 45 beside a PoCD over 20 on a held-out file).
func TestDeadlinesTableCountsDeadlineJobs(t *testing.T) {
	fin := func(ms ...speculators.Time) sim.JobResult {
		var r sim.JobResult
		r.TaskFinish[speculators.Map] = ms
		return r
	}
	w := &Workload{
		Jobs:   []sim.Job{{Deadline: 100}, {}, {Deadline: 100}, {}, {}},
		Groups: []string{"g", "g", "g", "g", "g"},
	}
	res := &sim.Result{Jobs: []sim.JobResult{fin(50, 90), fin(500), fin(50, 150), fin(10), fin(20)}}
	d := deadlines(w, res)
	if d.PoCD == nil || *d.PoCD != 0.5 || d.PoCDJobs != 2 {
		t.Fatalf("PoCD %v over %d jobs, want 0.5 over 2", d.PoCD, d.PoCDJobs)
	}
	rows := []Result{{Speculator: "hadoop", Deadlines: d}, {Speculator: "late", Deadlines: d}}
	avg := averageDeadlines(rows)
	if avg.PoCDJobs != 2 {
		t.Errorf("averaged over runs: %d deadline jobs, want 2", avg.PoCDJobs)
	}
	var b bytes.Buffer
	if err := writeDeadlinesTable(&b, rows); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(b.String(), "\n") {
		if f := strings.Fields(line); len(f) == 4 && (f[0] == "hadoop" || f[0] == "late") && f[1] != "2" {
			t.Errorf("table row %q: want 2 deadline jobs", line)
		}
	}
	if !strings.Contains(b.String(), "hadoop") {
		t.Errorf("no hadoop row in:\n%s", b.String())
	}
}
