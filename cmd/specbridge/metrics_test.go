package main

import (
	"encoding/json"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// bridgeMetrics are the sidecar's own series an operator watches; each must
// be listed (with a zero value) by a fresh serve, before any AM connects.
// The Grafana dashboard (deploy/grafana-dashboard.json) queries only names
// from these lists.
var bridgeMetrics = []string{
	`specbridge_bridge_sessions`,
	`specbridge_bridge_sessions_opened_total{result="accepted"}`,
	`specbridge_bridge_events_total`,
	`specbridge_bridge_events_rejected_total`,
	`specbridge_bridge_decisions_total{kind="speculate",policy="late"}`,
	`specbridge_bridge_decisions_total{kind="drop",policy="grass"}`,
	`specbridge_bridge_acks_total{result="applied"}`,
	`specbridge_bridge_acks_total{result="refused"}`,
	`specbridge_bridge_decide_seconds_count`,
	`specbridge_bridge_batch_to_decision_seconds_count`,
	`specbridge_bridge_policy_fallbacks_total{reason="bad-parameter"}`,
	`specbridge_bridge_policy_fallbacks_total{reason="unknown-speculator"}`,
	`specbridge_bridge_rejected_parameters_total{policy="late"}`,
	`specbridge_bridge_jobs_ended_total{state="SUCCEEDED"}`,
	`specbridge_bridge_jobs_ended_total{state="FAILED"}`,
	`specbridge_bridge_jobs_ended_total{state="KILLED"}`,
}

// cfaMetrics are the fault analyzer's series: listed by a fresh serve (the
// embedded analyzer) and by a fresh `specbridge cfa`.
var cfaMetrics = []string{
	`specbridge_cfa_nodes{state="healthy"}`,
	`specbridge_cfa_nodes{state="suspected"}`,
	`specbridge_cfa_nodes{state="failed"}`,
	`specbridge_cfa_episodes{status="closed"}`,
	`specbridge_cfa_episodes{status="open"}`,
	`specbridge_cfa_threshold_seconds{stat="max"}`,
	`specbridge_cfa_detection_seconds_count{verdict="suspected"}`,
	`specbridge_cfa_detection_seconds_count{verdict="failed"}`,
	`specbridge_cfa_store_writes_total`,
	`specbridge_cfa_store_records_written_total`,
	`specbridge_cfa_store_write_failures_total`,
	`specbridge_cfa_store_pending_records`,
	`specbridge_cfa_store_degraded`,
	`specbridge_cfa_jobs_running`,
}

var sampleLine = regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)`)

// scrape reads url and returns every sample, keyed by name{labels} with
// the labels sorted as the exposition writes them.
func scrape(t *testing.T, url string) map[string]float64 {
	t.Helper()
	code, body := get(t, url, "")
	if code != 200 {
		t.Fatalf("GET %s: %d", url, code)
	}
	out := map[string]float64{}
	for _, line := range strings.Split(body, "\n") {
		m := sampleLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		v, err := strconv.ParseFloat(m[3], 64)
		if err != nil {
			t.Fatalf("%s: bad value in %q", url, line)
		}
		out[m[1]+m[2]] = v
	}
	return out
}

// requireBuildInfo checks the build-information gauge: 1, labelled with
// the version --version prints and the Go release.
func requireBuildInfo(t *testing.T, where string, got map[string]float64) {
	t.Helper()
	k := `specbridge_build_info{goversion="` + runtime.Version() + `",version="` + buildVersion() + `"}`
	if got[k] != 1 {
		t.Errorf("%s: %s = %v, want 1", where, k, got[k])
	}
}

func requireZeroSeries(t *testing.T, where string, got map[string]float64, want []string) {
	t.Helper()
	for _, w := range want {
		v, ok := got[w]
		if !ok {
			t.Errorf("%s: %s not listed", where, w)
		} else if v != 0 {
			t.Errorf("%s: %s = %v before any AM connected, want 0", where, w, v)
		}
	}
}

// A fresh serve lists every bridge and analyzer metric with a zero value
// before any AM connects; a hello with an unknown parameter is then counted
// and logged with its job id.
func TestFreshServeListsEveryMetric(t *testing.T) {
	hook := logHook(t)
	runServeFor(t, nil, func(url string) {
		base := httpBase(url)
		got := scrape(t, base+"/metrics")
		requireZeroSeries(t, "serve", got, append(append([]string{}, bridgeMetrics...), cfaMetrics...))
		requireBuildInfo(t, "serve", got)

		job := "job_1700000000000_0042"
		if f := sayHello(t, dialAM(t, url), serveTestToken, job, map[string]any{"speculator": "late",
			"params": map[string]string{"no-such-parameter": "1"}, "maps": 1}); f.Code != "bad-parameter" {
			t.Fatalf("hello with an unknown parameter answered %+v", f)
		}
		got = scrape(t, base+"/metrics")
		for _, k := range []string{`specbridge_bridge_rejected_parameters_total{policy="late"}`,
			`specbridge_bridge_policy_fallbacks_total{reason="bad-parameter"}`} {
			if got[k] != 1 {
				t.Errorf("after one rejected parameter %s = %v, want 1", k, got[k])
			}
		}
		logged := false
		for _, e := range hook.AllEntries() {
			if e.Data["job"] == job && e.Data["code"] == "bad-parameter" && strings.Contains(e.Data["reason"].(string), "no-such-parameter") {
				logged = true
			}
		}
		if !logged {
			t.Errorf("no log entry names job %s and the rejected parameter", job)
		}
	})
}

// A fresh standalone analyzer serves /healthz and lists its metrics with
// zero values, without a token.
func TestFreshCFAListsEveryMetric(t *testing.T) {
	err := runCFAFor(t, []string{"--store", t.TempDir()}, func(base string) {
		if code, _ := get(t, base+"/healthz", ""); code != 200 {
			t.Errorf("/healthz: %d", code)
		}
		got := scrape(t, base+"/metrics")
		requireZeroSeries(t, "cfa", got, cfaMetrics)
		requireBuildInfo(t, "cfa", got)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Every metric the Grafana dashboard queries is one a fresh serve lists.
func TestGrafanaDashboardQueriesExistingMetrics(t *testing.T) {
	raw, err := os.ReadFile("../../deploy/grafana-dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Panels []struct {
			Title   string
			Targets []struct{ Expr string }
		}
	}
	if err := json.Unmarshal(raw, &dash); err != nil {
		t.Fatalf("deploy/grafana-dashboard.json: %v", err)
	}
	runServeFor(t, nil, func(url string) {
		got := scrape(t, "http://"+strings.TrimSuffix(strings.TrimPrefix(url, "ws://"), "/v1/am")+"/metrics")
		names := map[string]bool{}
		for k := range got {
			names[strings.SplitN(k, "{", 2)[0]] = true
		}
		queried := 0
		for _, p := range dash.Panels {
			if len(p.Targets) == 0 {
				t.Errorf("panel %q has no query", p.Title)
			}
			for _, tg := range p.Targets {
				for _, name := range regexp.MustCompile(`specbridge_[a-z_]+`).FindAllString(tg.Expr, -1) {
					queried++
					if !names[name] {
						t.Errorf("panel %q queries %s, which serve does not list", p.Title, name)
					}
				}
			}
		}
		if queried < len(bridgeMetrics) {
			t.Errorf("the dashboard queries only %d metrics", queried)
		}
	})
}
