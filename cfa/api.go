package cfa

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/specbridge/specbridge/cfa/analyzer"
	"github.com/specbridge/specbridge/internal/hadoopid"
	"github.com/specbridge/specbridge/speculators"
)

// The HTTP API of a standalone analyzer (specbridge cfa --listen). JSON in
// and out; {job} is the Hadoop job id.
//
//	POST /v1/jobs/{job}/events   body: [WireEvent, ...]            -> 204 once
//	     the records they make are durable; 503 while the store fails
//	POST /v1/jobs/{job}/end                                        -> 204
//	GET  /v1/jobs/{job}/notices?after=N&wait=20s
//	     -> {"notices":[WireEvent...],"last":M}: node events numbered
//	        after N (long poll: waits up to `wait`, at most 60 s, for one)
//	GET  /v1/jobs/{job}   -> the job's records and map outputs
//	GET  /v1/nodes        -> every node's episodes, history, threshold
//	GET  /healthz         -> 200 "ok"; 503 "degraded: ..." while the store
//	                         cannot be written
//	GET  /metrics         -> Prometheus metrics of the store
//
// Every request but /healthz and /metrics needs "Authorization: Bearer
// <token>" when the handler is wrapped in RequireToken (specbridge cfa
// always does).
//
// A sidecar posts every event of its job sessions and long-polls each job's
// notices; Remote does both.

// WireEvent is an event on the API: kind as speculators.EventKind names it
// ("attempt-started", "node-failed", ...), attempt as "m_000003_0".
type WireEvent struct {
	Kind        string `json:"kind"`
	Time        int64  `json:"time"`
	Attempt     string `json:"attempt,omitempty"`
	Node        string `json:"node,omitempty"`
	Container   string `json:"container,omitempty"`
	Speculative bool   `json:"speculative,omitempty"`
	Restated    bool   `json:"restated,omitempty"`
}

// ToWire converts ev (only the fields the analyzer uses).
func ToWire(ev speculators.Event) WireEvent {
	w := WireEvent{Kind: ev.Kind.String(), Time: ev.Time, Node: string(ev.Node), Container: ev.Container, Speculative: ev.Speculative, Restated: ev.Restated}
	if ev.Kind <= speculators.AttemptKilled {
		w.Attempt = ev.Attempt.String()
	}
	return w
}

// FromWire converts w back.
func FromWire(w WireEvent) (speculators.Event, error) {
	ev := speculators.Event{Time: w.Time, Node: speculators.NodeID(w.Node), Container: w.Container, Speculative: w.Speculative, Restated: w.Restated}
	found := false
	for k := speculators.AttemptStarted; k <= speculators.JobBounds; k++ {
		if k.String() == w.Kind {
			ev.Kind, found = k, true
		}
	}
	if !found {
		return ev, fmt.Errorf("unknown event kind %q", w.Kind)
	}
	if w.Time < 0 || w.Time > maxWireTime {
		return ev, fmt.Errorf("%s: time %d out of range (want 0 to %d ms since the epoch)", w.Kind, w.Time, int64(maxWireTime))
	}
	switch {
	case ev.Kind <= speculators.AttemptKilled && w.Attempt == "":
		return ev, fmt.Errorf("%s without an attempt", w.Kind)
	case ev.Kind >= speculators.NodeSuspected && ev.Kind <= speculators.NodeResumed && w.Node == "":
		return ev, fmt.Errorf("%s without a node", w.Kind)
	}
	if w.Attempt != "" {
		a, err := analyzer.ParseAttempt(w.Attempt)
		if err != nil {
			return ev, err
		}
		ev.Attempt = a
	}
	return ev, nil
}

// maxWireTime bounds an event's time: 9999-12-31, as the sidecar's
// protocol bounds the times AMs send (bridge.MaxTime). A time past it
// would hold the analyzer's clocks for a job or node for ever.
const maxWireTime = 253_402_300_799_999

// maxEventsBody caps one events post.
const maxEventsBody = 16 << 20

