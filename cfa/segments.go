package cfa

import (
	"encoding/json"
	"fmt"

	"github.com/specbridge/specbridge/cfa/analyzer"
)

// Segment marks. A segment this version writes starts with a start frame
// that vouches for the segment before it (its number and how many records
// it held when the store moved on), and a segment the store leaves at a
// clean stop ends with an end frame (its own record count). Each makes a
// segment cut at a frame boundary detectable: a cut removes whole frames,
// which a length and checksum cannot show, but the count the next segment
// (or the end frame) states then exceeds what the segment holds. The cut
// of the last segment of a store that crashed cannot be told from the
// crash itself; the sequence numbers of the records (contiguous across
// segments) show any other records missing (LoadReport.Missing).
//
// Marks are JSON frames like records: an older reader decodes one as a
// record of sequence 0, which it skips as already applied.
type segMark struct {
	Start    *segStart    `json:"segment_start,omitempty"`
	End      *segEnd      `json:"segment_end,omitempty"`
	Repaired *segRepaired `json:"segment_repaired,omitempty"`
}

// segRepaired is written by fsck --repair into a segment it rewrote
// without its damaged frames: the loss is then known, not found again.
type segRepaired struct {
	Dropped int `json:"dropped"` // damaged frames removed
}

// segStart is a segment's first frame.
type segStart struct {
	Segment     int `json:"segment"`
	PrevSegment int `json:"prev_segment,omitempty"`
	PrevRecords int `json:"prev_records,omitempty"`
}

// segEnd is the last frame of a segment left at a clean stop.
type segEnd struct {
	Segment int `json:"segment"`
	Records int `json:"records"`
}

// logFrame is one frame of a segment: a record, or a mark.
type logFrame struct {
	analyzer.Record
	segMark
}

// segFile is one segment as read.
type segFile struct {
	n         int
	name      string
	data      []byte
	sc        scan
	recs      []analyzer.Record
	maxSeq    uint64
	start     *segStart
	end       *segEnd
	dropped   int          // damaged frames an earlier repair removed
	undecoded []string     // frames whose payload is neither a record nor a mark
	bad       map[int]bool // their indices in sc.Payloads
}

// undecodedAt reports whether payload i did not decode.
func (f *segFile) undecodedAt(i int) bool { return f.bad[i] }

func readSegment(dir Dir, n int) (*segFile, error) {
	f := &segFile{n: n, name: segmentName(n)}
	b, err := dir.Read(f.name)
	if err != nil {
		return nil, err
	}
	f.data, f.sc = b, scanFrames(b)
	for i, p := range f.sc.Payloads {
		var lf logFrame
		if err := json.Unmarshal(p, &lf); err != nil {
			f.undecoded = append(f.undecoded, fmt.Sprintf("%s/%s bytes %d-%d: record does not decode: %v", dir, f.name, f.sc.Offsets[i], f.sc.Offsets[i]+8+len(p), err))
			if f.bad == nil {
				f.bad = map[int]bool{}
			}
			f.bad[i] = true
			continue
		}
		switch {
		case lf.Start != nil:
			f.start = lf.Start
		case lf.End != nil:
			f.end = lf.End
		case lf.Repaired != nil:
			f.dropped += lf.Repaired.Dropped
		default:
			f.recs = append(f.recs, lf.Record)
			f.maxSeq = max(f.maxSeq, lf.Record.Seq)
		}
	}
	return f, nil
}

// damaged reports whether the segment has damaged frames, now or before
// a repair: a gap in the sequence numbers next to it is explained by them.
func (f *segFile) damaged() bool {
	return len(f.sc.Damaged) > 0 || len(f.undecoded) > 0 || f.dropped > 0
}

// gap returns what a record of sequence seq after last (the highest so
// far) shows missing: "" when nothing is, or when the gap is explained by
// damage in this segment or the one before it (prev, nil for none), which
// is reported as such.
func (f *segFile) gap(dir Dir, prev *segFile, last, seq uint64) string {
	if seq <= last+1 || f.damaged() || (prev != nil && prev.damaged()) {
		return ""
	}
	return fmt.Sprintf("%s/%s: records %d-%d missing before record %d", dir, f.name, last+1, seq-1, seq)
}

// sealProblem is a segment holding fewer records than it was sealed with.
type sealProblem struct {
	segment int
	msg     string
	lost    int
}

// sealProblems compares each segment's records with the count vouched for
// by its end frame or by the next segment's start frame.
func sealProblems(dir Dir, segs []*segFile) []sealProblem {
	vouched := map[int]int{}
	for _, f := range segs {
		if f.end != nil && f.end.Segment == f.n {
			vouched[f.n] = max(vouched[f.n], f.end.Records)
		}
		if f.start != nil && f.start.PrevSegment > 0 {
			vouched[f.start.PrevSegment] = max(vouched[f.start.PrevSegment], f.start.PrevRecords)
		}
	}
	var out []sealProblem
	for _, f := range segs {
		want, ok := vouched[f.n]
		if !ok {
			continue
		}
		got := len(f.recs) + len(f.sc.Damaged) + len(f.undecoded) + f.dropped
		if got < want {
			out = append(out, sealProblem{f.n, fmt.Sprintf("%s/%s: sealed with %d records, %d found: %d lost (the segment was cut at a frame boundary)", dir, f.name, want, len(f.recs), want-got), want - got})
		}
	}
	return out
}
