package spectest_test

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/hadooplegacy"
	"github.com/specbridge/specbridge/speculators/none"
	"github.com/specbridge/specbridge/speculators/spectest"
)

func registry(t *testing.T) *speculators.Registry {
	return spectest.Registry(t, none.Policy(), hadooplegacy.Policy())
}

// TestFormat runs testdata/: the format's commands, its errors and a
// de-duplicated decision.
func TestFormat(t *testing.T) {
	spectest.RunDir(t, "testdata", registry(t))
}

// The Go harness numbers attempts in start order and hands the engine's
// events through.
func TestHarness(t *testing.T) {
	h := spectest.New(t, registry(t), spectest.Job{Policy: hadooplegacy.Name, Info: speculators.JobInfo{Maps: 3}})
	a := h.Start(spectest.Map(0), "n1", 0)
	b := h.StartCopy(spectest.Map(0), "n2", spectest.Sec(1))
	if a.N != 0 || b.N != 1 {
		t.Fatalf("attempts %v %v, want numbers 0 and 1", a, b)
	}
	if latest, _ := h.Latest(spectest.Map(0)); latest != b {
		t.Errorf("latest %v, want %v", latest, b)
	}
	h.Status(a, spectest.Sec(2), 0.5)
	if got := h.Job().Attempt(a).Progress; got != 0.5 {
		t.Errorf("progress %g, want 0.5", got)
	}
	if err := h.TryObserve(speculators.Event{Kind: speculators.AttemptStatus, Time: 3, Attempt: speculators.AttemptID{Task: spectest.Map(2)}}); err == nil {
		t.Error("a report for an attempt never started was accepted")
	}
}