// Handler serves the HTTP API over s.
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		if err := s.Health(); err != nil {
			// Degraded, not down: events are still taken (up to MaxPending),
			// and a restart would not free the disk. 503 so that monitors see it.
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		_, _ = io.WriteString(w, "ok\n")
	})
	reg := prometheus.NewRegistry()
	reg.MustRegister(s.Collectors()...)
	reg.MustRegister(s.cfg.Collectors...)
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("POST /v1/jobs/{job}/events", func(w http.ResponseWriter, r *http.Request) {
		job, ok := jobParam(w, r)
		if !ok {
			return
		}
		evs, err := decodeEvents(io.LimitReader(r.Body, maxEventsBody))
		if err != nil {
			http.Error(w, "events: "+err.Error(), http.StatusBadRequest)
			return
		}
		// All or nothing: a post refused halfway would be retried whole,
		// and its first events applied twice.
		batch := make([]speculators.Event, len(evs))
		for i, we := range evs {
			ev, err := FromWire(we)
			if err != nil {
				http.Error(w, fmt.Sprintf("event %d: %v", i, err), http.StatusBadRequest)
				return
			}
			batch[i] = ev
		}
		for _, ev := range batch {
			s.Observe(job, ev)
		}
		// 204 acknowledges: the records the events made are durable. Posts
		// arriving together share one commit (they wait on the lock).
		if err := s.Flush(); err != nil {
			http.Error(w, "events taken but not yet durable (the store is degraded; they are retried): "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /v1/jobs/{job}/end", func(w http.ResponseWriter, r *http.Request) {
		job, ok := jobParam(w, r)
		if !ok {
			return
		}
		if err := s.EndJob(job); err != nil {
			http.Error(w, "job end taken but not yet durable (the store is degraded; it is retried): "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /v1/jobs/{job}/notices", s.serveNotices)
	mux.HandleFunc("GET /v1/jobs/{job}", func(w http.ResponseWriter, r *http.Request) {
		job, ok := jobParam(w, r)
		if !ok {
			return
		}
		var out struct {
			Job        *analyzer.JobRecord           `json:"job"`
			MapOutputs map[string]speculators.NodeID `json:"map_outputs"`
		}
		s.View(func(st *analyzer.State, _ func(speculators.NodeID) analyzer.Time) {
			if j := st.Jobs[job]; j != nil {
				b, _ := json.Marshal(j) // a copy, encoded under the lock
				out.Job = &analyzer.JobRecord{}
				_ = json.Unmarshal(b, out.Job)
				out.MapOutputs = st.MapOutputs(job)
			}
		})
		if out.Job == nil {
			http.Error(w, "unknown job "+job, http.StatusNotFound)
			return
		}
		writeJSON(w, out)
	})
	mux.HandleFunc("GET /v1/nodes", func(w http.ResponseWriter, r *http.Request) {
		var body []byte
		s.View(func(st *analyzer.State, threshold func(speculators.NodeID) analyzer.Time) {
			type node struct {
				*analyzer.NodeRecord
				Threshold analyzer.Time `json:"threshold"`
			}
			out := map[speculators.NodeID]node{}
			for n, nr := range st.Nodes {
				out[n] = node{nr, threshold(n)}
			}
			body, _ = json.Marshal(out)
		})
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})
	return mux
}

// MaxJobIDBytes bounds the {job} of the API: a Hadoop job id is
// job_<cluster timestamp>_<number>, about 22 bytes.
const MaxJobIDBytes = 64

// CheckJobID checks a job id from the API's path: job_<digits>_<digits>,
// at most MaxJobIDBytes. The id names the job's records in the store and
// its mailbox and session in memory, so an unchecked one would let a
// client write and keep whatever it likes.
func CheckJobID(job string) error {
	if len(job) > MaxJobIDBytes {
		return fmt.Errorf("job id of %d bytes (%q...): at most %d", len(job), job[:16], MaxJobIDBytes)
	}
	if _, ok := hadoopid.JobKey(job); !ok {
		return fmt.Errorf("job id %q is not a Hadoop job id (job_<cluster timestamp>_<number>)", job)
	}
	return nil
}

// jobParam returns the request's {job}, or answers 400 naming what is
// wrong with it.
func jobParam(w http.ResponseWriter, r *http.Request) (string, bool) {
	job := r.PathValue("job")
	if err := CheckJobID(job); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return "", false
	}
	return job, true
}

// decodeEvents decodes an events post: one JSON array of events and
// nothing after it (null, an object, or an array followed by more data
// is refused, not read as no events or as its first part).
func decodeEvents(body io.Reader) ([]WireEvent, error) {
	dec := json.NewDecoder(body)
	var evs []WireEvent
	if err := dec.Decode(&evs); err != nil {
		return nil, err
	}
	if evs == nil {
		return nil, errors.New("want a JSON array of events, got null")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("data after the array of events (at byte %d)", dec.InputOffset())
	}
	return evs, nil
}

func (s *Service) serveNotices(w http.ResponseWriter, r *http.Request) {
	job, ok := jobParam(w, r)
	if !ok {
		return
	}
	// A malformed after or wait is refused: read as 0 it would hand the
	// client every notice again, or end its long poll at once.
	var after uint64
	var wait time.Duration
	var err error
	q := r.URL.Query()
	if v := q.Get("after"); v != "" {
		if after, err = strconv.ParseUint(v, 10, 64); err != nil {
			http.Error(w, fmt.Sprintf("after %q: want a notice number >= 0", v), http.StatusBadRequest)
			return
		}
	}
	if v := q.Get("wait"); v != "" {
		if wait, err = time.ParseDuration(v); err != nil || wait < 0 {
			http.Error(w, fmt.Sprintf("wait %q: want a duration >= 0, such as 20s", v), http.StatusBadRequest)
			return
		}
	}
	defer s.polling(job)()
	wait = min(wait, 60*time.Second)
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		evs, last, wake := s.boxes.since(job, after)
		if len(evs) > 0 || wait == 0 {
			out := struct {
				Notices []WireEvent `json:"notices"`
				Last    uint64      `json:"last"`
			}{Notices: []WireEvent{}, Last: last}
			for _, ev := range evs {
				out.Notices = append(out.Notices, ToWire(ev))
			}
			writeJSON(w, out)
			return
		}
		select {
		case <-wake:
		case <-timer.C:
			wait = 0
		case <-s.stopPolls:
			wait = 0
		case <-r.Context().Done():
			return
		}
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v) // the client went away, or v is ours and encodes
}
