// Package grassamples keeps GRASS's samples of earlier jobs (grass.Sample)
// in a data directory, so that GRASS's learned switch (NSDI'14 §4) survives
// sidecar restarts and carries from one replay to the next.
//
// The file is JSON lines, one sample a line, appended and fsync'd on every
// Add; Open reads it whole, so Load (called from a policy's Decide) never
// touches the disk. A Store is safe for concurrent use by many engines. It
// must not be written by two processes at once: the sidecar owns its data
// directory.
//
// Beside it, RuntimesFileName keeps the run times of earlier jobs' completed
// tasks that GRASS uses as t_new before a job's first completion
// (grass.RuntimePrior), also as JSON lines; see AddRuntime. TailsFileName
// keeps the last finished jobs' map-time spreads that auto's rule v5 reads
// (speculators.TailPrior), checksummed JSON lines; see AddTail.
package grassamples

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/sirupsen/logrus"

	"github.com/specbridge/specbridge/internal/lineread"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/grass"
)

// FileName is the samples file inside the data directory.
const FileName = "grass-samples.jsonl"

// RuntimesFileName is the file of earlier tasks' run times (AddRuntime).
const RuntimesFileName = "grass-runtimes.jsonl"

// Run-time records are fsync'd in batches of flushEvery (and on Add, Flush
// and Close), and the file is rewritten with only the records the prior
// still holds once it has more than twice as many lines and at least
// compactMin.
const (
	flushEvery = 256
	compactMin = 4096
)

// maxLine bounds one sample's line (a curve has at most 64 points).
const maxLine = 1 << 20

// Store keeps what GRASS policies learned (speculators.Learned) in a data
// directory and serves it back as a speculators.Prior. The drivers (serve,
// replay --data-dir) Keep what engines hand out; policies never see it
// except as a read-only Prior.
type Store struct {
	mu   sync.Mutex
	path string
	file *os.File
	off  int64 // the samples file's size after its last complete line
	mem  *grass.MemoryStore

	// Log hears write failures, once per episode (the first failure, and
	// the first success after), with the file's path, and the tails file's
	// skipped lines; logrus's standard logger unless set.
	Log     logrus.FieldLogger
	logMu   sync.Mutex
	failing map[string]bool // path -> writes failing (logMu)

	// The tails file (tails.go), under its own lock tmu: its lines, and
	// its size after its last complete line.
	tmu       sync.Mutex
	tailPath  string
	tailFile  *os.File
	tailLines int
	tailOff   int64

	// The run-time records' file: lines it holds, records written but not
	// yet fsync'd (buf, count pending), and the first write error, which
	// Flush and Close report (AddRuntime cannot).
	rtPath  string
	rtFile  *os.File
	rtLines int
	rtOff   int64 // the file's size after its last complete line
	buf     []byte
	pending int
	rtErr   error
}

var _ speculators.Prior = (*Store)(nil)

// Open reads dir/grass-samples.jsonl (creating dir and the file if needed)
// and returns a store that appends to it. A line that is not a valid sample
// is an error naming the file and line. A final line without its newline
// is kept when it is a whole valid sample (the newline is added), and
// otherwise (a crash mid-append) ignored and overwritten by the next Add.
func Open(dir string) (*Store, error) { return open(dir, logrus.StandardLogger()) }

// open is Open with the logger that hears the tails file's skipped lines.
func open(dir string, log logrus.FieldLogger) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("grass samples: %w", err)
	}
	path := filepath.Join(dir, FileName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("grass samples: %w", err)
	}
	mem, good, unterminated, err := read(f, path)
	if err == nil {
		good, err = settle(f, good, unterminated)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("grass samples %s: %w", path, err)
	}
	st := &Store{path: path, file: f, off: good, mem: mem, rtPath: filepath.Join(dir, RuntimesFileName),
		tailPath: filepath.Join(dir, TailsFileName), Log: log, failing: map[string]bool{}}
	if err := st.openRuntimes(); err != nil {
		f.Close()
		return nil, err
	}
	if err := st.openTails(); err != nil {
		f.Close()
		st.rtFile.Close()
		st.closeTails()
		return nil, err
	}
	return st, nil
}

