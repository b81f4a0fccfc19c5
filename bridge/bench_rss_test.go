package bridge

import (
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

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
// 1,000 job sessions (AMs) of b.N attempts each, every attempt started and
// reporting, policy hadoop-legacy; "analyzer" with the fault analyzer
// (cfa.Service, in memory) fed by every session, "none" without. RSS is
// read from /proc/self/statm after the sessions are open and again once
// every attempt is tracked; the difference over the attempts is what an
// attempt costs the process (the in-process clients hold no per-attempt
// state). B/attempt-rss-with-sessions also counts the sessions' own cost
// spread over their attempts. B/attempt-heap is the live heap's share, for comparison with
// BenchmarkMemoryPerAttempt. Run with
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
	const sessions = 1000
	if residentBytes() == 0 {
		b.Skip("no /proc/self/statm: RSS cannot be read here")
	}
	var feed Feed
	if withAnalyzer {
		svc, err := cfa.NewService(cfa.ServiceConfig{Analyzer: analyzer.DefaultConfig(), Gather: time.Second})
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
	}
	ts := benchServer(b, func(c *Config) { c.Feed = feed })
	rssIdle := residentBytes()
	all := make([]*benchSession, sessions)
	for i := range all {
		all[i] = dialBench(b, ts.url, i, b.N, "hadoop-legacy")
		all[i].sync(b)
	}
	rss0, heap0 := residentBytes(), memInUse()
	for _, s := range all {
		s.startAll(b)
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
	rss1, heap1 := residentBytes(), memInUse()
	n := float64(sessions * b.N)
	b.ReportMetric(float64(int64(rss1-rss0))/n, "B/attempt-rss")
	b.ReportMetric(float64(int64(heap1-heap0))/n, "B/attempt-heap")
	// Everything since the idle server, sessions included, over the
	// attempts: the per-session cost (goroutines, websocket buffers, on
	// both ends of the loopback connections) shared by the job's attempts.
	b.ReportMetric(float64(int64(rss1-rssIdle))/n, "B/attempt-rss-with-sessions")
	runtime.KeepAlive(all)
	for _, s := range all {
		_ = s.conn.Close()
	}
}
