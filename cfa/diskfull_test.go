package cfa

import (
	"context"
	"errors"
	"github.com/specbridge/specbridge/cfa/analyzer"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/specbridge/specbridge/speculators"
)

// value reads a gauge or a counter.
func value(m prometheus.Metric) float64 {
	var d dto.Metric
	if err := m.Write(&d); err != nil {
		return -1
	}
	if d.Gauge != nil {
		return d.Gauge.GetValue()
	}
	return d.Counter.GetValue()
}

// waitFor polls cond (a condition another goroutine makes true) for up to
// 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// A full disk: records wait in a bounded queue, then the sender is held
// back (not dropped, not grown); /healthz's Health says degraded, the
// metric says so, the log says it once for the whole episode, naming the
// store; once space returns everything is committed by itself and every
// acknowledged record reloads.
func TestServiceDiskFull(t *testing.T) {
	dir := t.TempDir()
	var full atomic.Bool
	fd := &faultDir{Dir: LocalDir(dir)}
	fd.plan = func(op, name string, n int) (int, error) {
		if full.Load() {
			return n / 2, enospc
		}
		return n, nil
	}
	log, hook := logtest.NewNullLogger()
	clock := &fakeClock{}
	clock.set(0)
	s := mustService(t, ServiceConfig{Analyzer: testConfig(), Dir: fd, Now: clock.Now, MaxPending: 50, Log: log})
	s.store.SnapshotEvery = 0
	start := func(i int) {
		s.Observe("J1", *started(attempt(speculators.Map, int32(i), 0), "n1", base))
	}
	start(0)
	if err := s.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	full.Store(true)
	const n = 200
	sent := make(chan int, n)
	go func() {
		for i := 1; i <= n; i++ {
			start(i)
			sent <- i
		}
		close(sent)
	}()
	m := s.metrics
	waitFor(t, "the sender to be held back", func() bool { return value(m.blocked) == 1 })
	for i := 0; i < 3; i++ {
		if err := s.Tick(context.Background()); !errors.Is(err, ErrStoreDegraded) {
			t.Fatalf("tick on a full disk: %v", err)
		}
	}
	if got := len(sent); got > 50 {
		t.Errorf("%d events accepted past a queue of 50", got)
	}
	if p := value(m.pending); p > 51 || p < 50 {
		t.Errorf("pending records %v, want the bound 50", p)
	}
	h := s.Health()
	if h == nil || !strings.Contains(h.Error(), "degraded") || !strings.Contains(h.Error(), dir) {
		t.Errorf("health on a full disk: %v", h)
	}
	if value(m.degraded) != 1 || value(m.writeFailures) < 3 {
		t.Errorf("metrics: degraded %v, failures %v", value(m.degraded), value(m.writeFailures))
	}
	errs := 0
	for _, e := range hook.AllEntries() {
		if e.Level == logrus.ErrorLevel {
			errs++
			if !strings.Contains(e.Data["store"].(string), dir) {
				t.Errorf("log without the store's path: %v", e.Data)
			}
		}
	}
	if errs != 1 {
		t.Errorf("%d error lines for one episode of failed writes, want 1", errs)
	}

	full.Store(false)
	if err := s.Tick(context.Background()); err != nil {
		t.Fatalf("tick once space is back: %v", err)
	}
	for range sent { // the sender finishes by itself once space is back
	}
	if err := s.Health(); err != nil {
		t.Errorf("health after recovery: %v", err)
	}
	if value(m.degraded) != 0 {
		t.Error("still degraded after recovery")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	r := mustService(t, ServiceConfig{Analyzer: testConfig(), Store: dir, Now: clock.Now})
	defer r.Close()
	r.View(func(st *analyzer.State, _ func(speculators.NodeID) analyzer.Time) {
		if j := st.Jobs["J1"]; j == nil || len(j.Attempts) != n+1 {
			t.Fatalf("after the full disk: %+v", j)
		}
	})
	if r.Loaded.Problems() > 0 || len(r.Loaded.Torn) > 0 {
		t.Errorf("reload reports %+v", r.Loaded)
	}
}
