package cfa

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/specbridge/specbridge/cfa/analyzer"
	"github.com/specbridge/specbridge/internal/tokens"
	"github.com/specbridge/specbridge/speculators"
)

func TestWireRoundTrip(t *testing.T) {
	for _, ev := range []speculators.Event{
		{Kind: speculators.AttemptStarted, Time: 5, Attempt: attempt(speculators.Reduce, 12, 3), Node: "h", Container: "c", Speculative: true},
		{Kind: speculators.AttemptSucceeded, Time: 6, Attempt: attempt(speculators.Map, 0, 0)},
		{Kind: speculators.NodeFailed, Time: 7, Node: "h"},
	} {
		back, err := FromWire(ToWire(ev))
		if err != nil || !reflect.DeepEqual(back, ev) {
			t.Errorf("%+v -> %+v, %v", ev, back, err)
		}
	}
	for _, bad := range []WireEvent{{Kind: "nope"}, {Kind: "attempt-started", Attempt: "x_1_2"}, {Kind: "attempt-started", Attempt: "m_1"}} {
		if _, err := FromWire(bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// A sidecar's Remote feeds a standalone analyzer over HTTP and hears the
// node events of its job, in order, through long polls.
func TestRemoteOverHTTP(t *testing.T) {
	clock := &fakeClock{}
	clock.set(0)
	s := mustService(t, ServiceConfig{Analyzer: testConfig(), Now: clock.Now})
	h, err := RequireToken(s.Handler(), mustTokens(t, "sesame"), nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewTLSServer(h)
	defer srv.Close()
	errs := make(chan error, 100)
	tlsCfg := srv.Client().Transport.(*http.Transport).TLSClientConfig
	r, err := NewRemote(srv.URL, 10*time.Millisecond, func(err error) { errs <- err }, WithToken("sesame"), WithTLS(tlsCfg))
	if err != nil {
		t.Fatal(err)
	}
	heard := make(chan speculators.Event, 10)
	cancel := r.Subscribe("job_1_0001", func(ev speculators.Event) { heard <- ev })
	defer cancel()
	m0 := attempt(speculators.Map, 0, 0)
	r.Observe("job_1_0001", *started(m0, "n1", 0))
	r.Observe("job_1_0001", *status(m0, 0))
	if err := r.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	for sec := analyzer.Time(5); sec <= 20; sec += 5 { // n1 never reports again: suspected at 10 s, failed at 15 s
		clock.set(sec * 1000)
		if err := s.Tick(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	deadline := time.After(10 * time.Second)
	for len(got) < 2 {
		select {
		case ev := <-heard:
			got = append(got, ev.Kind.String()+" "+string(ev.Node))
		case err := <-errs:
			t.Fatalf("remote: %v", err)
		case <-deadline:
			t.Fatalf("notices so far %v", got)
		}
	}
	if want := []string{"node-suspected n1", "node-failed n1"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("heard %v, want %v", got, want)
	}
	get := func(u string) (*http.Response, error) {
		req, _ := http.NewRequest("GET", u, nil)
		req.Header.Set("Authorization", "Bearer sesame")
		return srv.Client().Do(req)
	}
	resp, err := get(srv.URL + "/v1/jobs/job_1_0001")
	if err != nil {
		t.Fatal(err)
	}
	var job struct {
		Job analyzer.JobRecord `json:"job"`
	}
	err = json.NewDecoder(resp.Body).Decode(&job)
	resp.Body.Close()
	if err != nil || job.Job.Attempts["m_000000_0"] == nil || job.Job.Attempts["m_000000_0"].Node != "n1" {
		t.Fatalf("job record %+v, %v", job, err)
	}
	resp, err = get(srv.URL + "/v1/nodes")
	if err != nil {
		t.Fatal(err)
	}
	var nodes map[string]struct {
		Open      *analyzer.Episode `json:"open"`
		Threshold analyzer.Time     `json:"threshold"`
	}
	err = json.NewDecoder(resp.Body).Decode(&nodes)
	resp.Body.Close()
	if err != nil || nodes["n1"].Open == nil || nodes["n1"].Threshold != 10_000 {
		t.Fatalf("nodes %+v, %v", nodes, err)
	}
	r.EndJob("job_1_0001")
	s.View(func(st *analyzer.State, _ func(speculators.NodeID) analyzer.Time) {
		if st.Jobs["job_1_0001"].Ended == 0 {
			t.Error("EndJob over HTTP did not end the job")
		}
	})
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	// A malformed post is refused with a reason.
	req, _ := http.NewRequest("POST", srv.URL+"/v1/jobs/job_1_0009/events", strings.NewReader(`[{"kind":"bogus"}]`))
	req.Header.Set("Authorization", "Bearer sesame")
	resp, err = srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("bogus event: HTTP %d", resp.StatusCode)
	}
}

// The REST prober reads the RM's node list and asks each RUNNING NM.
func TestRESTProber(t *testing.T) {
	nmUp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"nodeInfo":{"nodeHealthy":true,"nmStartupTime":42,"id":"a:1","nodeHostName":"a"}}`)
	}))
	defer nmUp.Close()
	nmDown := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer nmDown.Close()
	rm := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.URL.RawQuery, "LOST") {
			t.Errorf("node list asked without every state: %s", r.URL.RawQuery)
		}
		fmt.Fprintf(w, `{"nodes":{"node":[
			{"id":"a:1","nodeHostName":"a","state":"RUNNING","nodeHTTPAddress":%q},
			{"id":"b:1","nodeHostName":"b","state":"RUNNING","nodeHTTPAddress":%q},
			{"id":"c:1","nodeHostName":"c","state":"LOST","nodeHTTPAddress":"c:1"}]}}`,
			strings.TrimPrefix(nmUp.URL, "http://"), strings.TrimPrefix(nmDown.URL, "http://"))
	}))
	defer rm.Close()
	p, err := NewRESTProber(rm.URL, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Probe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// Keyed host:port by default, as the shim names attempts' nodes.
	want := []analyzer.NodeProbe{{Node: "a:1", NM: "a:1", OK: true, StartedAt: 42}, {Node: "b:1", NM: "b:1"}, {Node: "c:1", NM: "c:1", Lost: true}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("probes %+v, want %+v", got, want)
	}
	p.Key = NodeKeyHost
	if got, err = p.Probe(context.Background()); err != nil {
		t.Fatal(err)
	}
	want = []analyzer.NodeProbe{{Node: "a", NM: "a:1", OK: true, StartedAt: 42}, {Node: "b", NM: "b:1"}, {Node: "c", NM: "c:1", Lost: true}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("probes keyed by host %+v, want %+v", got, want)
	}
	rm.Close()
	if _, err := p.Probe(context.Background()); err == nil || !strings.Contains(err.Error(), rm.URL) {
		t.Errorf("RM down: %v", err)
	}
}

// Every request but /healthz and /metrics needs the bearer token: without
// it, 401 and nothing reaches the analyzer (one request could otherwise
// declare nodes failed); an address that keeps failing gets 429.
func TestAPIRequiresToken(t *testing.T) {
	s := mustService(t, ServiceConfig{Analyzer: testConfig()})
	h, err := RequireToken(s.Handler(), mustTokens(t, "sesame"), nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	do := func(method, path, auth string) int {
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(`[{"kind":"attempt-started","time":1,"attempt":"m_000000_0","node":"n1"}]`))
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, c := range []struct {
		method, path, auth string
		want               int
	}{
		{"GET", "/healthz", "", 200},
		{"GET", "/metrics", "", 200},
		{"POST", "/v1/jobs/job_1_0001/events", "", 401},
		{"POST", "/v1/jobs/job_1_0001/events", "Bearer wrong", 401},
		{"POST", "/v1/jobs/job_1_0001/events", "sesame", 401},
		{"GET", "/v1/nodes", "", 401},
		{"POST", "/v1/jobs/job_1_0001/end", "Bearer nope", 401},
		{"POST", "/v1/jobs/job_1_0001/events", "Bearer sesame", 204},
		{"GET", "/v1/nodes", "Bearer sesame", 200},
	} {
		if got := do(c.method, c.path, c.auth); got != c.want {
			t.Errorf("%s %s with %q: HTTP %d, want %d", c.method, c.path, c.auth, got, c.want)
		}
	}
	s.View(func(st *analyzer.State, _ func(speculators.NodeID) analyzer.Time) {
		if len(st.Jobs) != 1 {
			t.Errorf("jobs %v: only the authenticated post may count", st.Jobs)
		}
	})
	for i := 0; i < 20; i++ {
		do("GET", "/v1/nodes", "Bearer guess")
	}
	if got := do("GET", "/v1/nodes", "Bearer guess"); got != http.StatusTooManyRequests {
		t.Errorf("after a flood of failures: HTTP %d, want 429", got)
	}
	if _, err := RequireToken(s.Handler(), nil, nil); err == nil {
		t.Error("no token accepted")
	}
}

func mustTokens(t *testing.T, list ...string) *tokens.Set {
	t.Helper()
	set, err := tokens.New(list)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// A malformed after or wait of a notices poll is a 400 naming it: read as
// 0 it handed the client every notice again, or ended the poll at once.
func TestNoticesQueryChecked(t *testing.T) {
	s := mustService(t, ServiceConfig{Analyzer: testConfig()})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	for _, c := range []struct {
		query string
		code  int
		want  string
	}{
		{"after=-5", 400, `after "-5"`},
		{"after=soon", 400, `after "soon"`},
		{"wait=zzz", 400, `wait "zzz"`},
		{"wait=-1s", 400, `wait "-1s"`},
		{"after=0&wait=0s", 200, `"notices":[]`},
		{"", 200, `"notices":[]`},
	} {
		resp, err := http.Get(srv.URL + "/v1/jobs/job_1_0001/notices?" + c.query)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.code || !strings.Contains(string(body), c.want) {
			t.Errorf("?%s: HTTP %d %q, want %d with %q", c.query, resp.StatusCode, body, c.code, c.want)
		}
	}
}

// An events post with a time out of range or an event missing its attempt
// or node is a 400 naming the event, and nothing of it is applied (a post
// refused halfway would be retried whole, its first events twice).
func TestEventsPostChecked(t *testing.T) {
	s := mustService(t, ServiceConfig{Analyzer: testConfig()})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	good := `{"kind":"attempt-started","time":1,"attempt":"m_000000_0","node":"n1"}`
	for _, c := range []struct{ body, want string }{
		{`[` + good + `,{"kind":"attempt-started","time":-5,"attempt":"m_000001_0","node":"n1"}]`, "event 1: attempt-started: time -5 out of range"},
		{`[` + good + `,{"kind":"attempt-status","time":9223372036854775807,"attempt":"m_000000_0"}]`, "event 1: attempt-status: time 9223372036854775807 out of range"},
		{`[` + good + `,{"kind":"attempt-succeeded","time":5}]`, "event 1: attempt-succeeded without an attempt"},
		{`[` + good + `,{"kind":"node-failed","time":5}]`, "event 1: node-failed without a node"},
	} {
		resp, err := http.Post(srv.URL+"/v1/jobs/job_1_0001/events", "application/json", strings.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 400 || !strings.Contains(string(body), c.want) {
			t.Errorf("%s: HTTP %d %q, want 400 with %q", c.body, resp.StatusCode, body, c.want)
		}
	}
	s.View(func(st *analyzer.State, _ func(speculators.NodeID) analyzer.Time) {
		if len(st.Jobs) != 0 {
			t.Errorf("jobs %v: a refused post applied its good events", st.Jobs)
		}
	})
}

// apiService opens a service in memory on a fake clock at 0, with the
// tests' analyzer configuration, and serves its API (no token) until the
// test ends.
func apiService(t *testing.T) (*Service, *httptest.Server, *fakeClock) {
	t.Helper()
	clock := &fakeClock{}
	clock.set(0)
	s := mustService(t, ServiceConfig{Analyzer: testConfig(), Now: clock.Now})
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return s, srv, clock
}
