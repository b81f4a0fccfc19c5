//go:build faults

// The fault-injection suite (scripts/fault-injection.sh): real `specbridge`
// processes killed with SIGKILL at random moments under load, two servers
// racing for one data directory, a damaged segment, a read-only data
// directory. After each, every acknowledged record is present and every
// job that was running finished. Each test prints a FAULT line with the
// records acknowledged and recovered.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/specbridge/specbridge/internal/hammer"
)

// proc is a specbridge process.
type proc struct {
	cmd    *exec.Cmd
	out    *bytes.Buffer
	mu     *sync.Mutex
	exited chan error
}

type lockedBuffer struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (w lockedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func start(t *testing.T, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(binary, args...), out: &bytes.Buffer{}, mu: &sync.Mutex{}, exited: make(chan error, 1)}
	p.cmd.Stdout = lockedBuffer{p.mu, p.out}
	p.cmd.Stderr = lockedBuffer{p.mu, p.out}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.exited <- p.cmd.Wait() }()
	t.Cleanup(func() { _ = p.cmd.Process.Kill() })
	return p
}

func (p *proc) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

func (p *proc) kill9(t *testing.T) {
	t.Helper()
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.exited
}

func (p *proc) term(t *testing.T) {
	t.Helper()
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.exited:
		if err != nil {
			t.Fatalf("%v after SIGTERM: %v\n%s", p.cmd.Args[1], err, p.output())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("no exit 30 s after SIGTERM\n%s", p.output())
	}
}

// waitAddr waits for the address file a process writes once it listens.
func waitAddr(t *testing.T, p *proc, file string) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if b, err := os.ReadFile(file); err == nil && len(b) > 0 {
			return strings.TrimSpace(string(b))
		}
		select {
		case err := <-p.exited:
			t.Fatalf("exited at start: %v\n%s", err, p.output())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no address within 20 s\n%s", p.output())
		}
		time.Sleep(10 * time.Millisecond) // polling for the file the process writes
	}
}

// startCFA starts `specbridge cfa` on store and returns it with its URL.
func startCFA(t *testing.T, store, token string) (*proc, string) {
	t.Helper()
	addrFile := filepath.Join(t.TempDir(), "addr")
	p := start(t, "cfa", "--listen", "127.0.0.1:0", "--store", store, "--token-file", token, "--addr-file", addrFile,
		"--gather-interval", "200ms")
	return p, "http://" + waitAddr(t, p, addrFile)
}

func apiDo(base, method, path string, body any) (int, []byte, error) {
	var rd *bytes.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	} else {
		rd = bytes.NewReader(nil)
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+faultToken)
	c := http.Client{Timeout: 10 * time.Second}
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(resp.Body)
	return resp.StatusCode, buf.Bytes(), nil
}

const faultToken = "fault-token"

