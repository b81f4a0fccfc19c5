package bridge

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/sirupsen/logrus"
)

// Fairness is measured with three processes, as in production: the server
// (this test binary re-run with SPECBRIDGE_FAIR_ROLE=server), the flooding
// AMs (role abusers) and the good AM (the test itself), so that neither
// the abusers' client work nor the good AM's shares one Go scheduler with
// the server. A child exits when its stdin closes (the parent ended).
const fairRoleEnv = "SPECBRIDGE_FAIR_ROLE"

func TestMain(m *testing.M) {
	if role := os.Getenv(fairRoleEnv); role != "" {
		if err := runFairRole(role); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", role, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func runFairRole(role string) error {
	switch role {
	case "server":
		return runFairServer()
	case "abusers":
		return runAbusers()
	}
	return fmt.Errorf("unknown role %q", role)
}

func envInt(name string, def int) (int, error) {
	v := os.Getenv(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("%s=%q: %w", name, v, err)
	}
	return n, nil
}

// runFairServer serves on a free loopback port with the default limits
// (SPECBRIDGE_FAIR_BUSY sets MaxBusySessions, SPECBRIDGE_FAIR_TOTAL
// MaxTotalEventsPerSecond, SPECBRIDGE_FAIR_PACE SchedLatencyTarget, e.g.
// -1ns for no pacing) and prints its URL.
func runFairServer() error {
	busy, err := envInt("SPECBRIDGE_FAIR_BUSY", 0)
	if err != nil {
		return err
	}
	total, err := envInt("SPECBRIDGE_FAIR_TOTAL", 0)
	if err != nil {
		return err
	}
	var pace time.Duration
	if v := os.Getenv("SPECBRIDGE_FAIR_PACE"); v != "" {
		if pace, err = time.ParseDuration(v); err != nil {
			return fmt.Errorf("SPECBRIDGE_FAIR_PACE=%q: %w", v, err)
		}
	}
	reg, err := newTestRegistry()
	if err != nil {
		return err
	}
	log := logrus.New()
	log.SetOutput(io.Discard)
	srv, err := NewServer(Config{Registry: reg, Tokens: []string{testToken}, Log: log, MaxBusySessions: busy, MaxTotalEventsPerSecond: float64(total),
		SchedLatencyTarget: pace})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	go func() { _ = http.Serve(ln, srv.Handler()) }()
	fmt.Printf("http://%s\n", ln.Addr())
	_, _ = io.Copy(io.Discard, os.Stdin)
	return nil
}

// runAbusers opens SPECBRIDGE_FAIR_N sessions of 20 tasks to
// SPECBRIDGE_FAIR_URL, prints "flooding" and sends status batches on every
// one as fast as the server takes them, reading whatever it answers.
func runAbusers() error {
	n, err := envInt("SPECBRIDGE_FAIR_N", 50)
	if err != nil {
		return err
	}
	url := os.Getenv("SPECBRIDGE_FAIR_URL")
	all := make([]*benchSession, n)
	for i := range all {
		s, err := dialLoad(url, i+1, 20, "hadoop-legacy")
		if err != nil {
			return err
		}
		if err := s.startAll(); err != nil {
			return err
		}
		all[i] = s
	}
	for _, s := range all {
		go func() {
			for {
				if _, _, err := s.conn.ReadMessage(); err != nil {
					return
				}
			}
		}()
		go func() {
			for at := int64(600); ; at++ {
				if err := s.conn.WriteMessage(websocket.TextMessage, s.statusBatch(at)); err != nil {
					return
				}
			}
		}()
	}
	fmt.Println("flooding")
	_, _ = io.Copy(io.Discard, os.Stdin)
	return nil
}

// fairProc is a child process in one of the roles.
type fairProc struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	line  string // the first line it printed
}

// startFairProc runs this test binary in role with env and waits for its
// first line of output.
func startFairProc(tb testing.TB, role string, env ...string) *fairProc {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), fairRoleEnv+"="+role), env...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatalf("start %s: %v", role, err)
	}
	p := &fairProc{cmd: cmd, stdin: stdin}
	tb.Cleanup(p.stop)
	lines := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stdout)
		line, _ := r.ReadString('\n')
		lines <- strings.TrimSpace(line)
		_, _ = io.Copy(io.Discard, r)
	}()
	select {
	case p.line = <-lines:
	case <-time.After(60 * time.Second):
		tb.Fatalf("%s: no output within 60s", role)
	}
	if p.line == "" {
		tb.Fatalf("%s exited without output", role)
	}
	return p
}

