package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/specbridge/specbridge/cfa"
	"github.com/specbridge/specbridge/cfa/analyzer"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/detect"
)

// jobN is the test job id number n; attemptOf its attempt of task.
func jobN(n int) string { return fmt.Sprintf("job_1700000000000_%04d", n) }

func attemptOf(n int, task string, a int) string {
	return fmt.Sprintf("attempt_1700000000000_%04d_%s_%d", n, task, a)
}

// reader collects a client's frames on a goroutine, so that a test can send
// while decisions arrive.
type reader struct {
	frames chan frame
	done   chan struct{}
}

func readAll(c *client) *reader {
	r := &reader{frames: make(chan frame, 256), done: make(chan struct{})}
	go func() {
		defer close(r.done)
		for {
			_ = c.conn.SetReadDeadline(time.Now().Add(30 * time.Second))
			_, data, err := c.conn.ReadMessage()
			if err != nil {
				close(r.frames)
				return
			}
			var f frame
			if json.Unmarshal(data, &f) == nil {
				r.frames <- f
			}
		}
	}()
	return r
}

// decisions returns the decisions received within d.
func (r *reader) decisions(d time.Duration) []WireDecision {
	var out []WireDecision
	r.read(d, func(f frame) bool {
		out = append(out, f.Decisions...)
		return false
	})
	return out
}

// firstDecision waits up to d for a decisions frame.
func (r *reader) firstDecision(d time.Duration) []WireDecision {
	var out []WireDecision
	r.read(d, func(f frame) bool {
		if f.Type == TypeDecisions {
			out = f.Decisions
			return true
		}
		return false
	})
	return out
}

// read hands each frame received within d to take until take says it is
// done or the connection closes.
func (r *reader) read(d time.Duration, take func(frame) bool) {
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		select {
		case f, ok := <-r.frames:
			if !ok || take(f) {
				return
			}
		case <-timer.C:
			return
		}
	}
}

// The analyzer's live service and its HTTP client are Feeds.
var (
	_ Feed = (*cfa.Service)(nil)
	_ Feed = (*cfa.Remote)(nil)
)

// The embedded fault analyzer over real websockets: jobs 1 and 2 have an
// attempt on node "shared", job 3 has none. "shared" goes silent (its
// attempts stop reporting) while every other node keeps reporting; the
// analyzer, gathering every 50 ms with a 300 ms initial threshold, declares
// it failed, and both jobs on it, running tws, get a speculative copy of
// their stalled task; job 3 gets nothing.
func TestFeedNodeFailureReachesEveryJobOnTheNode(t *testing.T) {
	an := analyzer.DefaultConfig()
	an.Gap = 100
	an.Detect = detect.Config{Window: 5, Base: 2, Initial: 300, Floor: 0}
	svc, err := cfa.NewService(cfa.ServiceConfig{Analyzer: an, Gather: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- svc.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-ran; err != nil {
			t.Errorf("analyzer: %v", err)
		}
	}()
	ts := startServer(t, func(c *Config) { c.Feed = svc })

	type job struct {
		n       int
		c       *client
		r       *reader
		alive   []string // attempts on live nodes: they keep reporting
		stalled string   // attempt on "shared", if any
	}
	var jobs []*job
	for n, layout := range []map[string]string{
		1: {"m_000000": "shared", "m_000001": "node-a"},
		2: {"m_000000": "shared"},
		3: {"m_000000": "node-c"},
	} {
		if layout == nil {
			continue
		}
		h := hello(jobN(n), "tws", len(layout), 0, nil)
		c, _ := open(t, ts, h)
		j := &job{n: n, c: c}
		var evs []WireEvent
		for task, node := range layout {
			id := attemptOf(n, task, 0)
			evs = append(evs, WireEvent{Kind: "attempt-started", Time: ms(0), Attempt: id, Node: node, Container: "container_1"},
				WireEvent{Kind: "attempt-status", Time: ms(1000), Attempt: id, Progress: 0.3})
			if node == "shared" {
				j.stalled = id
			} else {
				j.alive = append(j.alive, id)
			}
		}
		c.send(events(1, 1000, evs...))
		j.r = readAll(c)
		jobs = append(jobs, j)
	}

	// Live nodes report every 30 ms (AM clock moving on by as much);
	// "shared" says nothing more.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for _, j := range jobs {
		if len(j.alive) == 0 {
			continue
		}
		wg.Add(1)
		go func(j *job) {
			defer wg.Done()
			for i := int64(1); ; i++ {
				select {
				case <-stop:
					return
				case <-time.After(30 * time.Millisecond):
				}
				var evs []WireEvent
				for _, id := range j.alive {
					evs = append(evs, WireEvent{Kind: "attempt-status", Time: ms(1000 + 30*i), Attempt: id, Progress: 0.3 + 0.0001*float64(i)})
				}
				data, _ := json.Marshal(events(i+1, 1000+30*i, evs...))
				_ = j.c.conn.SetWriteDeadline(time.Now().Add(waitFor))
				if j.c.conn.WriteMessage(1, data) != nil {
					return
				}
			}
		}(j)
	}
	defer func() { close(stop); wg.Wait() }()

	for _, j := range jobs[:2] {
		ds := j.r.firstDecision(10 * time.Second)
		if len(ds) != 1 || ds[0].Kind != "speculate" || ds[0].Task != "task_1700000000000_"+fmt.Sprintf("%04d", j.n)+"_m_000000" {
			t.Fatalf("job %d: decisions %+v, want one speculate of its task on the failed node", j.n, ds)
		}
		t.Logf("job %d: %s: %s", j.n, ds[0].Kind, ds[0].Reason)
	}
	if ds := jobs[2].r.decisions(700 * time.Millisecond); len(ds) != 0 {
		t.Fatalf("job 3, with no work on the failed node, got %+v", ds)
	}
	var failed bool
	svc.View(func(st *analyzer.State, _ func(speculators.NodeID) analyzer.Time) {
		nr := st.Nodes["shared"]
		failed = nr != nil && nr.Open != nil && nr.Open.Failed != 0 && len(nr.Open.Told) == 2
	})
	if !failed {
		t.Fatal("the analyzer's records do not show node shared failed with two jobs told")
	}
}

