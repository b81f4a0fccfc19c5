package tokens

import (
	"testing"

	"github.com/specbridge/specbridge/internal/hammer"
)

func TestSetMatchesItsTokensOnly(t *testing.T) {
	s, err := New([]string{"alpha", "beta"})
	if err != nil {
		t.Fatal(err)
	}
	for tok, want := range map[string]bool{"alpha": true, "beta": true, "gamma": false, "": false, "alph": false, "alphaa": false} {
		if got := s.Match(tok); got != want {
			t.Errorf("Match(%q) = %v, want %v", tok, got, want)
		}
	}
	if s.Len() != 2 {
		t.Errorf("Len = %d", s.Len())
	}
	var zero Set
	if zero.Match("alpha") || zero.Len() != 0 {
		t.Error("the zero set matches something")
	}
}

func TestReplaceRefusesBadListsAndKeepsTheOldSet(t *testing.T) {
	s, err := New([]string{"old"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Replace(nil); err == nil {
		t.Error("an empty list was taken")
	}
	if err := s.Replace([]string{"new", ""}); err == nil {
		t.Error("an empty token was taken")
	}
	if !s.Match("old") || s.Match("new") {
		t.Fatal("a refused replacement changed the set")
	}
	if err := s.Replace([]string{"new"}); err != nil {
		t.Fatal(err)
	}
	if s.Match("old") || !s.Match("new") {
		t.Fatal("the replacement did not take")
	}
	if _, err := New(nil); err == nil {
		t.Error("New took no token")
	}
}

// Replacing while others match is safe (run with -race) and every check
// sees one whole set: "a" and "b" always travel together.
func TestReplaceWhileMatching(t *testing.T) {
	s, err := New([]string{"a1", "b1"})
	if err != nil {
		t.Fatal(err)
	}
	load := hammer.Start(4, func(_, _ int) bool {
		var seen []string
		s.Each(func(tok string) { seen = append(seen, tok) })
		if len(seen) != 2 || seen[0][1:] != seen[1][1:] {
			t.Errorf("a mixed set: %v", seen)
			return false
		}
		return true
	})
	for i := 0; i < 1000; i++ {
		gen := string(rune('0' + i%10))
		if err := s.Replace([]string{"a" + gen, "b" + gen}); err != nil {
			t.Fatal(err)
		}
	}
	load.Stop()
}
