package cfa

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/specbridge/specbridge/yarnclient/hdfs"
)

// Dir is the directory the store keeps its files in: a local directory or
// an HDFS one. Append and WriteAtomic return only once the data is durable
// (local: fsync; HDFS: acknowledged by the DataNodes and the file completed
// on the NameNode).
type Dir interface {
	// Names lists the files in the directory.
	Names() ([]string, error)
	Read(name string) ([]byte, error)
	// Append adds data at the end of name, creating it if missing.
	Append(name string, data []byte) error
	// WriteAtomic replaces name with data: a reader sees the old or the new
	// content, never a part.
	WriteAtomic(name string, data []byte) error
	Remove(name string) error
	// Rename moves from to to, replacing to if it exists, atomically and
	// durably.
	Rename(from, to string) error
	// Size returns name's length in bytes, 0 if it does not exist.
	Size(name string) (int64, error)
	// String names the directory (a path or an hdfs:// URL) for errors.
	String() string
}

// truncater is a Dir that can cut a file back (LocalDir): the store uses
// it to remove what a failed append left, and torn tails at load.
type truncater interface {
	Truncate(name string, size int64) error
}

// OpenDir returns the store directory for location: an hdfs://host:port/path
// URL, reached with hc (nil: hdfs.EnvConf), or a local path. The directory
// is created if missing.
func OpenDir(location string, hc *hdfs.Config) (Dir, error) {
	if hdfs.IsURL(location) {
		if hc == nil {
			hc = hdfs.EnvConf()
		}
		c, u, err := hc.DialURL(location)
		if err != nil {
			return nil, fmt.Errorf("store %s: %w", location, err)
		}
		if err := c.MkdirAll(u.Path); err != nil {
			_ = c.Close()
			return nil, err
		}
		return &HDFSDir{c: c, url: u}, nil
	}
	if err := os.MkdirAll(location, 0o755); err != nil {
		return nil, fmt.Errorf("store %s: %w", location, err)
	}
	return LocalDir(location), nil
}

// LocalDir is a store directory on the local file system.
type LocalDir string

func (d LocalDir) String() string          { return string(d) }
func (d LocalDir) path(name string) string { return filepath.Join(string(d), name) }

// Names lists the directory's files, sorted.
func (d LocalDir) Names() ([]string, error) {
	ents, err := os.ReadDir(string(d))
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", d, err)
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out, nil
}

// Read returns the whole file.
func (d LocalDir) Read(name string) ([]byte, error) {
	b, err := os.ReadFile(d.path(name))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", d.path(name), err)
	}
	return b, nil
}

// Append writes data at the end of name and fsyncs it.
func (d LocalDir) Append(name string, data []byte) error {
	p := d.path(name)
	if err := writeSynced(p, os.O_APPEND, data); err != nil {
		return fmt.Errorf("append to %s: %w", p, err)
	}
	return nil
}

// writeSynced opens p with flag (plus write-only and create), writes data
// and fsyncs it.
func writeSynced(p string, flag int, data []byte) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|flag, 0o644)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	serr := f.Sync()
	return errors.Join(werr, serr, f.Close())
}

// WriteAtomic writes a temporary file, fsyncs it, renames it over name and
// fsyncs the directory. A failed write removes the temporary file.
func (d LocalDir) WriteAtomic(name string, data []byte) error {
	p := d.path(name)
	tmp := p + ".tmp"
	if err := writeSynced(tmp, os.O_TRUNC, data); err != nil {
		_ = os.Remove(tmp) // best effort: the write already failed
		return fmt.Errorf("write %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, p); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("rename %s to %s: %w", tmp, p, err)
	}
	return d.syncDir()
}

// Rename moves from to to and fsyncs the directory.
func (d LocalDir) Rename(from, to string) error {
	if err := os.Rename(d.path(from), d.path(to)); err != nil {
		return fmt.Errorf("rename %s to %s: %w", d.path(from), d.path(to), err)
	}
	return d.syncDir()
}

func (d LocalDir) syncDir() error {
	dir, err := os.Open(string(d))
	if err != nil {
		return fmt.Errorf("sync %s: %w", d, err)
	}
	defer dir.Close()
	if err := dir.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", d, err)
	}
	return nil
}

// Remove deletes name; a missing file is not an error.
func (d LocalDir) Remove(name string) error {
	if err := os.Remove(d.path(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", d.path(name), err)
	}
	return nil
}

// Size returns the file's length, 0 if it does not exist.
func (d LocalDir) Size(name string) (int64, error) {
	fi, err := os.Stat(d.path(name))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("stat %s: %w", d.path(name), err)
	}
	return fi.Size(), nil
}

// Truncate cuts name to size bytes and fsyncs it.
func (d LocalDir) Truncate(name string, size int64) error {
	p := d.path(name)
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("truncate %s: %w", p, err)
	}
	terr := f.Truncate(size)
	serr := f.Sync()
	if err := errors.Join(terr, serr, f.Close()); err != nil {
		return fmt.Errorf("truncate %s to %d bytes: %w", p, size, err)
	}
	return nil
}

// HDFSDir is a store directory on HDFS.
type HDFSDir struct {
	c   *hdfs.Client
	url hdfs.URL

	leaseMu  sync.Mutex
	leaseErr error // the lease was lost: no more writes (lock.go)
}

func (d *HDFSDir) String() string          { return d.url.String() }
func (d *HDFSDir) path(name string) string { return d.url.Join(name).Path }

// Close ends the HDFS connection.
func (d *HDFSDir) Close() error { return d.c.Close() }

// Names lists the directory's files, sorted.
func (d *HDFSDir) Names() ([]string, error) {
	ents, err := d.c.List(d.url.Path)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if !e.Dir {
			out = append(out, e.Name)
		}
	}
	return out, nil
}

// Read returns the whole file.
func (d *HDFSDir) Read(name string) ([]byte, error) { return d.c.ReadFile(d.path(name)) }

// Append appends and completes the file (see hdfs.Client.Append).
func (d *HDFSDir) Append(name string, data []byte) error {
	if err := d.leaseError(); err != nil {
		return err
	}
	return d.c.Append(d.path(name), data)
}

// WriteAtomic writes a temporary file and renames it over name.
func (d *HDFSDir) WriteAtomic(name string, data []byte) error {
	if err := d.leaseError(); err != nil {
		return err
	}
	return d.c.WriteFile(d.path(name), data)
}

// Rename moves from to to, replacing it (atomic on the NameNode).
func (d *HDFSDir) Rename(from, to string) error {
	if err := d.leaseError(); err != nil {
		return err
	}
	return d.c.Rename(d.path(from), d.path(to))
}

// Size returns the file's length, 0 if it does not exist.
func (d *HDFSDir) Size(name string) (int64, error) { return d.c.Size(d.path(name)) }

// Remove deletes name; a missing file is not an error.
func (d *HDFSDir) Remove(name string) error { return d.c.Remove(d.path(name)) }