// recordingFeed is a Feed that records calls and lets the test deliver node
// events.
type recordingFeed struct {
	mu       sync.Mutex
	observed map[string][]speculators.Event
	subs     map[string]func(speculators.Event)
	ended    []string
	endedCh  chan string
}

func newRecordingFeed() *recordingFeed {
	return &recordingFeed{observed: map[string][]speculators.Event{}, subs: map[string]func(speculators.Event){},
		endedCh: make(chan string, 16)}
}

func (f *recordingFeed) Observe(job string, ev speculators.Event) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ev.FetchFailedMaps = nil // the session's batch storage is recycled
	f.observed[job] = append(f.observed[job], ev)
}

func (f *recordingFeed) Subscribe(job string, deliver func(speculators.Event)) func() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.subs[job] = deliver
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		delete(f.subs, job)
	}
}

func (f *recordingFeed) EndJob(job string) error {
	f.mu.Lock()
	f.ended = append(f.ended, job)
	f.mu.Unlock()
	f.endedCh <- job
	return nil
}

// awaitEnded fails unless the next job ended is job, within waitFor; what
// says what was waited for.
func (f *recordingFeed) awaitEnded(t *testing.T, job, what string) {
	t.Helper()
	select {
	case got := <-f.endedCh:
		if got != job {
			t.Fatalf("ended %s, want %s", got, job)
		}
	case <-time.After(waitFor):
		t.Fatalf("%s: %s was not ended in the analyzer", what, job)
	}
}

// notEnded fails if a job is ended within d; why says why none may be.
func (f *recordingFeed) notEnded(t *testing.T, d time.Duration, why string) {
	t.Helper()
	select {
	case job := <-f.endedCh:
		t.Fatalf("%s ended %s", job, why)
	case <-time.After(d):
	}
}

func (f *recordingFeed) subscribed(job string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.subs[job] != nil
}

func (f *recordingFeed) count(job string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.observed[job])
}

