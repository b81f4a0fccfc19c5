package grassamples

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"

	"github.com/sirupsen/logrus"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/grass"
)

var (
	_ speculators.TailPrior = (*Store)(nil)
	_ grass.TailKeeper      = (*Store)(nil)
)

// TailsFileName is the file of finished jobs' map-time spreads
// (speculators.TailFit, auto's rule v5; see AddTail).
const TailsFileName = "tail-fits.jsonl"

// The tails file is rewritten with the fits the store keeps (the last
// grass.TailWindow) once it holds compactTailsAt lines, so it stays a few
// kilobytes however long the sidecar runs.
const compactTailsAt = 4 * grass.TailWindow

// tailLine is one line of the tails file: the fit and its checksum.
type tailLine struct {
	Maps       int     `json:"maps"`
	Sigma      float64 `json:"sigma"`
	Slow       float64 `json:"slow,omitempty"`
	Copied     int     `json:"copied,omitempty"`
	CopyWins   int     `json:"copy_wins,omitempty"`
	Reduces    int     `json:"reduces,omitempty"`
	ReduceSlow float64 `json:"reduce_slow,omitempty"`
	// ReduceSigma is rule v9's reduce-time spread (reduce records).
	ReduceSigma float64 `json:"reduce_sigma,omitempty"`
	// Upper is rule v17's upper-half map-time spread (map records).
	Upper float64 `json:"upper,omitempty"`
	// Lost and LostPaced are rule v38's lost map copies and how many ran
	// at their original's pace (map records).
	Lost      int `json:"lost,omitempty"`
	LostPaced int `json:"lost_paced,omitempty"`
	// ReduceRatio is rule v39's reduce time after the maps over the
	// median map time (reduce records).
	ReduceRatio float64 `json:"reduce_ratio,omitempty"`
	CRC         uint32  `json:"crc"`
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// tailCRC is the checksum of a fit: CRC-32C of its maps and the bits of
// its sigma, 8 bytes each, little-endian, then of its slow share's bits
// when it has one, and of its rule v8 fields (copied, copy wins, reduces,
// the bits of the reduce slow share) when it has any of them, then of the
// bits of its reduce spread when it has one or an upper-half spread (rule
// v9), then of the bits of its upper-half spread when it has one (rule v17;
// a line written before rule v6, v8, v9 or v17 has none and checks as it
// did), and, when it has lost copies (rule v38), that checksum updated
// with its lost and lost-at-pace counts, 8 bytes each, and, when it has a
// reduce ratio (rule v39), that checksum updated with the ratio's bits. It is of
// the numbers, not the line's text, so that any JSON spelling of the same
// numbers checks; a line whose digits changed does not.
func tailCRC(f speculators.TailFit) uint32 {
	c := tailCRCv38(f)
	if f.ReduceRatio == 0 {
		return c
	}
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], math.Float64bits(f.ReduceRatio))
	return crc32.Update(c, castagnoli, b[:])
}

// tailCRCv38 is the checksum of a fit's fields up to rule v38's.
func tailCRCv38(f speculators.TailFit) uint32 {
	c := tailCRCv17(f)
	if f.Lost == 0 && f.LostPaced == 0 {
		return c
	}
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], uint64(int64(f.Lost)))
	binary.LittleEndian.PutUint64(b[8:], uint64(int64(f.LostPaced)))
	return crc32.Update(c, castagnoli, b[:])
}

// tailCRCv17 is the checksum of a fit's fields up to rule v17's.
func tailCRCv17(f speculators.TailFit) uint32 {
	var b [72]byte
	binary.LittleEndian.PutUint64(b[:8], uint64(int64(f.Maps)))
	binary.LittleEndian.PutUint64(b[8:16], math.Float64bits(f.Sigma))
	v8 := f.Copied != 0 || f.CopyWins != 0 || f.Reduces != 0 || f.ReduceSlow != 0 || f.ReduceSigma != 0 || f.Upper != 0
	if f.Slow == 0 && !v8 {
		return crc32.Checksum(b[:16], castagnoli)
	}
	binary.LittleEndian.PutUint64(b[16:24], math.Float64bits(f.Slow))
	if !v8 {
		return crc32.Checksum(b[:24], castagnoli)
	}
	binary.LittleEndian.PutUint64(b[24:32], uint64(int64(f.Copied)))
	binary.LittleEndian.PutUint64(b[32:40], uint64(int64(f.CopyWins)))
	binary.LittleEndian.PutUint64(b[40:48], uint64(int64(f.Reduces)))
	binary.LittleEndian.PutUint64(b[48:56], math.Float64bits(f.ReduceSlow))
	if f.ReduceSigma == 0 && f.Upper == 0 {
		return crc32.Checksum(b[:56], castagnoli)
	}
	binary.LittleEndian.PutUint64(b[56:64], math.Float64bits(f.ReduceSigma))
	if f.Upper == 0 {
		return crc32.Checksum(b[:64], castagnoli)
	}
	binary.LittleEndian.PutUint64(b[64:], math.Float64bits(f.Upper))
	return crc32.Checksum(b[:], castagnoli)
}

