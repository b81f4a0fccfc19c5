package bridge

import (
	"encoding/json"
	"strings"
	"testing"
)

// The hello's slots (the cluster's containers, PROTOCOL.md) reach the
// policy as JobInfo.Slots: SCA solves P2 live against the slots its job does
// not use. A hello without the field (an older shim) still opens a session,
// and SCA then takes the cluster as roomy and clones; with slots = 3 for a
// 3-map job, one running attempt leaves 2 idle slots, fewer than the job's
// tasks, so Algorithm 1 gives one copy each and nothing is asked.
// Reference: Xu and Lau, §IV Algorithm 1, line 6.
func TestHelloSlotsReachThePolicy(t *testing.T) {
	ts := startServer(t, nil)
	run := func(t *testing.T, h Hello, omitSlots bool) []WireDecision {
		t.Helper()
		c := dial(t, ts.url)
		data, err := json.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		if omitSlots {
			var m map[string]any
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			delete(m, "slots")
			if data, err = json.Marshal(m); err != nil {
				t.Fatal(err)
			}
		}
		if strings.Contains(string(data), `"slots"`) == omitSlots {
			t.Fatalf("hello %s: slots present %v, want %v", data, !omitSlots, !omitSlots)
		}
		c.sendRaw(1, data)
		c.expect(TypeWelcome)
		c.send(events(1, 1000, started(0, "m_000000", 0, false)))
		c.send(Ping{Type: TypePing, Nonce: 7})
		var got []WireDecision
		for {
			f := c.recv()
			switch f.Type {
			case TypeDecisions:
				got = append(got, f.Decisions...)
				continue
			case TypePong:
				return got
			}
			t.Fatalf("unexpected frame %+v", f)
		}
	}
	t.Run("absent", func(t *testing.T) {
		h := hello(testJob, "sca", 3, 0, nil)
		h.Slots = 0
		ds := run(t, h, true)
		if len(ds) != 1 || ds[0].Kind != "speculate" || ds[0].Copies < 1 || !strings.Contains(ds[0].Reason, "sca: clone at launch") {
			t.Fatalf("decisions %+v, want one clone request for the running map", ds)
		}
	})
	t.Run("three", func(t *testing.T) {
		h := hello(testJob, "sca", 3, 0, nil) // replaces the first session
		h.Slots = 3
		if ds := run(t, h, false); len(ds) != 0 {
			t.Fatalf("decisions %+v, want none: 2 idle slots for 3 tasks", ds)
		}
	})
}

// A hello without slots takes the cluster's total containers from the
// ResourceManager (Config.Capacity, serve --rm-url) as JobInfo.Slots, as a
// replay gives every policy its simulated cluster's containers: LATE's
// SpeculativeCap is a fraction of them. The hello's own slots still win, and
// without an RM answer the slots stay unknown (0). The capacity follows the
// RM: a job opened after the cluster grew sees the new total.
func TestClusterCapacityGivesAJobItsSlots(t *testing.T) {
	var total int
	var known bool
	ts := startServer(t, func(c *Config) {
		c.Capacity = func() (int, int, bool) { return total, total / 2, known }
	})
	cases := []struct {
		name       string
		hello      int
		rm         int
		rmKnown    bool
		wantReason string
	}{
		{"hello's slots win", 8, 60, true, "slots 8"},
		{"RM total", 0, 60, true, "slots 60"},
		{"RM grew", 0, 75, true, "slots 75"},
		{"RM not answering", 0, 60, false, "slots 0"},
	}
	for _, tc := range cases {
		total, known = tc.rm, tc.rmKnown
		h := hello(testJob, "test-jobinfo", 2, 0, nil) // each replaces the one before
		h.Slots = tc.hello
		c, _ := open(t, ts, h)
		c.send(events(1, 0, started(0, "m_000000", 0, false)))
		d := c.expect(TypeDecisions)
		if len(d.Decisions) != 1 || !strings.HasSuffix(d.Decisions[0].Reason, tc.wantReason) {
			t.Errorf("%s: decisions %+v, want one whose reason ends %q", tc.name, d.Decisions, tc.wantReason)
		}
		_ = c.conn.Close()
	}
}

// With the cluster's capacity (serve --rm-url) a job's live view counts the
// copies running in every job the sidecar serves (JobInfo.Copies), as the
// simulator's ClusterView counts every job's copies: a job opened while
// another has a copy running sees it, and no longer once that session ends.
// Without the capacity a job knows no other job's load and sees its own
// copies alone.
func TestLiveViewCountsEverySessionsCopies(t *testing.T) {
	other := "job_1700000000000_0002"
	otherAttempt := func(n int) string { return "attempt_1700000000000_0002_m_000000_" + string(rune('0'+n)) }
	for _, tc := range []struct {
		name         string
		capacity     bool
		while, after string
	}{
		{"capacity known", true, "slots 40 idle 21 copies 1", "slots 40 idle 22 copies 0"},
		{"no capacity", false, "slots 8 idle 7 copies 0", "slots 8 idle 6 copies 0"},
	} {
		ts := startServer(t, func(c *Config) {
			if tc.capacity {
				c.Capacity = func() (int, int, bool) { return 40, 20, true }
			}
		})
		// The other job: an original and a copy of its first map.
		a, _ := open(t, ts, hello(other, "test-straggler", 2, 0, nil))
		a.send(Events{Type: TypeEvents, Seq: 1, Now: t0, Events: []WireEvent{
			{Kind: "attempt-started", Time: ms(0), Attempt: otherAttempt(0), Node: "node-a", Container: "container_1"},
			{Kind: "attempt-started", Time: ms(0), Attempt: otherAttempt(1), Node: "node-b", Container: "container_2", Speculative: true},
		}})
		a.alive() // its batch, and the sync before its Decide, are done
		b, _ := open(t, ts, hello(testJob, "test-view", 2, 0, nil))
		b.send(events(1, 0, started(0, "m_000000", 0, false)))
		d := b.expect(TypeDecisions)
		if len(d.Decisions) != 1 || d.Decisions[0].Reason != tc.while {
			t.Errorf("%s: with the other job's copy running: decisions %+v, want one of reason %q", tc.name, d.Decisions, tc.while)
		}
		_ = a.conn.Close()
		waitUntil(t, "the other session's release", func() bool { return ts.copies.Load() == 0 })
		// A second map of its own (the first one's copy asked for already).
		b.send(events(2, 10, started(10, "m_000001", 0, false)))
		d = b.expect(TypeDecisions)
		if len(d.Decisions) != 1 || d.Decisions[0].Reason != tc.after {
			t.Errorf("%s: after the other session ended: decisions %+v, want one of reason %q", tc.name, d.Decisions, tc.after)
		}
	}
}
