package laser

import (
	"math"
	"slices"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// TestPaperTableIIFeatures checks the task network's inputs against Table
// II of the SRQuant/LASER paper, feature by feature: each of its ten
// features is an input at a known place, except location and taskID, the
// two identifiers the package doc leaves out; and the value at that place is
// the feature of the attempt (phi_j, records and bytes read and written,
// t_cpu, t_jvm, t_gc, tau_est). The job networks add §V-B1's tau_kill, D and
// phi_i, and r.
// Reference: SRQuant/LASER paper, §V-B1 and Table II.
func TestPaperTableIIFeatures(t *testing.T) {
	a := &speculators.Attempt{Start: 0, Progress: 0.25}
	a.Counters.InputRecords = 999
	a.Counters.OutputRecords = 499
	a.Counters.InputBytes = 3 << 20
	a.Counters.OutputBytes = 1 << 20
	a.Counters.CPUMillis = 4000
	a.Counters.GCMillis = 1000
	now := speculators.Time(40_000)
	got := TaskFeatures(nil, a, now, 2)
	if len(got) != len(TaskFeatureNames) {
		t.Fatalf("%d features for %d names", len(got), len(TaskFeatureNames))
	}
	// Table II's features (less location and taskID) and their values.
	table := []struct {
		paper, name string
		want        float64
	}{
		{"phi_j (task progress score)", "progress", 0.25},
		{"rec_read", "records_read_log", math.Log(1000)},
		{"rec_write", "records_written_log", math.Log(500)},
		{"Byte_read", "mib_read_log", math.Log(4)},
		{"Byte_write", "mib_written_log", math.Log(2)},
		{"t_cpu", "cpu_s_log", math.Log(5)},
		// t_jvm is a parameter, the same for every row: it enters through
		// SRQuant's linear estimate t_jvm + (elapsed - t_jvm)/phi_j.
		{"t_jvm", "linear_estimate_log", math.Log(2 + (40-2)/0.25)},
		{"t_gc", "gc_s_log", math.Log(2)},
		{"tau_est (the decision time after the start)", "elapsed_s", 40},
	}
	for _, f := range table {
		i := slices.Index(TaskFeatureNames, f.name)
		if i < 0 {
			t.Errorf("Table II's %s has no input %q", f.paper, f.name)
			continue
		}
		if math.Abs(got[i]-f.want) > 1e-9 {
			t.Errorf("Table II's %s (%s) = %v, want %v", f.paper, f.name, got[i], f.want)
		}
	}
	for _, id := range []string{"location", "task_id", "taskID"} {
		if slices.Contains(TaskFeatureNames, id) {
			t.Errorf("identifier %q is an input; the package doc leaves identifiers out", id)
		}
	}
	for _, name := range []string{"tau_kill_s", "deadline_s", "job_progress", "tasks_log", "tmin_s_log", "beta", "deadline_over_tmin", "r"} {
		if !slices.Contains(JobFeatureNames, name) {
			t.Errorf("job networks lack §V-B1's %q", name)
		}
	}
}