// describeTail names a fit's numbers in error messages.
func describeTail(f speculators.TailFit) string {
	d := fmt.Sprintf("maps %d sigma %g slow %g", f.Maps, f.Sigma, f.Slow)
	if f.Copied != 0 || f.CopyWins != 0 || f.Reduces != 0 || f.ReduceSlow != 0 {
		d += fmt.Sprintf(" copied %d copy_wins %d reduces %d reduce_slow %g", f.Copied, f.CopyWins, f.Reduces, f.ReduceSlow)
	}
	if f.ReduceSigma != 0 {
		d += fmt.Sprintf(" reduce_sigma %g", f.ReduceSigma)
	}
	if f.Upper != 0 {
		d += fmt.Sprintf(" upper %g", f.Upper)
	}
	if f.Lost != 0 || f.LostPaced != 0 {
		d += fmt.Sprintf(" lost %d lost_paced %d", f.Lost, f.LostPaced)
	}
	if f.ReduceRatio != 0 {
		d += fmt.Sprintf(" reduce_ratio %g", f.ReduceRatio)
	}
	return d
}

// fitOf is the fit a line holds.
func (l tailLine) fitOf() speculators.TailFit {
	return speculators.TailFit{Maps: l.Maps, Sigma: l.Sigma, Slow: l.Slow, Copied: l.Copied, CopyWins: l.CopyWins, Reduces: l.Reduces, ReduceSlow: l.ReduceSlow, ReduceSigma: l.ReduceSigma, Upper: l.Upper, Lost: l.Lost, LostPaced: l.LostPaced, ReduceRatio: l.ReduceRatio}
}

func appendTail(b []byte, f speculators.TailFit) []byte {
	l, _ := json.Marshal(tailLine{Maps: f.Maps, Sigma: f.Sigma, Slow: f.Slow, Copied: f.Copied, CopyWins: f.CopyWins, Reduces: f.Reduces, ReduceSlow: f.ReduceSlow, ReduceSigma: f.ReduceSigma, Upper: f.Upper, Lost: f.Lost, LostPaced: f.LostPaced, ReduceRatio: f.ReduceRatio, CRC: tailCRC(f)})
	return append(append(b, l...), '\n')
}

// decodeTail reads one line of the tails file: strict JSON, the checksum
// matching, the fit usable (speculators.TailFit.Valid: maps 1 to
// MaxJobTasks, sigma a number in [0, MaxTailSigma]).
func decodeTail(b []byte) (speculators.TailFit, error) {
	l, err := decodeStrict[tailLine](b)
	if err != nil {
		return speculators.TailFit{}, err
	}
	f := l.fitOf()
	if c := tailCRC(f); c != l.CRC {
		return f, fmt.Errorf("checksum %d, want %d for %s (a damaged line)", l.CRC, c, describeTail(f))
	}
	if !f.Valid() {
		return f, fmt.Errorf("%s: want maps in 1..%d, sigma in [0, %g], slow in [0, 1] and copy_wins at most copied, or maps 0 with reduces in 1..%d, reduce_slow in [0, 1], reduce_sigma in [0, %g] and reduce_ratio in [0, %g] (alone below %d reduces)", describeTail(f), speculators.MaxJobTasks, speculators.MaxTailSigma, speculators.MaxJobTasks, speculators.MaxTailSigma, speculators.MaxReduceRatio, speculators.RatioOnlyReduces)
	}
	return f, nil
}

