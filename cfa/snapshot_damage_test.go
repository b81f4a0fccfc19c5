package cfa

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/cfa/analyzer"
)

// copyStore copies the store directory src to a fresh one (on tmpfs when
// there is one: hundreds of copies, each renaming and fsyncing).
func copyStore(t *testing.T, src string) string {
	t.Helper()
	dst := propDir(t)
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.IsDir() || e.Name() == "LOCK" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// loadJSON opens the store in dir and returns its state as JSON.
func loadJSON(t *testing.T, dir string) (string, LoadReport) {
	t.Helper()
	_, st, rep, err := OpenStore(LocalDir(dir), testConfig())
	if err != nil {
		t.Fatalf("open %s: %v", dir, err)
	}
	b, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), rep
}

// sampleOffsets is a dense sample of a file of n bytes: every byte of the
// frame header and the first and last 64 bytes, and about 100 in between.
func sampleOffsets(n int) []int {
	var out []int
	for i := 0; i < n; i++ {
		if i < 72 || i >= n-64 || i%max(1, n/100) == 0 {
			out = append(out, i)
		}
	}
	return out
}

// One flipped byte anywhere in snapshot.cfa (frame header, JSON body, its
// last bytes) costs no record: the damaged snapshot is set aside and the
// store loads from snapshot.cfa.prev and the log, to the same state as
// the undamaged store; fsck reports the damage first. Both after a clean
// stop (whose snapshot covers everything) and after a crash between
// snapshots written every 5 records, and after a clean stop that wrote
// the store's first snapshot (no previous one: the whole log is kept).
func TestStoreFlippedSnapshotByteLosesNothing(t *testing.T) {
	for _, tc := range []struct {
		every int
		clean bool
	}{{5, true}, {5, false}, {0, true}} {
		every, clean := tc.every, tc.clean
		t.Run(fmt.Sprintf("every=%d,clean=%v", every, clean), func(t *testing.T) {
			dir := t.TempDir()
			s, clock, _ := storeService(t, dir)
			s.store.SnapshotEvery = every
			scenario(t, s, clock, 0, 130)
			want := stateJSON(t, s)
			if clean {
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
			} else {
				crash(s)
			}
			if got, rep := loadJSON(t, copyStore(t, dir)); got != want || rep.Problems() > 0 {
				t.Fatalf("undamaged store: state differs or problems %+v", rep)
			}
			snap, err := os.ReadFile(filepath.Join(dir, snapshotName))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(dir, prevSnapshotName)); (err != nil) != (every == 0) {
				t.Fatalf("no previous snapshot kept: %v", err)
			}
			offs := sampleOffsets(len(snap))
			for i, off := range offs {
				d := copyStore(t, dir)
				b := append([]byte(nil), snap...)
				b[off] ^= byte(1 + i%255)
				if err := os.WriteFile(filepath.Join(d, snapshotName), b, 0o644); err != nil {
					t.Fatal(err)
				}
				fr, err := Fsck(LocalDir(d), false)
				if err != nil || fr.DamagedFrames != 1 || !fr.Damage() || !strings.Contains(strings.Join(fr.Details, "\n"), snapshotName) {
					t.Fatalf("byte %d of %d: fsck did not report the damaged snapshot: %v %+v", off, len(snap), err, fr)
				}
				got, rep := loadJSON(t, d)
				if got != want {
					t.Fatalf("byte %d of %d flipped: state differs (report %+v)\n got  %s\n want %s", off, len(snap), rep, got, want)
				}
				wantBase := prevSnapshotName
				if every == 0 {
					wantBase = ""
				}
				if len(rep.Damaged) != 1 || !strings.Contains(rep.Damaged[0], "set aside as "+snapshotName+".damaged-1") || len(rep.Unapplied)+len(rep.Missing) > 0 || rep.Snapshot != wantBase {
					t.Fatalf("byte %d: report %+v", off, rep)
				}
				if _, err := os.Stat(filepath.Join(d, snapshotName+".damaged-1")); err != nil {
					t.Fatalf("byte %d: damaged snapshot not kept for inspection: %v", off, err)
				}
				// The next snapshot (at a clean stop of the reloaded store)
				// must not drop what only the log holds now.
				if off == offs[len(offs)/2] {
					r := mustService(t, ServiceConfig{Analyzer: testConfig(), Store: d, Now: clock.Now})
					if err := r.Close(); err != nil {
						t.Fatal(err)
					}
					if got, rep := loadJSON(t, d); got != want || rep.Problems() > 0 {
						t.Fatalf("after a clean stop of the reloaded store: state differs or problems %+v", rep)
					}
				}
			}
			t.Logf("%d offsets of a %d-byte snapshot flipped: every state recovered whole", len(offs), len(snap))
		})
	}
}

