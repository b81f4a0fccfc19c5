package authguard

import (
	"fmt"
	"testing"
	"time"

	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/specbridge/specbridge/internal/testclock"
)

// A flood of failures from one address: one log line with a sample, the
// address refused after its budget, the others not; a summary when the
// window ends; memory bounded by MaxAddrs.
func TestGuardLimitsAndSamples(t *testing.T) {
	log, hook := logtest.NewNullLogger()
	clock := testclock.New(time.Unix(1000, 0))
	g := New(log, "test")
	g.Now = clock.Now
	for i := 0; i < 1000; i++ {
		if g.Blocked("10.0.0.1:1234") {
			continue
		}
		g.Failed("10.0.0.1:1234", "wrong-token-value-long")
	}
	if !g.Blocked("10.0.0.1:999") || g.Blocked("10.0.0.2:1") {
		t.Fatal("budget per address")
	}
	if n := len(hook.AllEntries()); n != 1 {
		t.Fatalf("%d log lines for a flood, want 1", n)
	}
	if s := hook.LastEntry().Data["sample"]; s != "wrong-token-valu..." {
		t.Errorf("sample %v", s)
	}
	clock.Advance(time.Minute)
	if g.Blocked("10.0.0.1:1") {
		t.Error("still refused after the window")
	}
	if n := len(hook.AllEntries()); n != 2 || hook.LastEntry().Data["failures"] != DefaultBudget {
		t.Errorf("summary: %d lines, last %v", n, hook.LastEntry().Data)
	}
	g.MaxAddrs = 100
	for i := 0; i < 1000; i++ {
		g.Failed(fmt.Sprintf("10.1.%d.%d:1", i/256, i%256), "x")
	}
	if len(g.addrs) > 100 {
		t.Errorf("%d addresses kept, bound 100", len(g.addrs))
	}
}
