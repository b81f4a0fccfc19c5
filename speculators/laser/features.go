package laser

import (
	"math"

	"github.com/specbridge/specbridge/speculators"
)

// TaskFeatureNames are the task network's inputs: the features of the
// paper's Table II that a model can carry from one cluster to another,
// plus one derived from them.
//
// Choices: location (the host) and taskID are identifiers, meaningless on
// another cluster or job, so they are left out; a slow host shows in the
// attempt's progress rate anyway. Counts are log1p-scaled (bytes in MiB)
// because they span orders of magnitude. linear_estimate_log is
// log(t_jvm + (tau_est - t_jvm)/phi), SRQuant's estimate, given as an input
// so that the network learns a correction to it rather than the division;
// the paper's imputation of zeros by uniform noise (§V-B2) is not needed
// because inputs are standardised.
var TaskFeatureNames = []string{"progress", "records_read_log", "records_written_log", "mib_read_log", "mib_written_log",
	"cpu_s_log", "tjvm_s", "gc_s_log", "tau_est_s", "linear_estimate_log"}

// JobFeatureNames are the job/machine networks' inputs: the straggler's
// task features, then tau_kill, the deadline D (s after the straggler's
// start), the job's progress phi_i and r (§V-B1).
var JobFeatureNames = append(append([]string(nil), TaskFeatureNames...), "tau_kill_s", "deadline_s", "job_progress", "r")

// TaskFeatures appends the task network's inputs for attempt a at now.
func TaskFeatures(out []float64, a *speculators.Attempt, now speculators.Time, tjvmS float64) []float64 {
	c := a.Counters
	elapsed := float64(now-a.Start) / 1000
	lin := elapsed * 1e3
	if a.Progress > 0 {
		lin = tjvmS + (elapsed-tjvmS)/a.Progress
	}
	return append(out, a.Progress, math.Log1p(float64(c.InputRecords)), math.Log1p(float64(c.OutputRecords)),
		math.Log1p(float64(c.InputBytes)/(1<<20)), math.Log1p(float64(c.OutputBytes)/(1<<20)),
		math.Log1p(float64(c.CPUMillis)/1000), tjvmS, math.Log1p(float64(c.GCMillis)/1000), elapsed, math.Log(math.Max(lin, 1e-3)))
}

// JobFeatures appends the job networks' inputs for straggler a and r.
func JobFeatures(out []float64, job *speculators.Job, a *speculators.Attempt, now speculators.Time, tjvmS, tauKillS float64, r int) []float64 {
	out = TaskFeatures(out, a, now, tjvmS)
	return append(out, tauKillS, float64(job.Deadline-a.Start)/1000, JobProgress(job), float64(r))
}

// JobProgress is phi_i, the mean progress of the job's maps (done = 1).
func JobProgress(job *speculators.Job) float64 {
	maps := job.Tasks[speculators.Map]
	if len(maps) == 0 {
		return 1
	}
	s := 0.0
	for _, t := range maps {
		switch {
		case t.Done() || t.Dropped:
			s++
		default:
			best := 0.0
			for _, a := range t.Attempts {
				if a.Running() {
					best = math.Max(best, a.Progress)
				}
			}
			s += best
		}
	}
	return s / float64(len(maps))
}
