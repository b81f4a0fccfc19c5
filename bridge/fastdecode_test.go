package bridge

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// fastDecodeCases are frames on and around the fast decoder's edge: each
// must decode exactly as encoding/json decodes it. They also seed
// FuzzDecodeFrame.
var fastDecodeCases = []string{
	`{"type":"events","seq":7,"now":1700000012000,"events":[{"kind":"attempt-started","time":1700000001000,"attempt":"attempt_1700000000000_0001_m_000003_0","node":"worker-7","container":"container_1700000000000_0001_01_000005","speculative":false},{"kind":"attempt-status","time":1700000011000,"attempt":"attempt_1700000000000_0001_r_000000_0","progress":0.41,"phase":"SHUFFLE","counters":{"input_bytes":1024,"output_bytes":0,"input_records":10,"output_records":0,"cpu_ms":900,"gc_ms":12,"spilled_records":0},"fetch_failed_maps":["task_1700000000000_0001_m_000001"]},{"kind":"container-needs","time":1700000011500,"task_type":"map","count":3}]}`,
	` { "events" : [ ] , "type" : "events" } `,
	`{"type":"events"}`,
	`{"type":"events","events":null}`,
	`{"type":"events","events":[{}]}`,
	`{"type":"events","events":[null]}`,
	`{"type":"events","events":[{"kind":"job-bounds","time":1,"deadline":-0,"error_bound":1e-3}]}`,
	`{"type":"events","events":[{"kind":"attempt-status","time":null,"progress":null,"phase":null,"counters":null,"fetch_failed_maps":null}]}`,
	`{"type":"events","events":[{"kind":"attempt-status","time":1,"counters":{},"fetch_failed_maps":[]}]}`,
	`{"type":"events","events":[{"kind":"attempt-status","time":1,"counters":{"input_bytes":1},"counters":{"cpu_ms":2}}]}`,
	`{"type":"events","events":[{"kind":"attempt-status","Time":1,"time":2}]}`,
	`{"type":"events","events":[{"KIND":"node-failed","time":1,"node":"n"}]}`,
	`{"type":"events","events":[{"kind":"node-failed","time":1,"node":"n\u00e9"}]}`,
	`{"type":"events","events":[{"kind":"node-failed","time":1,"node":"n\u00e9 é"}]}`,
	"{\"type\":\"events\",\"events\":[{\"kind\":\"node-failed\",\"time\":1,\"node\":\"n\xff\"}]}",
	`{"type":"events","events":[{"kind":"attempt-status","time":1.5}]}`,
	`{"type":"events","events":[{"kind":"attempt-status","time":1e3}]}`,
	`{"type":"events","events":[{"kind":"attempt-status","time":99999999999999999999}]}`,
	`{"type":"events","events":[{"kind":"attempt-status","time":-9223372036854775808}]}`,
	`{"type":"events","events":[{"kind":"attempt-status","time":123456789012345678}]}`,
	`{"type":"events","events":[{"kind":"attempt-status","time":1,"progress":1e999}]}`,
	`{"type":"events","events":[{"kind":"attempt-status","time":1,"progress":"0.5"}]}`,
	`{"type":"events","events":[{"kind":"attempt-status","time":01}]}`,
	`{"type":"events","events":[{"kind":"attempt-status","time":1,}]}`,
	`{"type":"events","events":[{"kind":"attempt-status","time":1,"extra":{"a":[1,true,null,"x\"\u0041"],"b":-1.5E+3}}]}`,
	`{"type":"events","extra":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}`,
	`{"type":"events","events":[{"kind":"attempt-status","time":1,"extra":"\x"}]}`,
	`{"type":"events","acks":[]}`,
	`{"type":"events","Acks":5}`,
	`{"type":"events","acks":5}`,
	`{"type":"events","version":"1"}`,
	`{"type":"events","seq":1,"seq":2}`,
	`{"type":"events","type":"ack"}`,
	`{"type":"ack","events":[]}`,
	`{"type":"even\u0074s","events":[]}`,
	`{"\u0074ype":"events","events":[]}`,
	`{"type":"events","events":[{"kind":"attempt-status","time":1}]} x`,
	`{"type":"events","events":[{"kind":"attempt-status","time":1}]`,
	`{"type":"events","events":[{"kind":"attempt-status","time":1,"speculative":"true"}]}`,
	`{"type":"events","events":[{"kind":"attempt-status","time":1,"speculative":tru}]}`,
	`{"type":"events","events":[{"kind":"attempt-status","time":1,"count":1.0}]}`,
	`{"type":"events","events":[{"kind":"teleport","time":1,"phase":"WARP","task_type":"both"}]}`,
	`{"type":"events","events":[{"kind":"attempt-status","time":1,"fetch_failed_maps":["a",null]}]}`,
	"{\"type\":\"events\",\"events\":[{\"kind\":\"attempt-status\",\"time\":1,\"attempt\":\"a\tb\"}]}",
	`{"type":"events","events":[{"kind":"attempt-status","time":1,"ſpeculative":true}]}`,
	`{"type":"events","events":[{"kind":"attempt-status","time":1,"progreß":1}]}`,
	`{"type":null,"events":[]}`,
	`[]`,
	`"events"`,
}

