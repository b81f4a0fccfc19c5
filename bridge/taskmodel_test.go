package bridge

import (
	"math"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/grass"
)

// The a-priori task-time model (taskmodel.go): the hello's task_mean_ms and
// task_tail_index reach the engine's JobInfo, else the cross-job prior gives
// the mean; the welcome and the session's log say which.

func TestHelloTaskModelReachesTheEngine(t *testing.T) {
	log, hook := logtest.NewNullLogger()
	log.SetLevel(logrus.InfoLevel)
	ts := startServer(t, func(c *Config) { c.Log = log })
	h := hello(testJob, "test-jobinfo", 2, 0, nil)
	h.TaskMeanMS, h.TaskTailIndex = 2500, 2.5
	c, w := open(t, ts, h)
	if w.TaskMeanMS != 2500 || w.TaskTailIndex != 2.5 || w.TaskModelSource != TaskModelJobProperty {
		t.Fatalf("welcome %+v: want task_mean_ms 2500, task_tail_index 2.5, source %s", w, TaskModelJobProperty)
	}
	c.send(events(1, 0, started(0, "m_000000", 0, false)))
	d := c.expect(TypeDecisions)
	if len(d.Decisions) != 1 || d.Decisions[0].Reason != "job_order false task_mean_ms 2500 task_tail_index 2.5 slots 8" {
		t.Fatalf("decisions %+v: want one whose reason shows the engine's JobInfo 2500 ms, tail 2.5", d.Decisions)
	}
	opened := 0
	for _, e := range hook.AllEntries() {
		if e.Message != "session opened" {
			continue
		}
		opened++
		if e.Level != logrus.InfoLevel || e.Data["task_model"] != TaskModelJobProperty || e.Data["task_mean_ms"] != 2500.0 || e.Data["task_tail_index"] != 2.5 {
			t.Fatalf("session opened at %s with %v: want INFO with the task model", e.Level, e.Data)
		}
	}
	if opened != 1 {
		t.Fatalf("%d session opened lines, want 1", opened)
	}
}

func TestHelloWithoutTaskModel(t *testing.T) {
	ts := startServer(t, nil)
	_, w := open(t, ts, hello(testJob, "test-jobinfo", 2, 0, nil))
	if w.TaskMeanMS != 0 || w.TaskTailIndex != 0 || w.TaskModelSource != TaskModelNone {
		t.Fatalf("welcome %+v: want no task model, source %s", w, TaskModelNone)
	}
}

func TestBadTaskModelIsRefusedNamingTheField(t *testing.T) {
	ts := startServer(t, nil)
	cases := []struct {
		name       string
		mean, tail float64
		field      string
	}{
		{"negative mean", -1, 0, "task_mean_ms"},
		{"mean past MaxTime", 2 * MaxTime, 0, "task_mean_ms"},
		{"tail of 1", 1000, 1, "task_tail_index"},
		{"tail below 1", 0, 0.5, "task_tail_index"},
		{"negative tail", 0, -2, "task_tail_index"},
		{"tail past 1e6", 0, 2e6, "task_tail_index"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := hello(testJob, "ese", 2, 0, nil)
			h.TaskMeanMS, h.TaskTailIndex = tc.mean, tc.tail
			c := dial(t, ts.url)
			c.send(h)
			f := c.expectError(CodeBadJob)
			if !f.Fatal || !strings.HasPrefix(f.Text, tc.field+" ") {
				t.Fatalf("error %+v: want a fatal bad-job naming %s", f, tc.field)
			}
			c.expectClosed(websocket.ClosePolicyViolation)
		})
	}
	t.Run("not a number", func(t *testing.T) {
		c := dial(t, ts.url)
		c.sendRaw(websocket.TextMessage, []byte(`{"type": "hello", "version": 1, "token": "`+testToken+
			`", "job": "`+testJob+`", "speculator": "ese", "maps": 1, "task_mean_ms": "NaN"}`))
		f := c.expectError(CodeHelloRequired)
		if !f.Fatal || !strings.Contains(f.Text, "task_mean_ms") {
			t.Fatalf("error %+v: want a fatal refusal naming task_mean_ms", f)
		}
		c.expectClosed(websocket.ClosePolicyViolation)
	})
	waitUntil(t, "all refused sessions released", func() bool { return ts.Sessions() == 0 })
	// The server carries on: the same job with a good model is accepted.
	h := hello(testJob, "ese", 2, 0, nil)
	h.TaskMeanMS, h.TaskTailIndex = 1000, 3
	c, w := open(t, ts, h)
	if w.TaskModelSource != TaskModelJobProperty {
		t.Fatalf("welcome %+v after the refusals", w)
	}
	c.alive()
}

