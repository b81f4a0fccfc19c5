//go:build faults

package main

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/specbridge/specbridge/internal/hammer"
)

// byeJob runs one short job through serve at addr: hello, an attempt
// start, a bye with a final state, then a ping. The pong answers after the
// job's end is committed (issue 24, item 4), so a job whose pong came is
// acknowledged as ended. It returns whether the pong came.
func byeJob(addr, job string) bool {
	c, _, err := websocket.DefaultDialer.Dial("ws://"+addr+"/v1/am", nil)
	if err != nil {
		return false
	}
	defer c.Close()
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	send := func(v any) bool { return c.WriteJSON(v) == nil }
	if !send(map[string]any{"type": "hello", "version": 1, "token": faultToken, "job": job, "speculator": "none", "maps": 1, "reduces": 0, "start": amT0, "now": amT0}) ||
		!send(map[string]any{"type": "events", "seq": 1, "now": amT0, "events": []map[string]any{{"kind": "attempt-started", "time": amT0,
			"attempt": "attempt_" + job[len("job_"):] + "_m_000000_0", "node": "h1", "container": "c1"}}}) ||
		!send(map[string]any{"type": "bye", "now": amT0 + 1, "state": "KILLED"}) ||
		!send(map[string]any{"type": "ping", "nonce": 1}) {
		return false
	}
	for {
		var f struct{ Type, Code string }
		if err := c.ReadJSON(&f); err != nil {
			return false
		}
		switch {
		case f.Type == "pong":
			return true
		case f.Type == "error" && f.Code == "job-end-failed":
			return false // told it is not durable: not acknowledged
		}
	}
}

// kill -9 of serve at random moments while AMs end jobs with a bye: every
// job whose bye was answered (the pong after it) is ended in the store
// after the restart (before: 125 of 1,248 answered job ends were on disk).
func TestFaultKillServeAfterBye(t *testing.T) {
	data := t.TempDir()
	tok := tokenFile(t, faultToken)
	addrFile := filepath.Join(t.TempDir(), "addr")
	var addr atomic.Value
	startServe := func() *proc {
		_ = os.Remove(addrFile)
		p := start(t, "serve", "--listen", "127.0.0.1:0", "--token-file", tok, "--data-dir", data, "--addr-file", addrFile,
			"--gather-interval", "1h", "--cfa-job-grace", "1h")
		addr.Store(waitAddr(t, p, addrFile))
		return p
	}
	p := startServe()
	var mu sync.Mutex
	var answered []string
	var next atomic.Int64
	load := hammer.Start(4, func(_, _ int) bool {
		job := fmt.Sprintf("job_1700000000000_%04d", next.Add(1))
		if byeJob(addr.Load().(string), job) {
			mu.Lock()
			answered = append(answered, job)
			mu.Unlock()
		}
		return true
	})
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	for round := 0; round < 5; round++ {
		time.Sleep(time.Duration(100+rng.Intn(300)) * time.Millisecond)
		p.kill9(t)
		p = startServe()
	}
	load.Stop()
	p.kill9(t)
	c, base := startCFA(t, filepath.Join(data, "cfa"), tok)
	ended := 0
	for _, job := range answered {
		if _, ok := jobAttempts(t, base, job); ok {
			ended++
		} else {
			t.Errorf("%s: its bye was answered, but the job is not ended in the store", job)
		}
	}
	c.term(t)
	if len(answered) == 0 {
		t.Fatal("no bye was answered")
	}
	fmt.Printf("FAULT kill -9 serve after byes (5 rounds, 4 AMs ending jobs): job ends acknowledged %d, recovered %d\n", len(answered), ended)
}
