package cfa

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/specbridge/specbridge/cfa/analyzer"
)

// Store files. The log is a series of segments, log-0000000001.cfa, ...;
// each process writes only to a segment of its own (a new number at open,
// and after each snapshot), so a segment a crashed process left behind is
// never written again. The snapshot replaces itself atomically, once the
// new one is verified, and the one before it is kept (snapshot.cfa.prev).
const (
	snapshotName     = "snapshot.cfa"
	prevSnapshotName = "snapshot.cfa.prev"
	// snapshotTemp is where a new snapshot is written and verified before
	// it replaces snapshot.cfa.
	snapshotTemp  = "snapshot.cfa.tmp"
	segmentPrefix = "log-"
	segmentSuffix = ".cfa"
	maxFrame      = 256 << 20
)

// Store persists the analyzer's records: an append-only log of checksummed
// records and a periodic snapshot. A record is acknowledged when Commit
// returns; a crash at any point loses nothing acknowledged: a torn last
// record (a Commit that did not return) is dropped at load, and a crash
// while writing a snapshot leaves the previous one in place. Damage in the
// middle of a segment costs the damaged frame only (scanFrames): later
// frames load, and the damage is counted and reported.
//
// A failed append is never followed by an append behind what it may have
// left: the store checks the segment's size, truncates it back to the last
// acknowledged frame where the directory can (local), and otherwise moves
// on to a new segment (HDFS), leaving the partial frame as that segment's
// torn tail.
type Store struct {
	dir     Dir
	segment int   // the segment this process appends to
	size    int64 // bytes of it acknowledged (the end of the last whole frame)
	count   int   // records in it acknowledged
	// prevSeg and prevCount: the segment before this one and its records,
	// vouched for in this one's start frame (segments.go).
	prevSeg, prevCount int
	// covered: segments up to this one are all in the current snapshot,
	// which becomes snapshot.cfa.prev at the next Snapshot; that one then
	// deletes them.
	covered int
	// SnapshotEvery: Commit writes a snapshot after this many records since
	// the last one (default 10,000).
	SnapshotEvery int
	sinceSnap     int
}

// LoadReport says what Open found.
type LoadReport struct {
	SnapshotSeq uint64 // the snapshot's last record, 0 = no snapshot
	// Snapshot is the file the state was loaded from: snapshot.cfa, or
	// snapshot.cfa.prev when snapshot.cfa was damaged; "" for none.
	Snapshot  string
	Records   int      // log records applied over it
	Torn      []string // "file at offset N": torn tails dropped
	TornBytes int64    // their bytes
	// Damaged lists each damaged frame skipped ("file bytes A-B: why"):
	// a checksum or length that fails, a record that does not decode, a
	// damaged snapshot (set aside as snapshot.cfa.damaged-N).
	Damaged []string
	// Unapplied lists records that decoded but did not apply (a record
	// they depend on was damaged): "file record seq N: why".
	Unapplied []string
	// Missing lists records known to be lost without a damaged frame to
	// show for them: a gap in the sequence numbers (records a damaged
	// snapshot held, or a segment cut at a frame boundary), or a segment
	// holding fewer records than it was sealed with (segments.go).
	Missing []string
}

// Problems is the number of damaged frames, unapplied and missing records.
func (r LoadReport) Problems() int { return len(r.Damaged) + len(r.Unapplied) + len(r.Missing) }

func segmentName(n int) string { return fmt.Sprintf("%s%010d%s", segmentPrefix, n, segmentSuffix) }

func segmentNumber(name string) (int, bool) {
	if !strings.HasPrefix(name, segmentPrefix) || !strings.HasSuffix(name, segmentSuffix) {
		return 0, false
	}
	var n int
	_, err := fmt.Sscanf(strings.TrimSuffix(strings.TrimPrefix(name, segmentPrefix), segmentSuffix), "%d", &n)
	return n, err == nil
}

