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
			DeadlineMet: &yes, Accuracy: &f, Status: "SUCCEEDED", SettingsFrom: "conf", Settings: "a=1 b=2"},
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
