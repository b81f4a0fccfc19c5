package cfa

import (
	"context"
	"net/http"
	"testing"

	"github.com/specbridge/specbridge/cfa/analyzer"
	"github.com/specbridge/specbridge/speculators"
)

// Over the HTTP API a job is alive while a remote sidecar long-polls its
// notices, and for the 10 s lease after a poll: J1, polled every 5 s, is
// silent on n1, which is suspected and failed; J2, polled once at 0 s (its
// sidecar then gone), is silent on n2 too, but n2 is never judged.
func TestLongPollsKeepAJobAlive(t *testing.T) {
	s, srv, clock := apiService(t)
	poll := func(job string) {
		t.Helper()
		resp, err := http.Get(srv.URL + "/v1/jobs/" + job + "/notices?after=0&wait=0s")
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("poll %s: HTTP %d", job, resp.StatusCode)
		}
	}
	m0 := attempt(speculators.Map, 0, 0)
	s.Observe("job_1_0001", *started(m0, "n1", 0))
	s.Observe("job_1_0002", *started(m0, "n2", 0))
	s.Observe("job_1_0001", *status(m0, 0)) // each reports once, then is silent
	s.Observe("job_1_0002", *status(m0, 0))
	poll("job_1_0002")
	for sec := analyzer.Time(0); sec <= 60; sec += 5 {
		clock.set(sec * 1000)
		poll("job_1_0001")
		if err := s.Tick(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	s.View(func(st *analyzer.State, _ func(speculators.NodeID) analyzer.Time) {
		if nr := st.Nodes["n1"]; nr == nil || nr.Open == nil || nr.Open.Suspected != atSec(10) || nr.Open.Failed != atSec(15) {
			t.Errorf("n1 (J1 polled, silent): %+v, want suspected at 10 s and failed at 15 s", nr)
		}
		if nr := st.Nodes["n2"]; nr != nil && (nr.Open != nil || len(nr.Episodes) != 0) {
			t.Errorf("n2 (J2's sidecar gone): %+v, want no episode", nr)
		}
	})
}

// base10 is second sec of the scenario clock, in ms.
func atSec(sec analyzer.Time) analyzer.Time { return base + sec*1000 }