// OpenStore loads the state kept in dir (an empty state if there is none)
// and returns a store that appends to a new segment. cfg's detector window
// and MaxEpisodes bound what the state keeps, as in the Analyzer.
//
// Only an unreadable directory or file is an error: damage is skipped and
// reported (LoadReport), so that a damaged store never keeps the analyzer
// from starting. Torn tails are truncated where the directory can.
//
// The base state is snapshot.cfa; when it is damaged it is set aside
// (snapshot.cfa.damaged-N, kept for inspection) and snapshot.cfa.prev, the
// snapshot before it, is the base instead: the log still holds every
// segment written since the previous snapshot (Snapshot deletes only the
// segments the previous one covers), so replaying it over the previous
// snapshot loses nothing. A store written before snapshots were kept
// twice (no .prev) loads as before.
func OpenStore(dir Dir, cfg analyzer.Config) (*Store, *analyzer.State, LoadReport, error) {
	var rep LoadReport
	names, err := dir.Names()
	if err != nil {
		return nil, nil, rep, err
	}
	var segments []int
	for _, name := range names {
		switch n, ok := segmentNumber(name); {
		case ok:
			segments = append(segments, n)
		case isTemp(name):
			// A snapshot a crash or a failed write interrupted: the
			// previous one stands.
			if err := dir.Remove(name); err != nil {
				return nil, nil, rep, err
			}
		}
	}
	st, base, damaged, err := loadBase(dir, names, true)
	if err != nil {
		return nil, nil, rep, err
	}
	rep.Snapshot = base
	rep.Damaged = append(rep.Damaged, damaged...)
	if st == nil {
		st = analyzer.NewState()
	}
	rep.SnapshotSeq = st.Seq
	sort.Ints(segments)
	lim := cfg.Limits()
	segs := make([]*segFile, 0, len(segments))
	covered, covering := 0, true
	for _, n := range segments {
		f, err := readSegment(dir, n)
		if err != nil {
			return nil, nil, rep, err
		}
		var prev *segFile
		if len(segs) > 0 {
			prev = segs[len(segs)-1]
		}
		segs = append(segs, f)
		b, sc := f.data, f.sc
		name := f.name
		for _, d := range sc.Damaged {
			rep.Damaged = append(rep.Damaged, fmt.Sprintf("%s/%s bytes %d-%d: not a valid frame (length or checksum)", dir, name, d.Start, d.End))
		}
		rep.Damaged = append(rep.Damaged, f.undecoded...)
		if sc.Torn < len(b) {
			rep.Torn = append(rep.Torn, fmt.Sprintf("%s/%s at offset %d", dir, name, sc.Torn))
			rep.TornBytes += int64(len(b) - sc.Torn)
			if t, ok := dir.(truncater); ok {
				if err := t.Truncate(name, int64(sc.Torn)); err != nil {
					return nil, nil, rep, err
				}
			}
		}
		if covering && len(sc.Damaged) == 0 && len(f.undecoded) == 0 && f.maxSeq <= rep.SnapshotSeq {
			covered = n
		} else {
			covering = false
		}
		for i := range f.recs {
			r := &f.recs[i]
			if r.Seq <= st.Seq {
				continue // in the snapshot, or written again after a failed append
			}
			if r.Seq > st.Seq+1 {
				// Records in between are missing (damaged frames, reported
				// above, or lost): go on from this one.
				if m := f.gap(dir, prev, st.Seq, r.Seq); m != "" {
					rep.Missing = append(rep.Missing, m)
				}
				st.Seq = r.Seq - 1
			}
			if err := st.Apply(r, lim); err != nil {
				rep.Unapplied = append(rep.Unapplied, fmt.Sprintf("%s/%s record seq %d: %v", dir, name, r.Seq, err))
				st.Seq = r.Seq
				continue
			}
			rep.Records++
		}
	}
	for _, p := range sealProblems(dir, segs) {
		rep.Missing = append(rep.Missing, p.msg)
	}
	s := &Store{dir: dir, segment: 1, SnapshotEvery: 10_000, covered: covered}
	if len(segs) > 0 {
		last := segs[len(segs)-1]
		s.segment = last.n + 1
		s.prevSeg, s.prevCount = last.n, len(last.recs)
	}
	return s, st, rep, nil
}

// isTemp reports whether name is a temporary file of an atomic write
// (local: NAME.tmp; HDFS: NAME.tmp-NANOS).
func isTemp(name string) bool {
	return strings.HasSuffix(name, ".tmp") || strings.Contains(name, ".tmp-")
}

