package replay

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestLocalSourceFilesAndSiblings: a local directory lists its history
// files sorted (not its other files), and a file's sibling opens from the
// file's directory; a missing sibling is fs.ErrNotExist, for readers that
// take a sibling as optional (the job configuration beside a .jhist).
func TestLocalSourceFilesAndSiblings(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"b/job_2.jhist":      "b",
		"a/job_1.jhist":      "a",
		"a/job_1_conf.xml":   "<configuration/>",
		"a/notes.txt":        "not a history",
		"a/trace-rumen.json": "{}",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src, err := openSource(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	files, isDir, err := src.Files()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "a/job_1.jhist"), filepath.Join(dir, "a/trace-rumen.json"), filepath.Join(dir, "b/job_2.jhist")}
	if !isDir || !reflect.DeepEqual(files, want) {
		t.Fatalf("Files() = %q, dir %v; want %q, dir true", files, isDir, want)
	}
	f, err := src.OpenSibling(files[0], "job_1_conf.xml")
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(f)
	f.Close()
	if err != nil || string(b) != "<configuration/>" {
		t.Fatalf("sibling read %q, %v; want the conf.xml beside the jhist", b, err)
	}
	if _, err := src.OpenSibling(files[2], "job_2_conf.xml"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a missing sibling: %v, want fs.ErrNotExist", err)
	}
	one, err := openSource(files[2], nil)
	if err != nil {
		t.Fatal(err)
	}
	if files, isDir, err := one.Files(); err != nil || isDir || !reflect.DeepEqual(files, want[2:]) {
		t.Fatalf("a file's Files() = %q, dir %v, %v; want itself", files, isDir, err)
	}
}
