package bridge

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/sirupsen/logrus"
)

// Load benchmarks over a real loopback websocket (PROTOCOL.md). Run with
//
//	go test ./bridge -run '^$' -bench StatusUpdates1000Sessions -benchtime 2000000x
//	go test ./bridge -run '^$' -bench EventToDecision -benchtime 5000x
//	go test ./bridge -run '^$' -bench MemoryPerAttempt -benchtime 1000x
//
// (scripts/bench-bridge.sh runs them and prints the three numbers) and
// quote the numbers in notes; they are not asserted.

// benchServer starts a server with a real clock and quiet logs.
func benchServer(b *testing.B, opts ...func(*Config)) *testServer {
	b.Helper()
	reg := testRegistry(b)
	log := logrus.New()
	log.SetOutput(io.Discard)
	if testing.Verbose() {
		log.SetOutput(testWriter{b})
	}
	cfg := Config{Registry: reg, Tokens: []string{testToken}, Log: log, MaxEventsPerSecond: 1e9, MaxTotalEventsPerSecond: 1e12}
	for _, o := range opts {
		o(&cfg)
	}
	srv, err := NewServer(cfg)
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

// dialBench opens a session for job i with maps map tasks.
func dialBench(b testing.TB, url string, i, maps int, speculator string) *benchSession {
	b.Helper()
	s, err := dialLoad(url, i, maps, speculator)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// dialLoad is dialBench for a load generator without a testing.TB.
func dialLoad(url string, i, maps int, speculator string) (*benchSession, error) {
	conn, resp, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", url, err)
	}
	_ = resp.Body.Close()
	job := fmt.Sprintf("job_1700000000000_%04d", i+1)
	h := hello(job, speculator, maps, 0, nil)
	h.Now = 0
	if err := conn.WriteJSON(h); err != nil {
		return nil, fmt.Errorf("hello %s: %w", job, err)
	}
	var w frame
	if err := conn.ReadJSON(&w); err != nil || w.Type != TypeWelcome {
		return nil, fmt.Errorf("welcome %+v for %s: %v", w, job, err)
	}
	return &benchSession{conn: conn, key: strings.TrimPrefix(job, "job_"), maps: maps}, nil
}

func openBench(b testing.TB, url string, i, maps int, speculator string) *benchSession {
	b.Helper()
	s := dialBench(b, url, i, maps, speculator)
	if err := s.startAll(); err != nil {
		b.Fatal(err)
	}
	return s
}

// startAll starts every attempt of the session's job.
func (s *benchSession) startAll() error {
	// Every attempt starts at t0 and reports progress 0.9: nobody straggles yet.
	// Batches of at most 2,000 events keep every frame under the frame limit.
	for from := 0; from < s.maps; from += 1000 {
		evs := make([]WireEvent, 0, 2000)
		for m := from; m < min(s.maps, from+1000); m++ {
			attempt := fmt.Sprintf("attempt_%s_m_%06d_0", s.key, m)
			evs = append(evs, WireEvent{Kind: "attempt-started", Time: ms(0), Attempt: attempt, Node: "n"},
				WireEvent{Kind: "attempt-status", Time: ms(0), Attempt: attempt, Progress: 0.9})
		}
		if err := s.conn.WriteJSON(Events{Type: TypeEvents, Now: t0, Events: evs}); err != nil {
			return fmt.Errorf("start attempts: %w", err)
		}
	}
	return nil
}

// sync returns once the server has processed every frame sent so far.
func (s *benchSession) sync(b testing.TB) {
	if err := s.conn.WriteJSON(Ping{Type: TypePing}); err != nil {
		b.Fatal(err)
	}
	s.skipTo(b, TypePong)
}

// skipTo reads frames until one of type typ and returns it.
func (s *benchSession) skipTo(b testing.TB, typ string) frame {
	for {
		var f frame
		if err := s.conn.ReadJSON(&f); err != nil {
			b.Fatal(err)
		}
		if f.Type == typ {
			return f
		}
	}
}

// memInUse is the heap and the goroutine stacks in use after a GC.
func memInUse() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC() // the second empties sync.Pools' victim caches
	runtime.ReadMemStats(&m)
	return m.HeapAlloc + m.StackInuse
}

// cpuTime is the CPU time (user and system) the process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// statusBatch encodes one status update per attempt at time at.
func (s *benchSession) statusBatch(at int64) []byte { return s.statusBatchOf(at, 0, s.maps) }

// statusBatchOf encodes one status update for each of maps [from, to).
func (s *benchSession) statusBatchOf(at int64, from, to int) []byte {
	evs := make([]WireEvent, 0, to-from)
	for m := from; m < to; m++ {
		evs = append(evs, WireEvent{Kind: "attempt-status", Time: ms(at), Attempt: fmt.Sprintf("attempt_%s_m_%06d_0", s.key, m),
			Progress: 0.9, Phase: "MAP", Counters: &Counters{InputBytes: at, CPUMillis: at}})
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
	start, cpu := time.Now(), cpuTime(b)
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
	el, cpu := time.Since(start), cpuTime(b)-cpu
	b.StopTimer()
	total := float64(batches * sessions * maps)
	b.ReportMetric(total/el.Seconds(), "updates/s")
	// CPU time per update (server and the in-process clients together) is
	// steadier than the rate on a shared machine.
	b.ReportMetric(float64(cpu.Nanoseconds())/total, "cpu-ns/update")
	for _, s := range all {
		_ = s.conn.Close()
	}
}

// BenchmarkEventToDecision: time from writing an event batch that makes a
// task a straggler to reading the decision frame, one session, loopback.
// Each iteration makes a new task a straggler and, untimed, then ends it, so
// that the policy's work per decision does not grow with b.N.
func BenchmarkEventToDecision(b *testing.B) {
	ts := benchServer(b)
	s := openBench(b, ts.url, 0, b.N, "test-straggler")
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		lat = append(lat, s.probe(b, i, 5000+int64(i)))
	}
	b.StopTimer()
	reportLatency(b, lat)
}