// eseJob is a 2-map job under ese on a cluster of 1000 slots: small by
// ESE's m < eta N(l)/|chi(l)| (2 < 0.1 x 998), so it is cloned when E[x] <
// xi units (10 s) is known.
func eseJob(job string, mean float64) Hello {
	h := hello(job, "ese", 2, 0, nil)
	h.Slots, h.TaskMeanMS = 1000, mean
	h.MapInputBytes = []int64{64 << 20, 64 << 20}
	return h
}

// TestEseClonesASmallJobLiveWithATaskModel: with E[x] from the job's
// property ese asks for clones of the running map at once, and for none of
// the map that is not running; without a model it clones nothing.
func TestEseClonesASmallJobLiveWithATaskModel(t *testing.T) {
	ts := startServer(t, nil)
	c, w := open(t, ts, eseJob(testJob, 2000))
	if w.TaskMeanMS != 2000 || w.TaskModelSource != TaskModelJobProperty {
		t.Fatalf("welcome %+v", w)
	}
	c.send(events(1, 0, started(0, "m_000000", 0, false)))
	expectClones(t, c.expect(TypeDecisions), "task_1700000000000_0001_m_000000")

	ts2 := startServer(t, nil)
	c2, w2 := open(t, ts2, eseJob(testJob, 0))
	if w2.TaskModelSource != TaskModelNone {
		t.Fatalf("welcome %+v: want no task model", w2)
	}
	c2.send(events(1, 0, started(0, "m_000000", 0, false), started(0, "m_000001", 0, false)))
	c2.alive() // no decision comes before the pong: nothing cloned
}

// TestTaskMeanFromThePrior: a grass job's completed maps go into the
// server's Knowledge; under TaskMeanFromPrior (serve
// --task-mean-from-prior) a later ese job of the same input size without
// task_mean_ms gets the prior's median as E[x] and is cloned; without it,
// as in a replay without its --task-mean-from-prior, the job has no mean.
func TestTaskMeanFromThePrior(t *testing.T) {
	store := grass.NewMemoryStore()
	ts := startServer(t, func(c *Config) { c.Knowledge, c.TaskMeanFromPrior = store, true })
	const earlier = "job_1700000000000_0002"
	g := hello(earlier, "grass", 2, 0, nil)
	g.MapInputBytes = []int64{64 << 20, 64 << 20}
	c, _ := open(t, ts, g)
	c.send(Events{Type: TypeEvents, Seq: 1, Now: t0 + 6000, Events: []WireEvent{
		{Kind: "attempt-started", Time: ms(0), Attempt: "attempt_1700000000000_0002_m_000000_0", Node: "n1", Container: "container_1"},
		{Kind: "attempt-started", Time: ms(0), Attempt: "attempt_1700000000000_0002_m_000001_0", Node: "n2", Container: "container_2"},
		{Kind: "attempt-succeeded", Time: ms(4000), Attempt: "attempt_1700000000000_0002_m_000000_0"},
		{Kind: "attempt-succeeded", Time: ms(6000), Attempt: "attempt_1700000000000_0002_m_000001_0"},
	}})
	waitUntil(t, "the grass job's maps in the prior", func() bool { return store.PriorLen() == 2 })
	if est, ok := store.PriorRuntime(speculators.Map, 64<<20); !ok || math.Abs(est-5000) > 1e-6 {
		t.Fatalf("prior %g %v: want the median 5000 ms", est, ok)
	}

	e, w := open(t, ts, eseJob(testJob, 0))
	if math.Abs(w.TaskMeanMS-5000) > 1e-6 || w.TaskTailIndex != 0 || w.TaskModelSource != TaskModelPrior {
		t.Fatalf("welcome %+v: want task_mean_ms 5000 from the prior, no tail index", w)
	}
	e.send(events(1, 0, started(0, "m_000001", 0, false)))
	expectClones(t, e.expect(TypeDecisions), "task_1700000000000_0001_m_000001")

	// The job's own property wins over the prior.
	h := eseJob("job_1700000000000_0003", 30000)
	h.TaskTailIndex = 3
	_, w = open(t, ts, h)
	if w.TaskMeanMS != 30000 || w.TaskTailIndex != 3 || w.TaskModelSource != TaskModelJobProperty {
		t.Fatalf("welcome %+v: want the job's 30000 ms and tail 3", w)
	}

	// The same knowledge, the switch off: no mean.
	off := startServer(t, func(c *Config) { c.Knowledge = store })
	_, w = open(t, off, eseJob("job_1700000000000_0004", 0))
	if w.TaskMeanMS != 0 || w.TaskModelSource != TaskModelNone {
		t.Fatalf("welcome %+v: want no task model without TaskMeanFromPrior", w)
	}
}

