// Package dashboard is the operator's live page of `specbridge serve` and
// `specbridge cfa`: connected ApplicationMasters with their policy, tasks
// and decisions, the latest decisions with their reasons, the fault
// analyzer's node health, and throughput, pushed to the browser every
// second over server-sent events. Its assets are embedded (no internet).
//
// It only reads: it must not change a session, the analyzer or the
// metrics. Access needs a token: an AM token, or a read-only one the
// operator adds, sent as "Authorization: Bearer" or through the login form,
// which sets a cookie holding an HMAC of the token (never the token).
package dashboard

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/specbridge/specbridge/bridge"
	"github.com/specbridge/specbridge/cfa"
	"github.com/specbridge/specbridge/internal/authguard"
	"github.com/specbridge/specbridge/internal/tokens"
)

//go:embed assets
var assets embed.FS

// CookieName is the session cookie the login form sets.
const CookieName = "specbridge_dashboard"

// recentEpisodes is how many closed episodes a node shows.
const recentEpisodes = 5

// Config says what the page shows and who may see it.
type Config struct {
	// Title names the process: "specbridge serve" or "specbridge cfa".
	Title string
	// Tokens open the page: the AMs' (or the analyzer API's) set and any
	// read-only one. They are read at each request, so a set's tokens
	// replaced (SIGHUP) open it, and cookies made from tokens taken out
	// stop opening it, at once.
	Tokens []*tokens.Set
	// Live is the sidecar's sessions and decisions; nil for a standalone
	// analyzer.
	Live func() bridge.LiveView
	// Nodes is the analyzer's node view; nil without an analyzer in this
	// process (--cfa-url off, or a remote one).
	Nodes func(recent int) []cfa.NodeView
	// Analyzer says where the analyzer runs, shown when Nodes is nil.
	Analyzer string
	// Capacity, if set, says what the sidecar knows of the cluster's
	// capacity (the ResourceManager's containers, or that it has none).
	Capacity func() string
	// JobOrder, if set, says what the job order (serve --rm-job-order)
	// did last: the jobs ordered, the levels, the last write or failure.
	JobOrder func() string
	// Version is the running binary's, shown in the page's header.
	Version string
	// Interval between pushes (default 1 s).
	Interval time.Duration
	// Secure marks the cookie Secure (the page is served over TLS).
	Secure bool
	// Guard limits and logs failed logins (the form and bearer tokens);
	// nil: a guard of its own with authguard's defaults.
	Guard *authguard.Guard
}

// State is what one push carries.
type State struct {
	Title     string                `json:"title"`
	Version   string                `json:"version"`
	Time      time.Time             `json:"time"`
	Sidecar   bool                  `json:"sidecar"`
	Sessions  []bridge.SessionView  `json:"sessions"`
	Decisions []bridge.DecisionView `json:"decisions"`
	Events    uint64                `json:"events_total"`
	Decided   uint64                `json:"decisions_total"`
	Analyzer  string                `json:"analyzer"`
	Capacity  string                `json:"capacity,omitempty"`
	JobOrder  string                `json:"job_order,omitempty"`
	Nodes     []cfa.NodeView        `json:"nodes"`
}

// Dashboard serves the page.
type Dashboard struct {
	cfg    Config
	key    []byte
	page   *template.Template
	static http.Handler
	done   chan struct{}
	once   sync.Once
}

// Close ends every event stream (they would hold an http.Server's
// Shutdown until its deadline); register it with RegisterOnShutdown.
func (d *Dashboard) Close() { d.once.Do(func() { close(d.done) }) }

