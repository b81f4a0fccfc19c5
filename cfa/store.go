package cfa

import (
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
// never written again. The snapshot replaces itself atomically.
const (
	snapshotName  = "snapshot.cfa"
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
	// SnapshotEvery: Commit writes a snapshot after this many records since
	// the last one (default 10,000).
	SnapshotEvery int
	sinceSnap     int
}

// LoadReport says what Open found.
type LoadReport struct {
	SnapshotSeq uint64   // the snapshot's last record, 0 = no snapshot
	Records     int      // log records applied over it
	Torn        []string // "file at offset N": torn tails dropped
	TornBytes   int64    // their bytes
	// Damaged lists each damaged frame skipped ("file bytes A-B: why"):
	// a checksum or length that fails, a record that does not decode, a
	// damaged snapshot (set aside as snapshot.cfa.damaged-N).
	Damaged []string
	// Unapplied lists records that decoded but did not apply (a record
	// they depend on was damaged): "file record seq N: why".
	Unapplied []string
}

// Problems is the number of damaged frames and unapplied records.
func (r LoadReport) Problems() int { return len(r.Damaged) + len(r.Unapplied) }

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
func OpenStore(dir Dir, cfg analyzer.Config) (*Store, *analyzer.State, LoadReport, error) {
	var rep LoadReport
	names, err := dir.Names()
	if err != nil {
		return nil, nil, rep, err
	}
	st := analyzer.NewState()
	var segments []int
	for _, name := range names {
		switch n, ok := segmentNumber(name); {
		case ok:
			segments = append(segments, n)
		case name == snapshotName:
			snap, why, err := readSnapshot(dir, name)
			if err != nil {
				return nil, nil, rep, err
			}
			if why != "" {
				// Written atomically, so damage is corruption, not a crash:
				// set it aside for inspection and start from the log.
				aside := fmt.Sprintf("%s.damaged-%d", name, len(names))
				rep.Damaged = append(rep.Damaged, fmt.Sprintf("%s/%s: %s (set aside as %s)", dir, name, why, aside))
				if err := setAside(dir, name, aside); err != nil {
					return nil, nil, rep, err
				}
				continue
			}
			st = snap
			rep.SnapshotSeq = st.Seq
		case strings.HasSuffix(name, ".tmp") || strings.Contains(name, ".tmp-"):
			// A snapshot a crash interrupted: the previous one stands.
			if err := dir.Remove(name); err != nil {
				return nil, nil, rep, err
			}
		}
	}
	sort.Ints(segments)
	lim := cfg.Limits()
	for _, n := range segments {
		name := segmentName(n)
		b, err := dir.Read(name)
		if err != nil {
			return nil, nil, rep, err
		}
		sc := scanFrames(b)
		for _, d := range sc.Damaged {
			rep.Damaged = append(rep.Damaged, fmt.Sprintf("%s/%s bytes %d-%d: not a valid frame (length or checksum)", dir, name, d.Start, d.End))
		}
		if sc.Torn < len(b) {
			rep.Torn = append(rep.Torn, fmt.Sprintf("%s/%s at offset %d", dir, name, sc.Torn))
			rep.TornBytes += int64(len(b) - sc.Torn)
			if t, ok := dir.(truncater); ok {
				if err := t.Truncate(name, int64(sc.Torn)); err != nil {
					return nil, nil, rep, err
				}
			}
		}
		for i, p := range sc.Payloads {
			var r analyzer.Record
			if err := json.Unmarshal(p, &r); err != nil {
				rep.Damaged = append(rep.Damaged, fmt.Sprintf("%s/%s bytes %d-%d: record does not decode: %v", dir, name, sc.Offsets[i], sc.Offsets[i]+8+len(p), err))
				continue
			}
			if r.Seq <= st.Seq {
				continue // in the snapshot, or written again after a failed append
			}
			if r.Seq > st.Seq+1 {
				// Records in between were damaged (reported above): go on
				// from this one.
				st.Seq = r.Seq - 1
			}
			if err := st.Apply(&r, lim); err != nil {
				rep.Unapplied = append(rep.Unapplied, fmt.Sprintf("%s/%s record seq %d: %v", dir, name, r.Seq, err))
				st.Seq = r.Seq
				continue
			}
			rep.Records++
		}
	}
	next := 1
	if len(segments) > 0 {
		next = segments[len(segments)-1] + 1
	}
	return &Store{dir: dir, segment: next, SnapshotEvery: 10_000}, st, rep, nil
}

// readSnapshot reads the snapshot: its state, or why it is damaged.
func readSnapshot(dir Dir, name string) (*analyzer.State, string, error) {
	b, err := dir.Read(name)
	if err != nil {
		return nil, "", err
	}
	sc := scanFrames(b)
	if len(sc.Payloads) != 1 || len(sc.Damaged) > 0 || sc.Torn != len(b) {
		return nil, "checksum or length wrong", nil
	}
	st := analyzer.NewState()
	if err := json.Unmarshal(sc.Payloads[0], st); err != nil {
		return nil, fmt.Sprintf("does not decode: %v", err), nil
	}
	if st.Jobs == nil || st.Nodes == nil {
		return nil, "snapshot without jobs or nodes", nil
	}
	return st, "", nil
}

func setAside(dir Dir, name, aside string) error {
	b, err := dir.Read(name)
	if err != nil {
		return err
	}
	if err := dir.WriteAtomic(aside, b); err != nil {
		return err
	}
	return dir.Remove(name)
}

// Commit appends records to the log and returns once they are durable.
// It writes a snapshot of st (which must already include the records)
// every SnapshotEvery records. After a failed append the store makes sure
// the next one does not land behind a partial frame (see Store).
func (s *Store) Commit(records []analyzer.Record, st *analyzer.State) error {
	if len(records) == 0 {
		return nil
	}
	var buf []byte
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
	s.sinceSnap += len(records)
	if s.SnapshotEvery > 0 && s.sinceSnap >= s.SnapshotEvery {
		return s.Snapshot(st)
	}
	return nil
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
	s.segment++
	s.size = 0
}

// Snapshot writes st as the snapshot, moves on to a new segment and
// removes the segments the snapshot covers. st must include every
// committed record and none that is not.
func (s *Store) Snapshot(st *analyzer.State) error {
	p, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("store %s: encode snapshot: %w", s.dir, err)
	}
	if err := s.dir.WriteAtomic(snapshotName, frame(nil, p)); err != nil {
		return err
	}
	s.sinceSnap = 0
	old := s.segment
	s.segment++
	s.size = 0
	names, err := s.dir.Names()
	if err != nil {
		return err
	}
	var errs []error
	for _, name := range names {
		if n, ok := segmentNumber(name); ok && n <= old {
			errs = append(errs, s.dir.Remove(name))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("store %s: snapshot written, old segments not all removed: %w", s.dir, err)
	}
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
