package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The YARN test's grid (sweep/yarn_integration_test.go): 2 policies x 2
// values of one parameter each x 2 seeds on a bundled scenario.
var sweepGrid = []string{"sweep", "--speculators", "late,hadoop", "--param", "late.speculative-cap=0,0.2",
	"--param", "hadoop.minimum-allowed-tasks=1,10", "--runs", "2", stragglers}

// `sweep --cells` lists the grid; `sweep --cell LINE` on each line, as a
// YARN mapper runs it, prints exactly the local sweep's row; the rows are
// the same with --parallel 1 and 2, and --csv and --json write what
// --output prints.
func TestSweepCellsAndRows(t *testing.T) {
	out, stderr, code := run(t, append(sweepGrid, "--cells")...)
	if code != 0 {
		t.Fatalf("--cells: exit %d: %s", code, stderr)
	}
	cells := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(cells) != 8 {
		t.Fatalf("%d cells, want 8:\n%s", len(cells), out)
	}
	dir := t.TempDir()
	csvFile, jsonFile := filepath.Join(dir, "rows.csv"), filepath.Join(dir, "rows.json")
	jsonOut, stderr, code := run(t, append(sweepGrid, "-q", "--parallel", "1", "--output", "json", "--csv", csvFile, "--json", jsonFile)...)
	if code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, stderr)
	}
	csvOut, _, code := run(t, append(sweepGrid, "-q", "--parallel", "2", "--output", "csv")...)
	if code != 0 {
		t.Fatalf("sweep --parallel 2: exit %d", code)
	}
	if b, _ := os.ReadFile(csvFile); string(b) != csvOut {
		t.Errorf("--csv (parallel 1) differs from --output csv (parallel 2):\n%s\n%s", b, csvOut)
	}
	if b, _ := os.ReadFile(jsonFile); string(b) != jsonOut {
		t.Errorf("--json differs from --output json")
	}
	if !strings.HasPrefix(csvOut, "cell,input,policy,params,seed,jobs,tasks,mean_job_s,p50_job_s,p95_job_s") || strings.Count(csvOut, "\n") != 9 {
		t.Errorf("CSV is not a header and 8 rows:\n%s", csvOut)
	}
	rows := strings.Split(strings.TrimSpace(jsonOut), "\n")
	if len(rows) != 10 || rows[0] != "[" || rows[9] != "]" {
		t.Fatalf("JSON is not an array of a row per line:\n%s", jsonOut)
	}
	for i, cell := range cells {
		row, stderr, code := run(t, "sweep", "--cell", cell)
		if code != 0 {
			t.Fatalf("--cell %s: exit %d: %s", cell, code, stderr)
		}
		if want := strings.TrimSuffix(rows[i+1], ","); strings.TrimSpace(row) != want {
			t.Errorf("--cell %d printed\n%s\nthe sweep's row is\n%s", i, row, want)
		}
	}
}

// Bad sweeps fail before any cell runs, naming what is wrong.
func TestSweepBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "--speculators", "late", "--param", "late.no-such=1,2", stragglers}, `no parameter "no-such"`},
		{[]string{"sweep", "--speculators", "late", "--param", "hadoop.speculative-cap-running-tasks=0.1", stragglers}, "not selected"},
		{[]string{"sweep", "--speculators", "late", "--param", "late.speculative-cap=0.1,x", stragglers}, `"x" is not a number`},
		{[]string{"sweep", "--speculators", "late", "no-such-input.yaml"}, "not found"},
		{[]string{"sweep", "--speculators", "late"}, "no INPUT"},
		{[]string{"sweep", "--cell", "{", stragglers}, "drop the INPUT"},
		{[]string{"sweep", "--cell", "{not json"}, "cell line"},
		{[]string{"sweep", "--cell", `{"cell":0,"input":"no-such.yaml","policy":"late","seed":1}`}, "cell 0 (no-such.yaml"},
		{[]string{"sweep", "--speculators", "late", "--output", "xml", stragglers}, "--output"},
	} {
		out, stderr, code := run(t, tc.args...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want an error with %q", tc.args, code, stderr, tc.want)
		}
		if strings.Contains(out, "mean_job_s") {
			t.Errorf("%v printed rows", tc.args)
		}
	}
}

// A --param value keeps its commas (the app does not split repeatable
// flags): replay takes farms.base-params=NAME=VALUE,NAME=VALUE whole.
func TestParamValueWithCommas(t *testing.T) {
	_, stderr, code := run(t, "replay", "-q", "--speculators", "farms", "--param",
		"farms.base-params=min-runtime-ms=5000,speculative-cap=0.2", stragglers)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}
