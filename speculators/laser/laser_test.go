package laser

import (
	"math"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// rNet is a net on the job features whose output is exp(bias + slope x r):
// one hidden PReLU unit with slope 1 (the identity) reading r.
func rNet(bias, slope float64) Net {
	in := len(JobFeatureNames)
	w := make([]float64, in)
	w[in-1] = 1 // r is the last job feature
	ones := make([]float64, in)
	for i := range ones {
		ones[i] = 1
	}
	return Net{InMean: make([]float64, in), InStd: ones, OutMean: 0, OutStd: 1, LogTarget: true,
		Layers: []Layer{{In: in, Out: 1, W: w, B: []float64{0}, Alpha: []float64{1}}, {In: 1, Out: 1, W: []float64{slope}, B: []float64{bias}}}}
}

func testModel() *Model {
	in := len(TaskFeatureNames)
	ones := make([]float64, in)
	for i := range ones {
		ones[i] = 1
	}
	// The task net returns the linear estimate (the last task feature is
	// its log): exp(x).
	w := make([]float64, in)
	w[in-1] = 1
	task := Net{InMean: make([]float64, in), InStd: ones, OutStd: 1, LogTarget: true,
		Layers: []Layer{{In: in, Out: 1, W: w, B: []float64{0}, Alpha: []float64{1}}, {In: 1, Out: 1, W: []float64{1}, B: []float64{0}}}}
	m := &Model{Version: ModelVersion, TaskFeatures: TaskFeatureNames, JobFeatures: JobFeatureNames,
		Task: task, Job: rNet(math.Log(400), -0.5), Machine: rNet(math.Log(1000), 0.1)}
	for _, n := range []*Net{&m.Task, &m.Job, &m.Machine} {
		in := n.Inputs()
		n.InMin, n.InMax = make([]float64, in), make([]float64, in)
		for i := range in {
			n.InMin[i], n.InMax[i] = -1e300, 1e300
		}
	}
	return m
}

func TestPredictPReLU(t *testing.T) {
	// 2 inputs -> 2 hidden PReLU (slope 0.25) -> 1, by hand:
	// x = (1, -2) standardised with mean (0, 0), std (1, 2): (1, -1).
	// h1 = 1*1 + 1*(-1) + 0.5 = 0.5; h2 = 2*1 + 1*(-1) - 3 = -2 -> -0.5.
	// y = 2*0.5 + 4*(-0.5) + 1 = 0, de-standardised 0*10 + 7 = 7.
	n := Net{InMean: []float64{0, 0}, InStd: []float64{1, 2}, InMin: []float64{-5, -5}, InMax: []float64{5, 5}, OutMean: 7, OutStd: 10, Layers: []Layer{
		{In: 2, Out: 2, W: []float64{1, 1, 2, 1}, B: []float64{0.5, -3}, Alpha: []float64{0.25, 0.25}},
		{In: 2, Out: 1, W: []float64{2, 4}, B: []float64{1}},
	}}
	if err := n.validate(2); err != nil {
		t.Fatal(err)
	}
	if y, _ := n.Predict([]float64{1, -2}, nil); math.Abs(y-7) > 1e-12 {
		t.Errorf("Predict = %g, want 7", y)
	}
}

// TestAlgorithm2 checks LASER's choice of r: the job network says
// T(r) = 400 e^(-r/2) s (400, 243, 147, ...), the machine network
// M(r) = 1000 e^(r/10) s; with D = 250 s the smallest r that meets D is
// 1, and more attempts only cost: U(1) = 1 - 0.0001 x 1105 is the largest.
// At theta C = 0.01 meeting D is not worth the machine time:
// U(0) = -10 > U(1) = 1 - 11.05.
// Reference: SRQuant/LASER paper §IV-B, Algorithm 2.
func TestAlgorithm2(t *testing.T) {
	job, err := speculators.NewJob(speculators.JobInfo{ID: "j", Maps: 1, Deadline: 250000})
	if err != nil {
		t.Fatal(err)
	}
	a := &speculators.Attempt{Start: 0, Progress: 0.3}
	for _, c := range []struct {
		thetaC float64
		want   int
	}{{0.0001, 1}, {0.01, 0}} {
		reg := spectest.Registry(t, Policy(testModel()))
		s, _, err := reg.New(Name, map[string]string{"theta-c": speculators.FormatParam(c.thetaC)}, 1)
		if err != nil {
			t.Fatal(err)
		}
		r, why := s.(*policy).Choose(job, nil, a, 120000)
		if r != c.want {
			t.Errorf("theta C %g: r = %d (%s), want %d", c.thetaC, r, why, c.want)
		}
	}
	// The task network here is the linear estimate: 120 s at 30% is 400 s.
	s, _, err := spectest.Registry(t, Policy(testModel())).New(Name, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if est := s.(*policy).EstimateS(job, nil, a, 120000); math.Abs(est-400) > 1e-6 {
		t.Errorf("estimate %g s, want 400", est)
	}
}

func TestParseModelRejectsBadFiles(t *testing.T) {
	good, err := testModel().Encode()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseModel(good); err != nil {
		t.Fatalf("a valid model was refused: %v", err)
	}
	for name, data := range map[string]string{
		"not json":      "{",
		"wrong version": strings.Replace(string(good), `"version": 2`, `"version": 9`, 1),
		"features":      strings.Replace(string(good), `"progress"`, `"location"`, 1),
		"empty":         "{}",
	} {
		if _, err := ParseModel([]byte(data)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, _, err := spectest.Registry(t, Policy(nil)).New(Name, nil, 1); err == nil || !strings.Contains(err.Error(), "no model") {
		t.Errorf("no model: err = %v", err)
	}
}

// TestLiveJobProgressLeavesTheStragglerOut: where copies start from zero
// (JobInfo.Resume false, live) the straggler's own progress is lost, so the
// job networks see the job's progress without it; where they resume, with
// it. The job network here is T = 400 e^(job_progress) s, which the
// decision's reason reports. Map 0 is at 90%, map 1 (the straggler) at 30%:
// job progress 0.6 with resume (T 729 s), 0.6 - 0.3/2 = 0.45 live (T 627 s).
func TestLiveJobProgressLeavesTheStragglerOut(t *testing.T) {
	m := testModel()
	m.Job.Layers[0].W = make([]float64, len(JobFeatureNames))
	m.Job.Layers[0].W[jobProgressAt] = 1
	m.Job.Layers[1].W[0] = 1
	for _, c := range []struct {
		resume bool
		want   string
	}{{true, "DNN job time 729 s"}, {false, "DNN job time 627 s"}} {
		h := spectest.For(t, Policy(m), speculators.JobInfo{ID: "j", Maps: 2, Deadline: 250000, Resume: c.resume}, nil)
		h.Start(spectest.Map(0), "n1", 0)
		h.Start(spectest.Map(1), "n1", 0)
		h.Status(speculators.AttemptID{Task: spectest.Map(0)}, 118000, 0.9)
		h.Status(speculators.AttemptID{Task: spectest.Map(1)}, 118000, 0.3)
		ds := h.Decide(120000)
		if len(ds) == 0 || !strings.Contains(ds[0].Reason, c.want) || ds[0].Resume != c.resume {
			t.Errorf("resume %v: %v; want a decision whose reason says %q", c.resume, ds, c.want)
		}
	}
}
