package replay

import (
	"bytes"
	"strings"
	"testing"
)

// The Xu and Lau regime of the bundled scenarios: sca-sda.yaml (the paper's
// lambda = 6 per unit) is below the cutoff load of §III, ese-overload.yaml
// (lambda = 40) above it, and the text report says cloning is outside its
// regime there. A workload without the a-priori Pareto model has no regime.
// Reference: Xu and Lau, §III-B, eq. (5) and Theorem 1.
func TestXuLauRegimeOfScenarios(t *testing.T) {
	regime := func(path string) *Regime {
		w, err := WorkloadOf(loadPrefix(t, path, 300), ClusterOptions{})(1)
		if err != nil {
			t.Fatal(err)
		}
		return RegimeOf(w)
	}
	light, heavy := regime("../scenarios/xulau/sca-sda.yaml"), regime("../scenarios/xulau/ese-overload.yaml")
	if light == nil || heavy == nil {
		t.Fatalf("regimes %+v and %+v, want both computed", light, heavy)
	}
	t.Logf("sca-sda %+v; ese-overload %+v", *light, *heavy)
	if !light.Cloning || light.Load >= light.CutoffLoad || light.CutoffLoad != 0.75 {
		t.Errorf("sca-sda: %+v, want a load below the cutoff 0.75 of alpha 2", *light)
	}
	if heavy.Cloning || heavy.Load <= heavy.CutoffLoad || heavy.ArrivalRate <= heavy.CutoffRate {
		t.Errorf("ese-overload: %+v, want a load and a rate above the cutoff", *heavy)
	}
	var buf bytes.Buffer
	rep := &Report{Input: "ese-overload.yaml", Mode: "simulate", Results: []Result{}, Regime: heavy}
	if err := rep.Write(&buf, "table"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "outside its regime") {
		t.Errorf("text report does not warn that cloning is outside its regime:\n%s", buf.String())
	}
	w, err := WorkloadOf(load(t, "../scenarios/late-ec2-heterogeneous.yaml"), ClusterOptions{})(1)
	if err != nil {
		t.Fatal(err)
	}
	if r := RegimeOf(w); r != nil {
		t.Errorf("a scenario without an a-priori Pareto model got a regime %+v", *r)
	}
}
