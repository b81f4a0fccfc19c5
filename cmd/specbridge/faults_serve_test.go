//go:build faults

package main

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// fakeAM runs one job's maps through the sidecar as the java-shim would:
// it starts and finishes maps, proves each batch handled with a ping, and
// after losing the sidecar reconnects, says hello again and resyncs its
// whole state.
type fakeAM struct {
	t       *testing.T
	addr    func() string
	job     string
	maps    int
	started []int64 // start time per map, 0 = not started
	done    []int64 // finish time per map
	acked   map[string]bool
	conn    *websocket.Conn
	seq     int64
	now     int64
	resyncs int
}

// amT0 (the AMs' clock origin) is declared in dashboard_test.go, compiled with every tag.

func (a *fakeAM) attempt(i int) string {
	return fmt.Sprintf("attempt_%s_m_%06d_0", strings.TrimPrefix(a.job, "job_"), i)
}

// connect dials until the sidecar answers (up to 60 s), says hello and,
// after the first time, resyncs.
func (a *fakeAM) connect() error {
	deadline := time.Now().Add(60 * time.Second)
	for {
		c, _, err := websocket.DefaultDialer.Dial("ws://"+a.addr()+"/v1/am", nil)
		if err == nil {
			a.conn = c
			if err = a.handshake(); err == nil {
				return nil
			}
			c.Close()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: no sidecar for 60 s: %w", a.job, err)
		}
		time.Sleep(20 * time.Millisecond) // the sidecar is restarting
	}
}

func (a *fakeAM) handshake() error {
	_ = a.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	if err := a.conn.WriteJSON(map[string]any{"type": "hello", "version": 1, "token": faultToken, "job": a.job,
		"speculator": "late", "maps": a.maps, "reduces": 0, "start": amT0, "now": amT0 + a.now}); err != nil {
		return err
	}
	if _, err := a.until("welcome"); err != nil {
		return err
	}
	var atts []map[string]any
	for i := range a.started {
		if a.started[i] == 0 {
			continue
		}
		at := map[string]any{"attempt": a.attempt(i), "state": "RUNNING", "node": fmt.Sprintf("h%d", i%4), "start": a.started[i]}
		if a.done[i] != 0 {
			at["state"], at["finish"], at["progress"] = "SUCCEEDED", a.done[i], 1
		}
		atts = append(atts, at)
	}
	if len(atts) == 0 {
		return nil
	}
	if err := a.conn.WriteJSON(map[string]any{"type": "resync", "now": amT0 + a.now, "attempts": atts}); err != nil {
		return err
	}
	f, err := a.until("resynced")
	if err != nil {
		return err
	}
	if f.Rejected != 0 {
		a.t.Errorf("%s: resync rejected %d attempts", a.job, f.Rejected)
	}
	a.resyncs++
	return nil
}

// until reads frames until one of type typ (an error frame fails).
func (a *fakeAM) until(typ string) (amFrame, error) {
	for {
		var f amFrame
		if err := a.conn.ReadJSON(&f); err != nil {
			return f, err
		}
		if f.Type == "error" && f.Code != "shutting-down" {
			a.t.Errorf("%s: error frame %s: %s", a.job, f.Code, f.Text)
		}
		if f.Type == "error" && f.Fatal {
			return f, fmt.Errorf("fatal %s", f.Code)
		}
		if f.Type == typ {
			return f, nil
		}
	}
}

