package cfa

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/specbridge/specbridge/internal/httpjson"
	"github.com/specbridge/specbridge/speculators"
)

// Remote is a bridge.Feed backed by a standalone analyzer's HTTP API (see api.go):
// events are batched per job and posted every FlushInterval; each
// subscription long-polls its job's notices. Errors (analyzer down) go to
// OnError; events that could not be posted are dropped, since the analyzer
// recovers a job's state from its records and later events.
type Remote struct {
	base    string
	http    *http.Client
	onError func(error)
	token   string

	mu      sync.Mutex
	pending map[string][]WireEvent
	order   []string // jobs in first-event order, for fair flushing
	queued  int      // events in pending
	dropped int      // events dropped since the last flush: pending was full

	cancel context.CancelFunc
	done   chan struct{}
}

// RemoteOption configures a Remote.
type RemoteOption func(*Remote)

// WithToken sends "Authorization: Bearer token" with every request.
func WithToken(token string) RemoteOption { return func(r *Remote) { r.token = token } }

// WithTLS sets the TLS configuration of https:// requests (a private CA).
func WithTLS(cfg *tls.Config) RemoteOption {
	return func(r *Remote) {
		r.http.Transport = &http.Transport{TLSClientConfig: cfg, Proxy: http.ProxyFromEnvironment}
	}
}

// maxRemotePending bounds the events queued for the analyzer while it
// cannot be reached: beyond it the oldest are dropped (and counted in the
// error), as Remote drops what it could not post anyway.
const maxRemotePending = 100_000

// NewRemote connects to the analyzer at base ("http://host:port");
// flushEvery is the batching interval (100 ms if 0).
func NewRemote(base string, flushEvery time.Duration, onError func(error), opts ...RemoteOption) (*Remote, error) {
	u, err := url.Parse(base)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("cfa address %q: want http://host:port", base)
	}
	if flushEvery <= 0 {
		flushEvery = 100 * time.Millisecond
	}
	if onError == nil {
		onError = func(error) {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &Remote{base: strings.TrimRight(base, "/"), http: &http.Client{Timeout: 90 * time.Second}, onError: onError,
		pending: map[string][]WireEvent{}, cancel: cancel, done: make(chan struct{})}
	for _, o := range opts {
		o(r)
	}
	go func() {
		defer close(r.done)
		t := time.NewTicker(flushEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if err := r.Flush(ctx); err != nil {
					r.onError(err)
				}
			}
		}
	}()
	return r, nil
}

// Observe queues ev for job (bridge.Feed).
func (r *Remote) Observe(job string, ev speculators.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.queued >= maxRemotePending {
		r.dropped++
		return
	}
	if _, ok := r.pending[job]; !ok {
		r.order = append(r.order, job)
	}
	r.queued++
	r.pending[job] = append(r.pending[job], ToWire(ev))
}

// Flush posts every queued event now.
func (r *Remote) Flush(ctx context.Context) error {
	r.mu.Lock()
	pending, order, dropped := r.pending, r.order, r.dropped
	r.pending, r.order, r.queued, r.dropped = map[string][]WireEvent{}, nil, 0, 0
	r.mu.Unlock()
	var errs []error
	if dropped > 0 {
		errs = append(errs, fmt.Errorf("cfa: %d events dropped: more than %d waited for the analyzer", dropped, maxRemotePending))
	}
	for _, job := range order {
		errs = append(errs, r.post(ctx, "/v1/jobs/"+url.PathEscape(job)+"/events", pending[job]))
	}
	return errors.Join(errs...)
}

// post sends body (JSON; none if nil) to path.
func (r *Remote) post(ctx context.Context, path string, body any) error {
	return httpjson.Do(ctx, r.http, httpjson.Request{Method: http.MethodPost, URL: r.base + path, Token: r.token, Body: body}, nil)
}

// EndJob posts job's queued events and its end (bridge.Feed).
func (r *Remote) EndJob(job string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ferr := r.Flush(ctx)
	if ferr != nil {
		r.onError(ferr)
	}
	err := r.post(ctx, "/v1/jobs/"+url.PathEscape(job)+"/end", nil)
	if err != nil {
		r.onError(err)
	}
	return errors.Join(ferr, err)
}

// Subscribe long-polls job's notices and delivers each once (bridge.Feed).
// Notices published before the first poll are delivered too.
func (r *Remote) Subscribe(job string, deliver func(speculators.Event)) (cancel func()) {
	ctx, stop := context.WithCancel(context.Background())
	go func() {
		var after uint64
		for ctx.Err() == nil {
			evs, last, err := r.poll(ctx, job, after)
			if err != nil {
				if ctx.Err() == nil {
					r.onError(err)
					select { // back off before asking a failing analyzer again
					case <-ctx.Done():
					case <-time.After(time.Second):
					}
				}
				continue
			}
			for _, ev := range evs {
				deliver(ev)
			}
			after = last
		}
	}()
	return stop
}

func (r *Remote) poll(ctx context.Context, job string, after uint64) ([]speculators.Event, uint64, error) {
	u := fmt.Sprintf("%s/v1/jobs/%s/notices?after=%d&wait=30s", r.base, url.PathEscape(job), after)
	var out struct {
		Notices []WireEvent `json:"notices"`
		Last    uint64      `json:"last"`
	}
	if err := httpjson.Do(ctx, r.http, httpjson.Request{URL: u, Token: r.token}, &out); err != nil {
		return nil, after, err
	}
	evs := make([]speculators.Event, 0, len(out.Notices))
	for _, w := range out.Notices {
		ev, err := FromWire(w)
		if err != nil {
			return nil, after, fmt.Errorf("GET %s: %w", u, err)
		}
		evs = append(evs, ev)
	}
	if out.Last < after { // the job's mailbox was reset
		out.Last = 0
	}
	return evs, out.Last, nil
}

// Close stops flushing (after a last flush) and every subscription's polls
// end with their cancel functions.
func (r *Remote) Close() error {
	r.cancel()
	<-r.done
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := r.Flush(ctx)
	// A poll cancelled mid-dial leaves a connection the analyzer sees as new
	// and not idle for 5 s, which would hold up its graceful shutdown.
	r.http.CloseIdleConnections()
	return err
}