// loadBase reads snapshot.cfa, or when it is damaged snapshot.cfa.prev:
// the state (nil if neither is usable), the file it came from, and the
// damage found. With setAsideDamaged, a damaged snapshot is renamed out
// of the way.
func loadBase(dir Dir, names []string, setAsideDamaged bool) (*analyzer.State, string, []string, error) {
	var damaged []string
	for _, name := range []string{snapshotName, prevSnapshotName} {
		if !contains(names, name) {
			continue
		}
		snap, why, err := readSnapshot(dir, name)
		if err != nil {
			return nil, "", damaged, err
		}
		if why == "" {
			return snap, name, damaged, nil
		}
		msg := fmt.Sprintf("%s/%s: %s", dir, name, why)
		if setAsideDamaged {
			// Written atomically and verified, so damage is corruption,
			// not a crash: keep it for inspection, load without it.
			aside, err := setAside(dir, names, name)
			if err != nil {
				return nil, "", damaged, err
			}
			msg += " (set aside as " + aside + ")"
		}
		damaged = append(damaged, msg)
	}
	return nil, "", damaged, nil
}

func contains(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

// readSnapshot reads the snapshot: its state, or why it is damaged.
func readSnapshot(dir Dir, name string) (*analyzer.State, string, error) {
	b, err := dir.Read(name)
	if err != nil {
		return nil, "", err
	}
	st, why := decodeSnapshot(b)
	return st, why, nil
}

// decodeSnapshot decodes a snapshot file's bytes: the state, or why they
// are not one.
func decodeSnapshot(b []byte) (*analyzer.State, string) {
	sc := scanFrames(b)
	if len(sc.Payloads) != 1 || len(sc.Damaged) > 0 || sc.Torn != len(b) {
		return nil, "checksum or length wrong"
	}
	st := analyzer.NewState()
	if err := json.Unmarshal(sc.Payloads[0], st); err != nil {
		return nil, fmt.Sprintf("does not decode: %v", err)
	}
	if st.Jobs == nil || st.Nodes == nil {
		return nil, "snapshot without jobs or nodes"
	}
	return st, ""
}

// setAside renames the damaged file name to name.damaged-N (the first N
// free) and returns the new name.
func setAside(dir Dir, names []string, name string) (string, error) {
	n := 1
	for contains(names, fmt.Sprintf("%s.damaged-%d", name, n)) {
		n++
	}
	aside := fmt.Sprintf("%s.damaged-%d", name, n)
	if err := dir.Rename(name, aside); err != nil {
		return "", err
	}
	return aside, nil
}

// ErrSnapshotFailed is wrapped by Commit's error when the records were
// committed but the snapshot after them failed: the caller must not write
// them again. The snapshot is retried at the next Commit.
var ErrSnapshotFailed = errors.New("snapshot failed")

// Commit appends records to the log and returns once they are durable.
// It writes a snapshot of st (which must already include the records)
// every SnapshotEvery records. After a failed append the store makes sure
// the next one does not land behind a partial frame (see Store).
func (s *Store) Commit(records []analyzer.Record, st *analyzer.State) error {
	if len(records) == 0 {
		return nil
	}
	var buf []byte
	if s.size == 0 {
		buf = s.startFrame(buf)
	}
	for i := range records {
		p, err := json.Marshal(&records[i])
		if err != nil {
			return fmt.Errorf("store %s: encode record %d: %w", s.dir, records[i].Seq, err)
		}
		buf = frame(buf, p)
	}
	name := segmentName(s.segment)
	if err := s.dir.Append(name, buf); err != nil {
		s.afterFailedAppend(name)
		return err
	}
	s.size += int64(len(buf))
	s.count += len(records)
	s.sinceSnap += len(records)
	if s.SnapshotEvery > 0 && s.sinceSnap >= s.SnapshotEvery {
		if err := s.Snapshot(st); err != nil {
			return fmt.Errorf("store %s: %d records committed, then %w: %w", s.dir, len(records), ErrSnapshotFailed, err)
		}
	}
	return nil
}

// startFrame appends the start frame of a new segment to buf.
func (s *Store) startFrame(buf []byte) []byte {
	p, _ := json.Marshal(segMark{Start: &segStart{Segment: s.segment, PrevSegment: s.prevSeg, PrevRecords: s.prevCount}})
	return frame(buf, p)
}

// afterFailedAppend leaves the segment ending at its last acknowledged
// frame where the directory can truncate (local), else moves on to a new
// segment (HDFS): there an append can fail after the NameNode opened the
// file for it (a NameNode that fails over or dies before it answers), and
// the file then stays open under this client's lease, so that appending
// to it again would be refused even when its size shows nothing written.
func (s *Store) afterFailedAppend(name string) {
	if t, ok := s.dir.(truncater); ok {
		if size, err := s.dir.Size(name); err == nil && size == s.size {
			return // nothing was written
		}
		if err := t.Truncate(name, s.size); err == nil {
			return
		}
	}
	s.nextSegment()
}

// nextSegment moves on to a new segment; the one left (if it was written)
// is vouched for in the new one's start frame.
func (s *Store) nextSegment() {
	if s.size > 0 {
		s.prevSeg, s.prevCount = s.segment, s.count
	}
	s.segment++
	s.size, s.count = 0, 0
}

// Snapshot writes st as the snapshot, moves on to a new segment and
// removes the segments the previous snapshot covers. st must include every
// committed record and none that is not.
//
// The new snapshot is written to snapshot.cfa.tmp (atomically, so
// durably), read back and compared byte for byte; only then does the
// current snapshot become snapshot.cfa.prev and the new one snapshot.cfa.
// Segments are deleted only once two verified snapshots cover them, so
// that when snapshot.cfa is found damaged, snapshot.cfa.prev and the log
// after it still hold every record (OpenStore). A failed snapshot leaves
// no temporary file and the previous snapshots in place.
func (s *Store) Snapshot(st *analyzer.State) error {
	p, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("store %s: encode snapshot: %w", s.dir, err)
	}
	data := frame(nil, p)
	if err := s.writeSnapshot(data); err != nil {
		s.removeTemps()
		return err
	}
	s.sinceSnap = 0
	drop := s.covered
	s.covered = s.segment
	s.nextSegment()
	names, err := s.dir.Names()
	if err != nil {
		return err
	}
	var errs []error
	for _, name := range names {
		if n, ok := segmentNumber(name); ok && n <= drop {
			errs = append(errs, s.dir.Remove(name))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("store %s: snapshot written, old segments not all removed: %w", s.dir, err)
	}
	return nil
}

// writeSnapshot writes data to the temporary name, verifies it and puts
// it in place, the current snapshot becoming the previous one.
func (s *Store) writeSnapshot(data []byte) error {
	if err := s.dir.WriteAtomic(snapshotTemp, data); err != nil {
		return err
	}
	back, err := s.dir.Read(snapshotTemp)
	if err != nil {
		return err
	}
	if !bytes.Equal(back, data) {
		return fmt.Errorf("store %s: snapshot read back differs from what was written (%d bytes written, %d read)", s.dir, len(data), len(back))
	}
	if size, err := s.dir.Size(snapshotName); err != nil {
		return err
	} else if size > 0 {
		if err := s.dir.Rename(snapshotName, prevSnapshotName); err != nil {
			return err
		}
	}
	return s.dir.Rename(snapshotTemp, snapshotName)
}

// removeTemps removes what a failed snapshot may have left.
func (s *Store) removeTemps() {
	names, err := s.dir.Names()
	if err != nil {
		return
	}
	for _, name := range names {
		if isTemp(name) {
			_ = s.dir.Remove(name)
		}
	}
}

// Seal ends the current segment with an end frame stating its record
// count (at a clean stop): a cut of its tail is then detectable.
func (s *Store) Seal() error {
	if s.size == 0 {
		return nil
	}
	p, _ := json.Marshal(segMark{End: &segEnd{Segment: s.segment, Records: s.count}})
	name := segmentName(s.segment)
	if err := s.dir.Append(name, frame(nil, p)); err != nil {
		s.afterFailedAppend(name)
		return err
	}
	s.nextSegment()
	return nil
}

// Close releases the directory's connection, if it has one (HDFS).
func (s *Store) Close() error {
	if c, ok := s.dir.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// Dir returns where the store keeps its files.
func (s *Store) Dir() Dir { return s.dir }