// New checks cfg and builds the dashboard.
func New(cfg Config) (*Dashboard, error) {
	n := 0
	for _, set := range cfg.Tokens {
		n += set.Len()
	}
	if n == 0 {
		return nil, errors.New("dashboard: at least one token is required")
	}
	if cfg.Interval <= 0 {
		cfg.Interval = time.Second
	}
	if cfg.Guard == nil {
		cfg.Guard = authguard.New(nil, "dashboard login")
	}
	d := &Dashboard{cfg: cfg, key: make([]byte, 32), done: make(chan struct{})}
	if _, err := rand.Read(d.key); err != nil {
		return nil, fmt.Errorf("dashboard: cookie key: %w", err)
	}
	var err error
	if d.page, err = template.ParseFS(assets, "assets/*.html"); err != nil {
		return nil, fmt.Errorf("dashboard: templates: %w", err)
	}
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		return nil, fmt.Errorf("dashboard: assets: %w", err)
	}
	d.static = http.StripPrefix("/dashboard/assets/", http.FileServer(http.FS(sub)))
	return d, nil
}

func (d *Dashboard) mac(token string) []byte {
	h := hmac.New(sha256.New, d.key)
	h.Write([]byte(token))
	return h.Sum(nil)
}

// valid reports whether token is one of the configured ones, checking
// every set (tokens.Set.Match: time independent of which one matched).
func (d *Dashboard) valid(token string) bool {
	ok := false
	for _, set := range d.cfg.Tokens {
		m := set.Match(token)
		ok = ok || m
	}
	return ok
}

// validMAC reports whether m is the MAC of one of the tokens now in the
// sets, comparing with every one of them (a handful: cheap per request).
func (d *Dashboard) validMAC(m []byte) bool {
	ok := 0
	for _, set := range d.cfg.Tokens {
		set.Each(func(t string) { ok |= subtle.ConstantTimeCompare(m, d.mac(t)) })
	}
	return ok == 1
}

// authorized checks the bearer token or the cookie; with a valid bearer
// token it returns the cookie to set, so that the page's own requests
// (EventSource cannot send headers) are let in too. Bearer tokens go
// through the guard (counted, logged by sample, limited per address:
// limited is then true); a cookie is an HMAC under a key of this process,
// not a guess worth counting.
func (d *Dashboard) authorized(r *http.Request) (ok bool, setCookie *http.Cookie, limited bool) {
	if tok, found := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); found {
		tok = strings.TrimSpace(tok)
		switch d.cfg.Guard.Check(r.RemoteAddr, tok, d.valid) {
		case authguard.OK:
			return true, d.cookie(tok), false
		case authguard.Limited:
			return false, nil, true
		}
		return false, nil, false
	}
	return d.validCookie(r), nil, false
}

func (d *Dashboard) validCookie(r *http.Request) bool {
	if c, err := r.Cookie(CookieName); err == nil {
		if m, err := hex.DecodeString(c.Value); err == nil && d.validMAC(m) {
			return true
		}
	}
	return false
}

// stillValid reports whether what let r in still would (its token was not
// taken out by a reload), without counting anything.
func (d *Dashboard) stillValid(r *http.Request) bool {
	if tok, found := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); found {
		return d.valid(strings.TrimSpace(tok))
	}
	return d.validCookie(r)
}

const limitedText = "too many failed logins from this address; try later"

func (d *Dashboard) cookie(token string) *http.Cookie {
	return &http.Cookie{Name: CookieName, Value: hex.EncodeToString(d.mac(token)), Path: "/", HttpOnly: true,
		Secure: d.cfg.Secure, SameSite: http.SameSiteStrictMode}
}

// Mount adds the dashboard's routes to mux: GET / (the page, or the login
// form), POST /login, /dashboard/state (JSON), /dashboard/events (server-
// sent events), /dashboard/assets/.
func (d *Dashboard) Mount(mux *http.ServeMux) {
	mux.HandleFunc("GET /{$}", d.index)
	mux.HandleFunc("POST /login", d.login)
	mux.HandleFunc("GET /dashboard/state", d.guard(d.stateJSON))
	mux.HandleFunc("GET /dashboard/events", d.guard(d.events))
	mux.Handle("GET /dashboard/assets/", d.static)
}

