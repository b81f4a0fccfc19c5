package replay

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/specbridge/specbridge/sim"
)

// Recorded vs simulated (issue 13, item 1): for a history, each job's
// recorded time (submit to finish) beside its simulated time under each
// policy. The policy that ran is per job (jobSettings.ran): Hadoop's own
// speculator on a stock cluster, the job's specbridge.speculator where its
// configuration loaded the shim; the report shows every policy's error and
// marks that one.

// RanPolicy is the policy a stock Hadoop cluster runs: the one that ran a
// job whose configuration does not load the shim, or is not known.
const RanPolicy = "hadoop"

// Fidelity compares recorded and simulated job times for one policy. The
// JSON names are a public interface (the HTML report reads them).
type Fidelity struct {
	Jobs []JobFidelity `json:"jobs"`
	// Summary over the jobs with a recorded time: the mean recorded and
	// simulated times and the error of the mean, (simulated - recorded) /
	// recorded in percent; MeanAbsErrorPct is the mean of the jobs'
	// absolute errors.
	RecordedMeanS   float64 `json:"recorded_mean_s"`
	SimulatedMeanS  float64 `json:"simulated_mean_s"`
	ErrorPct        float64 `json:"error_pct"`
	MeanAbsErrorPct float64 `json:"mean_abs_error_pct"`
}

// JobFidelity is one job's recorded and simulated outcome.
type JobFidelity struct {
	Job string `json:"job"`
	// RecordedStatus is the history's final status (SUCCEEDED, FAILED,
	// KILLED); SimulatedStatus is SUCCEEDED, FAILED (a task used up its
	// attempts), KILLED (still running when the recorded job was killed)
	// or UNFINISHED.
	RecordedStatus  string  `json:"recorded_status"`
	SimulatedStatus string  `json:"simulated_status"`
	RecordedS       float64 `json:"recorded_s"`
	SimulatedS      float64 `json:"simulated_s"`
	ErrorPct        float64 `json:"error_pct"`
	// Settings and SettingsFrom are the job's replayed settings and
	// where they came from (RecordedJob, jobconf.go).
	Settings     string `json:"settings"`
	SettingsFrom string `json:"settings_from"`
	// Ran is the policy that ran the job: Hadoop's own (hadoop) on a
	// stock cluster, the job's specbridge.speculator where its
	// configuration loaded the shim.
	Ran string `json:"ran,omitempty"`
}

// fidelity builds the comparison of one run; nil when no job has a
// recorded time.
func fidelity(w *Workload, res *sim.Result) *Fidelity {
	recorded := false
	for _, r := range w.Recorded {
		recorded = recorded || r.Time > 0
	}
	if !recorded {
		return nil
	}
	f := &Fidelity{}
	for i := range res.Jobs {
		j, rec := &res.Jobs[i], w.Recorded[i]
		jf := JobFidelity{Job: rec.ID, RecordedStatus: rec.Status, RecordedS: ms(rec.Time), SimulatedStatus: "SUCCEEDED",
			Settings: rec.Settings, SettingsFrom: rec.SettingsFrom, Ran: rec.Ran}
		switch d := jobTime(w, res, i); {
		case d < 0:
			jf.SimulatedStatus = "UNFINISHED"
		default:
			jf.SimulatedS = ms(d)
			switch {
			case j.Failed():
				jf.SimulatedStatus = "FAILED"
			case j.Killed:
				jf.SimulatedStatus = "KILLED"
			}
		}
		f.Jobs = append(f.Jobs, jf)
	}
	f.summarize()
	return f
}

// summarize fills the summary and the jobs' errors from their times.
func (f *Fidelity) summarize() {
	var rec, simS, abs float64
	n := 0
	for i := range f.Jobs {
		j := &f.Jobs[i]
		j.ErrorPct = 0
		if j.RecordedS <= 0 || j.SimulatedStatus == "UNFINISHED" {
			continue
		}
		j.ErrorPct = 100 * (j.SimulatedS - j.RecordedS) / j.RecordedS
		rec += j.RecordedS
		simS += j.SimulatedS
		abs += math.Abs(j.ErrorPct)
		n++
	}
	f.RecordedMeanS, f.SimulatedMeanS, f.ErrorPct, f.MeanAbsErrorPct = 0, 0, 0, 0
	if n == 0 {
		return
	}
	f.RecordedMeanS, f.SimulatedMeanS = rec/float64(n), simS/float64(n)
	f.ErrorPct = 100 * (f.SimulatedMeanS - f.RecordedMeanS) / f.RecordedMeanS
	f.MeanAbsErrorPct = abs / float64(n)
}

// averageFidelity averages the simulated times of several runs job by job.
func averageFidelity(rs []Result) *Fidelity {
	if rs[0].Recorded == nil {
		return nil
	}
	out := &Fidelity{Jobs: append([]JobFidelity(nil), rs[0].Recorded.Jobs...)}
	for i := range out.Jobs {
		out.Jobs[i].SimulatedS = 0
		for _, r := range rs {
			if r.Recorded != nil && i < len(r.Recorded.Jobs) {
				out.Jobs[i].SimulatedS += r.Recorded.Jobs[i].SimulatedS / float64(len(rs))
			}
		}
	}
	out.summarize()
	return out
}

