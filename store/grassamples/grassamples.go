// Package grassamples keeps GRASS's samples of earlier jobs (grass.Sample)
// in a data directory, so that GRASS's learned switch (NSDI'14 §4) survives
// sidecar restarts and carries from one replay to the next.
//
// The file is JSON lines, one sample a line, appended and fsync'd on every
// Add; Open reads it whole, so Load (called from a policy's Decide) never
// touches the disk. A Store is safe for concurrent use by many engines. It
// must not be written by two processes at once: the sidecar owns its data
// directory.
package grassamples

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/grass"
)

// FileName is the samples file inside the data directory.
const FileName = "grass-samples.jsonl"

// maxLine bounds one sample's line (a curve has at most 64 points).
const maxLine = 1 << 20

// Store is a grass.SampleStore backed by a JSON-lines file.
type Store struct {
	mu   sync.Mutex
	path string
	file *os.File
	mem  *grass.MemoryStore
}

var (
	_ grass.SampleStore  = (*Store)(nil)
	_ grass.RuntimePrior = (*Store)(nil)
)

// Open reads dir/grass-samples.jsonl (creating dir and the file if needed)
// and returns a store that appends to it. A line that is not a valid sample
// is an error naming the file and line; a final line without its newline (a
// crash mid-append) is ignored and overwritten by the next Add.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("grass samples: %w", err)
	}
	path := filepath.Join(dir, FileName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("grass samples: %w", err)
	}
	mem, good, err := read(f, path)
	if err == nil {
		// Drop a torn final line so the next append starts a fresh one.
		if err = f.Truncate(good); err == nil {
			_, err = f.Seek(good, io.SeekStart)
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &Store{path: path, file: f, mem: mem}, nil
}

// read parses every complete line; good is the offset after the last one.
func read(r io.Reader, path string) (*grass.MemoryStore, int64, error) {
	mem := grass.NewMemoryStore()
	br := bufio.NewReaderSize(r, 64<<10)
	var good int64
	for line := 1; ; line++ {
		b, err := br.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			return mem, good, nil // len(b) > 0: a torn final line
		}
		if err != nil {
			return nil, 0, fmt.Errorf("read %s line %d: %w", path, line, err)
		}
		if len(b) > maxLine {
			return nil, 0, fmt.Errorf("read %s line %d: line longer than %d bytes", path, line, maxLine)
		}
		good += int64(len(b))
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		var s grass.Sample
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&s); err != nil {
			return nil, 0, fmt.Errorf("read %s line %d: %w", path, line, err)
		}
		if err := mem.Add(s); err != nil {
			return nil, 0, fmt.Errorf("read %s line %d: bad sample: %w", path, line, err)
		}
	}
}

// Path is the samples file.
func (s *Store) Path() string { return s.path }

// Load returns the bucket's samples (see grass.SampleStore).
func (s *Store) Load(bucket int) []grass.Sample { return s.mem.Load(bucket) }

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
	if _, err := s.file.Write(b); err != nil {
		return fmt.Errorf("append %s: %w", s.path, err)
	}
	if err := s.file.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", s.path, err)
	}
	return s.mem.Add(sample)
}

// AddRuntime keeps a completed task's run time for later jobs' t_new before
// their first completion (grass.RuntimePrior). These are kept in memory
// only: after a restart the prior fills again from the jobs that follow.
func (s *Store) AddRuntime(ty speculators.TaskType, ms float64, inputBytes int64) {
	s.mem.AddRuntime(ty, ms, inputBytes)
}

// PriorRuntime is grass.RuntimePrior's estimate (see AddRuntime).
func (s *Store) PriorRuntime(ty speculators.TaskType, inputBytes int64) (float64, bool) {
	return s.mem.PriorRuntime(ty, inputBytes)
}

// Close closes the file; Load keeps working, Add fails.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.file == nil {
		return nil
	}
	err := s.file.Close()
	s.file = nil
	if err != nil {
		return fmt.Errorf("close %s: %w", s.path, err)
	}
	return nil
}