// openTails reads the tails file into memory (creating it if needed) and
// leaves it open for appending. Unlike a sample, a bad line does not stop
// the store: it is logged as an error naming the file and line and
// skipped (choice: a fit is one job's summary among the last few dozen,
// relearned within a few jobs, not worth refusing to start over; a sample
// is the only record of a perturbed job's run). A line the reader cannot
// get past (longer than maxTailLine: not this file's) is logged the same
// way, and the file is rewritten with the fits read before it. A torn
// final line is dropped, a whole one without its newline kept (as Open
// does for samples).
func (s *Store) openTails() error {
	f, err := os.OpenFile(s.tailPath, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("tail fits: %w", err)
	}
	skip := func(n int, err error) {
		s.Log.WithError(err).WithFields(logrus.Fields{"path": s.tailPath, "line": n}).
			Errorf("tail fits: read %s line %d: skipped", s.tailPath, n)
	}
	lines := 0
	good, tail, err := eachLineMax(f, s.tailPath, maxTailLine, func(n int, b []byte) error {
		lines++
		if fit, err := decodeTail(b); err != nil {
			skip(n, err)
		} else {
			s.mem.AddTail(fit)
		}
		return nil
	})
	if err != nil {
		// Only the reader fails here (take never does): keep what was read.
		s.Log.WithError(err).WithField("path", s.tailPath).Error("tail fits: the rest of the file is dropped")
		s.tailFile = f
		return s.compactTails()
	}
	unterminated := false
	if len(tail) > 0 {
		if fit, derr := decodeTail(tail); derr == nil {
			s.mem.AddTail(fit)
			unterminated, lines, good = true, lines+1, good+int64(len(tail))
		}
	}
	if good, err = settle(f, good, unterminated); err != nil {
		f.Close()
		return fmt.Errorf("tail fits %s: %w", s.tailPath, err)
	}
	s.tailFile, s.tailLines, s.tailOff = f, lines, good
	if lines >= compactTailsAt {
		return s.compactTails()
	}
	return nil
}

// maxTailLine bounds a line of the tails file (one is under 100 bytes).
const maxTailLine = 4 << 10

// compactTails rewrites the tails file with the fits kept (rewrite), but
// for rule v41's deadline records, which memory alone keeps (AddTail).
// Called with tmu held, or before the store is shared.
func (s *Store) compactTails() error {
	var b []byte
	lines := 0
	for _, f := range s.mem.TailFits() {
		if !f.IsDeadline() {
			b = appendTail(b, f)
			lines++
		}
	}
	f, err := rewrite(s.tailPath, b)
	if err != nil {
		return err
	}
	if s.tailFile != nil {
		s.tailFile.Close()
	}
	s.tailFile, s.tailLines, s.tailOff = f, lines, int64(len(b))
	return nil
}

// AddTail keeps a finished job's map-time spread (speculators.TailFit,
// auto's rule v5): in memory at once, where later jobs read it (at most
// grass.TailWindow, the most recent), and appended to TailsFileName and
// fsync'd, one line a finished job as a sample is. A fit that is not
// usable (TailFit.Valid) is dropped, as Open would refuse to read it back.
// The file has its own lock: a session writing a fit waits for no other
// write and makes none wait but another fit's, and readers (TailFits, from
// Decide) never touch the disk. A write error is logged once per episode
// with the path (the fit stays in memory) and the partial line cut off.
func (s *Store) AddTail(f speculators.TailFit) {
	if !f.Valid() {
		return
	}
	if f.IsDeadline() {
		// Rule v41's deadline record speaks of a job running now: memory
		// only, never written to the file.
		s.mem.AddTail(f)
		return
	}
	s.tmu.Lock()
	defer s.tmu.Unlock()
	// Kept in memory under the file's lock too, so that the file's order
	// is memory's and a reopened store returns the same fits.
	s.mem.AddTail(f)
	if s.tailFile == nil {
		return // closed: memory only
	}
	b := appendTail(nil, f)
	_, err := s.tailFile.Write(b)
	if err == nil {
		err = s.tailFile.Sync()
	}
	if err != nil {
		if s.tailFile.Truncate(s.tailOff) == nil {
			_, _ = s.tailFile.Seek(s.tailOff, io.SeekStart)
		}
		s.noteWrite(s.tailPath, err)
		return
	}
	s.tailOff += int64(len(b))
	s.tailLines++
	if s.tailLines >= compactTailsAt {
		err = s.compactTails()
	}
	s.noteWrite(s.tailPath, err)
}

// TailFits returns the kept map-time spreads, oldest first
// (speculators.TailPrior).
func (s *Store) TailFits() []speculators.TailFit { return s.mem.TailFits() }

// closeTails closes the tails file; AddTail then keeps to memory.
func (s *Store) closeTails() error {
	s.tmu.Lock()
	defer s.tmu.Unlock()
	if s.tailFile == nil {
		return nil
	}
	err := s.tailFile.Close()
	s.tailFile = nil
	if err != nil {
		return fmt.Errorf("close %s: %w", s.tailPath, err)
	}
	return nil
}
