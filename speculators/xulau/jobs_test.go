package xulau

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// MeanMemo gives LawOf's mean at every call: kept for good when the mean
// is known a priori (tail index from the job or alpha), and following the
// completions when it is not.
func TestMeanMemoFollowsLawOf(t *testing.T) {
	for _, info := range []speculators.JobInfo{
		{ID: "job_1", Maps: 3, TaskMillis: 12_345},
		{ID: "job_2", Maps: 3, TaskMillis: 7_000, TailIndex: 1.3},
		{ID: "job_3", Maps: 3},
	} {
		job, err := speculators.NewJob(info)
		if err != nil {
			t.Fatal(err)
		}
		var m MeanMemo
		for k, d := range []float64{0, 5_000, 20_000, 1_000} {
			if d > 0 {
				job.Durations[speculators.Map].Add(d)
			}
			if got, want := m.Of(job, 2), LawOf(job, 2).Mean(); got != want {
				t.Errorf("%s after %d completions: MeanMemo %v, LawOf %v", info.ID, k, got, want)
			}
		}
		if kept := m.v > 0; kept != (info.TaskMillis > 0) {
			t.Errorf("%s: kept %v with an a-priori mean of %v ms", info.ID, kept, info.TaskMillis)
		}
	}
}
