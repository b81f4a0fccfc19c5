package sim

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// On one slot the originals run one after another, so the finish times
// show the placement order. GRASS §3.1.1 (SJF) and §3.1.2 (LJF).
func TestOriginalOrder(t *testing.T) {
	work := works(3000, 1000, 2000, 1000)
	for _, tc := range []struct {
		order TaskOrder
		want  []speculators.Time // finish of map 0..3
	}{
		{OrderIndex, []speculators.Time{3000, 4000, 6000, 7000}},
		{OrderSJF, []speculators.Time{7000, 1000, 4000, 2000}}, // 1, 3, 2, 0
		{OrderLJF, []speculators.Time{3000, 6000, 5000, 7000}}, // 0, 2, 1, 3
	} {
		t.Run(tc.order.String(), func(t *testing.T) {
			res := runScript(t, cfgFor(nodes(1)), []Job{{ID: "j", Maps: work, Order: tc.order}})
			for i, want := range tc.want {
				expectTime(t, "map finish", res.Jobs[0].TaskFinish[speculators.Map][i], want)
			}
		})
	}
}

// The order applies to reduces too, and retries still go first.
func TestOriginalOrderReduces(t *testing.T) {
	cfg := cfgFor(nodes(1))
	cfg.ReduceSlowstart = 1
	res := runScript(t, cfg, []Job{{ID: "j", Maps: works(1000), Reduces: works(5000, 1000), Order: OrderSJF}})
	expectTime(t, "reduce 1", res.Jobs[0].TaskFinish[speculators.Reduce][1], 2000)
	expectTime(t, "reduce 0", res.Jobs[0].TaskFinish[speculators.Reduce][0], 7000)
}

func TestParseTaskOrder(t *testing.T) {
	for s, want := range map[string]TaskOrder{"": OrderIndex, "index": OrderIndex, "sjf": OrderSJF, "ljf": OrderLJF} {
		if got, err := ParseTaskOrder(s); err != nil || got != want {
			t.Errorf("ParseTaskOrder(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	if _, err := ParseTaskOrder("fifo"); err == nil {
		t.Error("ParseTaskOrder(fifo) did not fail")
	}
}

// With EnforceBounds a deadline job stops at the first Decide tick at or
// after its deadline: maps done by then keep their finish, the rest are
// dropped and the job finishes there.
func TestEnforceDeadline(t *testing.T) {
	job := Job{ID: "j", Maps: works(2000, 2000, 2000, 2000, 2000), Deadline: 4500, EnforceBounds: true}
	res := runScript(t, cfgFor(nodes(1)), []Job{job})
	r := res.Jobs[0]
	expectTime(t, "finish", r.Finish, 5000) // the tick after 4500
	expectInt(t, "dropped", r.DroppedTasks, 3)
	expectTime(t, "map 1", r.TaskFinish[speculators.Map][1], 4000)
	expectTime(t, "map 2", r.TaskFinish[speculators.Map][2], -1)
	expectInt(t, "killed", r.KilledAttempts, 1)

	job.EnforceBounds = false // advisory: the job runs to the end
	r = runScript(t, cfgFor(nodes(1)), []Job{job}).Jobs[0]
	expectTime(t, "advisory finish", r.Finish, 10000)
	expectInt(t, "advisory dropped", r.DroppedTasks, 0)
}

// An error-bound job drops its remaining maps once ceil((1-e) x maps) are
// done; reduces still run.
func TestEnforceErrorBound(t *testing.T) {
	cfg := cfgFor(nodes(2))
	cfg.ReduceSlowstart = 1
	job := Job{ID: "j", Maps: works(1000, 1000, 1500, 1500, 9000), Reduces: works(1000), ErrorBound: 0.2, EnforceBounds: true}
	r := runScript(t, cfg, []Job{job}).Jobs[0]
	// Maps 0-3 are done by 2500 ms (two slots); map 4 starts then and is
	// dropped at the 3000 ms tick; the reduce then runs 3000-4000.
	expectTime(t, "map 3", r.TaskFinish[speculators.Map][3], 2500)
	expectTime(t, "map 4", r.TaskFinish[speculators.Map][4], -1)
	expectInt(t, "dropped", r.DroppedTasks, 1)
	expectInt(t, "killed", r.KilledAttempts, 1)
	expectTime(t, "reduce", r.TaskFinish[speculators.Reduce][0], 4000)
	expectTime(t, "finish", r.Finish, 4000)
}

func TestBoundMaps(t *testing.T) {
	for _, tc := range []struct {
		maps int
		e    float64
		want int
	}{{10, 0.2, 8}, {10, 0.25, 8}, {10, 0, 10}, {1, 0.3, 1}, {3, 0.99, 1}, {0, 0.1, 0}, {100, 0.05, 95}} {
		if got := BoundMaps(tc.maps, tc.e); got != tc.want {
			t.Errorf("BoundMaps(%d, %g) = %d, want %d", tc.maps, tc.e, got, tc.want)
		}
	}
}

func TestJobBoundsValidated(t *testing.T) {
	_, err := Run(cfgFor(nodes(1)), []Job{{ID: "j", Maps: works(1000), ErrorBound: 1}},
		func(info speculators.JobInfo) (*speculators.Engine, error) {
			return speculators.NewEngine(info, "script", &script{}, speculators.Params{})
		})
	if err == nil {
		t.Error("error bound 1 accepted")
	}
}
