package cfa

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/specbridge/specbridge/cfa/analyzer"
)

// FsckReport is what Fsck found (and, with repair, removed).
type FsckReport struct {
	Records       int      `json:"records"`        // valid log records (snapshot not counted)
	DamagedFrames int      `json:"damaged_frames"` // frames skipped: bad length or checksum, or not a record; a damaged snapshot counts one
	TornBytes     int64    `json:"torn_bytes"`     // bytes of torn tails
	SnapshotSeq   uint64   `json:"-"`
	Details       []string `json:"-"`
	Repaired      bool     `json:"-"`
}

// Fsck checks every file of the store in dir. With repair, each damaged
// segment is rewritten (atomically) with its valid frames only, torn tails
// are cut and a damaged snapshot is set aside: the store then loads with
// nothing to report. The caller holds the directory's lock.
func Fsck(dir Dir, repair bool) (FsckReport, error) {
	var rep FsckReport
	names, err := dir.Names()
	if err != nil {
		return rep, err
	}
	for _, name := range names {
		if name == snapshotName {
			st, why, err := readSnapshot(dir, name)
			if err != nil {
				return rep, err
			}
			if why != "" {
				rep.DamagedFrames++
				rep.Details = append(rep.Details, fmt.Sprintf("%s/%s: %s", dir, name, why))
				if repair {
					if err := setAside(dir, name, name+".damaged"); err != nil {
						return rep, err
					}
				}
				continue
			}
			rep.SnapshotSeq = st.Seq
			continue
		}
		if _, ok := segmentNumber(name); !ok {
			continue
		}
		b, err := dir.Read(name)
		if err != nil {
			return rep, err
		}
		sc := scanFrames(b)
		var keep []byte
		bad := len(sc.Damaged) > 0 || sc.Torn < len(b)
		for _, d := range sc.Damaged {
			rep.DamagedFrames++
			rep.Details = append(rep.Details, fmt.Sprintf("%s/%s bytes %d-%d: not a valid frame", dir, name, d.Start, d.End))
		}
		if sc.Torn < len(b) {
			rep.TornBytes += int64(len(b) - sc.Torn)
			rep.Details = append(rep.Details, fmt.Sprintf("%s/%s: torn tail of %d bytes at offset %d", dir, name, len(b)-sc.Torn, sc.Torn))
		}
		for i, p := range sc.Payloads {
			var r analyzer.Record
			if err := json.Unmarshal(p, &r); err != nil {
				rep.DamagedFrames++
				bad = true
				rep.Details = append(rep.Details, fmt.Sprintf("%s/%s bytes %d-%d: not a record: %v", dir, name, sc.Offsets[i], sc.Offsets[i]+8+len(p), err))
				continue
			}
			rep.Records++
			keep = frame(keep, p)
		}
		if repair && bad {
			if err := dir.WriteAtomic(name, keep); err != nil {
				return rep, err
			}
		}
	}
	rep.Repaired = repair && (rep.DamagedFrames > 0 || rep.TornBytes > 0)
	return rep, nil
}

// String is the human report.
func (r FsckReport) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "records: %d\ndamaged frames: %d\ntorn bytes: %d\n", r.Records, r.DamagedFrames, r.TornBytes)
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
