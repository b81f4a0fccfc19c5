package cfa

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/specbridge/specbridge/cfa/analyzer"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
)

// propDir is a fresh directory, on tmpfs when there is one: the property
// tests run hundreds of stores and fsync each append, which a loaded disk
// makes slow; what they check does not depend on the file system.
func propDir(t *testing.T) string {
	t.Helper()
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "cfa-prop-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(d) })
			return d
		}
	}
	return t.TempDir()
}

// propRecords are independent records (one job each), so that any subset
// applies: what was recovered is exactly the jobs in the state.
func propRecord(seq uint64) analyzer.Record {
	return analyzer.Record{Seq: seq, Kind: analyzer.KindJobStarted, Job: fmt.Sprintf("j%06d", seq), Time: analyzer.Time(seq)}
}

// committer drives a Store the way Service does: records of a failed
// commit go first in the next one.
type committer struct {
	st      *analyzer.State
	store   *Store
	seq     uint64
	retry   []analyzer.Record
	acked   map[uint64]bool
	written map[uint64]bool // handed to Commit at least once
}

func newCommitter(t *testing.T, d Dir, snapEvery int) *committer {
	t.Helper()
	s, st, rep, err := OpenStore(d, testConfig())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Problems() > 0 {
		t.Fatalf("fresh store reports problems: %+v", rep)
	}
	s.SnapshotEvery = snapEvery
	return &committer{st: st, store: s, acked: map[uint64]bool{}, written: map[uint64]bool{}}
}

