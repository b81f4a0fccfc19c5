// Package tokens holds a set of shared secrets that requests are checked
// against and that can be replaced while they are (a token file re-read on
// SIGHUP, to rotate the secrets of a running sidecar). It reads no file
// itself and imports nothing of the module.
package tokens

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"sync/atomic"
)

// Set is a replaceable set of tokens. The zero value holds none and matches
// nothing; use New.
type Set struct {
	p atomic.Pointer[[][]byte]
}

// New returns a set holding tokens; it wants at least one, none empty.
func New(tokens []string) (*Set, error) {
	s := &Set{}
	if err := s.Replace(tokens); err != nil {
		return nil, err
	}
	return s, nil
}

// Replace swaps the set's tokens for tokens, all at once: a request checked
// during the swap sees the old set or the new one, never a mix. An invalid
// list (empty, or with an empty token) is refused and the old set kept.
func (s *Set) Replace(tokens []string) error {
	if len(tokens) == 0 {
		return errors.New("at least one token is required")
	}
	list := make([][]byte, len(tokens))
	for i, t := range tokens {
		if t == "" {
			return fmt.Errorf("token %d is empty", i+1)
		}
		list[i] = []byte(t)
	}
	s.p.Store(&list)
	return nil
}

// Match reports whether token is one of the set's, in time that depends on
// the set's size but not on which token matched or where a guess differs.
func (s *Set) Match(token string) bool {
	list := s.p.Load()
	if list == nil {
		return false
	}
	ok := 0
	for _, t := range *list {
		ok |= subtle.ConstantTimeCompare([]byte(token), t)
	}
	return ok == 1
}

// Each calls f with every token (the dashboard derives its cookie MACs from
// them).
func (s *Set) Each(f func(token string)) {
	list := s.p.Load()
	if list == nil {
		return
	}
	for _, t := range *list {
		f(string(t))
	}
}

// Len is the number of tokens.
func (s *Set) Len() int {
	list := s.p.Load()
	if list == nil {
		return 0
	}
	return len(*list)
}
