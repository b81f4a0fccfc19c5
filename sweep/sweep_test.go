package sweep

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/replay"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/all"
)

const scenario = "../scenarios/late-ec2-stragglers.yaml"

func registry(params []string) (*speculators.Registry, error) { return all.RegistryWith(all.Options{}) }

// smallGrid is the YARN test's grid: 2 policies x 2 parameter values x 2
// seeds on a bundled scenario (the hadoop policy has no axis: 2 cells).
func smallGrid() Grid {
	return Grid{Inputs: []string{scenario}, Policies: []string{"late", "hadoop"},
		Axes: map[string][]Axis{
			"late":   {{Name: "speculative-cap", Values: []string{"0", "0.2"}}},
			"hadoop": {{Name: "minimum-allowed-tasks", Values: []string{"1", "10"}}},
		},
		Seeds: []uint64{1, 2}, Setup: Setup{Stragglers: StragglersOf(replay.DefaultStragglerModel())}}
}

func TestCellsOrderAndCombinations(t *testing.T) {
	axes, err := ParseAxes([]string{"late.speculative-cap=0.1,0.2", "late.min-runtime-ms=1000,2000,3000", `farms.base-params=a=1\,b=2,c=3`})
	if err != nil {
		t.Fatal(err)
	}
	if got := axes["farms"][0].Values; !reflect.DeepEqual(got, []string{"a=1,b=2", "c=3"}) {
		t.Errorf(`"\," did not keep the comma: %q`, got)
	}
	g := Grid{Inputs: []string{"a", "b"}, Policies: []string{"late", "none"}, Axes: axes, Seeds: []uint64{7, 8}}
	cells := g.Cells()
	// per input: late 2x3 combinations x 2 seeds + none 1 x 2 seeds
	if len(cells) != 2*(6*2+2) {
		t.Fatalf("%d cells", len(cells))
	}
	for i, c := range cells {
		if c.Index != i {
			t.Fatalf("cell %d has index %d", i, c.Index)
		}
	}
	want := []string{
		"a late min-runtime-ms=1000;speculative-cap=0.1 7", "a late min-runtime-ms=1000;speculative-cap=0.1 8",
		"a late min-runtime-ms=2000;speculative-cap=0.1 7",
	}
	for i, w := range want {
		c := cells[i]
		if got := fmt.Sprintf("%s %s %s %d", c.Input, c.Policy, c.ParamsText(), c.Seed); got != w {
			t.Errorf("cell %d = %q, want %q", i, got, w)
		}
	}
	if c := cells[12]; c.Policy != "none" || c.ParamsText() != "" || c.Input != "a" {
		t.Errorf("cell 12 = %+v, want input a's none with defaults", c)
	}
	if c := cells[14]; c.Input != "b" || c.Policy != "late" {
		t.Errorf("cell 14 = %+v, want input b's first", c)
	}
	if _, err := ParseAxes([]string{"late.speculative-cap=0.1", "late.speculative-cap=0.2"}); err == nil {
		t.Error("an axis given twice was accepted")
	}
	if _, err := ParseAxes([]string{"late.speculative-cap=0.1,0.1"}); err == nil {
		t.Error("a value listed twice was accepted")
	}
	if _, err := ParseAxes([]string{"speculative-cap=0.1"}); err == nil {
		t.Error("a parameter without its policy was accepted")
	}
}

func TestCellLineRoundTrip(t *testing.T) {
	for _, c := range smallGrid().Cells() {
		line, err := c.Line()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(line, "\n") {
			t.Fatalf("cell line holds a newline: %q", line)
		}
		back, err := ParseCell(line)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, c) {
			t.Fatalf("round trip changed the cell:\n%+v\n%+v", c, back)
		}
	}
	for _, bad := range []string{"", "{", `{"cell":0,"input":"x","policy":"late","extra":1}`, `{"cell":0,"policy":"late"}`,
		`{"cell":-1,"input":"x","policy":"late"}`, `{"cell":0,"input":"x","policy":"late"} {}`} {
		if _, err := ParseCell(bad); err == nil {
			t.Errorf("ParseCell(%q) accepted it", bad)
		}
	}
}

