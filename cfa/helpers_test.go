package cfa

import (
	"testing"

	"github.com/specbridge/specbridge/cfa/analyzer"
	"github.com/specbridge/specbridge/speculators"
)

// The Service tests' event builders; the analyzer's own tests have theirs.

func attempt(tt speculators.TaskType, task, n int32) speculators.AttemptID {
	return speculators.AttemptID{Task: speculators.TaskID{Type: tt, Index: task}, N: n}
}

func started(a speculators.AttemptID, node string, at analyzer.Time) *speculators.Event {
	return &speculators.Event{Kind: speculators.AttemptStarted, Time: at, Attempt: a, Node: speculators.NodeID(node), Container: "container_" + a.String()}
}

func status(a speculators.AttemptID, at analyzer.Time) *speculators.Event {
	return &speculators.Event{Kind: speculators.AttemptStatus, Time: at, Attempt: a, Progress: 0.5}
}

// testConfig: TWS, L = 5, b = 2, a 10 s initial threshold, a 3 s floor, a
// 6 s gap, suspicion at half the threshold (as the analyzer's tests).
func testConfig() analyzer.Config {
	c := analyzer.DefaultConfig()
	c.Detector, c.Detect.Window, c.Detect.Base, c.Detect.Initial, c.Detect.Floor = "tws", 5, 2, 10_000, 3_000
	c.Gap, c.SuspectFraction = 6_000, 0.5
	return c
}

func ended(kind speculators.EventKind, a speculators.AttemptID, at analyzer.Time) *speculators.Event {
	return &speculators.Event{Kind: kind, Time: at, Attempt: a}
}

// mustService opens a service with cfg, failing the test if it cannot.
func mustService(t *testing.T, cfg ServiceConfig) *Service {
	t.Helper()
	s, err := NewService(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// storeService opens a service over store with the tests' analyzer
// configuration and a fake clock; cfg opens the same store again (a restart).
func storeService(t *testing.T, store string) (*Service, *fakeClock, ServiceConfig) {
	t.Helper()
	clock := &fakeClock{}
	cfg := ServiceConfig{Analyzer: testConfig(), Store: store, Now: clock.Now}
	s := mustService(t, cfg)
	return s, clock, cfg
}
