package late_test

import (
	"strings"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/late"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// registry holds LATE alone, so these tests do not depend on the policies
// other packages are building at the same time.
func registry(t *testing.T) *speculators.Registry {
	t.Helper()
	return spectest.Registry(t, late.Policy())
}

// TestRegisteredWithPaperDefaults checks that LATE registers with §4's
// defaults and that each parameter's doc cites the paper.
func TestRegisteredWithPaperDefaults(t *testing.T) {
	r := registry(t)
	params, err := r.Params(late.Name, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		late.ParamSpeculativeCap:    "0.1",
		late.ParamSlowNodeThreshold: "25",
		late.ParamSlowTaskThreshold: "25",
		late.ParamMinRuntimeMs:      "60000",
	}
	got := params.Map()
	if len(got) != len(want) {
		t.Fatalf("parameters %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %s, want %s", k, got[k], v)
		}
	}
	for _, s := range params.Specs() {
		if !strings.Contains(s.Doc, "§4") {
			t.Errorf("%s doc %q does not cite §4", s.Name, s.Doc)
		}
	}
}

// TestRejectsOutOfRangeParameters checks that nonsense values are refused
// with the parameter named.
func TestRejectsOutOfRangeParameters(t *testing.T) {
	r := registry(t)
	for name, value := range map[string]string{
		late.ParamSpeculativeCap:    "1.5",
		late.ParamSlowNodeThreshold: "-1",
		late.ParamSlowTaskThreshold: "101",
		late.ParamMinRuntimeMs:      "-5",
	} {
		_, _, err := r.New(late.Name, map[string]string{name: value}, 1)
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s=%s: error %v, want one naming the parameter", name, value, err)
		}
	}
}
