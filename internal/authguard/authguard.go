// Package authguard rate-limits failed authentication per source address
// and logs it by sample: the first failure of an address in a window is
// logged with what it presented (truncated), later ones are counted and
// summed up in one line when the window ends, and an address over its
// budget is refused without a check until its window ends. Memory is
// bounded (MaxAddrs addresses). It must not check credentials itself.
package authguard

import (
	"net"
	"sync"
	"time"

	"github.com/sirupsen/logrus"
)

// Defaults: 10 failures per address per minute, 10,000 addresses tracked.
const (
	DefaultBudget   = 10
	DefaultWindow   = time.Minute
	DefaultMaxAddrs = 10_000
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

	mu    sync.Mutex
	addrs map[string]*entry
}

type entry struct {
	start  time.Time
	count  int
	sample string
}

// New returns a guard with the defaults.
func New(log logrus.FieldLogger, what string) *Guard {
	if log == nil {
		log = logrus.StandardLogger()
	}
	return &Guard{Budget: DefaultBudget, Window: DefaultWindow, MaxAddrs: DefaultMaxAddrs, Log: log, Now: time.Now,
		What: what, addrs: map[string]*entry{}}
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
		delete(g.addrs, addr)
		e = nil
	}
	return e
}

func (g *Guard) summaryLocked(addr string, e *entry) {
	if e.count > 1 {
		g.Log.WithFields(logrus.Fields{"remote": addr, "failures": e.count, "window": g.Window.String(), "sample": e.sample}).
			Warnf("%s: %d failed authentications from this address in one window (logged once per window)", g.What, e.count)
	}
}

// Blocked reports whether remote has spent its budget of failures for the
// current window: the caller refuses it without checking anything.
func (g *Guard) Blocked(remote string) bool {
	addr := Host(remote)
	g.mu.Lock()
	defer g.mu.Unlock()
	e := g.entryLocked(addr, g.Now())
	return e != nil && e.count >= g.Budget
}

// Failed records a failed authentication from remote; sample is what it
// presented (a token's first characters, a header), kept for the log.
func (g *Guard) Failed(remote, sample string) {
	addr := Host(remote)
	now := g.Now()
	if len(sample) > 16 {
		sample = sample[:16] + "..."
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	e := g.entryLocked(addr, now)
	if e == nil {
		if len(g.addrs) >= g.MaxAddrs {
			g.sweepLocked(now)
		}
		e = &entry{start: now, sample: sample}
		g.addrs[addr] = e
		g.Log.WithFields(logrus.Fields{"remote": addr, "sample": sample}).
			Warnf("%s: failed authentication (further failures from this address are counted, logged once per %s, and refused after %d)", g.What, g.Window, g.Budget)
	}
	e.count++
}

// sweepLocked drops expired entries, and if none expired, every entry
// (an attack from more addresses than MaxAddrs: the limit is per window).
func (g *Guard) sweepLocked(now time.Time) {
	for a, e := range g.addrs {
		if now.Sub(e.start) >= g.Window {
			g.summaryLocked(a, e)
			delete(g.addrs, a)
		}
	}
	if len(g.addrs) >= g.MaxAddrs {
		g.addrs = map[string]*entry{}
	}
}