func dumpFrame(f Frame) string {
	data, _ := json.Marshal(f)
	return string(data)
}

func TestFastDecodeMatchesEncodingJSON(t *testing.T) {
	for _, c := range fastDecodeCases {
		got, err := DecodeFrame([]byte(c))
		want, werr := decodeFrameJSON([]byte(c))
		if fmt.Sprint(err) != fmt.Sprint(werr) || !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n fast  %s, %v\n json  %s, %v", c, dumpFrame(got), err, dumpFrame(want), werr)
		}
	}
}

// TestFastDecodeTakesUsualFrames pins that the frames the shim sends (and
// the benchmark's) do take the fast path, so that a change to it cannot
// quietly send everything back to encoding/json.
func TestFastDecodeTakesUsualFrames(t *testing.T) {
	s := &benchSession{key: "1700000000000_0001", maps: 3}
	usual := []string{fastDecodeCases[0], fastDecodeCases[1], string(s.statusBatch(500))}
	data, err := json.Marshal(events(3, 10, started(0, "m_000000", 0, false), status(5, "m_000000", 0, 0.5),
		ended(9, "attempt-failed", "m_000001", 0), WireEvent{Kind: "job-bounds", Time: ms(4), Deadline: 9, ErrorBound: 0.1}))
	if err != nil {
		t.Fatal(err)
	}
	usual = append(usual, string(data),
		// Jackson's spelling of floats; a field a newer shim might add.
		`{"type":"events","now":1,"seq":2,"events":[{"kind":"attempt-status","time":3,"progress":1.0E-5,"phase":"MAP","v2":{"x":[1]}}]}`)
	for _, u := range usual {
		if _, ok := decodeEventsFast([]byte(u), &eventsBuf{}); !ok {
			t.Errorf("the fast decoder refused %s", u)
		}
	}
	for _, c := range []string{`{"type":"ping","nonce":1}`, `{"type":"ack","acks":[]}`, fastDecodeCases[9]} {
		if _, ok := decodeEventsFast([]byte(c), &eventsBuf{}); ok {
			t.Errorf("the fast decoder took %s", c)
		}
	}
}

// TestEventsBufReuse decodes different batches into one recycled buffer.
func TestEventsBufReuse(t *testing.T) {
	buf := &eventsBuf{}
	for i := 0; i < 50; i++ {
		var evs []string
		for j := 0; j < i%7; j++ {
			evs = append(evs, fmt.Sprintf(`{"kind":"attempt-status","time":%d,"attempt":"a%d","counters":{"cpu_ms":%d}}`, i*100+j, j, j))
		}
		frame := `{"type":"events","seq":` + fmt.Sprint(i) + `,"events":[` + strings.Join(evs, ",") + `]}`
		got, err := decodeFrame([]byte(frame), buf)
		want, werr := decodeFrameJSON([]byte(frame))
		if err != nil || werr != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\n fast  %s, %v\n json  %s, %v", frame, dumpFrame(got), err, dumpFrame(want), werr)
		}
		putEventsBuf(buf)
		buf = getEventsBuf()
	}
}