// stop closes the child's stdin and waits for it; it is killed (by its
// pid, through cmd.Process) if it has not exited within 10 s.
func (p *fairProc) stop() {
	_ = p.stdin.Close()
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-done
	}
}

// metricValue reads one unlabelled sample from the server's /metrics.
func metricValue(tb testing.TB, base, name string) float64 {
	tb.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			v, err := strconv.ParseFloat(rest, 64)
			if err != nil {
				tb.Fatalf("metric %s: %v", name, err)
			}
			return v
		}
	}
	tb.Fatalf("metric %s not found at %s/metrics", name, base)
	return 0
}

// goodAMPause is the good AM's pause between probes: 100 probes a second,
// 400 tokens of its event budget (two frames of one event each), under its
// fair share of the server's budget (200,000/s over 201 sessions).
const goodAMPause = 10 * time.Millisecond

// fairRun is one measurement: the good AM's decide round trips beside
// abusers flooding sessions, and how many events the server took from all
// sessions meanwhile.
type fairRun struct {
	lat    []time.Duration // sorted
	events float64
	share  float64 // the fair queue's pacing share at the end (pace.go)
}

func (r fairRun) quantile(q float64) time.Duration { return r.lat[int(float64(len(r.lat)-1)*q)] }

// measureFairness starts a server (busy: its MaxBusySessions; pace: its
// SchedLatencyTarget, "" for SPECBRIDGE_FAIR_PACE or the default) and, if
// abusers > 0, the abusers' process, and times probes decide round trips
// of a good AM: it sends an event that makes one task a straggler and
// waits for the decision, goodAMPause apart.
func measureFairness(tb testing.TB, abusers, probes, busy int, pace string) fairRun {
	tb.Helper()
	srv := startFairProc(tb, "server", fmt.Sprintf("SPECBRIDGE_FAIR_BUSY=%d", busy), "SPECBRIDGE_FAIR_TOTAL="+os.Getenv("SPECBRIDGE_FAIR_TOTAL"),
		"SPECBRIDGE_FAIR_PACE="+pace)
	base := srv.line
	url := "ws" + strings.TrimPrefix(base, "http") + Path
	if abusers > 0 {
		ab := startFairProc(tb, "abusers", "SPECBRIDGE_FAIR_URL="+url, fmt.Sprintf("SPECBRIDGE_FAIR_N=%d", abusers))
		if ab.line != "flooding" {
			tb.Fatalf("abusers: %q", ab.line)
		}
	}
	good := openBench(tb, url, 0, probes, "test-straggler")
	good.sync(tb)
	if abusers > 0 {
		// Every abuser is flooding: wait until the server is busy with them.
		start := metricValue(tb, base, "specbridge_bridge_events_total")
		deadline := time.Now().Add(30 * time.Second)
		for metricValue(tb, base, "specbridge_bridge_events_total") < start+float64(abusers*20*10) {
			if time.Now().After(deadline) {
				tb.Fatal("the abusers did not get 10 batches each through in 30s")
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	before := metricValue(tb, base, "specbridge_bridge_events_total")
	var r fairRun
	r.lat = make([]time.Duration, 0, probes)
	if b, ok := tb.(*testing.B); ok {
		b.ResetTimer()
	}
	for i := 0; i < probes; i++ {
		r.lat = append(r.lat, good.probe(tb, i, 5000+int64(i)))
		time.Sleep(goodAMPause) // a well-behaved AM under its fair share
	}
	if b, ok := tb.(*testing.B); ok {
		b.StopTimer()
	}
	r.events = metricValue(tb, base, "specbridge_bridge_events_total") - before
	r.share = metricValue(tb, base, "specbridge_bridge_turn_share")
	_ = good.conn.Close()
	sort.Slice(r.lat, func(i, j int) bool { return r.lat[i] < r.lat[j] })
	return r
}
