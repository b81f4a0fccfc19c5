package cfa

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
)

// errCrashed is what every operation of a faultDir returns after its crash.
var errCrashed = errors.New("injected crash")

// faultDir wraps a Dir and injects failures into its writes: plan is asked
// before each Append and WriteAtomic and says how many bytes of the data
// reach the file and what the call returns (a partial write then ENOSPC,
// or a crash: the prefix lands and every later call fails).
type faultDir struct {
	Dir
	mu      sync.Mutex
	plan    func(op, name string, n int) (keep int, err error)
	crashed bool
	writes  int
	// partialTemps: a failed write with keep > 0 leaves that much of
	// name.tmp behind, as a local WriteAtomic on a full disk did.
	partialTemps bool
}

func (d *faultDir) do(op, name string, data []byte, write func([]byte) error) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.crashed {
		return errCrashed
	}
	d.writes++
	keep, err := len(data), error(nil)
	if d.plan != nil {
		keep, err = d.plan(op, name, len(data))
	}
	if err == nil {
		return write(data)
	}
	if errors.Is(err, errCrashed) {
		d.crashed = true
	}
	if keep > 0 && op == "append" {
		if werr := write(data[:keep]); werr != nil {
			return werr
		}
	}
	if keep > 0 && op == "write" && d.partialTemps {
		// What a local atomic write leaves when it fails midway: part of
		// its temporary file.
		if werr := d.Dir.Append(name+".tmp", data[:keep]); werr != nil {
			return werr
		}
	}
	return fmt.Errorf("%s %s: %w", op, name, err)
}

func (d *faultDir) Append(name string, data []byte) error {
	return d.do("append", name, data, func(b []byte) error { return d.Dir.Append(name, b) })
}

func (d *faultDir) WriteAtomic(name string, data []byte) error {
	return d.do("write", name, data, func(b []byte) error { return d.Dir.WriteAtomic(name, b) })
}

func (d *faultDir) Rename(from, to string) error {
	return d.do("rename", from, nil, func([]byte) error { return d.Dir.Rename(from, to) })
}

func (d *faultDir) Remove(name string) error {
	d.mu.Lock()
	crashed := d.crashed
	d.mu.Unlock()
	if crashed {
		return errCrashed
	}
	return d.Dir.Remove(name)
}

// Truncate passes through to a local directory (faultDir{Dir: LocalDir}).
func (d *faultDir) Truncate(name string, size int64) error {
	d.mu.Lock()
	crashed := d.crashed
	d.mu.Unlock()
	if crashed {
		return errCrashed
	}
	if t, ok := d.Dir.(truncater); ok {
		return t.Truncate(name, size)
	}
	return errors.New("cannot truncate")
}

// noTruncate hides a directory's Truncate, as HDFS has none: the store
// must move on to a new segment after a failed append.
type noTruncate struct{ Dir }

// enospc is the error a full disk gives.
var enospc = &os.PathError{Op: "write", Path: "segment", Err: syscall.ENOSPC}
