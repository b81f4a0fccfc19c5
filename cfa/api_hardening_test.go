package cfa

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/cfa/analyzer"
	"github.com/specbridge/specbridge/speculators"
)

// call sends one request to srv and returns the status and body.
func call(t *testing.T, srv *httptest.Server, method, path, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// An events body must be one JSON array and nothing more: null, an
// object, or an array followed by other data is a 400 naming the
// problem, not a 204 for no events.
func TestAPIRefusesBadEventBodies(t *testing.T) {
	s := mustService(t, ServiceConfig{Analyzer: testConfig()})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	for _, c := range []struct{ body, want string }{
		{`null`, "got null"},
		{`[] garbage`, "data after the array"},
		{`[][]`, "data after the array"},
		{`[{"kind":"attempt-started","time":1,"attempt":"m_000000_0","node":"h"}] {}`, "data after the array"},
		{`{}`, "cannot unmarshal"},
		{``, "EOF"},
	} {
		code, body := call(t, srv, "POST", "/v1/jobs/job_1_0001/events", c.body)
		if code != http.StatusBadRequest || !strings.Contains(body, c.want) {
			t.Errorf("body %q: HTTP %d %q, want 400 naming %q", c.body, code, body, c.want)
		}
	}
	if code, body := call(t, srv, "POST", "/v1/jobs/job_1_0001/events", " [] \n"); code != http.StatusNoContent {
		t.Errorf("an empty array: HTTP %d %s", code, body)
	}
}

// The {job} of every API path is a Hadoop job id of bounded length: a
// 200 KB name or a made-up one is a 400 naming it, and nothing reaches the
// store.
func TestAPIChecksJobID(t *testing.T) {
	store := t.TempDir()
	s := mustService(t, ServiceConfig{Analyzer: testConfig(), Store: store})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	huge := "job_1_" + strings.Repeat("7", 200<<10)
	ev := `[{"kind":"attempt-started","time":1,"attempt":"m_000000_0","node":"h"}]`
	for _, job := range []string{huge, "J1", "job_1", "job_x_1", "job_1_2_3", "job__1"} {
		for _, r := range []struct{ method, path, body string }{
			{"POST", "/v1/jobs/" + job + "/events", ev},
			{"POST", "/v1/jobs/" + job + "/end", ""},
			{"GET", "/v1/jobs/" + job + "/notices?wait=0s", ""},
			{"GET", "/v1/jobs/" + job, ""},
		} {
			code, body := call(t, srv, r.method, r.path, r.body)
			if code != http.StatusBadRequest || !strings.Contains(body, "job id") || len(body) > 300 {
				t.Errorf("%s %.40s...: HTTP %d %.300q, want a short 400 naming the job id", r.method, r.path, code, body)
			}
		}
	}
	segs, _ := filepath.Glob(filepath.Join(store, segmentPrefix+"*"))
	for _, seg := range segs {
		if fi, err := os.Stat(seg); err == nil && fi.Size() > 0 {
			t.Errorf("refused posts wrote %d bytes to %s", fi.Size(), seg)
		}
	}
	if code, body := call(t, srv, "POST", "/v1/jobs/job_1700000000000_0001/events", ev); code != http.StatusNoContent {
		t.Errorf("a good job id: HTTP %d %s", code, body)
	}
}

// Notice polls for many distinct names of jobs the analyzer has no record
// of keep nothing once they end (no mailbox, no session); a known job's
// mailbox and notices stay.
func TestNoticePollsOfUnknownJobsKeepNothing(t *testing.T) {
	s, srv, _ := apiService(t)
	s.Observe("job_1_0001", *started(attempt(speculators.Map, 0, 0), "n1", 0))
	for i := 0; i < 3000; i++ {
		if code, body := call(t, srv, "GET", fmt.Sprintf("/v1/jobs/job_2_%d/notices?wait=0s", i), ""); code != http.StatusOK {
			t.Fatalf("poll %d: HTTP %d %s", i, code, body)
		}
	}
	if code, _ := call(t, srv, "GET", "/v1/jobs/job_1_0001/notices?wait=0s", ""); code != http.StatusOK {
		t.Fatal("poll of the known job")
	}
	var sessions int
	s.View(func(*analyzer.State, func(speculators.NodeID) analyzer.Time) { sessions = s.an.Sessions() })
	if n := s.boxes.count(); n > 1 || sessions > 1 {
		t.Fatalf("after 3,000 polls of unknown jobs: %d mailboxes, %d sessions kept (want at most the known job's)", n, sessions)
	}
}

// A snapshot that fails (a full disk, part of its temporary file written)
// leaves no temporary file, and the records committed before it are not
// written again: after a later snapshot succeeds, every record is in the
// log once and the store reloads to the same state.
func TestFailedSnapshotLeavesNoTempNoDuplicates(t *testing.T) {
	dir := t.TempDir()
	fd := &faultDir{Dir: LocalDir(dir), partialTemps: true}
	full := false
	fd.plan = func(op, name string, n int) (int, error) {
		if full && op == "write" {
			return n / 2, enospc
		}
		return n, nil
	}
	clock := &fakeClock{}
	clock.set(0)
	s := mustService(t, ServiceConfig{Analyzer: testConfig(), Dir: fd, Now: clock.Now})
	s.store.SnapshotEvery = 1
	s.Observe("job_1_0001", *started(attempt(speculators.Map, 0, 0), "n1", 0))
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	full = true
	s.Observe("job_1_0001", *started(attempt(speculators.Map, 1, 0), "n2", 1))
	if err := s.Flush(); err != nil {
		t.Fatalf("records committed, snapshot failed: Flush %v, want nil (the records are durable)", err)
	}
	names, _ := LocalDir(dir).Names()
	for _, n := range names {
		if isTemp(n) {
			t.Errorf("failed snapshot left %s", n)
		}
	}
	full = false
	s.Observe("job_1_0001", *started(attempt(speculators.Map, 2, 0), "n3", 2))
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	want := stateJSON(t, s)
	seen := map[uint64]int{}
	segs, _ := filepath.Glob(filepath.Join(dir, segmentPrefix+"*"))
	for _, p := range segs {
		n, _ := segmentNumber(filepath.Base(p))
		f, err := readSegment(LocalDir(dir), n)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range f.recs {
			seen[r.Seq]++
		}
	}
	for seq, k := range seen {
		if k > 1 {
			t.Errorf("record %d written %d times", seq, k)
		}
	}
	crash(s)
	if got, rep := loadJSON(t, dir); got != want || rep.Problems() > 0 {
		t.Fatalf("reload: state differs or problems %+v", rep)
	}
}
