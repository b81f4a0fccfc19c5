package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// On grass-exact.yaml with every policy, the policies that cannot act on
// it say why (no deadline, no node failure), the JSON carries what was run
// and the verdict with the spread over seeds, the table says the same in
// fewer lines than a row per group and policy took, and the HTML report
// shows the notes and the time-cost chart.
func TestReportExplainsItself(t *testing.T) {
	in := "../../scenarios/grass-exact.yaml"
	page := filepath.Join(t.TempDir(), "report.html")
	out, stderr, code := run(t, "replay", "-q", "--runs", "2", "--output", "json", "--report", page, "--param", "late.speculative-cap=0.1", in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		Results []struct {
			Speculator string          `json:"speculator"`
			Note       string          `json:"note"`
			Spread     *map[string]any `json:"spread"`
		} `json:"results"`
		Provenance *struct {
			Command, Version, Seeds, Date string
			Params                        []string
		} `json:"provenance"`
		Verdict *struct {
			BestOnTime         struct{ Policy string }   `json:"best_on_time"`
			BestAtBaselineCost *struct{ Policy string }  `json:"best_at_baseline_cost"`
			Front              []struct{ Policy string } `json:"front"`
			Summary            []string                  `json:"summary"`
		} `json:"verdict"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	why := map[string]string{"srquant": "no job has a deadline", "laser": "no job has a deadline", "farms": "no node failed", "tws": "no node failed"}
	for _, r := range rep.Results {
		if w, ok := why[r.Speculator]; ok && !strings.Contains(r.Note, w) {
			t.Errorf("%s: note %q, want one saying %q", r.Speculator, r.Note, w)
		}
		if (r.Speculator == "hadoop" || r.Speculator == "grass") && r.Note != "" {
			t.Errorf("%s acted, yet has the note %q", r.Speculator, r.Note)
		}
		if r.Spread == nil {
			t.Errorf("%s: no spread over the 2 seeds", r.Speculator)
		}
	}
	p := rep.Provenance
	if p == nil || !strings.HasPrefix(p.Command, "specbridge replay --runs 2 --output json --report ") || len(p.Params) != 1 || p.Params[0] != "late.speculative-cap=0.1" ||
		p.Seeds != "1 to 2" || p.Date != "2023-11-14" || p.Version == "" {
		t.Errorf("provenance %+v", p)
	}
	v := rep.Verdict
	if v == nil || v.BestOnTime.Policy == "" || v.BestAtBaselineCost == nil || len(v.Front) == 0 || len(v.Summary) < 3 {
		t.Fatalf("verdict %+v", v)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`id="chart-timecost"`, `id="note-srquant"`, `id="note-farms"`, "no node failed", `id="provenance"`, "late.speculative-cap=0.1", "Time against cost"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("the report lacks %q", want)
		}
	}

	table, _, _ := run(t, "replay", "-q", "--runs", "2", in)
	for _, want := range []string{"\nrun: specbridge replay --runs 2 ", "\nnotes (policies that could not act on this input):\n  farms: no node failed",
		"\nverdict (time against cost):\n  Best on mean job time: ", "over seeds", "no copy counts as a wrong speculation"} {
		if !strings.Contains(table, want) {
			t.Errorf("the table lacks %q", want)
		}
	}
	if n := strings.Count(table, "\n"); n > 100 {
		t.Errorf("%d lines of table for 16 policies", n)
	}
}

// SOURCE_DATE_EPOCH sets the provenance's date, --no-date leaves it out
// (byte-identical output on any day), and a bad epoch is a usage error.
func TestProvenanceDate(t *testing.T) {
	in := "../../scenarios/late-sleep-sensitivity.yaml"
	out, _, _ := run(t, "replay", "-q", "--speculators", "none", "--no-date", "--output", "json", in)
	if strings.Contains(out, `"date"`) || !strings.Contains(out, `"provenance"`) {
		t.Errorf("--no-date: %s", out)
	}
	cmd := func(epoch string) (string, string, int) {
		t.Setenv("SOURCE_DATE_EPOCH", epoch)
		return run(t, "replay", "-q", "--speculators", "none", "--output", "json", in)
	}
	if out, _, _ := cmd("0"); !strings.Contains(out, `"date": "1970-01-01"`) {
		t.Errorf("SOURCE_DATE_EPOCH=0: %s", out)
	}
	if _, stderr, code := cmd("yesterday"); code != 2 || !strings.Contains(stderr, "SOURCE_DATE_EPOCH") {
		t.Errorf("a bad epoch: exit %d, %q", code, stderr)
	}
}

// Per-group tables are one row per policy: the PoCD sweep of six deadline
// groups prints 143 lines where a row per group and policy printed 388.
func TestGroupTablesAreWide(t *testing.T) {
	out, stderr, code := run(t, "replay", "-q", "../../scenarios/laser-pocd.yaml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := strings.Count(out, "\n"); n > 160 {
		t.Errorf("%d lines", n)
	}
	for _, want := range []string{"\nPoCD by job group (container s in brackets):\n     speculator  d250 (100 jobs)", "\nmean job time by job group, s (p95 in brackets):\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q", want)
		}
	}
}