func (c *committer) commit(t *testing.T, n int) error {
	t.Helper()
	recs := c.retry
	for i := 0; i < n; i++ {
		c.seq++
		r := propRecord(c.seq)
		if err := c.st.Apply(&r, analyzer.Limits{Window: 5, Episodes: 10}); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	for _, r := range recs {
		c.written[r.Seq] = true
	}
	if err := c.store.Commit(recs, c.st); err != nil {
		c.retry = recs
		return err
	}
	c.retry = nil
	for _, r := range recs {
		c.acked[r.Seq] = true
	}
	return nil
}

// checkRecovered reopens dir: every acknowledged record but those in lost
// must be back, and nothing that was never written.
func checkRecovered(t *testing.T, dir string, c *committer, lost map[uint64]bool) (*analyzer.State, LoadReport) {
	t.Helper()
	_, st, rep, err := OpenStore(LocalDir(dir), testConfig())
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	for seq := range c.acked {
		if !lost[seq] && st.Jobs[propRecord(seq).Job] == nil {
			t.Fatalf("acknowledged record %d lost (report %+v)", seq, rep)
		}
	}
	for job := range st.Jobs {
		var seq uint64
		fmt.Sscanf(job, "j%d", &seq)
		if !c.written[seq] {
			t.Fatalf("record %d recovered but never written", seq)
		}
	}
	return st, rep
}

// Crash at a random write, leaving a random prefix of it: every record
// whose Commit returned is back.
func TestStorePropertyCrash(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for trial := 0; trial < 300; trial++ {
		dir := propDir(t)
		crashAt := 1 + rng.Intn(40)
		fd := &faultDir{Dir: LocalDir(dir)}
		fd.plan = func(op, name string, n int) (int, error) {
			if fd.writes == crashAt {
				return rng.Intn(n + 1), errCrashed
			}
			return n, nil
		}
		c := newCommitter(t, fd, []int{0, 3, 7}[trial%3])
		for c.commit(t, 1+rng.Intn(5)) == nil {
		}
		_, rep := checkRecovered(t, dir, c, nil)
		if len(rep.Damaged)+len(rep.Unapplied) > 0 {
			t.Fatalf("trial %d: a crash reported as damage: %+v", trial, rep)
		}
		// A second life after the crash, then a second crash-free reload.
		c2 := newCommitter(t, LocalDir(dir), 0)
		c2.seq = c2.st.Seq
		for i := 0; i < 3; i++ {
			if err := c2.commit(t, 2); err != nil {
				t.Fatal(err)
			}
		}
		for seq := range c2.acked {
			c.acked[seq], c.written[seq] = true, true
		}
		checkRecovered(t, dir, c, nil)
	}
}

// One byte of a segment corrupted at random: only the record whose frame
// holds it is lost; every later one loads, and the damage is reported.
func TestStorePropertyCorruption(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for trial := 0; trial < 300; trial++ {
		dir := propDir(t)
		c := newCommitter(t, LocalDir(dir), 0)
		for i := 0; i < 20; i++ {
			if err := c.commit(t, 1+rng.Intn(4)); err != nil {
				t.Fatal(err)
			}
		}
		segs, _ := filepath.Glob(filepath.Join(dir, segmentPrefix+"*"))
		if len(segs) != 1 {
			t.Fatalf("segments %v", segs)
		}
		b, err := os.ReadFile(segs[0])
		if err != nil {
			t.Fatal(err)
		}
		sc := scanFrames(b)
		at := rng.Intn(len(b))
		// The record whose frame holds byte at (0: the segment's start
		// frame, which holds no record).
		var hit uint64
		for i, off := range sc.Offsets {
			if at >= off && at < off+8+len(sc.Payloads[i]) {
				var lf logFrame
				if err := json.Unmarshal(sc.Payloads[i], &lf); err != nil {
					t.Fatal(err)
				}
				hit = lf.Seq
			}
		}
		b[at] ^= byte(1 + rng.Intn(255))
		if err := os.WriteFile(segs[0], b, 0o644); err != nil {
			t.Fatal(err)
		}
		st, rep := checkRecovered(t, dir, c, map[uint64]bool{hit: true})
		lostOne := 1
		if hit == 0 {
			lostOne = 0
		}
		if len(st.Jobs) != len(c.acked)-lostOne {
			t.Fatalf("trial %d: byte %d of record %d: %d of %d records back (report %+v)", trial, at, hit, len(st.Jobs), len(c.acked), rep)
		}
		if hit == uint64(len(c.acked)) {
			if len(rep.Damaged)+len(rep.Torn) != 1 {
				t.Fatalf("trial %d: damaged last frame not reported: %+v", trial, rep)
			}
		} else if len(rep.Damaged) != 1 {
			t.Fatalf("trial %d: damage at byte %d (record %d) reported as %+v", trial, at, hit, rep)
		}
	}
}

// ENOSPC at random writes, with a random part of the write landing: the
// committer retries as Service does, and once space returns every
// acknowledged record loads, with no damage, on a directory that can
// truncate (local) and on one that cannot (HDFS: new segments).
func TestStorePropertyENOSPC(t *testing.T) {
	for _, truncate := range []bool{true, false} {
		t.Run(fmt.Sprintf("truncate=%v", truncate), func(t *testing.T) {
			rng := rand.New(rand.NewSource(3))
			for trial := 0; trial < 200; trial++ {
				dir := propDir(t)
				full := false
				fd := &faultDir{Dir: LocalDir(dir)}
				fd.plan = func(op, name string, n int) (int, error) {
					if rng.Intn(4) == 0 {
						full = !full
					}
					if full {
						return rng.Intn(n + 1), enospc
					}
					return n, nil
				}
				var d Dir = fd
				if !truncate {
					d = noTruncate{fd}
				}
				c := newCommitter(t, d, []int{0, 4}[trial%2])
				failures := 0
				for i := 0; i < 30; i++ {
					if err := c.commit(t, 1+rng.Intn(4)); err != nil {
						if !errors.Is(err, enospc.Err) {
							t.Fatalf("commit: %v", err)
						}
						failures++
					}
				}
				fd.plan = nil
				if err := c.commit(t, 1); err != nil {
					t.Fatal(err)
				}
				st, rep := checkRecovered(t, dir, c, nil)
				if len(st.Jobs) != len(c.acked) || len(rep.Damaged)+len(rep.Unapplied) > 0 {
					t.Fatalf("trial %d (%d failed commits): %d of %d acknowledged back, report %+v", trial, failures, len(st.Jobs), len(c.acked), rep)
				}
				if truncate && len(rep.Torn) > 0 {
					t.Fatalf("trial %d: a partial write left behind on a truncating directory: %v", trial, rep.Torn)
				}
			}
		})
	}
}