// jobAttempts reads a job's attempts (job-relative ids) and whether it ended.
func jobAttempts(t *testing.T, base, job string) (map[string]bool, bool) {
	t.Helper()
	code, body, err := apiDo(base, "GET", "/v1/jobs/"+job, nil)
	if err != nil || code == http.StatusNotFound {
		return map[string]bool{}, false
	}
	if code != http.StatusOK {
		t.Fatalf("GET job %s: HTTP %d %s", job, code, body)
	}
	var out struct {
		Job struct {
			Ended    int64                      `json:"ended"`
			Attempts map[string]json.RawMessage `json:"attempts"`
		} `json:"job"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for a := range out.Job.Attempts {
		got[a] = true
	}
	return got, out.Job.Ended != 0
}

// kill -9 of `specbridge cfa` at random moments while loaders post events
// (20 rounds): every event post answered 204 (durable) is in the store
// after the restart.
func TestFaultKillCFA(t *testing.T) {
	store := filepath.Join(t.TempDir(), "cfa")
	tok := tokenFile(t, faultToken)
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	const jobs = 4
	var mu sync.Mutex
	acked := map[string]map[string]bool{}
	next := make([]int, jobs)
	for round := 0; round < 20; round++ {
		p, base := startCFA(t, store, tok)
		if round > 0 {
			checkAcked(t, base, acked, &mu, fmt.Sprintf("round %d", round))
		}
		load := hammer.Start(jobs, func(j, _ int) bool { // worker j posts job j+1's attempts
			job := fmt.Sprintf("job_1700000000000_%04d", j+1)
			var evs []map[string]any
			var ids []string
			for k := 0; k < 5; k++ {
				id := fmt.Sprintf("m_%06d_0", next[j])
				next[j]++
				ids = append(ids, id)
				evs = append(evs, map[string]any{"kind": "attempt-started", "time": 1_700_000_000_000 + next[j], "attempt": id, "node": fmt.Sprintf("h%d", k)})
			}
			code, _, err := apiDo(base, "POST", "/v1/jobs/"+job+"/events", evs)
			if err == nil && code == http.StatusNoContent {
				mu.Lock()
				if acked[job] == nil {
					acked[job] = map[string]bool{}
				}
				for _, id := range ids {
					acked[job][id] = true
				}
				mu.Unlock()
			}
			return true
		})
		time.Sleep(time.Duration(50+rng.Intn(400)) * time.Millisecond) // a random moment under load
		p.kill9(t)
		load.Stop()
	}
	p, base := startCFA(t, store, tok)
	n, rec := checkAcked(t, base, acked, &mu, "final")
	for j := 0; j < jobs; j++ {
		job := fmt.Sprintf("job_1700000000000_%04d", j+1)
		if code, body, err := apiDo(base, "POST", "/v1/jobs/"+job+"/end", nil); err != nil || code != http.StatusNoContent {
			t.Fatalf("end %s: %v %d %s", job, err, code, body)
		}
	}
	p.term(t)
	fmt.Printf("FAULT kill -9 cfa (20 rounds): records acknowledged %d, recovered %d\n", n, rec)
}

// checkAcked checks that every acknowledged attempt is in the store.
func checkAcked(t *testing.T, base string, acked map[string]map[string]bool, mu *sync.Mutex, when string) (n, recovered int) {
	t.Helper()
	mu.Lock()
	defer mu.Unlock()
	for job, ids := range acked {
		got, _ := jobAttempts(t, base, job)
		for id := range ids {
			n++
			if got[id] {
				recovered++
			} else {
				t.Errorf("%s: acknowledged attempt %s of %s lost", when, id, job)
			}
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	return n, recovered
}

// Two servers started at once on one data directory: exactly one runs;
// the other exits at once naming the directory and the owner's pid and
// host (5 races).
func TestFaultTwoServersRace(t *testing.T) {
	tok := tokenFile(t, faultToken)
	host, _ := os.Hostname()
	for race := 0; race < 5; race++ {
		data := t.TempDir()
		var ps []*proc
		var addrs []string
		for i := 0; i < 2; i++ {
			a := filepath.Join(t.TempDir(), "addr")
			addrs = append(addrs, a)
			ps = append(ps, start(t, "serve", "--listen", "127.0.0.1:0", "--token-file", tok, "--data-dir", data, "--addr-file", a))
		}
		var loser, winner int
		select {
		case err := <-ps[0].exited:
			loser, winner = 0, 1
			ps[0].exited <- err
		case err := <-ps[1].exited:
			loser, winner = 1, 0
			ps[1].exited <- err
		case <-time.After(20 * time.Second):
			t.Fatalf("race %d: both servers still running on %s", race, data)
		}
		err := <-ps[loser].exited
		out := ps[loser].output()
		owner := fmt.Sprintf("pid %d on host %s", ps[winner].cmd.Process.Pid, host)
		if err == nil || !strings.Contains(out, data) || !strings.Contains(out, owner) {
			t.Fatalf("race %d: the second server: %v\n%s\n(want the directory and %q)", race, err, out, owner)
		}
		waitAddr(t, ps[winner], addrs[winner])
		ps[winner].term(t)
	}
	fmt.Println("FAULT two servers racing for one data directory (5 races): one ran, the other exited naming the owner; records acknowledged 0, recovered 0 (no writes by the loser)")
}

// A damaged byte in the middle of a segment: the analyzer still starts,
// skips exactly the damaged frame and loads every later record; fsck
// reports it.
func TestFaultDamagedSegment(t *testing.T) {
	store := filepath.Join(t.TempDir(), "cfa")
	tok := tokenFile(t, faultToken)
	p, base := startCFA(t, store, tok)
	acked := map[string]map[string]bool{"job_1700000000000_0001": {}}
	for i := 0; i < 200; i++ {
		id := fmt.Sprintf("m_%06d_0", i)
		code, body, err := apiDo(base, "POST", "/v1/jobs/job_1700000000000_0001/events",
			[]map[string]any{{"kind": "attempt-started", "time": 1_700_000_000_000 + i, "attempt": id, "node": "h1"}})
		if err != nil || code != http.StatusNoContent {
			t.Fatalf("post: %v %d %s", err, code, body)
		}
		acked["job_1700000000000_0001"][id] = true
	}
	p.kill9(t) // no snapshot: the records stay in the segment
	seg, b := firstSegment(t, store, 1)
	at := len(b) / 2
	b[at] ^= 0x5a
	if err := os.WriteFile(seg, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := run(t, "cfa", "fsck", "--output", "json", store)
	var rep struct {
		Records       int   `json:"records"`
		DamagedFrames int   `json:"damaged_frames"`
		TornBytes     int64 `json:"torn_bytes"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 1 || rep.DamagedFrames != 1 || rep.TornBytes != 0 {
		t.Fatalf("fsck of a damaged segment: exit %d, %s", code, out)
	}
	p, base = startCFA(t, store, tok)
	got, _ := jobAttempts(t, base, "job_1700000000000_0001")
	lost := 0
	for id := range acked["job_1700000000000_0001"] {
		if !got[id] {
			lost++
		}
	}
	// One frame damaged: one record (an attempt start, or the job start,
	// whose loss the later records survive).
	if lost > 1 || !strings.Contains(p.output(), "damaged frame") {
		t.Fatalf("%d acknowledged records lost to one damaged byte\n%s", lost, p.output())
	}
	p.term(t)
	fmt.Printf("FAULT damaged segment (one byte flipped mid-file): records acknowledged %d, recovered %d, physically damaged %d (its frame skipped, every later one loaded)\n",
		len(acked["job_1700000000000_0001"]), len(acked["job_1700000000000_0001"])-lost, lost)
}

// A read-only data directory: serve refuses to start, naming the
// directory (not a crash later, not a silent in-memory run).
func TestFaultReadOnlyDataDir(t *testing.T) {
	tok := tokenFile(t, faultToken)
	data := filepath.Join(t.TempDir(), "ro")
	if err := os.MkdirAll(data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(data, 0o555); err != nil {
		t.Fatal(err)
	}
	args := []string{"serve", "--listen", "127.0.0.1:0", "--token-file", tok, "--data-dir", data}
	var cmd *exec.Cmd
	if os.Geteuid() == 0 {
		// root writes anywhere: run as nobody, for whom the directory is read-only.
		for _, d := range []string{filepath.Dir(binary), filepath.Dir(tok), filepath.Dir(data), filepath.Dir(filepath.Dir(data))} {
			_ = os.Chmod(d, 0o755)
		}
		_ = os.Chmod(tok, 0o644)
		cmd = exec.Command("setpriv", append([]string{"--reuid=65534", "--regid=65534", "--clear-groups", binary}, args...)...)
	} else {
		cmd = exec.Command(binary, args...)
	}
	done := make(chan struct{})
	var out []byte
	var err error
	go func() { out, err = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("serve on a read-only data directory still running after 20 s")
	}
	if err == nil || !strings.Contains(string(out), data) {
		t.Fatalf("serve on a read-only data directory: %v\n%s", err, out)
	}
	fmt.Printf("FAULT read-only data directory: serve exited at start naming it (%s); records acknowledged 0, recovered 0\n", firstLine(string(out)))
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndex(s, "\n"); i >= 0 {
		s = s[i+1:]
	}
	return s
}