// settle readies an append-only file read up to good (the offset after its
// last complete line, or after a whole last line without its newline when
// unterminated): a torn final line is cut off so the next append starts a
// fresh one, and an unterminated whole one gets its newline. It returns
// the offset appends start at.
func settle(f *os.File, good int64, unterminated bool) (int64, error) {
	err := f.Truncate(good)
	if err == nil {
		_, err = f.Seek(good, io.SeekStart)
	}
	if err == nil && unterminated {
		if _, err = f.Write([]byte{'\n'}); err == nil {
			err = f.Sync()
		}
		good++
	}
	return good, err
}

// runtimeLine is one line of the run-times file.
type runtimeLine struct {
	Type       string  `json:"type"` // "map" or "reduce"
	Ms         float64 `json:"ms"`
	InputBytes int64   `json:"input_bytes"` // 0: unknown
}

// openRuntimes reads the run-times file into the prior (creating it if
// needed), drops a torn final line and leaves it open for appending,
// compacted if it has grown past its bound.
func (s *Store) openRuntimes() error {
	f, err := os.OpenFile(s.rtPath, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("grass run times: %w", err)
	}
	lines, good, err := s.readRuntimes(f)
	if err == nil {
		if err = f.Truncate(good); err == nil {
			_, err = f.Seek(good, io.SeekStart)
		}
	}
	if err != nil {
		f.Close()
		return err
	}
	s.rtFile, s.rtLines, s.rtOff = f, lines, good
	if s.overgrown() {
		return s.compact()
	}
	return nil
}

// maxRuntimeMs bounds a recorded run time: a year. A larger one is a
// damaged record, which as the prior's median would make every estimate
// built on it absurd.
const maxRuntimeMs = 365 * 24 * 3600 * 1000