func (d *Dashboard) guard(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ok, c, limited := d.authorized(r)
		if limited {
			http.Error(w, limitedText, http.StatusTooManyRequests)
			return
		}
		if !ok {
			http.Error(w, "unauthorized: send Authorization: Bearer TOKEN or log in at /", http.StatusUnauthorized)
			return
		}
		if c != nil {
			http.SetCookie(w, c)
		}
		h(w, r)
	}
}

func (d *Dashboard) render(w http.ResponseWriter, status int, name string, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:")
	w.WriteHeader(status)
	_ = d.page.ExecuteTemplate(w, name, data)
}

func (d *Dashboard) index(w http.ResponseWriter, r *http.Request) {
	ok, c, limited := d.authorized(r)
	if limited {
		http.Error(w, limitedText, http.StatusTooManyRequests)
		return
	}
	if !ok {
		d.render(w, http.StatusUnauthorized, "login.html", map[string]any{"Title": d.cfg.Title})
		return
	}
	if c != nil {
		http.SetCookie(w, c)
	}
	d.render(w, http.StatusOK, "index.html", map[string]any{"Title": d.cfg.Title})
}

func (d *Dashboard) login(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 4096)
	if err := r.ParseForm(); err != nil {
		d.render(w, http.StatusBadRequest, "login.html", map[string]any{"Title": d.cfg.Title, "Error": "bad form"})
		return
	}
	switch d.cfg.Guard.Check(r.RemoteAddr, strings.TrimSpace(r.PostFormValue("token")), d.valid) {
	case authguard.Limited:
		d.render(w, http.StatusTooManyRequests, "login.html", map[string]any{"Title": d.cfg.Title, "Error": limitedText})
		return
	case authguard.Failed:
		d.render(w, http.StatusUnauthorized, "login.html", map[string]any{"Title": d.cfg.Title, "Error": "wrong token"})
		return
	}
	http.SetCookie(w, d.cookie(strings.TrimSpace(r.PostFormValue("token"))))
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// Snapshot is the state the page shows now.
func (d *Dashboard) Snapshot() State {
	st := State{Title: d.cfg.Title, Version: d.cfg.Version, Time: time.Now(), Analyzer: d.cfg.Analyzer, Sessions: []bridge.SessionView{},
		Decisions: []bridge.DecisionView{}, Nodes: []cfa.NodeView{}}
	if d.cfg.Capacity != nil {
		st.Capacity = d.cfg.Capacity()
	}
	if d.cfg.JobOrder != nil {
		st.JobOrder = d.cfg.JobOrder()
	}
	if d.cfg.Live != nil {
		lv := d.cfg.Live()
		st.Sidecar = true
		st.Events, st.Decided = lv.EventsTotal, lv.DecisionsTotal
		if lv.Sessions != nil {
			st.Sessions = lv.Sessions
		}
		if lv.Decisions != nil {
			st.Decisions = lv.Decisions
		}
	}
	if d.cfg.Nodes != nil {
		if n := d.cfg.Nodes(recentEpisodes); n != nil {
			st.Nodes = n
		}
	}
	return st
}

func (d *Dashboard) stateJSON(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(d.Snapshot())
}

// events pushes the state every Interval until the client goes away, the
// dashboard closes, or what let the client in is revoked (a token taken
// out of its file by SIGHUP ends its open streams at the next push).
func (d *Dashboard) events(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	ticker := time.NewTicker(d.cfg.Interval)
	defer ticker.Stop()
	for {
		body, err := json.Marshal(d.Snapshot())
		if err != nil {
			return
		}
		if _, err := fmt.Fprintf(w, "data: %s\n\n", body); err != nil {
			return
		}
		flusher.Flush()
		select {
		case <-r.Context().Done():
			return
		case <-d.done:
			return
		case <-ticker.C:
		}
		if !d.stillValid(r) {
			return
		}
	}
}
