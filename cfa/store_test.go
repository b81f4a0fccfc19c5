package cfa

import (
	"github.com/specbridge/specbridge/cfa/analyzer"
	"github.com/specbridge/specbridge/speculators"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// wantNotices is what the scenario's jobs hear, with or without a restart.
var wantNotices = []string{
	"J1 node-suspected n1", "J2 node-suspected n1", // 40 s: silent 10 s >= 5 s
	"J1 node-failed n1", "J2 node-failed n1", // 45 s: silent 15 s > 10 s
	"J1 node-resumed n1", "J2 node-resumed n1", // 65 s
	"J1 node-suspected n3", // 85 s: n3 silent since 78 s, 7 s
	"J1 node-failed n3",    // 90 s: 12 s > 10 s
	"J1 node-resumed n3",   // 100 s
}

func TestServiceScenarioInMemory(t *testing.T) {
	clock := &fakeClock{}
	s := mustService(t, ServiceConfig{Analyzer: testConfig(), Now: clock.Now})
	var heard collector
	s.Subscribe("J1", heard.deliver("J1"))
	cancel := s.Subscribe("J2", heard.deliver("J2"))
	scenario(t, s, clock, 0, 130)
	cancel()
	if got := heard.list(); !reflect.DeepEqual(got, wantNotices) {
		t.Errorf("notices\n got  %v\n want %v", got, wantNotices)
	}
	s.View(func(st *analyzer.State, _ func(speculators.NodeID) analyzer.Time) { checkScenarioEnd(t, st) })
}

// A crash in the middle of n1's episode, on a local store, with snapshots
// every 4 records so that the reload mixes a snapshot and log segments.
func TestStoreRestartMidRunLocal(t *testing.T) {
	dir := t.TempDir()
	_, heard := crashAndRestart(t, dir, nil, 50, 4)
	// The jobs' sessions after the restart are new (a sidecar restart
	// rebuilds their engines): at the first round after they subscribe
	// (55 s) they are told again that n1, still silent, has failed.
	want := append(append(append([]string(nil), wantNotices[:4]...), "J1 node-failed n1", "J2 node-failed n1"), wantNotices[4:]...)
	if !reflect.DeepEqual(heard, want) {
		t.Errorf("notices across the restart\n got  %v\n want %v", heard, want)
	}
	// Without snapshots: the whole run from the log alone. At 85 s n3 has
	// just been suspected; the round at 90 s declares it failed, which
	// tells J1 the latest state, so nothing is repeated.
	_, heard = crashAndRestart(t, t.TempDir(), nil, 85, 0)
	if !reflect.DeepEqual(heard, wantNotices) {
		t.Errorf("notices across the restart (log only)\n got  %v\n want %v", heard, wantNotices)
	}
}

func segments(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, segmentPrefix+"*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A torn last record (a Commit that never returned) is dropped at load,
// reported, and the store carries on: every acknowledged record is back,
// and records committed after the restart load too.
func TestStoreTornLastRecord(t *testing.T) {
	for _, damage := range []struct {
		name string
		tail func(valid []byte) []byte
	}{
		{"half a header", func([]byte) []byte { return []byte{0, 0, 0} }},
		{"half a record", func(v []byte) []byte { return v[:len(v)-5] }},
		{"bad checksum", func(v []byte) []byte {
			b := append([]byte(nil), v...)
			b[len(b)-2] ^= 0xff
			return b
		}},
		{"zeros", func([]byte) []byte { return make([]byte, 64) }},
	} {
		t.Run(damage.name, func(t *testing.T) {
			dir := t.TempDir()
			s, clock, cfg := storeService(t, dir)
			s.store.SnapshotEvery = 0
			scenario(t, s, clock, 0, 50)
			acked := stateJSON(t, s)
			segs := segments(t, dir)
			if len(segs) != 1 {
				t.Fatalf("segments %v", segs)
			}
			// A record the crash cut: frame a valid one, then damage it.
			valid := frame(nil, []byte(`{"seq":999999,"kind":"job-started","job":"torn"}`))
			f, err := os.OpenFile(segs[0], os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.Write(damage.tail(valid)); err != nil {
				t.Fatal(err)
			}
			f.Close()

			crash(s)
			r, err := NewService(cfg)
			if err != nil {
				t.Fatalf("reload with a torn tail: %v", err)
			}
			if damage.name == "bad checksum" {
				// A whole frame that fails its checksum is damage, not a cut write.
				if len(r.Loaded.Damaged) != 1 || !strings.Contains(r.Loaded.Damaged[0], filepath.Base(segs[0])) {
					t.Errorf("damage report %v", r.Loaded.Damaged)
				}
			} else if len(r.Loaded.Torn) != 1 || !strings.Contains(r.Loaded.Torn[0], filepath.Base(segs[0])) {
				t.Errorf("torn report %v", r.Loaded.Torn)
			}
			if got := stateJSON(t, r); got != acked {
				t.Fatalf("state after reload differs:\n got  %s\n want %s", got, acked)
			}
			scenario(t, r, clock, 51, 130)
			after := stateJSON(t, r)
			crash(r)
			again, err := NewService(cfg) // r crashed too: no Close
			if err != nil {
				t.Fatal(err)
			}
			if got := stateJSON(t, again); got != after {
				t.Fatalf("second reload differs:\n got  %s\n want %s", got, after)
			}
		})
	}
}

// A record missing in the middle of the log (its frame was damaged) does
// not stop the load: the later records apply; a damaged snapshot is set
// aside and reported, and the log loads without it.
func TestStoreGapAndDamagedSnapshotStillLoad(t *testing.T) {
	dir := t.TempDir()
	d := LocalDir(dir)
	var buf []byte
	for _, p := range []string{`{"seq":1,"kind":"job-started","job":"a"}`, `{"seq":3,"kind":"job-started","job":"b"}`} {
		buf = frame(buf, []byte(p))
	}
	if err := d.Append(segmentName(1), buf); err != nil {
		t.Fatal(err)
	}
	_, st, _, err := OpenStore(d, testConfig())
	if err != nil || st.Jobs["a"] == nil || st.Jobs["b"] == nil || st.Seq != 3 {
		t.Fatalf("gap in the log: %v, state %+v", err, st)
	}
	if err := os.WriteFile(filepath.Join(dir, snapshotName), []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, st, rep, err := OpenStore(d, testConfig())
	if err != nil || st.Jobs["b"] == nil {
		t.Fatalf("damaged snapshot: %v", err)
	}
	if len(rep.Damaged) != 1 || !strings.Contains(rep.Damaged[0], snapshotName) {
		t.Fatalf("damaged snapshot not reported: %v", rep.Damaged)
	}
	if _, err := os.Stat(filepath.Join(dir, snapshotName)); !os.IsNotExist(err) {
		t.Errorf("damaged snapshot still in place: %v", err)
	}
}

// A snapshot that a crash interrupted (its temporary file) is ignored and
// removed; the previous snapshot and the log stand.
func TestStoreInterruptedSnapshot(t *testing.T) {
	dir := t.TempDir()
	s, clock, cfg := storeService(t, dir)
	scenario(t, s, clock, 0, 60)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	want := stateJSON(t, s)
	if err := os.WriteFile(filepath.Join(dir, snapshotName+".tmp"), []byte("half a snap"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := mustService(t, cfg)
	if got := stateJSON(t, r); got != want {
		t.Fatalf("state differs:\n got  %s\n want %s", got, want)
	}
	if _, err := os.Stat(filepath.Join(dir, snapshotName+".tmp")); !os.IsNotExist(err) {
		t.Errorf("temporary snapshot left: %v", err)
	}
}
