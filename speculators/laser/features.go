package laser

import (
	"math"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/resume"
	"github.com/specbridge/specbridge/speculators/srquant"
)

// TaskFeatureNames are the task network's inputs: the features of the
// paper's Table II that a model can carry from one cluster to another,
// plus one derived from them.
//
// Choices: location (the host) and taskID are identifiers, meaningless on
// another cluster or job, so they are left out; a slow host shows in the
// attempt's progress rate anyway. t_jvm is a parameter, the same for every
// row, so it is not an input: it enters through linear_estimate_log. Counts
// are log1p-scaled (bytes in MiB) because they span orders of magnitude;
// spilled records stand for the paper's "local and HDFS read/write" beyond
// the split. linear_estimate_log is log(t_jvm + (elapsed - t_jvm)/phi),
// SRQuant's estimate, given as an input so that the network learns a
// correction to it rather than the division; the paper's imputation of
// zeros by uniform noise (§V-B2) is not needed because inputs are
// standardised.
var TaskFeatureNames = []string{"progress", "records_read_log", "records_written_log", "mib_read_log", "mib_written_log",
	"cpu_s_log", "gc_s_log", "spilled_log", "elapsed_s", "linear_estimate_log"}

// JobFeatureNames are the job/machine networks' inputs: the straggler's
// task features, then tau_kill, the deadline D (s after the straggler's
// start), the job's progress phi_i (§V-B1), the job-level inputs of the
// paper's job network (Table II: the number of tasks, the job's task-time
// law as fitted t_min and beta, and D / t_min), and r last.
var JobFeatureNames = append(append([]string(nil), TaskFeatureNames...),
	"tau_kill_s", "deadline_s", "job_progress", "tasks_log", "tmin_s_log", "beta", "deadline_over_tmin", "r")

// TaskFeatures appends the task network's inputs for attempt a at now.
func TaskFeatures(out []float64, a *speculators.Attempt, now speculators.Time, tjvmS float64) []float64 {
	return CounterFeatures(out, a.Counters, a.Progress, float64(now-a.Start)/1000, tjvmS)
}

// CounterFeatures is TaskFeatures from the attempt's counters, progress and
// elapsed seconds (lasertrain builds rows from a history's counters with it).
func CounterFeatures(out []float64, c speculators.Counters, progress, elapsed, tjvmS float64) []float64 {
	lin := elapsed * 1e3
	if progress > 0 {
		lin = tjvmS + (elapsed-tjvmS)/progress
	}
	pos := func(v int64) float64 { return float64(max(v, 0)) }
	return append(out, progress, math.Log1p(pos(c.InputRecords)), math.Log1p(pos(c.OutputRecords)),
		math.Log1p(pos(c.InputBytes)/(1<<20)), math.Log1p(pos(c.OutputBytes)/(1<<20)),
		math.Log1p(pos(c.CPUMillis)/1000), math.Log1p(pos(c.GCMillis)/1000), math.Log1p(pos(c.SpilledRecords)),
		elapsed, math.Log(math.Max(lin, 1e-3)))
}

// PriorBeta is the Pareto tail index the job features use until two of the
// job's maps have completed (the paper's §VI-A measures 1.7, as srquant's
// beta parameter).
const PriorBeta = 1.7

// JobFeatures appends the job networks' inputs for straggler a and r.
func JobFeatures(out []float64, job *speculators.Job, a *speculators.Attempt, now speculators.Time, tjvmS, tauKillS float64, r int) []float64 {
	out = TaskFeatures(out, a, now, tjvmS)
	tmin, beta := JobLaw(job, a, now, tjvmS)
	d := float64(job.Deadline-a.Start) / 1000
	return append(out, tauKillS, d, JobProgress(job), math.Log1p(float64(len(job.Tasks[speculators.Map]))),
		math.Log(tmin), beta, d/tmin, float64(r))
}

// JobLaw is the job's map-time law at now as the job features give it:
// t_min and beta fitted to its completed map attempts, with the running
// ones as censored observations (srquant.FitPareto); before two maps have
// completed, t_min is the least of the completed times and the running
// originals' linear estimates, and beta is PriorBeta. t_min is at least 1 s.
//
// Choice: the paper's job network takes the job's task-time distribution
// without saying how it is known; the fit is SRQuant's, so that LASER and
// its srquant fallback see the job alike.
func JobLaw(job *speculators.Job, a *speculators.Attempt, now speculators.Time, tjvmS float64) (tmin, beta float64) {
	done, censored := resume.Observed(job, now)
	tmin, beta, ok := srquant.FitPareto(done, censored)
	if !ok {
		beta = PriorBeta
		tmin = math.Inf(1)
		for _, d := range done {
			tmin = min(tmin, d)
		}
		for _, t := range job.Tasks[speculators.Map] {
			if o := t.OnlyRunning(); o != nil && !o.Speculative && o.Progress > 0 {
				tmin = min(tmin, resume.LinearEstimateS(o, now, tjvmS))
			}
		}
		if math.IsInf(tmin, 1) {
			tmin = float64(now-a.Start) / 1000
		}
	}
	return math.Max(tmin, 1), beta
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