// step sends one batch (a start, or a finish) and waits for its pong;
// it reports whether the job is done.
func (a *fakeAM) step(rng *rand.Rand) (bool, error) {
	a.now += 100
	var evs []map[string]any
	var starts []string
	for i := range a.started {
		switch {
		case a.started[i] == 0:
			a.started[i] = amT0 + a.now
			evs = append(evs, map[string]any{"kind": "attempt-started", "time": a.started[i], "attempt": a.attempt(i),
				"node": fmt.Sprintf("h%d", i%4), "container": fmt.Sprintf("container_1_%04d", i)})
			starts = append(starts, fmt.Sprintf("m_%06d_0", i))
		case a.done[i] == 0 && rng.Intn(3) == 0:
			a.done[i] = amT0 + a.now
			evs = append(evs, map[string]any{"kind": "attempt-succeeded", "time": a.done[i], "attempt": a.attempt(i)})
		default:
			continue
		}
		break
	}
	finished := true
	for i := range a.done {
		finished = finished && a.done[i] != 0
	}
	if len(evs) == 0 {
		return finished, nil
	}
	a.seq++
	_ = a.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	if err := a.conn.WriteJSON(map[string]any{"type": "events", "seq": a.seq, "now": amT0 + a.now, "events": evs}); err != nil {
		return false, err
	}
	if err := a.conn.WriteJSON(map[string]any{"type": "ping", "nonce": a.seq}); err != nil {
		return false, err
	}
	if _, err := a.until("pong"); err != nil {
		return false, err
	}
	for _, s := range starts {
		a.acked[s] = true // the sidecar handled the batch
	}
	return finished, nil
}

// run drives the job to its end through any number of sidecar restarts.
func (a *fakeAM) run(seed int64) error {
	rng := rand.New(rand.NewSource(seed))
	if err := a.connect(); err != nil {
		return err
	}
	for {
		done, err := a.step(rng)
		if err != nil {
			a.conn.Close()
			if err := a.connect(); err != nil {
				return err
			}
			continue
		}
		if done {
			_ = a.conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""))
			a.conn.Close()
			return nil
		}
		time.Sleep(5 * time.Millisecond) // an AM's pace between reports
	}
}

// kill -9 of `specbridge serve` at random moments while 8 AMs run jobs
// (20 rounds): every AM reconnects and resyncs, every job finishes, and
// the analyzer's store (read back through `specbridge cfa`) holds every
// attempt start the sidecar acknowledged and every job's end.
func TestFaultKillServe(t *testing.T) {
	data := t.TempDir()
	tok := tokenFile(t, faultToken)
	addrFile := filepath.Join(t.TempDir(), "addr")
	var mu sync.Mutex
	addr := ""
	startServe := func() *proc {
		_ = os.Remove(addrFile)
		p := start(t, "serve", "--listen", "127.0.0.1:0", "--token-file", tok, "--data-dir", data, "--addr-file", addrFile,
			"--gather-interval", "100ms", "--cfa-job-grace", "1h")
		a := waitAddr(t, p, addrFile)
		mu.Lock()
		addr = a
		mu.Unlock()
		return p
	}
	p := startServe()
	const jobs, maps = 8, 60
	ams := make([]*fakeAM, jobs)
	errs := make(chan error, jobs)
	for j := range ams {
		ams[j] = &fakeAM{t: t, job: fmt.Sprintf("job_1700000000000_%04d", j+1), maps: maps,
			started: make([]int64, maps), done: make([]int64, maps), acked: map[string]bool{},
			addr: func() string { mu.Lock(); defer mu.Unlock(); return addr }}
		go func(a *fakeAM, seed int64) { errs <- a.run(seed) }(ams[j], int64(j))
	}
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	for round := 0; round < 20; round++ {
		time.Sleep(time.Duration(50+rng.Intn(250)) * time.Millisecond) // a random moment under load
		p.kill9(t)
		p = startServe()
	}
	for range ams {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	p.term(t)
	// Read the store back with the standalone analyzer.
	c, base := startCFA(t, filepath.Join(data, "cfa"), tok)
	acked, recovered, resyncs := 0, 0, 0
	for _, a := range ams {
		got, ended := jobAttempts(t, base, a.job)
		for id := range a.acked {
			acked++
			if got[id] {
				recovered++
			} else {
				t.Errorf("%s: acknowledged attempt %s lost", a.job, id)
			}
		}
		if !ended {
			t.Errorf("%s finished but is not ended in the analyzer", a.job)
		}
		resyncs += a.resyncs
	}
	c.term(t)
	fmt.Printf("FAULT kill -9 serve (20 rounds, %d jobs, %d resyncs): records acknowledged %d, recovered %d; jobs running %d, succeeded %d\n",
		jobs, resyncs, acked, recovered, jobs, jobs)
}
