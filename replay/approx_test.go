package replay

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/speculators"
)

// Hand-built results: accuracy counts maps done by the deadline (a map
// finishing exactly at it counts); time to bound is the ceil((1-e) x maps)-th
// map's finish minus submit. GRASS §2.1 and §6.1.
func TestAccuracyAndTimeToBound(t *testing.T) {
	fin := func(ts ...speculators.Time) [speculators.NumTaskTypes][]speculators.Time {
		return [speculators.NumTaskTypes][]speculators.Time{ts, nil}
	}
	deadline := sim.Job{ID: "d", Submit: 1000, Deadline: 5000}
	r := sim.JobResult{Submit: 1000, Maps: 4, TaskFinish: fin(2000, 5000, 5001, -1)}
	if a, ok := Accuracy(&deadline, &r); !ok || a != 0.5 {
		t.Errorf("accuracy = %v, %v; want 0.5", a, ok)
	}
	if _, ok, _ := TimeToBound(&deadline, &r); ok {
		t.Error("a deadline job has a time to bound")
	}
	errJob := sim.Job{ID: "e", Submit: 1000, ErrorBound: 0.25}
	r = sim.JobResult{Submit: 1000, Maps: 4, TaskFinish: fin(9000, 3000, -1, 4000)}
	if d, ok, reached := TimeToBound(&errJob, &r); !ok || !reached || d != 8000 {
		t.Errorf("time to bound = %d, %v, %v; want 8000 (3 of 4 maps, the last at 9000)", d, ok, reached)
	}
	errJob.ErrorBound = 0.2 // ceil(0.8 x 4) = 4 maps: never reached
	if _, ok, reached := TimeToBound(&errJob, &r); !ok || reached {
		t.Errorf("time to bound with 3 of 4 maps and e = 0.2: ok %v reached %v, want true false", ok, reached)
	}
	if _, ok := Accuracy(&errJob, &r); ok {
		t.Error("an error-bound job has an accuracy")
	}

	w := &Workload{Jobs: []sim.Job{deadline, {ID: "e", Submit: 1000, ErrorBound: 0.25}}}
	res := &sim.Result{Jobs: []sim.JobResult{
		{Submit: 1000, Finish: 5000, Maps: 4, TaskFinish: fin(2000, 5000, 5001, -1)},
		{Submit: 1000, Finish: 9000, Maps: 4, TaskFinish: fin(9000, 3000, -1, 4000)},
	}}
	a := approximation(w, res)
	if a.DeadlineJobs != 1 || a.Accuracy == nil || *a.Accuracy != 0.5 || a.ErrorBoundJobs != 1 ||
		a.MeanTimeToBoundS == nil || *a.MeanTimeToBoundS != 8 {
		t.Errorf("approximation = %+v", a)
	}
	if len(a.Bins) != 1 || a.Bins[0].Bin != "small" || a.Bins[0].Jobs != 2 || a.Bins[0].MeanJobS != 6 {
		t.Errorf("bins = %+v, want one small bin of 2 jobs, mean 6 s", a.Bins)
	}
	avg := averageApprox([]Result{{Approximation: a}, {Approximation: Approximation{DeadlineJobs: 1, Accuracy: ptr(1)}}})
	if avg.Accuracy == nil || math.Abs(*avg.Accuracy-0.75) > 1e-9 || avg.MeanTimeToBoundS == nil || *avg.MeanTimeToBoundS != 8 {
		t.Errorf("average = %+v, want accuracy 0.75 and time to bound 8", avg)
	}
}

func ptr(x float64) *float64 { return &x }

// The three GRASS scenarios parse, replay with the policies every build
// has, and report their figures in JSON, table and CSV; exact jobs report
// neither accuracy nor time to bound.
func TestGRASSScenarios(t *testing.T) {
	reg := registry(t)
	opts := Options{Speculators: []string{"none", "late", "hadoop"}, Seed: 1, Runs: 1, Registry: reg}
	for _, tc := range []struct{ file, want, absent string }{
		{"grass-deadline.yaml", `"accuracy"`, `"mean_time_to_bound_s"`},
		{"grass-error.yaml", `"mean_time_to_bound_s"`, `"accuracy"`},
		{"grass-exact.yaml", `"bins"`, `"accuracy"`},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := "../scenarios/" + tc.file
			out := simulateJSON(t, path, opts)
			if !bytes.Contains(out, []byte(tc.want)) || bytes.Contains(out, []byte(tc.absent)) {
				t.Fatalf("JSON has no %s or has %s:\n%s", tc.want, tc.absent, out)
			}
			var rep struct {
				Results []Result `json:"results"`
			}
			if err := json.Unmarshal(out, &rep); err != nil {
				t.Fatal(err)
			}
			for _, r := range rep.Results {
				if r.UnfinishedJobs != 0 || len(r.Bins) != 3 {
					t.Errorf("%s: %v unfinished jobs, %d bins (want 0 and 3)", r.Speculator, r.UnfinishedJobs, len(r.Bins))
				}
				if r.Accuracy != nil && !(*r.Accuracy > 0 && *r.Accuracy < 1) {
					t.Errorf("%s: accuracy %v not in (0,1)", r.Speculator, *r.Accuracy)
				}
			}
			in := load(t, path)
			res, err := Simulate(WorkloadOf(in, opts.Cluster), opts)
			if err != nil {
				t.Fatal(err)
			}
			rep2 := &Report{Input: path, Format: "scenario", Mode: "simulate", Seed: 1, Runs: 1, Results: res}
			var table, csv bytes.Buffer
			if err := rep2.Write(&table, "table"); err != nil {
				t.Fatal(err)
			}
			if err := rep2.Write(&csv, "csv"); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(table.String(), "by job bin") || !strings.Contains(csv.String(), "large_mean_time_to_bound_s") {
				t.Errorf("table or CSV lacks the bin split:\n%s\n%s", table.String(), csv.String())
			}
		})
	}
}

// Same seed, same bytes: SWIM sampling, Pareto draws and bound enforcement
// are deterministic.
func TestGRASSDeterministic(t *testing.T) {
	reg := registry(t)
	opts := Options{Speculators: []string{"late"}, Seed: 3, Runs: 2, Registry: reg}
	path := "../scenarios/grass-deadline.yaml"
	if a, b := simulateJSON(t, path, opts), simulateJSON(t, path, opts); !bytes.Equal(a, b) {
		t.Fatalf("two runs differ:\n%s\n---\n%s", a, b)
	}
}
