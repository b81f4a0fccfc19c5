package replay

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strconv"
	"testing"
)

// The per-job CSV and JSON Lines forms are one list of facts: the CSV
// header is the JSON names in the struct's order, and each cell holds the
// JSON value (numbers alike, strings alike, a null as an empty cell).
func TestJobsCSVMatchesJSONLines(t *testing.T) {
	f, yes := 61.5, true
	rows := []JobRow{
		{Input: "in", Policy: "late", Run: 1, Seed: 7, Job: "j1", Group: "g", SubmitS: 0.25, FinishS: &f, TimeS: &f, Maps: 3, Reduces: 1,
			Attempts: 5, CopiesLaunched: 1, CopiesWon: 1, Killed: 1, ContainerS: 12.125, WastedContainerS: 2, DeadlineS: &f,
			DeadlineMet: &yes, Accuracy: &f, Status: "SUCCEEDED", SettingsFrom: "conf", Settings: "a=1 b=2",
			Member: "grass", MemberWhy: "exact job, on containers; \"quoted\""},
		{Input: "in", Policy: "none", Job: "j2", Status: "UNFINISHED"}, // every pointer nil
	}
	var c, j bytes.Buffer
	for _, x := range []struct {
		buf    *bytes.Buffer
		format string
	}{{&c, "csv"}, {&j, "jsonl"}} {
		w, err := NewJobsWriter(x.buf, x.format)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(rows); err != nil {
			t.Fatal(err)
		}
	}
	recs, err := csv.NewReader(&c).ReadAll()
	if err != nil || len(recs) != 1+len(rows) {
		t.Fatalf("CSV: %d records, %v", len(recs), err)
	}
	header := recs[0]
	dec := json.NewDecoder(&j)
	dec.UseNumber()
	for i := range rows {
		var obj map[string]any
		if err := dec.Decode(&obj); err != nil {
			t.Fatal(err)
		}
		if len(obj) != len(header) {
			t.Fatalf("row %d: %d JSON fields, %d CSV columns", i, len(obj), len(header))
		}
		for k, name := range header {
			v, ok := obj[name]
			if !ok {
				t.Fatalf("CSV column %s is not a JSON name", name)
			}
			cell := recs[1+i][k]
			var want string
			switch v := v.(type) {
			case nil:
				want = ""
			case json.Number:
				x, _ := strconv.ParseFloat(string(v), 64)
				want = FormatNumber(x)
			case bool:
				want = strconv.FormatBool(v)
			case string:
				want = v
			}
			if cell != want {
				t.Errorf("row %d, %s: CSV %q, JSON %v", i, name, cell, v)
			}
		}
	}
}

// Each job's row under auto names the member it applied and why, and the
// rows' members add up to the report's count; other policies' rows leave
// both empty.
func TestJobRowsNameAutosMember(t *testing.T) {
	in := loadPrefix(t, "../scenarios/heldout62/error-erlang-4-bounds-mean-0.08-four-copy-heavy-reduces-lognormal-0.7-maps-containers-fair.yaml", 20)
	var rows []JobRow
	var counted map[string]int
	opts := Options{Speculators: []string{"hadoop", "auto"}, Seed: 1, Runs: 1, Registry: registry(t),
		Observe: func(r *Run) error {
			rows = append(rows, JobRows("in", r)...)
			if r.Policy == "auto" {
				counted = r.Summary.Members
			}
			return nil
		}}
	if _, err := Simulate(WorkloadOf(in, opts.Cluster), opts); err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, r := range rows {
		switch r.Policy {
		case "hadoop":
			if r.Member != "" || r.MemberWhy != "" {
				t.Errorf("hadoop's row of %s names a member: %q (%q)", r.Job, r.Member, r.MemberWhy)
			}
		case "auto":
			if r.Member == "" || r.MemberWhy == "" {
				t.Errorf("auto's row of %s: member %q, why %q; want both", r.Job, r.Member, r.MemberWhy)
			}
			got[r.Member]++
		}
	}
	if len(got) == 0 || len(got) != len(counted) {
		t.Fatalf("rows' members %v, report's %v", got, counted)
	}
	for m, n := range counted {
		if got[m] != n {
			t.Errorf("member %s: %d rows, the report counts %d", m, got[m], n)
		}
	}
}
