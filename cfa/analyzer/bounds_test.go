package analyzer

import (
	"fmt"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// Ended jobs are capped by count and by bytes before their retention is
// over, the earliest-ended forgotten first; running jobs stay.
func TestEndedJobsAreCapped(t *testing.T) {
	for _, c := range []struct {
		name  string
		jobs  int
		bytes int64
		keep  int
	}{
		{"count", 3, 0, 3},
		{"bytes", 0, 3 * 800, 3}, // each job below is ~740 bytes by jobRecordBytes
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := testConfig()
			cfg.MaxEndedJobs, cfg.MaxEndedBytes = c.jobs, c.bytes
			a, err := New(cfg, NewState(), boundsBase)
			if err != nil {
				t.Fatal(err)
			}
			a.Observe("running", started(attempt(speculators.Map, 0, 0), "n1", boundsBase), boundsBase)
			for i := 0; i < 10; i++ {
				job := fmt.Sprintf("job%02d", i)
				now := boundsBase + Time(i)*1000
				for m := int32(0); m < 2; m++ {
					a.Observe(job, started(attempt(speculators.Map, m, 0), "n1", now), now)
				}
				a.EndJob(job, now+500)
			}
			a.Tick(boundsBase + 20_000)
			st := a.State()
			for i := 0; i < 10; i++ {
				job := fmt.Sprintf("job%02d", i)
				if want := i >= 10-c.keep; (st.Jobs[job] != nil) != want {
					t.Errorf("%s kept %v, want %v", job, st.Jobs[job] != nil, want)
				}
			}
			if st.Jobs["running"] == nil {
				t.Error("a running job was forgotten")
			}
			if j := st.Jobs["job09"]; j != nil && c.bytes > 0 {
				if b := jobRecordBytes(j); b*3 > c.bytes || b*4 <= c.bytes {
					t.Errorf("job record estimate %d bytes: the test's bound %d no longer keeps exactly 3", b, c.bytes)
				}
			}
			if err := a.Err(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// boundsBase is the test's epoch (ms).
const boundsBase = Time(1_795_000_000_000)
