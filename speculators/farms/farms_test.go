package farms

import (
	"strings"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/late"
	"github.com/specbridge/specbridge/speculators/none"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// TestRegisteredWithPaperDefaults checks the defaults and that every
// parameter's doc says where it comes from.
func TestRegisteredWithPaperDefaults(t *testing.T) {
	r := testRegistry(t)
	for name, wantParams := range map[string]map[string]string{
		Name: {ParamBase: "late", ParamBaseParams: "", ParamResumeKeepLead: "0.1", ParamDetector: "tws",
			ParamInitialTasks: "2", ParamGrowth: "2", ParamCheckIntervalMs: "3000", ParamFetchFailures: "1", ParamRerunAfterMs: "0"},
		TWSName: {ParamBase: "late", ParamBaseParams: "", ParamResumeKeepLead: "0.1", ParamDetector: "tws"},
	} {
		params, err := r.Params(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := params.Map()
		if len(got) != len(wantParams) {
			t.Errorf("%s parameters %v, want %v", name, got, wantParams)
		}
		for k, v := range wantParams {
			if got[k] != v {
				t.Errorf("%s.%s = %q, want %q", name, k, got[k], v)
			}
		}
		for _, s := range params.Specs() {
			if s.Name != ParamBaseParams && !strings.Contains(s.Doc, "§") {
				t.Errorf("%s.%s doc %q cites no section", name, s.Name, s.Doc)
			}
		}
	}
}

// TestDetectorParameter checks that farms accepts the three detectors,
// exposes the choice to the fault analyzer, and refuses anything else.
func TestDetectorParameter(t *testing.T) {
	r := testRegistry(t)
	for _, d := range []string{"tws", "mean", "fixed"} {
		e, err := r.NewEngine(speculators.JobInfo{ID: "j", Maps: 1}, Name, map[string]string{ParamDetector: d}, 1)
		if err != nil {
			t.Fatalf("detector %s: %v", d, err)
		}
		got, ok := e.Policy.(interface{ Detector() string })
		if !ok || got.Detector() != d || e.Params.String(ParamDetector) != d {
			t.Errorf("detector %s: policy says %v, params %q", d, got, e.Params.String(ParamDetector))
		}
	}
	if _, _, err := r.New(Name, map[string]string{ParamDetector: "oracle"}, 1); err == nil || !strings.Contains(err.Error(), ParamDetector) {
		t.Errorf("detector oracle: error %v, want one naming the parameter", err)
	}
}

// TestRejectsBadParameters checks that nonsense values are refused with the
// parameter named.
func TestRejectsBadParameters(t *testing.T) {
	r := testRegistry(t)
	for _, c := range []struct{ policy, name, value string }{
		{Name, ParamInitialTasks, "0"},
		{Name, ParamGrowth, "0.5"},
		{Name, ParamCheckIntervalMs, "-1"},
		{Name, ParamFetchFailures, "-1"},
		{Name, ParamResumeKeepLead, "2"},
		{Name, ParamBase, "farms"},
		{TWSName, ParamBase, "tws"},
		{Name, ParamBase, "nosuch"},
		{Name, ParamBaseParams, "speculative-cap"},
		{TWSName, ParamBaseParams, "nosuch=1"},
		{TWSName, ParamDetector, "mean"},
	} {
		_, _, err := r.New(c.policy, map[string]string{c.name: c.value}, 1)
		if err == nil || !strings.Contains(err.Error(), c.name) {
			t.Errorf("%s.%s=%s: error %v, want one naming the parameter", c.policy, c.name, c.value, err)
		}
	}
}

// stragglerJob has eight maps on eight nodes; m7 is slow. late copies it.
func stragglerJob(h *spectest.Harness) {
	for i := range 7 {
		h.Running(spectest.Map(i), node(i), spectest.Sec(0), spectest.Sec(100), 0.5)
	}
	h.Running(spectest.Map(7), node(7), spectest.Sec(0), spectest.Sec(100), 0.1)
}

// TestBaseDecisionsPassThrough checks that with no failure farms decides
// exactly what its base does, and that base-params reach the base.
func TestBaseDecisionsPassThrough(t *testing.T) {
	h := newHarness(t, Name, speculators.JobInfo{Maps: 8}, nil)
	stragglerJob(h)
	b := newHarness(t, late.Name, speculators.JobInfo{Maps: 8}, nil)
	stragglerJob(b)
	got, wantDs := h.Decide(spectest.Sec(100)), b.Decide(spectest.Sec(100))
	spectest.Want(t, "farms decided", got, wantDs, got)
	if len(got) != 1 {
		t.Fatalf("late decided %v, want one copy", wantDs)
	}

	// A base whose one-minute rule is 200 s decides nothing at 100 s.
	h = newHarness(t, Name, speculators.JobInfo{Maps: 8}, map[string]string{ParamBaseParams: late.ParamMinRuntimeMs + "=200000"})
	stragglerJob(h)
	if ds := h.Decide(spectest.Sec(100)); len(ds) != 0 {
		t.Fatalf("base-params ignored: %v", ds)
	}
}

// TestBaseCopyNotDoubled checks that a task the base already asked to copy
// is not copied again by the failure layer, and the reverse.
func TestBaseCopyNotDoubled(t *testing.T) {
	h := newHarness(t, Name, speculators.JobInfo{Maps: 8}, nil)
	stragglerJob(h) // late asks for m7 at 100 s
	spectest.Want(t, "late copied", spectest.SpeculatedTasks(h.Decide(spectest.Sec(100))), []speculators.TaskID{spectest.Map(7)}, nil)
	h.Node(speculators.NodeFailed, node(7), spectest.Sec(101))
	if ds := spectest.SpeculatedTasks(h.Decide(spectest.Sec(101))); len(ds) != 0 {
		t.Fatalf("failure layer copied %v again", ds)
	}
	h.Node(speculators.NodeFailed, node(6), spectest.Sec(102))
	h.Status(speculators.AttemptID{Task: spectest.Map(6)}, spectest.Sec(90), 0.5)
	ds := h.Decide(spectest.Sec(102))
	if n := len(spectest.Only(ds, speculators.Speculate)); n != 1 {
		t.Fatalf("m6 on the failed n6: decisions %v, want one copy", ds)
	}
}

// TestMapOnlyJobNoRerun checks that a map-only job's outputs (in HDFS) and
// a job whose reduces are all done are not re-run when a node fails.
func TestMapOnlyJobNoRerun(t *testing.T) {
	h := newHarness(t, Name, speculators.JobInfo{Maps: 2}, nil)
	h.Complete(spectest.Map(0), node(1), spectest.Sec(0), spectest.Sec(30))
	h.Running(spectest.Map(1), node(2), spectest.Sec(0), spectest.Sec(60), 0.5)
	h.Node(speculators.NodeFailed, node(1), spectest.Sec(100))
	if ds := spectest.Only(h.Decide(spectest.Sec(100)), speculators.Rerun); len(ds) != 0 {
		t.Fatalf("map-only job re-ran %v", ds)
	}

	h = newHarness(t, Name, speculators.JobInfo{Maps: 1, Reduces: 1}, nil)
	h.Complete(spectest.Map(0), node(1), spectest.Sec(0), spectest.Sec(30))
	h.Complete(spectest.Reduce(0), node(2), spectest.Sec(30), spectest.Sec(60))
	h.Node(speculators.NodeFailed, node(1), spectest.Sec(100))
	if ds := spectest.Only(h.Decide(spectest.Sec(100)), speculators.Rerun); len(ds) != 0 {
		t.Fatalf("job with every reduce done re-ran %v", ds)
	}
}

// TestSameDecisionsForSameInputs checks determinism across two engines.
func TestSameDecisionsForSameInputs(t *testing.T) {
	run := func() []speculators.Decision {
		h := newHarness(t, Name, speculators.JobInfo{Maps: 30, Reduces: 2}, nil)
		for i := range 30 {
			if i%3 == 0 {
				h.Complete(spectest.Map(i), node(i%4), spectest.Sec(0), spectest.Sec(40))
			} else {
				h.Running(spectest.Map(i), node(i%4), spectest.Sec(0), spectest.Sec(90), 0.01*float64(i))
			}
		}
		h.Running(spectest.Reduce(0), node(1), spectest.Sec(20), spectest.Sec(90), 0.1)
		h.Node(speculators.NodeFailed, node(1), spectest.Sec(100))
		var all []speculators.Decision
		for s := 100.0; s < 130; s++ {
			all = append(all, h.Decide(spectest.Sec(s))...)
		}
		return all
	}
	a, b := run(), run()
	spectest.Want(t, "second run", b, a, a)
	if len(a) == 0 {
		t.Fatal("the scenario decided nothing; the test proves nothing")
	}
}

// TestFetchFailuresParameter checks that fetch-failures sets how many
// reports re-run a map (3, as Hadoop waits for) and that 0 disables the
// trigger.
func TestFetchFailuresParameter(t *testing.T) {
	for _, c := range []struct {
		value string
		want  []int // re-runs after each of three reports
	}{{"3", []int{0, 0, 1}}, {"0", []int{0, 0, 0}}, {"1", []int{1, 0, 0}}} {
		h := newHarness(t, Name, speculators.JobInfo{Maps: 1, Reduces: 1}, map[string]string{ParamFetchFailures: c.value})
		h.Complete(spectest.Map(0), node(1), spectest.Sec(0), spectest.Sec(30))
		r := h.Running(spectest.Reduce(0), node(2), spectest.Sec(10), spectest.Sec(60), 0.2)
		var got []int
		for k := range 3 {
			h.FetchFailed(r, spectest.Sec(float64(70+k)), 0.1, spectest.Map(0))
			got = append(got, len(spectest.Only(h.Decide(spectest.Sec(float64(70+k))), speculators.Rerun)))
		}
		spectest.Want(t, "fetch-failures="+c.value+" re-runs", got, c.want, nil)
	}
}

// TestNoCopyOnSuspectOrDownNode checks the node gate with a base that has no
// opinion of its own: suspect and failed nodes are refused, others allowed.
func TestNoCopyOnSuspectOrDownNode(t *testing.T) {
	h := newHarness(t, Name, speculators.JobInfo{Maps: 1}, map[string]string{ParamBase: none.Name})
	h.Running(spectest.Map(0), node(1), 0, spectest.Sec(10), 0.5)
	h.Node(speculators.NodeSuspected, node(2), spectest.Sec(20))
	h.Node(speculators.NodeFailed, node(3), spectest.Sec(20))
	h.Node(speculators.NodeFailed, node(4), spectest.Sec(20))
	h.Node(speculators.NodeResumed, node(4), spectest.Sec(30))
	var got []bool
	for i := 1; i <= 5; i++ {
		got = append(got, h.Engine.AllowSpeculativeOn(node(i), spectest.Sec(30)))
	}
	spectest.Want(t, "allowed n1..n5", got, []bool{true, false, false, true, true}, nil)
}

// TestRerunAfterWaits checks rerun-after-ms: the maps that completed on a
// failed node are re-run only at the first check once the node has been
// down that long, while its stalled running task is copied at once; a node
// that resumes before then keeps its outputs.
func TestRerunAfterWaits(t *testing.T) {
	setup := func() (*spectest.Harness, speculators.AttemptID) {
		h := newHarness(t, Name, speculators.JobInfo{Maps: 4, Reduces: 1}, map[string]string{ParamRerunAfterMs: "10000"})
		done := h.Complete(spectest.Map(0), node(1), spectest.Sec(0), spectest.Sec(40))
		h.Complete(spectest.Map(1), node(2), spectest.Sec(0), spectest.Sec(40))
		h.Running(spectest.Map(2), node(1), spectest.Sec(40), spectest.Sec(90), 0.5)
		h.Running(spectest.Reduce(0), node(2), spectest.Sec(30), spectest.Sec(90), 0.2)
		h.Node(speculators.NodeFailed, node(1), spectest.Sec(100))
		return h, done
	}
	h, done := setup()
	ds := h.Decide(spectest.Sec(100))
	spectest.Want(t, "copied at once", spectest.SpeculatedTasks(ds), []speculators.TaskID{spectest.Map(2)}, ds)
	for _, s := range []float64{103, 106, 109} {
		if ds := spectest.Only(h.Decide(spectest.Sec(s)), speculators.Rerun); len(ds) != 0 {
			t.Fatalf("at %gs, %gs after the failure, re-ran: %v", s, s-100, ds)
		}
	}
	ds = h.Decide(spectest.Sec(112))
	spectest.Want(t, "re-ran at 12s", spectest.Attempts(ds, speculators.Rerun), []speculators.AttemptID{done}, ds)

	h, _ = setup()
	h.Decide(spectest.Sec(100))
	h.Node(speculators.NodeResumed, node(1), spectest.Sec(105))
	for _, s := range []float64{106, 112, 120} {
		if ds := spectest.Only(h.Decide(spectest.Sec(s)), speculators.Rerun); len(ds) != 0 {
			t.Fatalf("at %gs, after the node resumed, re-ran: %v", s, ds)
		}
	}
}
