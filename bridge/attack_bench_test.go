package bridge

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// BenchmarkPingBesideAttacks reports a good AM's ping round trip (p50, p99)
// while attackers on loopback do what issue 24 names, each attack in its
// own sub-benchmark: connections that never say hello (pre-hello), wrong
// tokens guessed in a loop (bad-logins), the authenticated hello whose
// counts overflow (overflowing-hello), and legal jobs past the memory
// budget (over-budget). Figures for the note; the behaviour each attack
// meets is asserted by the tests named in docs/operations-durability.md.
// Run with
//
//	GOMAXPROCS=2 go test ./bridge -run '^$' -bench PingBesideAttacks -benchtime 500x
func BenchmarkPingBesideAttacks(b *testing.B) {
	overflow := hello("job_1700000000000_0003", "none", 0, 0, nil)
	overflow.Maps, overflow.Reduces = 1099511627776, 9223372035755264033
	bad := hello("job_1700000000000_0004", "none", 1, 0, nil)
	bad.Token = "wrong-token-guess"
	big := hello("job_1700000000000_0005", "none", 1<<20, 0, nil)
	for _, c := range []struct {
		name   string
		attack func(ts *testServer, stop <-chan struct{})
	}{
		{"none", nil},
		{"pre-hello=200", func(ts *testServer, stop <-chan struct{}) {
			var conns []*websocket.Conn
			for i := 0; i < 200; i++ {
				if conn, _, err := websocket.DefaultDialer.Dial(ts.url, nil); err == nil {
					conns = append(conns, conn)
				}
			}
			<-stop
			for _, c := range conns {
				_ = c.Close()
			}
		}},
		{"bad-logins", loopHello(bad)},
		{"overflowing-hello", loopHello(overflow)},
		{"over-budget", loopHello(big)},
	} {
		b.Run(c.name, func(b *testing.B) {
			ts := startServer(b, func(cfg *Config) { cfg.MaxJobMemory = 64 << 20 })
			good, _ := open(b, ts, hello(testJob, "none", 10, 0, nil))
			stop := make(chan struct{})
			var wg sync.WaitGroup
			if c.attack != nil {
				for i := 0; i < 4; i++ {
					wg.Add(1)
					go func() { defer wg.Done(); c.attack(ts, stop) }()
				}
			}
			rtts := make([]time.Duration, 0, max(b.N, 200))
			for i := 0; i < max(b.N, 200); i++ {
				t0 := time.Now()
				good.alive()
				rtts = append(rtts, time.Since(t0))
			}
			close(stop)
			wg.Wait()
			slices.Sort(rtts)
			b.ReportMetric(float64(rtts[len(rtts)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(rtts[len(rtts)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}

// loopHello is an attacker that dials and says h until stopped, reading
// whatever the server answers.
func loopHello(h Hello) func(ts *testServer, stop <-chan struct{}) {
	return func(ts *testServer, stop <-chan struct{}) {
		for {
			select {
			case <-stop:
				return
			default:
			}
			conn, _, err := websocket.DefaultDialer.Dial(ts.url, nil)
			if err != nil {
				time.Sleep(time.Millisecond) // refused (rate limit): the next guess comes a little later
				continue
			}
			_ = conn.WriteJSON(h)
			_ = conn.SetReadDeadline(time.Now().Add(time.Second))
			_, _, _ = conn.ReadMessage()
			_ = conn.Close()
		}
	}
}
