package bridge

import (
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/sirupsen/logrus"
)

// BenchmarkGoodAMBesideAbusers: BenchmarkEventToDecision's probe (a good
// AM) while 200 abusive sessions send status batches as fast as their
// connections take them, with the default per-session and server-wide
// event budgets (fair share). Sub-benchmark "unfair" lifts the server-wide
// budget, as before fair sharing. Issue 14's target: the good AM's p99 at
// most 10 ms. Run with
//
//	go test ./bridge -run '^$' -bench GoodAMBesideAbusers -benchtime 2000x
func BenchmarkGoodAMBesideAbusers(b *testing.B) {
	for _, c := range []struct {
		name  string
		total float64
	}{{"fair", 0}, {"unfair", 1e12}} {
		b.Run(c.name, func(b *testing.B) {
			log := logrus.New()
			log.SetOutput(io.Discard)
			srv, err := NewServer(Config{Registry: testRegistry(b), Tokens: []string{testToken}, Log: log, MaxTotalEventsPerSecond: c.total})
			if err != nil {
				b.Fatal(err)
			}
			ts := &testServer{Server: srv}
			ts.http = newHTTPTestServer(srv)
			ts.url = "ws" + strings.TrimPrefix(ts.http.URL, "http") + Path
			defer ts.http.Close()
			const abusers = 200
			all := make([]*benchSession, abusers)
			for i := range all {
				all[i] = openBench(b, ts.url, i+1, 20, "hadoop-legacy")
			}
			probe := openBench(b, ts.url, 0, b.N, "test-straggler")
			probe.sync(b)
			stop := make(chan struct{})
			var wg sync.WaitGroup
			for _, s := range all {
				wg.Add(1)
				go func(s *benchSession) {
					defer wg.Done()
					go func() { // drain what the server sends
						for {
							if _, _, err := s.conn.ReadMessage(); err != nil {
								return
							}
						}
					}()
					for at := int64(600); ; at++ {
						select {
						case <-stop:
							return
						default:
						}
						if err := s.conn.WriteMessage(websocket.TextMessage, s.statusBatch(at)); err != nil {
							return
						}
					}
				}(s)
			}
			time.Sleep(time.Second) // every abuser is flooding
			lat := probe.probeAll(b)
			close(stop)
			for _, s := range all {
				_ = s.conn.Close()
			}
			wg.Wait()
			reportLatency(b, lat)
		})
	}
}