// oldStore writes a store as the format before snapshot.cfa.prev and
// segment marks: a snapshot of records 1-5 and a segment of records 6-10,
// frames of records only.
func oldStore(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	st := analyzer.NewState()
	var seg []byte
	for seq := uint64(1); seq <= 10; seq++ {
		r := propRecord(seq)
		if seq <= 5 {
			if err := st.Apply(&r, analyzer.Limits{Window: 5, Episodes: 10}); err != nil {
				t.Fatal(err)
			}
			continue
		}
		p, _ := json.Marshal(&r)
		seg = frame(seg, p)
	}
	p, _ := json.Marshal(st)
	if err := os.WriteFile(filepath.Join(dir, snapshotName), frame(nil, p), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, segmentName(3)), seg, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A store in the old format loads whole and clean; with its only snapshot
// damaged, the log's records load and the records only the snapshot held
// are reported missing (by fsck too), not passed over in silence.
func TestStoreOldFormatLoads(t *testing.T) {
	dir := oldStore(t)
	_, st, rep, err := OpenStore(LocalDir(dir), testConfig())
	if err != nil || rep.Problems() > 0 || len(st.Jobs) != 10 || st.Seq != 10 {
		t.Fatalf("old store: %v, report %+v, %d jobs, seq %d", err, rep, len(st.Jobs), st.Seq)
	}
	dir = oldStore(t)
	b, _ := os.ReadFile(filepath.Join(dir, snapshotName))
	b[20] ^= 1
	os.WriteFile(filepath.Join(dir, snapshotName), b, 0o644)
	fr, err := Fsck(LocalDir(dir), false)
	if err != nil || fr.DamagedFrames != 1 || fr.MissingRecords != 5 {
		t.Fatalf("fsck of an old store with a damaged snapshot: %v %+v", err, fr)
	}
	_, st, rep, err = OpenStore(LocalDir(dir), testConfig())
	if err != nil || len(st.Jobs) != 5 || len(rep.Damaged) != 1 || len(rep.Missing) != 1 || !strings.Contains(rep.Missing[0], "records 1-5 missing") {
		t.Fatalf("old store, damaged snapshot: %v, report %+v, %d jobs", err, rep, len(st.Jobs))
	}
}

// cutFrames removes the last k record frames of segment n (and any mark
// after them): a cut at a frame boundary, which no checksum shows.
func cutFrames(t *testing.T, dir string, n, k int) {
	t.Helper()
	p := filepath.Join(dir, segmentName(n))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	sc := scanFrames(b)
	at := sc.Offsets[len(sc.Offsets)-k]
	if err := os.WriteFile(p, b[:at], 0o644); err != nil {
		t.Fatal(err)
	}
}

// A segment cut at a frame boundary is detected: fsck counts the records
// it lost (once, though both the next segment's start frame and the gap
// in sequence numbers show them) and exits with damage; the load reports
// them. The segment's writer crashed (no end frame): the next process's
// start frame vouches for its count; the same with segments sealed at a
// clean stop (the cut takes the end frame with it).
func TestStoreSegmentCutAtFrameBoundary(t *testing.T) {
	for _, sealed := range []bool{false, true} {
		t.Run(fmt.Sprintf("sealed=%v", sealed), func(t *testing.T) {
			dir := propDir(t)
			var seq uint64
			for life := 0; life < 3; life++ {
				c := newCommitter(t, LocalDir(dir), 0)
				c.seq = seq
				for i := 0; i < 5; i++ {
					if err := c.commit(t, 3); err != nil {
						t.Fatal(err)
					}
				}
				seq = c.seq
				if sealed {
					if err := c.store.Seal(); err != nil {
						t.Fatal(err)
					}
				}
			}
			fr, err := Fsck(LocalDir(dir), false)
			if err != nil || fr.Damage() || fr.Records != 45 {
				t.Fatalf("intact store: %v %+v", err, fr)
			}
			const cut = 4
			cutFrames(t, dir, 2, cut+map[bool]int{true: 1}[sealed])
			fr, err = Fsck(LocalDir(dir), false)
			if err != nil || fr.MissingRecords != cut || !fr.Damage() || !strings.Contains(strings.Join(fr.Details, "\n"), segmentName(2)+": sealed with 15 records, 11 found") {
				t.Fatalf("cut segment: fsck %v %+v", err, fr)
			}
			_, st, rep, err := OpenStore(LocalDir(dir), testConfig())
			if err != nil || len(rep.Missing) == 0 || len(st.Jobs) != 45-cut {
				t.Fatalf("cut segment: load %v, %d jobs, report %+v", err, len(st.Jobs), rep)
			}
		})
	}
}