// A job whose tasks all succeed is ended in the analyzer at once; accepted
// events reach it, rejected ones do not; the subscription ends with the
// session.
func TestFeedEndsAFinishedJob(t *testing.T) {
	feed := newRecordingFeed()
	ts := startServer(t, func(c *Config) { c.Feed = feed; c.OrphanGrace = time.Hour })
	c, _ := open(t, ts, hello(testJob, "none", 1, 0, nil))
	// The feed writer subscribes the session after the welcome goes out.
	waitUntil(t, "the subscription after hello", func() bool { return feed.subscribed(testJob) })
	c.send(events(1, 10, started(0, "m_000000", 0, false), status(5, "m_000009", 0, 0.5)))
	c.expectError(CodeEventRejected)
	c.alive()
	waitUntil(t, "the accepted event to reach the analyzer", func() bool { return feed.count(testJob) >= 1 })
	if n := feed.count(testJob); n != 1 {
		t.Fatalf("analyzer saw %d events, want the 1 accepted", n)
	}
	c.send(events(2, 20, ended(20, "attempt-succeeded", "m_000000", 0)))
	feed.awaitEnded(t, testJob, "the finished job")
	_ = c.conn.Close()
	waitUntil(t, "the subscription to end", func() bool { return !feed.subscribed(testJob) })
	feed.notEnded(t, 100*time.Millisecond, "twice")
}

// feedTwoMaps starts a server with a recording analyzer and the orphan
// grace period grace, and a session of testJob under policy whose two
// maps have started.
func feedTwoMaps(t *testing.T, grace time.Duration, policy string) (*recordingFeed, *testServer, *client) {
	t.Helper()
	feed := newRecordingFeed()
	ts := startServer(t, func(c *Config) { c.Feed = feed; c.OrphanGrace = grace })
	c, _ := open(t, ts, hello(testJob, policy, 2, 0, nil))
	c.send(events(1, 10, started(0, "m_000000", 0, false), started(0, "m_000001", 0, false)))
	c.alive()
	return feed, ts, c
}

// A session that ends before its job does leaves the job running in the
// analyzer for the grace period: a new session within it keeps it (and its
// engine learns the node state the first one was told); without one the job
// is ended. The grace period and the sweep that ends it run on the
// server's clock: the test moves it, and the sweeper acts on its own.
func TestFeedOrphanedJob(t *testing.T) {
	feed, ts, c := feedTwoMaps(t, time.Minute, "tws")
	// Subscribing is the feed writer's (outside the session's turns).
	waitUntil(t, "the subscription", func() bool { return feed.subscribed(testJob) })
	feed.mu.Lock()
	deliver := feed.subs[testJob]
	feed.mu.Unlock()
	deliver(speculators.Event{Kind: speculators.NodeFailed, Node: "node-m_000000"})
	f := c.expect(TypeDecisions)
	if len(f.Decisions) != 1 || f.Decisions[0].Kind != "speculate" {
		t.Fatalf("decisions %+v after the node failed", f.Decisions)
	}
	_ = c.conn.Close()
	waitUntil(t, "the first session to end", func() bool { return ts.Sessions() == 0 })

	// Back within the grace period: not ended.
	c2, _ := open(t, ts, hello(testJob, "tws", 2, 0, nil))
	if nodes := ts.nodeEvents(testJob); len(nodes) != 1 || nodes[0].Kind != speculators.NodeFailed {
		t.Fatalf("node state kept for the job: %+v", nodes)
	}
	// The grace period passes on the server's clock while a session has
	// the job: not ended.
	ts.clock.Advance(2 * time.Minute)
	feed.notEnded(t, 50*time.Millisecond, "while a session had it")
	_ = c2.conn.Close()
	waitUntil(t, "the job's grace period to start", func() bool {
		ts.mu.Lock()
		defer ts.mu.Unlock()
		_, ok := ts.feed.orphans[testJob]
		return ok
	})
	ts.clock.Advance(59 * time.Second)
	feed.notEnded(t, 50*time.Millisecond, "within the grace period")
	ts.clock.Advance(time.Second)
	feed.awaitEnded(t, testJob, "the orphaned job")
}

