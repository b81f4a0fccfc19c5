package replay

import (
	"bytes"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/yarnclient/history"
)

// realHistories are the recorded histories: the repository's fixtures and
// the shared data (the hand-made fixtures modelled on real traces too).
func realHistories(t *testing.T) []string {
	t.Helper()
	paths, _ := filepath.Glob("../yarnclient/history/testdata/*.jhist")
	paths = append(paths, "../yarnclient/history/testdata/2jobs-rumen.json")
	sharedJhist, _ := filepath.Glob(filepath.Join(shared, "jhist", "*.jhist"))
	if len(sharedJhist) == 0 {
		t.Fatalf("no histories in %s/jhist: the shared data dir beside the repository is absent", shared)
	}
	return append(paths, sharedJhist...)
}

// Replaying a history under the policy that ran on a stock cluster gives
// back each job's recorded time within 10% (the task model calibrated on the
// history: attempts, AM start-up, container allocation, commit, shuffle),
// and the report carries the recorded figures. FAILED histories replay all
// their tasks and end FAILED. Issue 13, items 1 and 2.
// asRan is one run, seed 1, of each job under the policy that ran it.
func asRan(reg *speculators.Registry) Options {
	return Options{Speculators: []string{RanPolicy}, Seed: 1, Runs: 1, Registry: reg}
}

// replayAsRan simulates in as asRan says and returns the results with the
// per-job rows (their input named name).
func replayAsRan(t *testing.T, reg *speculators.Registry, in *Input, name string) ([]Result, []JobRow) {
	t.Helper()
	opts := asRan(reg)
	var rows []JobRow
	opts.Observe = func(r *Run) error { rows = append(rows, JobRows(name, r)...); return nil }
	res, err := Simulate(WorkloadOf(in, opts.Cluster), opts)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res, rows
}

func TestRecordedVsSimulatedWithin10Percent(t *testing.T) {
	reg := registry(t)
	for _, p := range realHistories(t) {
		in := load(t, p)
		res, rows := replayAsRan(t, reg, in, p)
		r := res[0]
		if r.Recorded == nil {
			t.Fatalf("%s: no recorded figures in the result", p)
		}
		tasks := 0
		for _, j := range in.Jobs {
			tasks += len(j.Tasks)
		}
		if r.Tasks != tasks {
			t.Errorf("%s: simulated %d tasks, the history has %d", p, r.Tasks, tasks)
		}
		for _, j := range r.Recorded.Jobs {
			t.Logf("%s %s: recorded %s %.1fs, simulated %s %.1fs (%+.1f%%)", filepath.Base(p), j.Job, j.RecordedStatus, j.RecordedS, j.SimulatedStatus, j.SimulatedS, j.ErrorPct)
			if math.Abs(j.ErrorPct) >= 10 {
				t.Errorf("%s %s: simulated %.1fs vs recorded %.1fs, error %+.1f%% (want < 10%%)", p, j.Job, j.SimulatedS, j.RecordedS, j.ErrorPct)
			}
			if want := map[string]string{"SUCCEEDED": "SUCCEEDED", "FAILED": "FAILED"}[j.RecordedStatus]; want != "" && j.SimulatedStatus != want {
				t.Errorf("%s %s: recorded %s, simulated %s", p, j.Job, j.RecordedStatus, j.SimulatedStatus)
			}
		}
		for i, row := range rows {
			jf := r.Recorded.Jobs[i]
			if row.RecordedS == nil || *row.RecordedS != jf.RecordedS || row.Status != jf.SimulatedStatus || row.TimeS == nil || math.Abs(*row.TimeS-jf.SimulatedS) > 0.001 {
				t.Errorf("%s: per-job row %+v does not match the recorded comparison %+v", p, row, jf)
			}
		}
		if math.Abs(r.Recorded.ErrorPct) >= 10 {
			t.Errorf("%s: mean error %+.1f%%", p, r.Recorded.ErrorPct)
		}
		if strings.Contains(p, "FAILED") {
			if r.FailedJobs != 1 {
				t.Errorf("%s: %g failed jobs simulated, want 1", p, r.FailedJobs)
			}
			dres, _, err := Decide(in, asRan(reg))
			if err != nil {
				t.Fatal(err)
			}
			if dres[0].Tasks != tasks {
				t.Errorf("%s decisions: %d tasks, want %d", p, dres[0].Tasks, tasks)
			}
		}
		var out bytes.Buffer
		if err := (&Report{Input: p, Mode: "simulate", Results: res}).Write(&out, "table"); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "recorded vs simulated") || !strings.Contains(out.String(), in.Jobs[0].ID) {
			t.Errorf("%s: the table does not show the recorded figures:\n%s", p, out.String())
		}
	}
}

// Decisions mode names attempts as Hadoop does.
func TestAttemptNamesAreHadoops(t *testing.T) {
	a := speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map, Index: 1}, N: 2}
	for _, c := range []struct{ job, task, want string }{
		{"job_1795291776859_0001", "task_1795291776859_0001_m_000001", "attempt_1795291776859_0001_m_000001_2"},
		{"job_1795291776859_0001", "m_000001", "attempt_1795291776859_0001_m_000001_2"},
		{"sleep-1", "m_000001", "m_000001_2"},
	} {
		if got := attemptName(c.job, c.task, a); got != c.want {
			t.Errorf("attemptName(%q, %q) = %q, want %q", c.job, c.task, got, c.want)
		}
	}
}

// A KILLED job replays with all its tasks and is killed again at its
// recorded time: the binary history cut at 40 s, as a user's kill leaves it.
func TestKilledHistoryReplaysAsKilled(t *testing.T) {
	in := load(t, "../yarnclient/history/testdata/job_3.5-SUCCEEDED-binary.jhist")
	j := *in.Jobs[0]
	kill := j.Submit + 40000
	j.Status, j.Finish = history.Killed, kill
	j.Tasks = append([]history.Task(nil), j.Tasks...)
	for i := range j.Tasks {
		t := &j.Tasks[i]
		var kept []history.Attempt
		for _, a := range t.Attempts {
			if a.Start >= kill {
				continue
			}
			if a.Finish > kill {
				a.Finish, a.Status = kill, history.Killed
			}
			kept = append(kept, a)
		}
		t.Attempts = kept
	}
	reg := registry(t)
	opts := asRan(reg)
	res, err := Simulate(func(seed uint64) (*Workload, error) { return FromHistory([]*history.Job{&j}, ClusterOptions{}, seed) }, opts)
	if err != nil {
		t.Fatal(err)
	}
	r := res[0]
	jf := r.Recorded.Jobs[0]
	t.Logf("recorded %s %.1fs, simulated %s %.1fs", jf.RecordedStatus, jf.RecordedS, jf.SimulatedStatus, jf.SimulatedS)
	if r.Tasks != len(j.Tasks) || jf.SimulatedStatus != "KILLED" || r.KilledJobs != 1 || math.Abs(jf.ErrorPct) >= 10 {
		t.Fatalf("killed history: %d tasks (want %d), %+v, killed jobs %g", r.Tasks, len(j.Tasks), jf, r.KilledJobs)
	}
}
