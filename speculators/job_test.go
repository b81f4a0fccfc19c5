package speculators

import (
	"math"
	"testing"
)

type noPolicy struct{}

func (noPolicy) Decide(_ *Job, _ Time, out []Decision) []Decision { return out }

func TestReduceProgressThirds(t *testing.T) {
	// LATE §2.1: halfway through copy scores 1/6, halfway through reduce 5/6.
	if p := ReduceProgress(PhaseShuffle, 0.5); math.Abs(p-1.0/6) > 1e-12 {
		t.Fatalf("half copy = %g", p)
	}
	if p := ReduceProgress(PhaseReduce, 0.5); math.Abs(p-5.0/6) > 1e-12 {
		t.Fatalf("half reduce = %g", p)
	}
}

func TestEstimators(t *testing.T) {
	a := &Attempt{Start: 0, Progress: 0.6, LastReport: 20000, Reports: 1}
	// LATE §4.2's T1: 60% after 20 s is 3%/s, 13.3 s left.
	if pr := a.ProgressRate(20000); math.Abs(pr-0.03) > 1e-12 {
		t.Fatalf("rate %g", pr)
	}
	if tl := a.TimeLeft(20000); math.Abs(tl-40.0/3) > 1e-9 {
		t.Fatalf("time left %g", tl)
	}
	if est := a.LegacyEstimatedRuntime(); est != 33333 {
		t.Fatalf("legacy estimate %d, want 33333", est)
	}
	if (&Attempt{Start: 5}).LegacyEstimatedRuntime() != -1 {
		t.Fatal("an attempt without reports must have no legacy estimate")
	}
	var s RunningStats
	for _, x := range []float64{2, 4, 4, 4, 5, 5, 7, 9} {
		s.Add(x)
	}
	if s.Mean() != 5 || s.Std() != 2 || s.Outlier(1) != 7 {
		t.Fatalf("mean %g std %g", s.Mean(), s.Std())
	}
	if p := Percentile([]float64{4, 1, 3, 2}, 25); p != 1.75 {
		t.Fatalf("25th percentile %g, want 1.75", p)
	}
}

func TestRegistryParams(t *testing.T) {
	r := NewRegistry()
	p := Policy{Name: "p", New: func(Params, Env) (Speculator, error) { return noPolicy{}, nil },
		Params: []ParamSpec{{Name: "cap", Kind: Float, Default: 0.1}, {Name: "wait", Kind: Int, Default: int64(5), HadoopKey: "mapreduce.x.wait"}}}
	if err := r.Add(p); err != nil {
		t.Fatal(err)
	}
	if err := r.Add(p); err == nil {
		t.Fatal("duplicate name accepted")
	}
	if err := r.Add(Policy{Name: "q", New: p.New, Params: []ParamSpec{{Name: "x", Kind: Int, Default: 0.5}}}); err == nil {
		t.Fatal("default of the wrong kind accepted")
	}
	params, err := r.Params("p", map[string]string{"cap": "0.2", "mapreduce.x.wait": "9"})
	if err != nil || params.Float("cap") != 0.2 || params.Int("wait") != 9 {
		t.Fatalf("params %v err %v", params.Values(), err)
	}
	for _, bad := range []map[string]string{{"nope": "1"}, {"cap": "fast"}, {"wait": "1.5"}} {
		if _, err := r.Params("p", bad); err == nil {
			t.Errorf("override %v accepted", bad)
		}
	}
	if _, err := r.Params("missing", nil); err == nil {
		t.Fatal("unknown policy accepted")
	}
}
