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

// A value out of a parameter's range fails the command line, exit 2,
// naming the value and its range, before any input is read: replay's
// --param and every value of a sweep's grid alike. (The FB-2009 day takes
// minutes to simulate; the check answers at once.)
func TestParamRangeCheckedBeforeAnyInput(t *testing.T) {
	day := "../../data/swim/FB-2009_samples_24_times_1hr_0.tsv"
	rows := filepath.Join(t.TempDir(), "rows.csv")
	for _, args := range [][]string{
		{"replay", "--param", "late.speculative-cap=2", day},
		{"sweep", "--speculators", "late", "--param", "late.speculative-cap=0.1,0.2,2", "--csv", rows, day},
	} {
		out, stderr, code := run(t, args...)
		if code != 2 || out != "" || strings.Count(stderr, "\n") != 1 ||
			!strings.Contains(stderr, "late.speculative-cap=2") || !strings.Contains(stderr, "want a fraction in [0, 1]") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 naming the value and its range", args, code, out, stderr)
		}
		if strings.Contains(stderr, "sweep: ") {
			t.Errorf("%v: a cell ran: %q", args, stderr)
		}
	}
	if _, err := os.Stat(rows); err == nil {
		t.Errorf("the bad sweep created %s", rows)
	}
}

// A cell that fails while running does not lose the others: their rows are
// in the CSV, the error names the failed cell, exit 1.
func TestSweepKeepsFinishedCells(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("cluster: {nodes: 2}\njobs: [\n"), 0o644)
	rows := filepath.Join(dir, "rows.csv")
	_, stderr, code := run(t, "sweep", "--speculators", "none,hadoop", "--max-jobs", "2", "--csv", rows, stragglers, bad)
	if code != 1 || !strings.Contains(stderr, "2 of 4 cells failed") || !strings.Contains(stderr, "cell 2 (") || !strings.Contains(stderr, "cell 3 (") {
		t.Fatalf("exit %d, stderr %q; want exit 1 naming cells 2 and 3", code, stderr)
	}
	data, err := os.ReadFile(rows)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], "0,") || !strings.HasPrefix(lines[2], "1,") {
		t.Errorf("CSV %q: want the header and the rows of cells 0 and 1", data)
	}
}
