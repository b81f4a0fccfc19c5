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