// readRuntimes feeds every complete line of r to the prior; lines counts
// them, good is the offset after the last one.
func (s *Store) readRuntimes(r io.Reader) (lines int, good int64, err error) {
	good, _, err = eachLine(r, s.rtPath, func(_ int, b []byte) error {
		l, err := decodeStrict[runtimeLine](b)
		if err != nil {
			return err
		}
		var ty speculators.TaskType
		switch l.Type {
		case "map":
			ty = speculators.Map
		case "reduce":
			ty = speculators.Reduce
		default:
			return fmt.Errorf("type %q: want \"map\" or \"reduce\"", l.Type)
		}
		if !(l.Ms >= 0 && l.Ms <= maxRuntimeMs) || l.InputBytes < 0 {
			return fmt.Errorf("ms %g and input_bytes %d: want ms in [0, %g] and input_bytes >= 0", l.Ms, l.InputBytes, float64(maxRuntimeMs))
		}
		s.mem.AddRuntime(ty, l.Ms, l.InputBytes)
		lines++
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	return lines, good, nil
}

// overgrown reports whether the run-times file holds more than twice the
// records the prior keeps (and at least compactMin lines).
func (s *Store) overgrown() bool {
	return s.rtLines >= compactMin && s.rtLines > 2*s.mem.PriorLen()
}

// compact rewrites the run-times file with the records the prior holds: a
// new file written and fsync'd beside it, renamed over it, the directory
// fsync'd. A crash at any point leaves either the old file or the new one.
func (s *Store) compact() error {
	recs := s.mem.PriorRuntimes()
	var b []byte
	for _, r := range recs {
		b = appendRuntime(b, r.Type, r.Ms, r.InputBytes)
	}
	f, err := rewrite(s.rtPath, b)
	if err != nil {
		return err
	}
	if s.rtFile != nil {
		s.rtFile.Close()
	}
	s.rtFile, s.rtLines, s.rtOff = f, len(recs), int64(len(b))
	return nil
}

// rewrite replaces the file at path with b: a new file written and
// fsync'd beside it, renamed over it, the directory fsync'd, so that a
// crash at any point leaves either the old file or the new one. It returns
// the new file, open for appending.
func rewrite(path string, b []byte) (*os.File, error) {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("compact %s: %w", path, err)
	}
	if _, err = f.Write(b); err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		f.Close()
		os.Remove(tmp)
		return nil, fmt.Errorf("compact %s: %w", path, err)
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
	return f, nil
}

func appendRuntime(b []byte, ty speculators.TaskType, ms float64, inputBytes int64) []byte {
	l, _ := json.Marshal(runtimeLine{Type: ty.String(), Ms: ms, InputBytes: max(inputBytes, 0)})
	return append(append(b, l...), '\n')
}

// read parses every complete line; good is the offset after the last one.
// A last line without its newline counts (unterminated) if it is a whole
// valid sample, and is left out otherwise (a torn append).
func read(r io.Reader, path string) (mem *grass.MemoryStore, good int64, unterminated bool, err error) {
	mem = grass.NewMemoryStore()
	good, tail, err := eachLine(r, path, func(_ int, b []byte) error {
		s, err := decodeStrict[grass.Sample](b)
		if err != nil {
			return err
		}
		if err := mem.Add(s); err != nil {
			return fmt.Errorf("bad sample: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, 0, false, err
	}
	if len(bytes.TrimSpace(tail)) > 0 {
		if s, derr := decodeStrict[grass.Sample](tail); derr == nil && mem.Add(s) == nil {
			return mem, good + int64(len(tail)), true, nil
		}
	}
	return mem, good, false, nil // a torn final line, or none
}

// eachLine hands every complete line of r that is not blank to take, with
// its number (from 1), and returns the offset after the last complete line
// and what follows it (a last line without its newline). Errors name path
// and the line.
func eachLine(r io.Reader, path string, take func(n int, line []byte) error) (good int64, tail []byte, err error) {
	return eachLineMax(r, path, maxLine, take)
}

// eachLineMax is eachLine with lines of at most max bytes.
func eachLineMax(r io.Reader, path string, max int, take func(n int, line []byte) error) (good int64, tail []byte, err error) {
	lines := lineread.NewLines(r, max)
	for {
		b, err := lines.Next()
		if errors.Is(err, io.EOF) {
			return good, b, nil
		}
		if err == nil && len(bytes.TrimSpace(b)) > 0 {
			err = take(lines.N, b)
		}
		if err != nil {
			return 0, nil, fmt.Errorf("read %s line %d: %w", path, lines.N, err)
		}
		good = lines.Offset
	}
}

// decodeStrict decodes one JSON line, refusing fields T does not have.
func decodeStrict[T any](b []byte) (T, error) {
	var v T
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	err := dec.Decode(&v)
	return v, err
}

// noteWrite logs a write failure of path once per episode: the first
// failure (with the path and the error), then the first success.
func (s *Store) noteWrite(path string, err error) {
	if s.Log == nil {
		return
	}
	s.logMu.Lock()
	defer s.logMu.Unlock()
	switch {
	case err != nil && !s.failing[path]:
		s.failing[path] = true
		s.Log.WithError(err).WithField("path", path).Error("grass samples: write failed (logged once until writes work again)")
	case err == nil && s.failing[path]:
		delete(s.failing, path)
		s.Log.WithField("path", path).Warn("grass samples: writes work again")
	}
}

// Path is the samples file.
func (s *Store) Path() string { return s.path }

// Samples returns the bucket's samples (speculators.Prior).
func (s *Store) Samples(bucket int) []grass.Sample { return s.mem.Samples(bucket) }

// Snapshot is a copy in memory of everything the store holds now, which
// later Keeps do not change: a replay starts every policy run from the same
// one, so no policy's results depend on which ran before it.
func (s *Store) Snapshot() *grass.MemoryStore { return s.mem.Clone() }

// Keep persists what an engine handed out (speculators.Engine.Learned):
// each sample with Add, each run time with AddRuntime, each map-time spread
// with AddTail. It reports every sample it could not keep.
func (s *Store) Keep(l speculators.Learned) error { return grass.Keep(s, l) }

// Add validates the sample, appends it to the file and fsyncs, then keeps
// it in memory. An error leaves the store as it was.
func (s *Store) Add(sample grass.Sample) error {
	if err := sample.Validate(); err != nil {
		return fmt.Errorf("grass samples: %w", err)
	}
	b, err := json.Marshal(sample)
	if err != nil {
		return fmt.Errorf("grass samples: %w", err)
	}
	b = append(b, '\n')
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.file == nil {
		return fmt.Errorf("append %s: store is closed", s.path)
	}
	_, err = s.file.Write(b)
	if err == nil {
		err = s.file.Sync()
	}
	s.noteWrite(s.path, err)
	if err != nil {
		// Cut a partial line off, so that the next sample does not join it
		// (were that to fail too, the next Open drops a torn final line).
		if s.file.Truncate(s.off) == nil {
			_, _ = s.file.Seek(s.off, io.SeekStart)
		}
		return fmt.Errorf("append %s: %w", s.path, err)
	}
	s.off += int64(len(b))
	s.flushLocked()
	return s.mem.Add(sample)
}

// AddRuntime keeps a completed task's run time for later jobs' t_new before
// their first completion (speculators.Prior), in memory (at most
// grass.PriorWindow per task type and input size class, the most recent)
// and in RuntimesFileName. Records reach the disk in batches: they are
// written and fsync'd every flushEvery records, on Add, Flush and Close, so
// a crash loses at most the last flushEvery - 1 of them, which only makes
// the prior a little older (our choice: one fsync per completed task would
// cost a replay under --data-dir one fsync per simulated task). Once the
// file holds more than twice the records kept, it is rewritten with those
// (compact), so it stays bounded. A write error is kept for Flush and Close
// to report; the record stays in memory.
func (s *Store) AddRuntime(ty speculators.TaskType, ms float64, inputBytes int64) {
	if ty >= speculators.NumTaskTypes || !(ms >= 0 && ms <= maxRuntimeMs) || inputBytes < 0 {
		return // what Open would refuse to read back
	}
	s.mem.AddRuntime(ty, ms, inputBytes)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rtFile == nil {
		return
	}
	s.buf = appendRuntime(s.buf, ty, ms, inputBytes)
	s.pending++
	if s.pending >= flushEvery {
		s.flushLocked()
	}
}

// Flush writes and fsyncs the run-time records not yet on disk, and
// reports the first write error since the store was opened.
func (s *Store) Flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushLocked()
	return s.rtErr
}

func (s *Store) flushLocked() {
	if s.pending == 0 || s.rtFile == nil {
		return
	}
	_, err := s.rtFile.Write(s.buf)
	if err == nil {
		err = s.rtFile.Sync()
	}
	s.noteWrite(s.rtPath, err)
	if err != nil {
		if s.rtErr == nil {
			s.rtErr = fmt.Errorf("append %s: %w", s.rtPath, err)
		}
		// Cut a partial write off so that later records start on a line
		// of their own (were that to fail too, the next Open drops a torn
		// final line).
		if s.rtFile.Truncate(s.rtOff) == nil {
			s.rtFile.Seek(s.rtOff, io.SeekStart)
		}
	} else {
		s.rtLines += s.pending
		s.rtOff += int64(len(s.buf))
	}
	s.buf, s.pending = s.buf[:0], 0
	if s.overgrown() {
		if err := s.compact(); err != nil && s.rtErr == nil {
			s.rtErr = err
		}
	}
}

// PriorRuntime is the prior's estimate (speculators.Prior; see AddRuntime).
func (s *Store) PriorRuntime(ty speculators.TaskType, inputBytes int64) (float64, bool) {
	return s.mem.PriorRuntime(ty, inputBytes)
}

// Close flushes the run-time records and closes the files; Samples,
// PriorRuntime and TailFits keep working, Add fails, AddRuntime and
// AddTail keep to memory. It reports the first write error of the run-time
// records, if any.
func (s *Store) Close() error {
	terr := s.closeTails()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.file == nil {
		return terr
	}
	s.flushLocked()
	err := s.file.Close()
	s.file = nil
	if err != nil {
		err = fmt.Errorf("close %s: %w", s.path, err)
	}
	if s.rtFile != nil {
		if cerr := s.rtFile.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close %s: %w", s.rtPath, cerr)
		}
		s.rtFile = nil
	}
	if err == nil {
		err = s.rtErr
	}
	if err == nil {
		err = terr
	}
	return err
}
