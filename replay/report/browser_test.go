package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/specbridge/specbridge/internal/browsertest"
	"github.com/specbridge/specbridge/replay"
	"github.com/specbridge/specbridge/speculators/all/alltest"
)

// collect replays a bundled scenario and returns the collector and results.
func collect(t *testing.T, path string, policies []string, runs int) (*Collector, []replay.Result) {
	t.Helper()
	in, err := replay.Load(path, replay.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	reg := alltest.Registry(t)
	col := NewCollector(path, string(in.Format), policies, 1, runs)
	opts := replay.Options{Speculators: policies, Seed: 1, Runs: runs, Registry: reg, RunningSamples: 100, Observe: col.Observe}
	res, err := replay.Simulate(replay.WorkloadOf(in, opts.Cluster), opts)
	if err != nil {
		t.Fatal(err)
	}
	return col, res
}

// The report opens in a real headless Chromium: every chart is an image the
// browser decoded, nothing is fetched from the network, and the console
// shows no error.
func TestReportRendersInChromium(t *testing.T) {
	browsertest.Chromium(t) // skip (or fail in CI) before any work
	col, res := collect(t, "../../scenarios/farms-overall.yaml", []string{"hadoop", "late", "farms", "srquant"}, 2)
	col.Provenance = &replay.Provenance{Command: "specbridge replay --runs 2 --param late.speculative-cap=0.2 farms-overall.yaml",
		Params: []string{"late.speculative-cap=0.2"}, Version: "v9.9.9", Seeds: "1 to 2", Date: "2026-11-28"}
	page := filepath.Join(t.TempDir(), "report.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := col.WriteHTML(f, res); err != nil {
		t.Fatal(err)
	}
	f.Close()

	ctx := browsertest.Context(t, 90*time.Second)
	problems := browsertest.WatchOffline(t, ctx)
	type chart struct {
		ID     string `json:"id"`
		OK     bool   `json:"ok"`
		Width  int    `json:"width"`
		Height int    `json:"height"`
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page), chromedp.WaitReady(chromedp.CSS("#verdict"))); err != nil {
		t.Fatalf("chromium: open the report: %v", err)
	}
	charts, err := chromedp.Run(ctx, chromedp.Evaluate[[]chart](`Promise.all(Array.from(document.querySelectorAll("img.chart")).map(i =>
		i.decode().then(() => true, () => false).then(ok => ({
			id: i.closest("figure").id, ok: ok && i.complete && i.naturalWidth > 0, width: i.naturalWidth, height: i.naturalHeight}))))`,
		chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("chromium: read the charts: %v", err)
	}
	verdict, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#verdict")))
	if err != nil {
		t.Fatalf("chromium: read the verdict: %v", err)
	}
	want := []string{"chart-timecost", "chart-cdf", "chart-metric", "chart-groups", "chart-copies", "chart-waste", "chart-running"}
	if len(charts) != len(want) {
		t.Fatalf("%d charts on the page, want %d: %+v", len(charts), len(want), charts)
	}
	for i, c := range charts {
		if c.ID != want[i] || !c.OK || c.Width < 300 || c.Height < 150 {
			t.Errorf("chart %d: %+v, want %s decoded at a readable size", i, c, want[i])
		}
	}
	if !strings.Contains(verdict, "Best on this input") || !strings.Contains(verdict, "Against hadoop") ||
		!strings.Contains(verdict, "Time against cost") || !strings.Contains(verdict, "Best at no more than hadoop's container time") ||
		!strings.Contains(verdict, "Not beaten on both time and cost by any other policy") {
		t.Errorf("verdict as the browser shows it: %q", verdict)
	}
	// What was run opens the page; a policy that could not act says why,
	// and its table row points there.
	prov, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#provenance")))
	if err != nil {
		t.Fatalf("chromium: read the provenance: %v", err)
	}
	for _, want := range []string{"specbridge replay --runs 2 --param late.speculative-cap=0.2", "changed: late.speculative-cap=0.2", "specbridge v9.9.9", "1 to 2", "2026-11-28"} {
		if !strings.Contains(prov, want) {
			t.Errorf("provenance as the browser shows it lacks %q: %q", want, prov)
		}
	}
	notes, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#note-srquant")))
	if err != nil {
		t.Fatalf("chromium: read the notes: %v", err)
	}
	if !strings.Contains(notes, "no job has a deadline") {
		t.Errorf("srquant's note: %q", notes)
	}
	firstTop, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.querySelector("#provenance").getBoundingClientRect().top - document.querySelector("#verdict").getBoundingClientRect().top`))
	if err != nil || firstTop >= 0 {
		t.Errorf("the provenance is not above the verdict (%v, %v)", firstTop, err)
	}
	problems.Check(t)
}
