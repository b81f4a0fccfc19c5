package bridge

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/specbridge/specbridge/cfa"
	"github.com/specbridge/specbridge/cfa/analyzer"
)

// residentBytes is the process's resident set size from /proc/self/statm,
// after a full GC that returns freed pages to the OS, so that it counts
// memory in use (heap, stacks, runtime metadata and fragmentation) rather
// than garbage the collector has not yet got to. 0 where /proc is absent.
func residentBytes() uint64 {
	runtime.GC()
	debug.FreeOSMemory()
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * uint64(os.Getpagesize())
}

// BenchmarkRSSPerAttempt1000AMs: resident memory per tracked attempt with
// 1,000 job sessions (AMs) of b.N attempts each, every attempt started (on
// one of 100 nodes, with its container id, as the java-shim reports it) and
// reporting, policy hadoop-legacy; "analyzer" with the fault analyzer as
// serve embeds it (cfa.Service with its record store in a directory), "none"
// without. RSS is read from /proc/self/statm once the sessions are open and
// again once every attempt is tracked, each time after a gathering round of
// the analyzer has committed its pending records (as one does every 5 s in
// serve: records waiting for it are a few seconds' arrivals, not per tracked
// attempt); the difference over the attempts is what an attempt costs the
// process (the in-process clients hold no per-attempt state).
// B/attempt-rss-with-sessions also counts the sessions' own cost (goroutines,
// websocket buffers, both ends of the loopback connections) spread over
// their attempts. B/attempt-heap is the live heap's share, as
// BenchmarkMemoryPerAttempt measures it. Run with
//
//	go test ./bridge -run '^$' -bench RSSPerAttempt1000AMs -benchtime 200x
func BenchmarkRSSPerAttempt1000AMs(b *testing.B) {
	for _, withAnalyzer := range []bool{true, false} {
		name := "none"
		if withAnalyzer {
			name = "analyzer"
		}
		b.Run(name, func(b *testing.B) { benchRSS(b, withAnalyzer) })
	}
}

func benchRSS(b *testing.B, withAnalyzer bool) {
	const sessions, nodes = 1000, 100
	if residentBytes() == 0 {
		b.Skip("no /proc/self/statm: RSS cannot be read here")
	}
	var feed Feed
	gather := func() {}
	if withAnalyzer {
		svc, err := cfa.NewService(cfa.ServiceConfig{Analyzer: analyzer.DefaultConfig(), Store: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		ran := make(chan error, 1)
		go func() { ran <- svc.Run(ctx) }()
		b.Cleanup(func() {
			cancel()
			if err := <-ran; err != nil {
				b.Errorf("analyzer: %v", err)
			}
		})
		feed = svc
		gather = func() {
			if err := svc.Tick(ctx); err != nil {
				b.Fatal(err)
			}
		}
	}
	ts := benchServer(b, func(c *Config) { c.Feed = feed })
	gather()
	rssIdle := residentBytes()
	all := make([]*benchSession, sessions)
	for i := range all {
		all[i] = dialBench(b, ts.url, i, b.N, "hadoop-legacy")
		all[i].sync(b)
	}
	gather()
	rss0, heap0 := residentBytes(), memInUse()
	for _, s := range all {
		for from := 0; from < s.maps; from += 1000 {
			evs := make([]WireEvent, 0, 2000)
			for m := from; m < min(s.maps, from+1000); m++ {
				attempt := fmt.Sprintf("attempt_%s_m_%06d_0", s.key, m)
				evs = append(evs, WireEvent{Kind: "attempt-started", Time: ms(0), Attempt: attempt,
					Node: fmt.Sprintf("worker-%d.example.com", m%nodes), Container: fmt.Sprintf("container_e17_%s_01_%06d", s.key, m+2)},
					WireEvent{Kind: "attempt-status", Time: ms(0), Attempt: attempt, Progress: 0.9})
			}
			if err := s.conn.WriteJSON(Events{Type: TypeEvents, Now: t0, Events: evs}); err != nil {
				b.Fatal(err)
			}
		}
		for from := 0; from < s.maps; from += 2000 {
			batch := s.statusBatchOf(100, from, min(s.maps, from+2000))
			if err := s.conn.WriteMessage(websocket.TextMessage, batch); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, s := range all {
		s.sync(b)
	}
	gather()
	rss1, heap1 := residentBytes(), memInUse()
	n := float64(sessions * b.N)
	b.ReportMetric(float64(int64(rss1-rss0))/n, "B/attempt-rss")
	b.ReportMetric(float64(int64(rss1-rssIdle))/n, "B/attempt-rss-with-sessions")
	b.ReportMetric(float64(int64(heap1-heap0))/n, "B/attempt-heap")
	runtime.KeepAlive(all)
	for _, s := range all {
		_ = s.conn.Close()
	}
}
