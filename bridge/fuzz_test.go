package bridge

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// FuzzDecodeFrame feeds arbitrary bytes through everything the bridge does
// with a client frame before and inside the engine: decode, convert events
// and snapshots, and fold them into a job. Nothing may panic, and every
// error must be one of the decoder's two kinds.
//
//	go test ./bridge -run '^$' -fuzz FuzzDecodeFrame -fuzztime 60s
func FuzzDecodeFrame(f *testing.F) {
	seeds := []any{
		hello(testJob, "none", 2, 1, map[string]string{"a": "b"}),
		events(1, 5, started(0, "m_000000", 0, false), status(5, "m_000000", 0, 0.5), ended(9, "attempt-failed", "m_000001", 0),
			WireEvent{Kind: "container-needs", Time: ms(1), TaskType: "reduce", Count: 2},
			WireEvent{Kind: "attempt-status", Time: ms(3), Attempt: attempt("r_000000", 0), Phase: "SORT",
				Counters: &Counters{InputBytes: 4}, FetchFailedMaps: []string{"task_1700000000000_0001_m_000001"}},
			WireEvent{Kind: "node-failed", Time: ms(4), Node: "n1"}, WireEvent{Kind: "job-bounds", Time: ms(4), Deadline: 9, ErrorBound: 0.1}),
		Ack{Type: TypeAck, Acks: []AckEntry{{ID: 1, Result: AckApplied}}},
		Ping{Type: TypePing, Nonce: 3},
		Resync{Type: TypeResync, Attempts: []SnapshotAttempt{{Attempt: attempt("m_000000", 0), State: "KILLED", Start: 1, Finish: 2}},
			ContainerNeeds: []ContainerNeed{{TaskType: "map", Count: 1}}},
	}
	for _, s := range seeds {
		data, err := json.Marshal(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"type":"teleport"}`))
	f.Add([]byte(`{"type":null}`))
	f.Add([]byte("\xff\xfe"))
	reg := testRegistry(f)
	for _, s := range edgeFrames {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fr, err := DecodeFrame(data)
		if err != nil {
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrUnknownType) {
				t.Fatalf("error %v is neither malformed nor unknown type", err)
			}
			return
		}
		engine, err := reg.NewEngine(speculators.JobInfo{ID: testJob, Maps: 3, Reduces: 2}, "test-straggler", nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		key := jobKey("1700000000000_0001")
		switch {
		case fr.Events != nil:
			for i := range fr.Events.Events {
				if ev, err := toEvent(key, &fr.Events.Events[i]); err == nil {
					_ = engine.Observe(&ev)
				}
			}
		case fr.Resync != nil:
			evs, _ := snapshotEvents(key, fr.Resync)
			for i := range evs {
				_ = engine.Observe(&evs[i])
			}
		case fr.Hello != nil:
			_, _ = parseJobID(fr.Hello.Job)
			if _, code, _ := checkHello(fr.Hello, DefaultMaxTasksPerJob); code == "" {
				if fr.Hello.Maps+fr.Hello.Reduces > DefaultMaxTasksPerJob || fr.Hello.Maps < 0 || fr.Hello.Reduces < 0 {
					t.Fatalf("hello accepted with %d maps and %d reduces", fr.Hello.Maps, fr.Hello.Reduces)
				}
			}
		}
		for _, d := range engine.Decide(t0 + 10000) {
			_ = toWireDecision(key, 1, d)
		}
	})
}

// edgeFrames seed FuzzDecodeFrame with frames at the edge of the format:
// nulls, duplicates, case-folded names, escapes, numbers that do not fit,
// deep nesting, trailing garbage.
var edgeFrames = []string{
	` { "events" : [ ] , "type" : "events" } `,
	`{"type":"events","events":[null]}`,
	`{"type":"events","events":[{"kind":"attempt-status","time":null,"progress":null,"phase":null,"counters":null,"fetch_failed_maps":null}]}`,
	`{"type":"events","events":[{"kind":"attempt-status","Time":1,"time":2}]}`,
	"{\"type\":\"events\",\"events\":[{\"kind\":\"node-failed\",\"time\":1,\"node\":\"n\xff\"}]}",
	`{"type":"events","events":[{"kind":"attempt-status","time":99999999999999999999}]}`,
	`{"type":"events","extra":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}`,
	`{"type":"events","events":[{"kind":"attempt-status","time":1}]} x`,
	`{"type":"even\u0074s","events":[]}`,
}
