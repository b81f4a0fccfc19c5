package cfa

import (
	"errors"
	"io/fs"
	"sort"
	"sync"
	"testing"

	"github.com/specbridge/specbridge/cfa/analyzer"
)

// memDir is a store directory in memory, for fuzzing the load and fsck
// (pure logic over the files' bytes; the file system is not under test).
type memDir struct {
	mu    sync.Mutex
	files map[string][]byte
}

func (d *memDir) String() string { return "mem" }
func (d *memDir) Names() ([]string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	for n := range d.files {
		out = append(out, n)
	}
	sort.Strings(out)
	return out, nil
}
func (d *memDir) Read(name string) ([]byte, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	b, ok := d.files[name]
	if !ok {
		return nil, fs.ErrNotExist
	}
	return append([]byte(nil), b...), nil
}
func (d *memDir) Append(name string, data []byte) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.files[name] = append(d.files[name], data...)
	return nil
}
func (d *memDir) WriteAtomic(name string, data []byte) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.files[name] = append([]byte(nil), data...)
	return nil
}
func (d *memDir) Remove(name string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.files, name)
	return nil
}
func (d *memDir) Rename(from, to string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	b, ok := d.files[from]
	if !ok {
		return errors.New("rename: no " + from)
	}
	delete(d.files, from)
	d.files[to] = b
	return nil
}
func (d *memDir) Size(name string) (int64, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return int64(len(d.files[name])), nil
}
func (d *memDir) Truncate(name string, size int64) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if b := d.files[name]; int64(len(b)) > size {
		d.files[name] = b[:size]
	}
	return nil
}

// Whatever bytes a segment, the snapshot and the previous snapshot hold,
// the store opens (damage is reported, never an error or a panic), fsck
// runs, and after fsck --repair the store opens with no damaged frame and
// no torn tail left.
func FuzzStoreFiles(f *testing.F) {
	// Seeds: the files of a real store (marks, records, both snapshots).
	d := &memDir{files: map[string][]byte{}}
	s, st, _, err := OpenStore(d, testConfig())
	if err != nil {
		f.Fatal(err)
	}
	s.SnapshotEvery = 3
	for seq := uint64(1); seq <= 8; seq++ {
		r := propRecord(seq)
		if err := st.Apply(&r, analyzer.Limits{Window: 5, Episodes: 10}); err != nil {
			f.Fatal(err)
		}
		if err := s.Commit([]analyzer.Record{r}, st); err != nil {
			f.Fatal(err)
		}
	}
	_ = s.Seal()
	names, _ := d.Names()
	var seg []byte
	for _, n := range names {
		if _, ok := segmentNumber(n); ok {
			seg = d.files[n]
		}
	}
	f.Add(seg, d.files[snapshotName], d.files[prevSnapshotName])
	f.Add([]byte{0, 0, 0, 5, 1, 2}, []byte("x"), []byte{})
	f.Fuzz(func(t *testing.T, seg, snap, prev []byte) {
		d := &memDir{files: map[string][]byte{segmentName(7): seg}}
		if len(snap) > 0 {
			d.files[snapshotName] = snap
		}
		if len(prev) > 0 {
			d.files[prevSnapshotName] = prev
		}
		if _, err := Fsck(d, false); err != nil {
			t.Fatalf("fsck: %v", err)
		}
		if _, err := Fsck(d, true); err != nil {
			t.Fatalf("fsck --repair: %v", err)
		}
		_, _, rep, err := OpenStore(d, testConfig())
		if err != nil {
			t.Fatalf("open after repair: %v", err)
		}
		if len(rep.Damaged) > 0 || len(rep.Torn) > 0 {
			t.Fatalf("after fsck --repair: damaged %v, torn %v", rep.Damaged, rep.Torn)
		}
	})
}
