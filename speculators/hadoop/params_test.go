package hadoop

import (
	"slices"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// TestParamsDeclareHadoopKeys: every parameter is the Hadoop key without
// its "mapreduce.job.speculative." prefix, with Hadoop's default.
// Reference: MRJobConfig
func TestParamsDeclareHadoopKeys(t *testing.T) {
	want := map[string]string{
		"retry-after-no-speculate":      "1000",
		"retry-after-speculate":         "15000",
		"minimum-allowed-tasks":         "10",
		"speculative-cap-total-tasks":   "0.01",
		"speculative-cap-running-tasks": "0.1",
		"slowtaskthreshold":             "1",
	}
	r := spectest.Registry(t, Policy())
	p, err := r.Params(Name, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Map(); len(got) != len(want) {
		t.Fatalf("parameters %v, want %v", got, want)
	}
	for _, s := range p.Specs() {
		if s.HadoopKey != "mapreduce.job.speculative."+s.Name || s.Doc == "" || !strings.Contains(s.Doc, "MRJobConfig.") {
			t.Errorf("%s: Hadoop key %q, doc %q", s.Name, s.HadoopKey, s.Doc)
		}
		if got := p.Map()[s.Name]; got != want[s.Name] {
			t.Errorf("%s default %s, want %s", s.Name, got, want[s.Name])
		}
	}
}

// TestParamsOverrideByNameAndKey: a parameter is set through the registry
// by its name or its Hadoop key, and the policy uses it.
func TestParamsOverrideByNameAndKey(t *testing.T) {
	for _, key := range []string{"retry-after-no-speculate", "mapreduce.job.speculative.retry-after-no-speculate"} {
		t.Run(key, func(t *testing.T) {
			r := spectest.Registry(t, Policy())
			p, err := r.Params(Name, map[string]string{key: "5000", "mapreduce.job.speculative.slowtaskthreshold": "2.5"})
			if err != nil {
				t.Fatal(err)
			}
			if p.Int(ParamRetryAfterNoSpeculate) != 5000 || p.Float(ParamSlowTaskThreshold) != 2.5 {
				t.Fatalf("effective %v", p.Values())
			}
			h := spectest.For(t, Policy(), speculators.JobInfo{ID: "job_test", Maps: 100, Reduces: 0}, map[string]string{key: "5000"})
			h.Completed("node1", 0, runtime, spectest.Maps(0, 4)...)
			h.Running(spectest.Map(10), "node1", 0, 10_000, 0.1)
			h.Speculated(10_000) // 4%: nothing; next scan at 15 s
			h.Completed("node1", 500, runtime, spectest.Map(4))
			if got := h.Speculated(14_999); len(got) != 0 {
				t.Fatalf("before the 5 s retry: got %v", got)
			}
			if got := h.Speculated(15_000); !slices.Equal(got, spectest.Tasks(spectest.Map(10))) {
				t.Fatalf("at the 5 s retry: got %v, want [m_000010]", got)
			}
		})
	}
}

func TestParamsRejected(t *testing.T) {
	r := spectest.Registry(t, Policy())
	for _, o := range []map[string]string{
		{"mapreduce.job.speculative.speculativecap": "0.1"},
		{"retry-after-speculate": "-1"},
		{"minimum-allowed-tasks": "-3"},
		{"speculative-cap-total-tasks": "-0.5"},
		{"slowtaskthreshold": "fast"},
	} {
		if _, _, err := r.New(Name, o, 1); err == nil {
			t.Errorf("%v accepted", o)
		}
	}
}
