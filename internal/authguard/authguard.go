// Package authguard rate-limits failed authentication per source address
// and logs it by sample: the first failure of an address in a window is
// logged with what it presented (truncated), later ones are counted and
// summed up in one line when the window ends, and an address over its
// budget is refused without a check until its window ends. Memory is
// bounded (MaxAddrs addresses). It does not know the credentials: Check
// is given the check to run.
//
// Guesses are limited, not the address's good clients: a client whose
// token worked from an address is known there by the token's first
// PrefixBytes bytes (for GoodFor), and that prefix is exempt from the
// address's budget; it has a budget of its own (Budget failures a window),
// which only a guesser who knows the prefix can spend. Choice: a co-tenant
// on an AM's host guessing tokens (issue 24) then locks out no AM whose
// token worked from that host before; what a guesser learns is that a
// prefix it tried was not refused (a prefix's first PrefixBytes bytes,
// while the rest of a token of at least 16 bytes stays unguessable), and
// only from an address where that token worked. Check runs the credential
// check and counts its failure under one lock, so that connections opened
// first and tried at once get no more tries than the budget.
package authguard

import (
	"net"
	"sync"
	"time"

	"github.com/sirupsen/logrus"
)

// Defaults: 10 failures per address per minute, 10,000 addresses tracked;
// a good token's prefix is remembered for a day.
const (
	DefaultBudget   = 10
	DefaultWindow   = time.Minute
	DefaultMaxAddrs = 10_000
	DefaultGoodFor  = 24 * time.Hour
	// PrefixBytes of a presented token name its budget (see the package
	// doc).
	PrefixBytes = 4
	// maxGood bounds the good prefixes kept per address.
	maxGood = 16
)

// Result is what Check decided.
type Result int

const (
	// OK: the credentials were checked and are good.
	OK Result = iota
	// Failed: checked and wrong; counted.
	Failed
	// Limited: not checked, the budget is spent; the caller refuses.
	Limited
)

// Guard tracks failed authentications. The zero value is not usable; use
// New.
type Guard struct {
	Budget   int
	Window   time.Duration
	MaxAddrs int
	Log      logrus.FieldLogger
	Now      func() time.Time
	What     string // "AM hello", "analyzer API": names the endpoint in logs
	GoodFor  time.Duration

	mu    sync.Mutex
	addrs map[string]*entry
}

type entry struct {
	start    time.Time
	count    int            // failures this window, every prefix
	byPrefix map[string]int // failures this window by prefix (at most count entries)
	good     map[string]time.Time
	refused  int // Limited this window
	sample   string
}

// New returns a guard with the defaults.
func New(log logrus.FieldLogger, what string) *Guard {
	if log == nil {
		log = logrus.StandardLogger()
	}
	return &Guard{Budget: DefaultBudget, Window: DefaultWindow, MaxAddrs: DefaultMaxAddrs, Log: log, Now: time.Now,
		What: what, GoodFor: DefaultGoodFor, addrs: map[string]*entry{}}
}

// Host is the address part of a RemoteAddr ("1.2.3.4:5678" -> "1.2.3.4").
func Host(remote string) string {
	if h, _, err := net.SplitHostPort(remote); err == nil {
		return h
	}
	return remote
}

// entryLocked returns addr's entry for the current window, closing (and
// summing up in the log) an expired one.
func (g *Guard) entryLocked(addr string, now time.Time) *entry {
	e := g.addrs[addr]
	if e != nil && now.Sub(e.start) >= g.Window {
		g.summaryLocked(addr, e)
		for p, at := range e.good {
			if now.Sub(at) >= g.GoodFor {
				delete(e.good, p)
			}
		}
		if len(e.good) == 0 {
			delete(g.addrs, addr)
			return nil
		}
		e.start, e.count, e.byPrefix, e.refused, e.sample = now, 0, nil, 0, ""
	}
	return e
}

// newEntryLocked returns addr's entry, making one.
func (g *Guard) newEntryLocked(addr string, now time.Time) *entry {
	e := g.entryLocked(addr, now)
	if e == nil {
		if len(g.addrs) >= g.MaxAddrs {
			g.sweepLocked(now)
		}
		e = &entry{start: now}
		g.addrs[addr] = e
	}
	return e
}

func prefix(presented string) string {
	if len(presented) > PrefixBytes {
		return presented[:PrefixBytes]
	}
	return presented
}

// Check decides an authentication from remote presenting presented: it is
// refused unchecked (Limited) when its budget is spent, else valid is run
// (under the guard's lock: keep it fast, a constant-time compare) and a
// failure counted and logged by sample. A good token's prefix is then
// exempt from the address's budget (package doc).
func (g *Guard) Check(remote, presented string, valid func(string) bool) Result {
	addr := Host(remote)
	now := g.Now()
	p := prefix(presented)
	g.mu.Lock()
	defer g.mu.Unlock()
	e := g.newEntryLocked(addr, now)
	_, known := e.good[p]
	if e.byPrefix[p] >= g.Budget || (!known && e.count >= g.Budget) {
		e.refused++
		return Limited
	}
	if valid(presented) {
		if known || len(e.good) < maxGood {
			if e.good == nil {
				e.good = map[string]time.Time{}
			}
			e.good[p] = now
		}
		return OK
	}
	g.failedLocked(addr, e, presented, now)
	if e.byPrefix == nil {
		e.byPrefix = map[string]int{}
	}
	e.byPrefix[p]++
	return Failed
}

func (g *Guard) failedLocked(addr string, e *entry, sample string, now time.Time) {
	if len(sample) > 16 {
		sample = sample[:16] + "..."
	}
	if e.count == 0 {
		e.sample = sample
		g.Log.WithFields(logrus.Fields{"remote": addr, "sample": sample}).
			Warnf("%s: failed authentication (further failures from this address are counted, logged once per %s, and refused after %d)", g.What, g.Window, g.Budget)
	}
	e.count++
}

func (g *Guard) summaryLocked(addr string, e *entry) {
	if e.count > 1 || e.refused > 0 {
		g.Log.WithFields(logrus.Fields{"remote": addr, "failures": e.count, "refused": e.refused, "window": g.Window.String(), "sample": e.sample}).
			Warnf("%s: %d failed authentications from this address in one window, %d more refused unchecked (logged once per window)", g.What, e.count, e.refused)
	}
}

// Blocked reports whether remote has spent its budget of failures for the
// current window and has no good client known (a prefix that worked from
// it): the caller refuses it before it presents anything (an HTTP upgrade).
// Check counts and limits what it presents.
func (g *Guard) Blocked(remote string) bool {
	addr := Host(remote)
	g.mu.Lock()
	defer g.mu.Unlock()
	e := g.entryLocked(addr, g.Now())
	if e != nil && e.count >= g.Budget && len(e.good) == 0 {
		e.refused++
		return true
	}
	return false
}

// Failed records a failed authentication from remote; sample is what it
// presented (a token's first characters, a header), kept for the log.
func (g *Guard) Failed(remote, sample string) {
	addr := Host(remote)
	now := g.Now()
	g.mu.Lock()
	defer g.mu.Unlock()
	g.failedLocked(addr, g.newEntryLocked(addr, now), sample, now)
}

// sweepLocked drops expired entries, and if none expired, every entry
// (an attack from more addresses than MaxAddrs: the limit is per window).
func (g *Guard) sweepLocked(now time.Time) {
	for a := range g.addrs {
		g.entryLocked(a, now) // closes an expired window, drops an entry with nothing left
	}
	if len(g.addrs) >= g.MaxAddrs {
		g.addrs = map[string]*entry{}
	}
}