// rounded keeps the figures to 3 decimals.
func (f *Fidelity) rounded() *Fidelity {
	if f == nil {
		return nil
	}
	r := func(x float64) float64 { return math.Round(x*1000) / 1000 }
	out := *f
	out.Jobs = append([]JobFidelity(nil), f.Jobs...)
	for i := range out.Jobs {
		j := &out.Jobs[i]
		j.RecordedS, j.SimulatedS, j.ErrorPct = r(j.RecordedS), r(j.SimulatedS), r(j.ErrorPct)
	}
	out.RecordedMeanS, out.SimulatedMeanS, out.ErrorPct, out.MeanAbsErrorPct = r(f.RecordedMeanS), r(f.SimulatedMeanS), r(f.ErrorPct), r(f.MeanAbsErrorPct)
	return &out
}

// jobTime is job i's simulated time with the recorded overheads, -1 if it
// did not finish.
func jobTime(w *Workload, res *sim.Result, i int) int64 {
	d := res.Jobs[i].Duration()
	if d < 0 {
		return -1
	}
	if i < len(w.Overhead) {
		d += w.Overhead[i]
	}
	return d
}

// writeRecordedTable prints, for a history, each job's recorded time and
// status beside its simulated ones under every policy, the error, and a
// summary row.
func writeRecordedTable(w io.Writer, res []Result) error {
	if len(res) == 0 || res[0].Recorded == nil {
		return nil
	}
	// The policy that ran is per job (JobFidelity.Ran): hadoop on a stock
	// cluster, the job's specbridge.speculator under the shim. Its cells
	// are marked *, and its column header too when every job ran it.
	ran, replayed := res[0].Recorded.Jobs[0].Ran, map[string]bool{}
	for _, x := range res {
		replayed[x.Speculator] = true
	}
	var missing []string
	for _, j := range res[0].Recorded.Jobs {
		if j.Ran != ran {
			ran = ""
		}
		if !replayed[j.Ran] && !slices.Contains(missing, j.Ran) {
			missing = append(missing, j.Ran)
		}
	}
	note := "error under the policy that ran, marked *: hadoop on a stock cluster, the job's specbridge.speculator under the shim"
	if len(missing) > 0 {
		note += "; not replayed: " + strings.Join(missing, ", ")
	}
	fmt.Fprintf(w, "\nrecorded vs simulated job times (%s; FAILED/KILLED jobs replay all their tasks):\n", note)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "job\trecorded\trecorded s\t")
	for _, x := range res {
		mark := ""
		if x.Speculator == ran {
			mark = "*"
		}
		fmt.Fprintf(tw, "%s%s s\tstatus\terror\t", x.Speculator, mark)
	}
	fmt.Fprintln(tw)
	for i, j := range res[0].Recorded.Jobs {
		fmt.Fprintf(tw, "%s\t%s\t%.1f\t", j.Job, j.RecordedStatus, j.RecordedS)
		for _, x := range res {
			s, mark := x.Recorded.Jobs[i], ""
			if ran == "" && x.Speculator == j.Ran {
				mark = "*"
			}
			fmt.Fprintf(tw, "%.1f\t%s\t%+.1f%%%s\t", s.SimulatedS, s.SimulatedStatus, s.ErrorPct, mark)
		}
		fmt.Fprintln(tw)
	}
	fmt.Fprintf(tw, "mean\t\t%.1f\t", res[0].Recorded.RecordedMeanS)
	for _, x := range res {
		fmt.Fprintf(tw, "%.1f\t\t%+.1f%%\t", x.Recorded.SimulatedMeanS, x.Recorded.ErrorPct)
	}
	fmt.Fprintln(tw)
	if err := tw.Flush(); err != nil {
		return err
	}
	return writeJobSettings(w, res)
}

// writeJobSettings lists, under the recorded-vs-simulated table, each job's
// settings with where each came from (conf, inferred, default), and each
// policy under which the job ended otherwise than recorded (issue 30: a
// policy that would have saved a failed job is worth knowing).
func writeJobSettings(w io.Writer, res []Result) error {
	fmt.Fprintln(w, "job settings (conf: the job's configuration; inferred: what its history proves; default: Hadoop's):")
	for i, j := range res[0].Recorded.Jobs {
		var differ []string
		for _, x := range res {
			if s := x.Recorded.Jobs[i]; j.RecordedStatus != "" && s.SimulatedStatus != j.RecordedStatus {
				differ = append(differ, x.Speculator+" "+s.SimulatedStatus)
			}
		}
		line := fmt.Sprintf("  %s [%s] %s", j.Job, j.SettingsFrom, j.Settings)
		if len(differ) > 0 {
			line += fmt.Sprintf("; ended otherwise than the recorded %s under: %s", j.RecordedStatus, strings.Join(differ, ", "))
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	return nil
}

func recordedCSVHeader() []string {
	return []string{"failed_jobs", "recorded_mean_job_s", "recorded_error_pct"}
}

func recordedCSVRow(x *Result) []string {
	if x.Recorded == nil {
		return []string{f3(x.FailedJobs), "", ""}
	}
	return []string{f3(x.FailedJobs), f3(x.Recorded.RecordedMeanS), f3(x.Recorded.ErrorPct)}
}
