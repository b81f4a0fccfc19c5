package bridge

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/specbridge/specbridge/cfa"
	"github.com/specbridge/specbridge/cfa/analyzer"
	"github.com/specbridge/specbridge/internal/hammer"
)

// fullDir is a real store directory whose writes fail with ENOSPC while
// full is set: a full disk, as the analyzer's store meets it.
type fullDir struct {
	cfa.Dir
	full atomic.Bool
}

func (d *fullDir) Append(name string, data []byte) error {
	if d.full.Load() {
		return fmt.Errorf("append %s: %w", name, syscall.ENOSPC)
	}
	return d.Dir.Append(name, data)
}

func (d *fullDir) WriteAtomic(name string, data []byte) error {
	if d.full.Load() {
		return fmt.Errorf("write %s: %w", name, syscall.ENOSPC)
	}
	return d.Dir.WriteAtomic(name, data)
}

// fullStoreServer is a bridge with an embedded analyzer (cfa.Service)
// whose store is a fullDir, and one turn slot (two cores' default).
func fullStoreServer(t testing.TB, maxPending int) (*testServer, *cfa.Service, *fullDir) {
	dir, err := cfa.OpenDir(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	fd := &fullDir{Dir: dir}
	quiet := logrus.New()
	quiet.SetOutput(io.Discard)
	svc, err := cfa.NewService(cfa.ServiceConfig{Analyzer: analyzer.DefaultConfig(), Dir: fd, MaxPending: maxPending, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, func(c *Config) {
		c.Feed, c.MaxBusySessions, c.MaxFeedQueue = svc, 1, 2000
		c.Health = svc.Health
	})
	return ts, svc, fd
}

// pingsBesideFullStore opens a writer AM whose events fill the analyzer's
// queue on a full disk (their records wait: the analyzer holds its sender
// back past maxPending), and a good AM that only pings; it returns the good
// AM's ping round trips. Each pong must come (within waitFor).
func pingsBesideFullStore(t testing.TB, pings int) (rtts []time.Duration, svc *cfa.Service) {
	ts, svc, fd := fullStoreServer(t, 100)
	fd.full.Store(true)
	const maps = 200
	writer, _ := open(t, ts, hello(testJob, "none", maps, 0, nil))
	var evs []WireEvent
	for i := 0; i < maps; i++ {
		evs = append(evs, started(1, fmt.Sprintf("m_%06d", i), 0, false))
	}
	writer.send(events(1, 1, evs...))
	// The writer AM keeps reporting; its frames wait once the queue is full.
	load := hammer.Start(1, func(_, i int) bool {
		seq := int64(i + 2)
		batch := make([]WireEvent, 0, 50)
		for i := 0; i < 50; i++ {
			batch = append(batch, status(seq*10, fmt.Sprintf("m_%06d", (int(seq)*50+i)%maps), 0, 0.5))
		}
		data := mustJSON(t, events(seq, seq*10, batch...))
		return writer.conn.WriteMessage(1, data) == nil
	})
	// Drain what the server sends the writer (throttle notices, decisions).
	go func() {
		for {
			if _, _, err := writer.conn.ReadMessage(); err != nil {
				return
			}
		}
	}()
	waitUntil(t, "the analyzer to hold its sender back on the full disk", func() bool {
		return feedWaits(t, ts) > 0
	})
	good, _ := open(t, ts, hello("job_1700000000000_0002", "none", 1, 0, nil))
	for i := 0; i < pings; i++ {
		t0 := time.Now()
		good.alive()
		rtts = append(rtts, time.Since(t0))
	}
	if svc.Health() == nil {
		t.Error("the analyzer reports no degraded store while its disk is full")
	}
	// The disk has room again: every waiting record is committed.
	fd.full.Store(false)
	_ = writer.conn.Close() // the writer's next write fails: its worker ends
	load.Stop()
	waitUntil(t, "the waiting records to be committed", func() bool { return svc.Flush() == nil && feedQueued(t, ts) == 0 })
	return rtts, svc
}

func feedWaits(t testing.TB, ts *testServer) float64 {
	return metricValue(t, ts.http.URL, "specbridge_bridge_feed_waits_total")
}

func feedQueued(t testing.TB, ts *testServer) float64 {
	return metricValue(t, ts.http.URL, "specbridge_bridge_feed_queued_events")
}

// Issue 24, item 2: a full disk under the embedded analyzer holds back
// the AM whose records wait, and no other: a good AM's every ping is
// answered while the writer's records wait (on today's main its pings
// stopped: the store's wait ran inside the writer's turn, the one slot).
// The round trips' p99 is measured by BenchmarkPingBesideFullStore.
func TestFullStoreStallsNoOtherAM(t *testing.T) {
	rtts, _ := pingsBesideFullStore(t, 50)
	if len(rtts) != 50 {
		t.Fatalf("%d pongs of 50", len(rtts))
	}
}

// BenchmarkPingBesideFullStore reports a good AM's ping round trip (p50,
// p99) while another AM's records wait for a full disk. Run with
// GOMAXPROCS=2 (issue 24's target: p99 under 10 ms on two cores).
func BenchmarkPingBesideFullStore(b *testing.B) {
	rtts, _ := pingsBesideFullStore(b, max(b.N, 200))
	slices.Sort(rtts)
	b.ReportMetric(float64(rtts[len(rtts)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(rtts[len(rtts)*99/100].Microseconds())/1000, "p99-ms")
}

func mustJSON(t testing.TB, v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Issue 24, item 4: a bye whose job end cannot be committed (the
// analyzer's disk is full) is told so before anything else is answered;
// on a store that works the next frame's answer comes once the end is
// committed, and nothing is said of it.
func TestByeSaysWhenTheJobEndIsNotDurable(t *testing.T) {
	ts, svc, fd := fullStoreServer(t, 100)
	am, _ := open(t, ts, hello(testJob, "none", 1, 0, nil))
	am.send(events(1, 1, started(1, "m_000000", 0, false)))
	fd.full.Store(true)
	am.send(Bye{Type: TypeBye, Now: t0 + 5, State: "FAILED"})
	am.send(Ping{Type: TypePing, Nonce: 7})
	f := am.expectError(CodeJobEndFailed)
	if f.Fatal || !strings.Contains(f.Text, "no space left on device") {
		t.Errorf("job-end-failed %+v: want it not fatal, naming the store's error", f)
	}
	if p := am.expect(TypePong); p.Nonce != 7 {
		t.Fatalf("pong %d", p.Nonce)
	}
	fd.full.Store(false)
	if err := svc.Flush(); err != nil {
		t.Fatal(err)
	}
	other, _ := open(t, ts, hello("job_1700000000000_0002", "none", 1, 0, nil))
	other.send(Bye{Type: TypeBye, Now: t0 + 5, State: "SUCCEEDED"})
	other.alive() // no job-end-failed: the pong is the next frame
}