// The AM's bye with a final state ends its unfinished job in the analyzer
// at once (a killed job, here, with tasks still running), not after the
// grace period; a bye with any other state (an AM attempt stopping early)
// changes nothing, and the job gets its grace period as before.
func TestFeedByeEndsTheJob(t *testing.T) {
	feed, ts, c := feedTwoMaps(t, time.Hour, "none")
	c.send(Bye{Type: TypeBye, Now: 20, State: "KILLED"})
	feed.awaitEnded(t, testJob, "the killed job")
	c.alive() // the session stays until the AM closes it
	if n := testutil.ToFloat64(ts.metrics.jobsEnded.WithLabelValues("KILLED")); n != 1 {
		t.Fatalf("jobs_ended_total{state=KILLED} = %v after one killed job's bye", n)
	}
	_ = c.conn.Close()
	waitUntil(t, "the session to end", func() bool { return ts.Sessions() == 0 })
	feed.notEnded(t, 100*time.Millisecond, "twice")

	const other = "job_1700000000000_0002"
	c2, _ := open(t, ts, hello(other, "none", 1, 0, nil))
	c2.send(Bye{Type: TypeBye, Now: 20, State: "RUNNING"})
	c2.alive()
	feed.notEnded(t, 100*time.Millisecond, "on a bye before the job is over")
	_ = c2.conn.Close()
	waitUntil(t, "the second session to end", func() bool { return ts.Sessions() == 0 })
	feed.notEnded(t, 100*time.Millisecond, "within the grace period")
	for _, st := range finalJobStates {
		want := 0.0
		if st == "KILLED" {
			want = 1
		}
		if n := testutil.ToFloat64(ts.metrics.jobsEnded.WithLabelValues(st)); n != want {
			t.Errorf("jobs_ended_total{state=%s} = %v, want %v (a RUNNING bye counts nowhere)", st, n, want)
		}
	}
	waitUntil(t, "the grace period of the job whose AM stopped early", func() bool {
		ts.mu.Lock()
		defer ts.mu.Unlock()
		_, ok := ts.feed.orphans[other]
		return ok
	})
}

// Hello bounds out of range are refused.
func TestHelloRejectsBadBounds(t *testing.T) {
	ts := startServer(t, nil)
	for _, b := range []struct {
		deadline int64
		err      float64
	}{{-1, 0}, {0, 1}, {0, -0.1}} {
		h := hello(testJob, "grass", 2, 0, nil)
		h.Deadline, h.ErrorBound = b.deadline, b.err
		c := dial(t, ts.url)
		c.send(h)
		c.expectError(CodeBadJob)
	}
	h := hello(testJob, "grass", 2, 0, nil)
	h.Deadline, h.ErrorBound = t0+60_000, 0.2
	open(t, ts, h)
}

// pingCollect pings c and reads frames up to the pong, returning the
// decisions met on the way.
func pingCollect(t *testing.T, c *client) []WireDecision {
	t.Helper()
	c.nonce++
	c.send(Ping{Type: TypePing, Nonce: c.nonce})
	var out []WireDecision
	for {
		f := c.recv()
		switch {
		case f.Type == TypePong && f.Nonce == c.nonce:
			return out
		case f.Type == TypeError:
			t.Fatalf("error frame %+v", f)
		}
		out = append(out, f.Decisions...)
	}
}