// expectClones fails unless d is ese's clone-at-launch of task alone.
func expectClones(t *testing.T, d frame, task string) {
	t.Helper()
	if len(d.Decisions) != 1 {
		t.Fatalf("decisions %+v: want clones of %s alone", d.Decisions, task)
	}
	got := d.Decisions[0]
	if got.Kind != "speculate" || got.Task != task || got.Copies < 1 || !strings.Contains(got.Reason, "clone at launch") {
		t.Fatalf("decision %+v: want ese's clones of %s", got, task)
	}
}

// fixedPrior is a cross-job prior that knows one run time for every task.
type fixedPrior float64

func (fixedPrior) Samples(int) []speculators.Sample { return nil }

func (p fixedPrior) PriorRuntime(speculators.TaskType, int64) (float64, bool) {
	return float64(p), p > 0
}

// TestTaskModelSource pins where jobTaskModel takes the mean from: the
// job's property first, then the prior, else none; a tail index alone is
// the job's and keeps whatever mean the prior gives.
func TestTaskModelSource(t *testing.T) {
	cases := []struct {
		name       string
		mean, tail float64
		prior      speculators.Prior
		wantMean   float64
		wantSource string
	}{
		{"nothing known", 0, 0, nil, 0, TaskModelNone},
		{"nothing but an empty prior", 0, 0, fixedPrior(0), 0, TaskModelNone},
		{"the job's mean", 2500, 0, fixedPrior(900), 2500, TaskModelJobProperty},
		{"the job's mean and tail", 2500, 2, nil, 2500, TaskModelJobProperty},
		{"the prior's mean", 0, 0, fixedPrior(900), 900, TaskModelPrior},
		{"a tail alone, no prior", 0, 2, nil, 0, TaskModelJobProperty},
		{"a tail alone, the prior's mean", 0, 2, fixedPrior(900), 900, TaskModelPrior},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := hello(testJob, "ese", 2, 0, nil)
			h.TaskMeanMS, h.TaskTailIndex = tc.mean, tc.tail
			m, err := jobTaskModel(&h, tc.prior)
			if err != nil {
				t.Fatal(err)
			}
			if m.meanMS != tc.wantMean || m.tailIndex != tc.tail || m.source != tc.wantSource {
				t.Fatalf("model %+v: want mean %g, tail %g, source %s", m, tc.wantMean, tc.tail, tc.wantSource)
			}
		})
	}
}

// At --log-level trace the session logs every event it accepted, with the
// AM's time of it: what a policy saw live, and when (docs/live-bench.md
// reads a live run's). Not at debug.
func TestTraceLogsEveryAcceptedEvent(t *testing.T) {
	for _, level := range []logrus.Level{logrus.TraceLevel, logrus.DebugLevel} {
		log, hook := logtest.NewNullLogger()
		log.SetLevel(level)
		ts := startServer(t, func(c *Config) { c.Log = log })
		c, _ := open(t, ts, hello(testJob, "late", 2, 0, nil))
		c.send(events(1, 0, started(5000, "m_000000", 0, false)))
		c.alive() // frames are served in order: the event was observed before the pong
		n := 0
		for _, e := range hook.AllEntries() {
			if e.Message == "event" && e.Data["kind"] == "attempt-started" && e.Data["attempt"] == "m_000000_0" && e.Data["at"] == t0+5000 {
				n++
			}
		}
		if want := map[logrus.Level]int{logrus.TraceLevel: 1, logrus.DebugLevel: 0}[level]; n != want {
			t.Errorf("at %s: %d event lines for the start, want %d", level, n, want)
		}
	}
}