// BenchmarkEventToDecisionUnderLoad: BenchmarkEventToDecision's probe while
// 1,000 other sessions send 100,000 status updates per second (a batch of 20
// every 200 ms each, spread evenly), the target rate of issue 3.
func BenchmarkEventToDecisionUnderLoad(b *testing.B) {
	const sessions, maps, every = 1000, 20, 200 * time.Millisecond
	ts := benchServer(b)
	all := make([]*benchSession, sessions)
	for i := range all {
		all[i] = openBench(b, ts.url, i+1, maps, "hadoop-legacy")
	}
	probe := openBench(b, ts.url, 0, b.N, "test-straggler")
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i, s := range all {
		wg.Add(1)
		go func(s *benchSession, batch []byte, offset time.Duration) {
			defer wg.Done()
			time.Sleep(offset)
			tick := time.NewTicker(every)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
				}
				if err := s.conn.WriteMessage(websocket.TextMessage, batch); err != nil {
					b.Error(err)
					return
				}
			}
		}(s, s.statusBatch(500), every*time.Duration(i)/sessions)
	}
	time.Sleep(2 * every) // every session is sending
	lat := probe.probeAll(b)
	close(stop)
	wg.Wait()
	reportLatency(b, lat)
	for _, s := range all {
		_ = s.conn.Close()
	}
}

// probeAll times b.N probes, 1 ms apart, inside the benchmark's timer and
// returns their latencies.
func (s *benchSession) probeAll(b *testing.B) []time.Duration {
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		lat = append(lat, s.probe(b, i, 5000+int64(i)))
		time.Sleep(time.Millisecond)
	}
	b.StopTimer()
	return lat
}

// probe makes map task i (started by openBench at progress 0.9) a straggler
// at time at, returns how long its decision took to arrive, and then ends the
// attempt, untimed.
func (s *benchSession) probe(b testing.TB, i int, at int64) time.Duration {
	attempt := fmt.Sprintf("attempt_%s_m_%06d_0", s.key, i)
	data, _ := json.Marshal(Events{Type: TypeEvents, Now: t0 + at, Events: []WireEvent{{Kind: "attempt-status", Time: ms(at),
		Attempt: attempt, Progress: 0.01}}})
	done, _ := json.Marshal(Events{Type: TypeEvents, Now: t0 + at, Events: []WireEvent{{Kind: "attempt-succeeded", Time: ms(at),
		Attempt: attempt}}})
	task := fmt.Sprintf("task_%s_m_%06d", s.key, i)
	start := time.Now()
	if err := s.conn.WriteMessage(websocket.TextMessage, data); err != nil {
		b.Fatal(err)
	}
	f := s.skipTo(b, TypeDecisions)
	el := time.Since(start)
	if len(f.Decisions) != 1 || f.Decisions[0].Task != task {
		b.Fatalf("decisions %+v, want one for %s", f.Decisions, task)
	}
	if err := s.conn.WriteMessage(websocket.TextMessage, done); err != nil {
		b.Fatal(err)
	}
	return el
}

func reportLatency(b *testing.B, lat []time.Duration) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkMemoryPerAttempt: memory (heap and goroutine stacks) the process
// holds per tracked attempt, all included (100 sessions, b.N attempts each,
// every attempt started and reporting); and, separately, per open session of
// a one-task job (this includes the in-process client's end of the
// connection, so it overstates the sidecar's share).
func BenchmarkMemoryPerAttempt(b *testing.B) {
	const sessions = 100
	ts := benchServer(b)
	before := memInUse()
	small := make([]*benchSession, sessions)
	for i := range small {
		small[i] = dialBench(b, ts.url, sessions+i, 1, "hadoop-legacy")
		small[i].sync(b)
	}
	opened := memInUse()
	all := make([]*benchSession, sessions)
	for i := range all {
		s := dialBench(b, ts.url, i, b.N, "hadoop-legacy")
		if err := s.startAll(); err != nil {
			b.Fatal(err)
		}
		// At most 2,000 updates a frame keeps every frame under the limit.
		for from := 0; from < s.maps; from += 2000 {
			batch := s.statusBatchOf(100, from, min(s.maps, from+2000))
			if err := s.conn.WriteMessage(websocket.TextMessage, batch); err != nil {
				b.Fatal(err)
			}
		}
		s.sync(b)
		all[i] = s
	}
	tracked := memInUse()
	b.ReportMetric(float64(int64(tracked-opened))/float64(sessions*b.N), "B/attempt")
	b.ReportMetric(float64(int64(opened-before))/float64(sessions), "B/session")
	runtime.KeepAlive(all)
	runtime.KeepAlive(small)
}