// A sidecar restart in the middle of a node failure, over real websockets,
// with the embedded analyzer on a store and its clock driven by the test.
// Node "shared" has failed before the restart (job 1 is told and
// speculates). After it, job 1's AM reconnects and resyncs, repeating its
// attempt on "shared", which is still silent: the analyzer tells the new
// engine that "shared" has failed, so it speculates that task again, and
// the resync's repeated start does not end the episode. Job 2's AM never
// reconnects: the node its attempt runs on, "node-b", is not suspected
// while the bridge's grace period runs, though that attempt reports no more.
func TestFeedRestartTellsReconnectedJobs(t *testing.T) {
	store := t.TempDir()
	var mu sync.Mutex
	now := time.UnixMilli(t0)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func() { mu.Lock(); now = now.Add(time.Second); mu.Unlock() }
	an := analyzer.DefaultConfig() // gap 4 s
	an.Detect = detect.Config{Window: 5, Base: 2, Initial: 6000, Floor: 0}
	newService := func() *cfa.Service {
		svc, err := cfa.NewService(cfa.ServiceConfig{Analyzer: an, Store: store, Now: clock, Gather: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		return svc
	}
	ctx := context.Background()
	m0 := "task_1700000000000_0001_m_000000"
	// step runs one second: statuses every 3 s from the attempts in alive,
	// a gathering round every 5 s; it returns job 1's decisions.
	sec := int64(0)
	step := func(svc *cfa.Service, clients map[int]*client, alive map[int][]string) []WireDecision {
		advance()
		sec++
		var out []WireDecision
		for n, c := range clients {
			if sec%3 == 0 {
				var evs []WireEvent
				for _, id := range alive[n] {
					evs = append(evs, WireEvent{Kind: "attempt-status", Time: ms(sec * 1000), Attempt: id, Progress: 0.3})
				}
				c.send(events(sec, sec*1000, evs...))
			}
			ds := pingCollect(t, c)
			if n == 1 {
				out = append(out, ds...)
			}
		}
		if sec%5 == 0 {
			if err := svc.Tick(ctx); err != nil {
				t.Fatal(err)
			}
		}
		return out
	}
	// until steps until job 1 is told to speculate m0 or `limit` seconds
	// pass; a speculation arrives after the round that causes it, which a
	// later ping overtakes at most by one step.
	until := func(svc *cfa.Service, clients map[int]*client, alive map[int][]string, limit int) bool {
		for i := 0; i < limit; i++ {
			for _, d := range step(svc, clients, alive) {
				if d.Kind == "speculate" && d.Task == m0 {
					return true
				}
			}
		}
		return false
	}

	svc1 := newService()
	ts1 := startServer(t, func(c *Config) { c.Feed = svc1; c.OrphanGrace = time.Hour })
	c1, _ := open(t, ts1, hello(jobN(1), "tws", 2, 0, nil))
	c2, _ := open(t, ts1, hello(jobN(2), "tws", 1, 0, nil))
	j1m0, j1m1, j2m0 := attemptOf(1, "m_000000", 0), attemptOf(1, "m_000001", 0), attemptOf(2, "m_000000", 0)
	c1.send(events(0, 0, WireEvent{Kind: "attempt-started", Time: ms(0), Attempt: j1m0, Node: "shared", Container: "container_1"},
		WireEvent{Kind: "attempt-started", Time: ms(0), Attempt: j1m1, Node: "node-a", Container: "container_2"},
		// j1m0 reports once, then "shared" says nothing.
		WireEvent{Kind: "attempt-status", Time: ms(0), Attempt: j1m0, Progress: 0.1}))
	c2.send(events(0, 0, WireEvent{Kind: "attempt-started", Time: ms(0), Attempt: j2m0, Node: "node-b", Container: "container_3"}))
	clients := map[int]*client{1: c1, 2: c2}
	alive := map[int][]string{1: {j1m1}, 2: {j2m0}}
	if !until(svc1, clients, alive, 20) {
		t.Fatal("before the restart: job 1 was not told to speculate its task on the failed node")
	}

	// The sidecar stops; its AMs lose it. A new one starts on the store.
	_ = c1.conn.Close()
	_ = c2.conn.Close()
	if err := svc1.Close(); err != nil {
		t.Fatal(err)
	}
	svc2 := newService()
	ts2 := startServer(t, func(c *Config) { c.Feed = svc2; c.OrphanGrace = time.Hour })
	c1, _ = open(t, ts2, hello(jobN(1), "tws", 2, 0, nil))
	c1.send(Resync{Type: TypeResync, Now: t0 + sec*1000, Attempts: []SnapshotAttempt{
		{Attempt: j1m0, State: "RUNNING", Node: "shared", Container: "container_1", Start: t0, LastReport: t0, Progress: 0.1},
		{Attempt: j1m1, State: "RUNNING", Node: "node-a", Container: "container_2", Start: t0, LastReport: t0 + sec*1000, Progress: 0.3},
	}})
	if got := c1.expect(TypeResynced); got.Rejected != 0 {
		t.Fatalf("resync %+v", got)
	}
	if !until(svc2, map[int]*client{1: c1}, map[int][]string{1: {j1m1}}, 10) {
		t.Fatal("after the restart: job 1's new engine was not told that node shared had failed")
	}
	// A minute more with job 2 still away.
	for i := 0; i < 60; i++ {
		step(svc2, map[int]*client{1: c1}, map[int][]string{1: {j1m1}})
	}
	svc2.View(func(st *analyzer.State, _ func(speculators.NodeID) analyzer.Time) {
		if nr := st.Nodes["shared"]; nr == nil || nr.Open == nil || nr.Open.Failed == 0 || len(nr.Episodes) != 0 {
			t.Errorf("node shared: %+v, want one episode, open and failed", nr)
		} else if len(nr.Open.Told) != 1 || nr.Open.Told[0] != jobN(1) {
			t.Errorf("node shared told %v, want job 1", nr.Open.Told)
		}
		if nr := st.Nodes["node-b"]; nr != nil && (nr.Open != nil || len(nr.Episodes) != 0) {
			t.Errorf("node-b, where only absent job 2 runs: %+v, want no episode", nr)
		}
		if j := st.Jobs[jobN(2)]; j == nil || j.Ended != 0 {
			t.Errorf("job 2 %+v, want running (its grace period has not run out)", j)
		}
	})
}
