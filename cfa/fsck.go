package cfa

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// FsckReport is what Fsck found (and, with repair, removed).
type FsckReport struct {
	Records       int   `json:"records"`        // valid log records (snapshot not counted)
	DamagedFrames int   `json:"damaged_frames"` // frames skipped: bad length or checksum, or not a record; a damaged snapshot counts one
	TornBytes     int64 `json:"torn_bytes"`     // bytes of torn tails
	// MissingRecords: records known lost without a damaged frame for them
	// (a gap in the sequence numbers, or a segment holding fewer records
	// than it was sealed with: cut at a frame boundary).
	MissingRecords int      `json:"missing_records"`
	SnapshotSeq    uint64   `json:"-"`
	Details        []string `json:"-"`
	Repaired       bool     `json:"-"`
}

// Damage reports whether fsck found anything wrong.
func (r FsckReport) Damage() bool {
	return r.DamagedFrames > 0 || r.TornBytes > 0 || r.MissingRecords > 0
}

// Fsck checks every file of the store in dir: snapshot.cfa and
// snapshot.cfa.prev, and each segment (its frames, its seal, the sequence
// numbers across segments). With repair, each damaged segment is rewritten
// (atomically) with its valid frames only, torn tails are cut and a
// damaged snapshot is set aside: the store then loads with nothing to
// report but records already lost. The caller holds the directory's lock.
func Fsck(dir Dir, repair bool) (FsckReport, error) {
	var rep FsckReport
	names, err := dir.Names()
	if err != nil {
		return rep, err
	}
	base, _, damaged, err := loadBase(dir, names, repair)
	if err != nil {
		return rep, err
	}
	rep.DamagedFrames += len(damaged)
	rep.Details = append(rep.Details, damaged...)
	if base != nil {
		rep.SnapshotSeq = base.Seq
	}
	if base != nil && len(damaged) == 0 && contains(names, prevSnapshotName) {
		// The current snapshot is good; the previous one is checked too.
		if _, why, err := readSnapshot(dir, prevSnapshotName); err != nil {
			return rep, err
		} else if why != "" {
			rep.DamagedFrames++
			rep.Details = append(rep.Details, fmt.Sprintf("%s/%s: %s", dir, prevSnapshotName, why))
			if repair {
				if _, err := setAside(dir, names, prevSnapshotName); err != nil {
					return rep, err
				}
			}
		}
	}
	var segs []*segFile
	last := rep.SnapshotSeq
	// gapAfter: records found missing right after a segment, so that a
	// segment cut at a frame boundary, shown both by the gap and by its
	// seal, is counted once.
	gapAfter := map[int]int{}
	var numbers []int // in order: the gap check follows the log
	for _, name := range names {
		if n, ok := segmentNumber(name); ok {
			numbers = append(numbers, n)
		}
	}
	sort.Ints(numbers)
	for _, n := range numbers {
		name := segmentName(n)
		f, err := readSegment(dir, n)
		if err != nil {
			return rep, err
		}
		var prev *segFile
		if len(segs) > 0 {
			prev = segs[len(segs)-1]
		}
		segs = append(segs, f)
		b, sc := f.data, f.sc
		bad := len(sc.Damaged) > 0 || sc.Torn < len(b) || len(f.undecoded) > 0
		for _, d := range sc.Damaged {
			rep.DamagedFrames++
			rep.Details = append(rep.Details, fmt.Sprintf("%s/%s bytes %d-%d: not a valid frame", dir, name, d.Start, d.End))
		}
		rep.DamagedFrames += len(f.undecoded)
		rep.Details = append(rep.Details, f.undecoded...)
		if sc.Torn < len(b) {
			rep.TornBytes += int64(len(b) - sc.Torn)
			rep.Details = append(rep.Details, fmt.Sprintf("%s/%s: torn tail of %d bytes at offset %d", dir, name, len(b)-sc.Torn, sc.Torn))
		}
		for _, r := range f.recs {
			if m := f.gap(dir, prev, last, r.Seq); m != "" {
				rep.MissingRecords += int(r.Seq - last - 1)
				rep.Details = append(rep.Details, m)
				if prev != nil && r.Seq == f.recs[0].Seq {
					gapAfter[prev.n] += int(r.Seq - last - 1)
				}
			}
			last = max(last, r.Seq)
		}
		rep.Records += len(f.recs)
		if repair && bad {
			var keep []byte
			for i, p := range sc.Payloads {
				if !f.undecodedAt(i) {
					keep = frame(keep, p)
				}
			}
			if n := len(sc.Damaged) + len(f.undecoded); n > 0 {
				p, _ := json.Marshal(segMark{Repaired: &segRepaired{Dropped: n}})
				keep = frame(keep, p)
			}
			if err := dir.WriteAtomic(name, keep); err != nil {
				return rep, err
			}
		}
	}
	for _, p := range sealProblems(dir, segs) {
		rep.MissingRecords += max(0, p.lost-gapAfter[p.segment])
		rep.Details = append(rep.Details, p.msg)
	}
	rep.Repaired = repair && (rep.DamagedFrames > 0 || rep.TornBytes > 0)
	return rep, nil
}

// String is the human report.
func (r FsckReport) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "records: %d\ndamaged frames: %d\ntorn bytes: %d\nmissing records: %d\n", r.Records, r.DamagedFrames, r.TornBytes, r.MissingRecords)
	if r.SnapshotSeq > 0 {
		fmt.Fprintf(&b, "snapshot: up to record %d\n", r.SnapshotSeq)
	}
	for _, d := range r.Details {
		fmt.Fprintf(&b, "  %s\n", d)
	}
	if r.Repaired {
		b.WriteString("repaired: damaged frames and torn tails removed\n")
	}
	return b.String()
}
