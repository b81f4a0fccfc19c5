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

// Check counts a failure at the check (200 tries at once get the budget's
// 10 checks), and a prefix that worked from an address is not locked out
// by guesses from it, though guesses with that prefix have a budget too.
func TestCheckLimitsGuessesNotGoodClients(t *testing.T) {
	log, _ := logtest.NewNullLogger()
	g := New(log, "test")
	good := func(tok string) bool { return tok == "good-token-0123456789" }
	if g.Check("10.0.0.1:1", "good-token-0123456789", good) != OK {
		t.Fatal("the good token")
	}
	results := make(chan Result, 200)
	for i := 0; i < 200; i++ {
		go func() { results <- g.Check("10.0.0.1:2", fmt.Sprintf("guess-%03d", i), good) }()
	}
	n := map[Result]int{}
	for i := 0; i < 200; i++ {
		n[<-results]++
	}
	if n[Failed] != DefaultBudget || n[Limited] != 200-DefaultBudget {
		t.Fatalf("200 guesses at once: %v, want %d checked", n, DefaultBudget)
	}
	if g.Blocked("10.0.0.1:3") {
		t.Error("an address with a good client refused before it presents anything")
	}
	if g.Check("10.0.0.1:4", "good-token-0123456789", good) != OK {
		t.Error("the good client locked out by guesses from its address")
	}
	for i := 0; i < DefaultBudget; i++ {
		g.Check("10.0.0.1:5", fmt.Sprintf("good-%d", i), good) // the good prefix, guessed
	}
	if g.Check("10.0.0.1:5", "good-x", good) != Limited {
		t.Error("guesses with the good prefix have no budget")
	}
	fresh := New(log, "test")
	for i := 0; i < DefaultBudget; i++ {
		fresh.Check("10.0.0.9:1", "nope", good)
	}
	if !fresh.Blocked("10.0.0.9:1") {
		t.Error("an address that only failed is not refused before the upgrade")
	}
}