// The grid's rows are byte-identical serial and parallel, in cell order, and
// each is the row its cell computes alone (what a YARN mapper computes).
func TestParallelRowsIdentical(t *testing.T) {
	cells := smallGrid().Cells()
	render := func(parallel int) (string, string, []Row) {
		var rows []Row
		if err := Run(cells, parallel, Runner{Registry: registry}, func(r Row) error { rows = append(rows, r); return nil }); err != nil {
			t.Fatal(err)
		}
		var c, j bytes.Buffer
		if err := WriteCSV(&c, rows); err != nil {
			t.Fatal(err)
		}
		if err := WriteJSON(&j, rows); err != nil {
			t.Fatal(err)
		}
		return c.String(), j.String(), rows
	}
	csv1, json1, rows := render(1)
	csv4, json4, _ := render(4)
	if csv1 != csv4 || json1 != json4 {
		t.Fatalf("--parallel 4 rows differ from --parallel 1:\n%s\n%s", csv1, csv4)
	}
	if len(rows) != 8 || strings.Count(csv1, "\n") != 9 {
		t.Fatalf("%d rows for 8 cells:\n%s", len(rows), csv1)
	}
	for i, r := range rows {
		if r.Cell != i {
			t.Fatalf("row %d is cell %d", i, r.Cell)
		}
	}
	alone, err := RunCell(cells[5], Runner{Registry: registry})
	if err != nil {
		t.Fatal(err)
	}
	if alone != rows[5] {
		t.Errorf("cell 5 alone gives %+v, in the sweep %+v", alone, rows[5])
	}
	// The swept value reaches the policy: LATE with cap 0 never speculates,
	// with 0.2 it does on this scenario of stragglers.
	if rows[0].SpeculativeAttempts != 0 || rows[2].SpeculativeAttempts == 0 {
		t.Errorf("late.speculative-cap 0 / 0.2: %v / %v speculative attempts", rows[0].SpeculativeAttempts, rows[2].SpeculativeAttempts)
	}
	if rows[4].MeanJobS == rows[6].MeanJobS {
		t.Errorf("hadoop.minimum-allowed-tasks 1 and 10 give the same mean job time on seed 1: %v", rows[4].MeanJobS)
	}
	// And the seed reaches the workload.
	if rows[2] == rows[3] || rows[2].MeanJobS == rows[3].MeanJobS && rows[2].MakespanS == rows[3].MakespanS {
		t.Errorf("seeds 1 and 2 give the same figures: %+v", rows[2])
	}
	// Merge puts shuffled row lines back into the local order.
	var lines []string
	for _, r := range rows {
		l, err := r.Line()
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, l)
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	merged, err := Merge(strings.NewReader(strings.Join(lines, "\n")+"\n"), "shuffled", len(cells))
	if err != nil {
		t.Fatal(err)
	}
	var c bytes.Buffer
	if err := WriteCSV(&c, merged); err != nil {
		t.Fatal(err)
	}
	if c.String() != csv1 {
		t.Errorf("merged rows differ from the local sweep's:\n%s\n%s", c.String(), csv1)
	}
}

func TestMergeRejectsMissingRepeatedAndForeignCells(t *testing.T) {
	row := func(cell int) string { l, _ := Row{Cell: cell, Input: "x", Policy: "late"}.Line(); return l }
	for name, tc := range map[string]struct {
		text, want string
	}{
		"missing":  {row(0) + "\n" + row(2) + "\n", "1 of 3 cells have no row (first: 1)"},
		"repeated": {row(0) + "\n" + row(1) + "\n" + row(1) + "\n" + row(2), "line 3: cell 1 appears twice"},
		"foreign":  {row(0) + "\n" + row(7) + "\n", "line 2: cell 7 is not in the grid"},
		"garbage":  {row(0) + "\nnot json\n", "line 2: not a sweep row"},
	} {
		_, err := Merge(strings.NewReader(tc.text), "rows", 3)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", name, err, tc.want)
		}
	}
}

// A failing cell does not stop the sweep: every other cell's row is
// emitted, in order, and the error names the failed cell.
func TestRunGoesPastAFailingCell(t *testing.T) {
	cells := smallGrid().Cells()[:3]
	cells[1].Input = "no-such-input.yaml"
	var got []int
	err := Run(cells, 2, Runner{Registry: registry}, func(r Row) error { got = append(got, r.Cell); return nil })
	var ce CellErrors
	if !errors.As(err, &ce) || len(ce.Errs) != 1 || !strings.Contains(err.Error(), "1 of 3 cells failed") || !strings.Contains(err.Error(), "cell 1 (no-such-input.yaml") {
		t.Fatalf("error %v, want one naming cell 1 of 3", err)
	}
	if !slices.Equal(got, []int{0, 2}) {
		t.Errorf("rows of cells %v, want 0 and 2", got)
	}
}

// A stream's bytes are those of writing all rows at once.
func TestStreamMatchesWrite(t *testing.T) {
	rows := []Row{{Cell: 0, Input: "a", Policy: "late"}, {Cell: 1, Input: "a", Policy: "none", Params: "x=1"}}
	for _, format := range []string{"csv", "json", "table"} {
		for _, n := range []int{0, 1, 2} {
			var whole, streamed strings.Builder
			if err := Write(&whole, format, rows[:n]); err != nil {
				t.Fatal(err)
			}
			s, err := NewStream(&streamed, format)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rows[:n] {
				s.Write(r)
			}
			s.Close()
			if whole.String() != streamed.String() {
				t.Errorf("%s, %d rows: streamed %q, whole %q", format, n, streamed.String(), whole.String())
			}
		}
	}
}

// A cell line sets the cluster size past the command line's checks: a
// size that would exhaust memory building the cluster is an error naming
// the cell (it was an out-of-memory crash).
func TestCellClusterSizeBounded(t *testing.T) {
	for _, size := range []Setup{{Nodes: 2_000_000_000}, {Nodes: 2, Slots: 2_000_000_000}, {Nodes: -5}} {
		c := Cell{Input: "../data/jhist/job_2.4.0-FAILED.jhist", Policy: "none", Seed: 1, Setup: size}
		c.Stragglers = StragglersOf(replay.DefaultStragglerModel())
		if _, err := RunCell(c, Runner{Registry: registry}); err == nil || !strings.Contains(err.Error(), "cell 0") || !strings.Contains(err.Error(), "want at most") {
			t.Errorf("nodes %d slots %d: error %v", size.Nodes, size.Slots, err)
		}
	}
}
