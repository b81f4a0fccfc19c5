package bridge

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/specbridge/specbridge/speculators"
)

// orderLog is a JobOrder that keeps what the sessions told it.
type orderLog struct {
	mu        sync.Mutex
	changed   *sync.Cond
	pri       map[string]speculators.Priority
	owner     map[string]any
	published map[string]int
	forgotten []string
}

func newOrderLog() *orderLog {
	o := &orderLog{pri: map[string]speculators.Priority{}, owner: map[string]any{}, published: map[string]int{}}
	o.changed = sync.NewCond(&o.mu)
	return o
}

func (o *orderLog) Publish(app string, owner any, p speculators.Priority) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.pri[app], o.owner[app] = p, owner
	o.published[app]++
	o.changed.Broadcast()
}

func (o *orderLog) Forget(app string, owner any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.owner[app] == owner {
		delete(o.pri, app)
		delete(o.owner, app)
	}
	o.forgotten = append(o.forgotten, app)
	o.changed.Broadcast()
}

// waitFor waits until cond holds (under the log's lock), failing the test
// after 10 s.
func (o *orderLog) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	timer := time.AfterFunc(10*time.Second, func() {
		o.mu.Lock()
		o.changed.Broadcast()
		o.mu.Unlock()
	})
	defer timer.Stop()
	start := time.Now()
	o.mu.Lock()
	defer o.mu.Unlock()
	for !cond() {
		if time.Since(start) >= 10*time.Second {
			t.Fatalf("waiting for %s: published %v, forgotten %v", what, o.pri, o.forgotten)
		}
		o.changed.Wait()
	}
}

// jobAttempt is attempt n of map task m of job number job.
func jobAttempt(job string, m, n int) string {
	return "attempt_1700000000000_" + job + "_m_00000" + string(rune('0'+m)) + "_" + string(rune('0'+n))
}

// pingThrough sends a ping and reads frames until its pong: the session
// has handled everything sent before it.
func pingThrough(c *client) {
	c.t.Helper()
	c.nonce++
	c.send(Ping{Type: TypePing, Nonce: c.nonce})
	for {
		if f := c.recv(); f.Type == TypePong && f.Nonce == c.nonce {
			return
		}
	}
}

// The sessions of jobs whose policy orders jobs (sca) publish their
// priorities to the job order after each decide, under their YARN
// application ids, the job with less work first (Xu and Lau's order); a
// job whose policy does not order (late) publishes nothing; a job is
// forgotten at its bye, and at its session's end.
func TestJobOrderGetsThePriorityOfJobsWhosePolicyOrdersThem(t *testing.T) {
	rec := newOrderLog()
	ts := startServer(t, func(c *Config) { c.JobOrder = rec })
	const big, small, other = "application_1700000000000_0001", "application_1700000000000_0002", "application_1700000000000_0003"
	jobs := []struct {
		num, policy string
		maps        int
	}{{"0001", "sca", 9}, {"0002", "sca", 2}, {"0003", "late", 4}}
	clients := map[string]*client{}
	for _, j := range jobs {
		c, _ := open(t, ts, hello("job_1700000000000_"+j.num, j.policy, j.maps, 0, nil))
		c.send(Events{Type: TypeEvents, Seq: 1, Now: t0 + 1000, Events: []WireEvent{{Kind: "attempt-started", Time: ms(0),
			Attempt: jobAttempt(j.num, 0, 0), Node: "node-a", Container: "container_" + j.num}}})
		pingThrough(c)
		clients[j.num] = c
	}
	rec.waitFor(t, "both sca jobs", func() bool { return rec.published[big] > 0 && rec.published[small] > 0 })
	rec.mu.Lock()
	pb, ps := rec.pri[big], rec.pri[small]
	_, lateSeen := rec.published[other]
	rec.mu.Unlock()
	if !(ps.Tier < pb.Tier || ps.Tier == pb.Tier && ps.Key < pb.Key) {
		t.Errorf("the 2-map job's priority %+v is not ahead of the 9-map job's %+v", ps, pb)
	}
	if lateSeen {
		t.Error("a late job (a policy that does not order jobs) was published")
	}

	clients["0002"].send(Bye{Type: TypeBye, Now: t0 + 2000, State: "SUCCEEDED"})
	rec.waitFor(t, "the small job forgotten at its bye", func() bool { _, ok := rec.pri[small]; return !ok })
	_ = clients["0001"].conn.Close()
	rec.waitFor(t, "the big job forgotten at its session's end", func() bool { _, ok := rec.pri[big]; return !ok })
	// The small job's session is still open, and stays out of the order.
	clients["0002"].send(Events{Type: TypeEvents, Seq: 2, Now: t0 + 3000, Events: []WireEvent{{Kind: "attempt-status", Time: ms(2500),
		Attempt: jobAttempt("0002", 0, 0), Progress: 0.5}}})
	pingThrough(clients["0002"])
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if _, ok := rec.pri[small]; ok {
		t.Error("the small job was published again after its bye")
	}
}

// A job's JobInfo.JobOrder says whether the cluster applies a policy's job
// order to free slots: true when serve runs with --rm-job-order (the
// server's Config.JobOrder set), false without it, so that a policy (auto)
// chooses live as a replay under the same order does.
func TestJobInfoSaysWhetherTheJobOrderIsApplied(t *testing.T) {
	for _, tc := range []struct {
		name  string
		order JobOrder
		want  string
	}{{"with --rm-job-order", newOrderLog(), "job_order true "}, {"without", nil, "job_order false "}} {
		ts := startServer(t, func(c *Config) { c.JobOrder = tc.order })
		c, _ := open(t, ts, hello(testJob, "test-jobinfo", 2, 0, nil))
		c.send(events(1, 0, started(0, "m_000000", 0, false)))
		d := c.expect(TypeDecisions)
		if len(d.Decisions) != 1 || !strings.HasPrefix(d.Decisions[0].Reason, tc.want) {
			t.Errorf("%s: decisions %+v, want one whose reason starts %q", tc.name, d.Decisions, tc.want)
		}
		_ = c.conn.Close()
	}
}
