package cfa

import (
	"encoding/binary"
	"hash/crc32"
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

// frameAt returns the length of the valid frame at off (header and
// payload), or 0 if none starts there.
func frameAt(b []byte, off int) int {
	if len(b)-off < 8 {
		return 0
	}
	n := int(binary.BigEndian.Uint32(b[off:]))
	if n == 0 || n > maxFrame || len(b)-off-8 < n {
		return 0
	}
	if crc32.Checksum(b[off+8:off+8+n], castagnoli) != binary.BigEndian.Uint32(b[off+4:]) {
		return 0
	}
	return 8 + n
}

// span is a byte range [Start, End) of a file.
type span struct{ Start, End int }

// scan is what a file of frames holds.
type scan struct {
	Payloads [][]byte
	Offsets  []int  // where each payload's frame starts
	Damaged  []span // regions that are not valid frames, each followed by one
	Torn     int    // start of the torn tail; len(b) if none
	// DamagedTail is set when the last bad region is a complete frame whose
	// checksum fails (physical damage, not a write a crash cut); it is then
	// the last element of Damaged and Torn is len(b).
	DamagedTail bool
}

// scanFrames reads every valid frame of b. A region that is not a valid
// frame is skipped up to the next offset where a valid frame starts, so
// that damage to one frame (its length, checksum or payload) costs that
// frame only: payloads are JSON, whose bytes never form a frame header
// with a plausible length (a length under maxFrame starts with a byte
// below 0x10, which JSON text never holds), so the scan cannot resume
// inside a damaged frame's payload. A bad region with no valid frame after
// it is the torn tail when it is incomplete (a short header, a length
// running past the end, or zeros: what a crash leaves), and a damaged last
// frame when it is complete.
func scanFrames(b []byte) scan {
	s := scan{Torn: len(b)}
	off := 0
	for off < len(b) {
		if n := frameAt(b, off); n > 0 {
			s.Payloads = append(s.Payloads, b[off+8:off+n])
			s.Offsets = append(s.Offsets, off)
			off += n
			continue
		}
		next := -1
		for i := off + 1; i+8 <= len(b); i++ {
			if b[i] < 0x10 && frameAt(b, i) > 0 {
				next = i
				break
			}
		}
		if next >= 0 {
			s.Damaged = append(s.Damaged, span{off, next})
			off = next
			continue
		}
		if completeTail(b[off:]) {
			s.Damaged = append(s.Damaged, span{off, len(b)})
			s.DamagedTail = true
		} else {
			s.Torn = off
		}
		break
	}
	return s
}

// completeTail reports whether t is one whole frame whose checksum fails
// (not zeros, not cut short).
func completeTail(t []byte) bool {
	if len(t) < 8 {
		return false
	}
	n := int(binary.BigEndian.Uint32(t))
	if n == 0 || n > maxFrame || len(t)-8 != n {
		return false
	}
	for _, c := range t {
		if c != 0 {
			return true
		}
	}
	return false
}
