package cfa

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
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

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// frame encodes one payload: 4 bytes big-endian length, 4 bytes CRC-32C of
// the payload, the payload.
func frame(dst, payload []byte) []byte {
	var h [8]byte
	binary.BigEndian.PutUint32(h[:4], uint32(len(payload)))
	binary.BigEndian.PutUint32(h[4:], crc32.Checksum(payload, castagnoli))
	return append(append(dst, h[:]...), payload...)
}

// unframe returns the payloads in b, and the offset of the first frame that
// is incomplete or fails its checksum (len(b) if none).
func unframe(b []byte) (payloads [][]byte, bad int) {
	off := 0
	for off < len(b) {
		if len(b)-off < 8 {
			return payloads, off
		}
		n := int(binary.BigEndian.Uint32(b[off:]))
		sum := binary.BigEndian.Uint32(b[off+4:])
		if n == 0 || n > maxFrame || len(b)-off-8 < n {
			return payloads, off
		}
		p := b[off+8 : off+8+n]
		if crc32.Checksum(p, castagnoli) != sum {
			return payloads, off
		}
		payloads = append(payloads, p)
		off += 8 + n
	}
	return payloads, off
}

// Store persists the analyzer's records: an append-only log of checksummed
// records and a periodic snapshot. A record is acknowledged when Commit
// returns; a crash at any point loses nothing acknowledged: a torn last
// record (a Commit that did not return) is dropped at load, and a crash
// while writing a snapshot leaves the previous one in place.
type Store struct {
	dir     Dir
	segment int // the segment this process appends to
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
}

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
			b, err := dir.Read(name)
			if err != nil {
				return nil, nil, rep, err
			}
			payloads, bad := unframe(b)
			if len(payloads) != 1 || bad != len(b) {
				return nil, nil, rep, fmt.Errorf("read %s/%s: damaged snapshot (checksum or length wrong at offset %d)", dir, name, bad)
			}
			if err := json.Unmarshal(payloads[0], st); err != nil {
				return nil, nil, rep, fmt.Errorf("read %s/%s: %w", dir, name, err)
			}
			if st.Jobs == nil || st.Nodes == nil {
				return nil, nil, rep, fmt.Errorf("read %s/%s: snapshot without jobs or nodes", dir, name)
			}
			rep.SnapshotSeq = st.Seq
		case strings.Contains(name, ".tmp"):
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
		payloads, bad := unframe(b)
		if bad != len(b) {
			rep.Torn = append(rep.Torn, fmt.Sprintf("%s/%s at offset %d", dir, name, bad))
		}
		for i, p := range payloads {
			var r analyzer.Record
			if err := json.Unmarshal(p, &r); err != nil {
				return nil, nil, rep, fmt.Errorf("read %s/%s record %d: %w", dir, name, i, err)
			}
			if r.Seq <= st.Seq {
				continue
			}
			if err := st.Apply(&r, lim); err != nil {
				return nil, nil, rep, fmt.Errorf("read %s/%s: %w", dir, name, err)
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

// Commit appends records to the log and returns once they are durable.
// It writes a snapshot of st (which must already include the records)
// every SnapshotEvery records.
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
	if err := s.dir.Append(segmentName(s.segment), buf); err != nil {
		return err
	}
	s.sinceSnap += len(records)
	if s.SnapshotEvery > 0 && s.sinceSnap >= s.SnapshotEvery {
		return s.Snapshot(st)
	}
	return nil
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
