package bridge

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/sirupsen/logrus"
)

// Load benchmarks over a real loopback websocket (PROTOCOL.md). Run with
//
//	go test ./bridge -run '^$' -bench . -benchtime 2000000x
//
// and quote the numbers in notes; they are not asserted.

// benchServer starts a server with a real clock and quiet logs.
func benchServer(b *testing.B) *testServer {
	b.Helper()
	reg := testRegistry(b)
	log := logrus.New()
	log.SetOutput(io.Discard)
	if testing.Verbose() {
		log.SetOutput(testWriter{b})
	}
	srv, err := NewServer(Config{Registry: reg, Tokens: []string{testToken}, Log: log, MaxEventsPerSecond: 1e9})
	if err != nil {
		b.Fatal(err)
	}
	ts := &testServer{Server: srv}
	ts.http = newHTTPTestServer(srv)
	ts.url = "ws" + strings.TrimPrefix(ts.http.URL, "http") + Path
	b.Cleanup(ts.http.Close)
	return ts
}

// benchSession is one job's connection in a benchmark.
type benchSession struct {
	conn *websocket.Conn
	key  string
	maps int
}

func openBench(b *testing.B, url string, i, maps int, speculator string) *benchSession {
	conn, resp, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		b.Fatalf("dial: %v", err)
	}
	_ = resp.Body.Close()
	job := fmt.Sprintf("job_1700000000000_%04d", i+1)
	h := hello(job, speculator, maps, 0, nil)
	h.Now = 0
	if err := conn.WriteJSON(h); err != nil {
		b.Fatal(err)
	}
	var w frame
	if err := conn.ReadJSON(&w); err != nil || w.Type != TypeWelcome {
		b.Fatalf("welcome %+v: %v", w, err)
	}
	s := &benchSession{conn: conn, key: strings.TrimPrefix(job, "job_"), maps: maps}
	// Every attempt starts at t0 and reports progress 0.9: nobody straggles yet.
	evs := make([]WireEvent, 0, 2*maps)
	for m := 0; m < maps; m++ {
		attempt := fmt.Sprintf("attempt_%s_m_%06d_0", s.key, m)
		evs = append(evs, WireEvent{Kind: "attempt-started", Time: ms(0), Attempt: attempt, Node: "n"},
			WireEvent{Kind: "attempt-status", Time: ms(0), Attempt: attempt, Progress: 0.9})
	}
	if err := conn.WriteJSON(Events{Type: TypeEvents, Now: t0, Events: evs}); err != nil {
		b.Fatal(err)
	}
	return s
}

// statusBatch encodes one status update per attempt at time at.
func (s *benchSession) statusBatch(at int64) []byte {
	evs := make([]WireEvent, s.maps)
	for m := range evs {
		evs[m] = WireEvent{Kind: "attempt-status", Time: ms(at), Attempt: fmt.Sprintf("attempt_%s_m_%06d_0", s.key, m),
			Progress: 0.9, Phase: "MAP", Counters: &Counters{InputBytes: at, CPUMillis: at}}
	}
	data, _ := json.Marshal(Events{Type: TypeEvents, Events: evs})
	return data
}

// BenchmarkStatusUpdates1000Sessions: attempt status updates per second the
// sidecar sustains with 1,000 concurrent job sessions (20 attempts each,
// batches of 20, policy hadoop-legacy deciding after every batch).
func BenchmarkStatusUpdates1000Sessions(b *testing.B) {
	const sessions, maps = 1000, 20
	ts := benchServer(b)
	all := make([]*benchSession, sessions)
	for i := range all {
		all[i] = openBench(b, ts.url, i, maps, "hadoop-legacy")
	}
	batches := b.N/(sessions*maps) + 1
	frames := make([][]byte, sessions)
	for i, s := range all {
		frames[i] = s.statusBatch(500)
	}
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for i, s := range all {
		wg.Add(1)
		go func(s *benchSession, batch []byte) {
			defer wg.Done()
			for n := 0; n < batches; n++ {
				if err := s.conn.WriteMessage(websocket.TextMessage, batch); err != nil {
					b.Error(err)
					return
				}
			}
			// A ping answered proves every batch before it was processed.
			if err := s.conn.WriteJSON(Ping{Type: TypePing, Nonce: 1}); err != nil {
				b.Error(err)
				return
			}
			for {
				var f frame
				if err := s.conn.ReadJSON(&f); err != nil {
					b.Error(err)
					return
				}
				if f.Type == TypePong {
					return
				}
			}
		}(s, frames[i])
	}
	wg.Wait()
	el := time.Since(start)
	b.StopTimer()
	total := float64(batches * sessions * maps)
	b.ReportMetric(total/el.Seconds(), "updates/s")
	for _, s := range all {
		_ = s.conn.Close()
	}
}

// BenchmarkEventToDecision: time from writing an event batch that makes a
// task a straggler to reading the decision frame, one session, loopback.
func BenchmarkEventToDecision(b *testing.B) {
	ts := benchServer(b)
	maps := b.N
	s := openBench(b, ts.url, 0, maps, "test-straggler")
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		at := int64(5000 + i)
		ev := Events{Type: TypeEvents, Now: t0 + at, Events: []WireEvent{{Kind: "attempt-status", Time: ms(at),
			Attempt: fmt.Sprintf("attempt_%s_m_%06d_0", s.key, i), Progress: 0.01}}}
		data, _ := json.Marshal(ev)
		start := time.Now()
		if err := s.conn.WriteMessage(websocket.TextMessage, data); err != nil {
			b.Fatal(err)
		}
		for {
			var f frame
			if err := s.conn.ReadJSON(&f); err != nil {
				b.Fatal(err)
			}
			if f.Type == TypeDecisions {
				break
			}
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkMemoryPerAttempt: heap held per tracked attempt (100 sessions,
// b.N attempts each, every attempt started and reporting).
func BenchmarkMemoryPerAttempt(b *testing.B) {
	const sessions = 100
	ts := benchServer(b)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	all := make([]*benchSession, sessions)
	for i := range all {
		all[i] = openBench(b, ts.url, i, b.N, "hadoop-legacy")
		if err := all[i].conn.WriteMessage(websocket.TextMessage, all[i].statusBatch(100)); err != nil {
			b.Fatal(err)
		}
	}
	for _, s := range all {
		if err := s.conn.WriteJSON(Ping{Type: TypePing}); err != nil {
			b.Fatal(err)
		}
		for {
			var f frame
			if err := s.conn.ReadJSON(&f); err != nil {
				b.Fatal(err)
			}
			if f.Type == TypePong {
				break
			}
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(sessions*b.N), "B/attempt")
	runtime.KeepAlive(all)
}
