package speculators

import (
	"go/build"
	"io/fs"
	"path/filepath"
	"slices"
	"testing"
)

// forbiddenImports are packages no non-test file under speculators/ may
// import: the engine and its policies are a pure state machine (doc.go);
// the drivers own the disk, the network and the clock.
var forbiddenImports = []string{"os", "io/fs", "bufio", "path/filepath", "net", "net/http", "os/exec", "time"}

// TestPolicyPackagesArePure checks every package under speculators/ (their
// own non-test import lists, as go list -f '{{.Imports}}' gives them) for
// forbiddenImports.
func TestPolicyPackagesArePure(t *testing.T) {
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if d.Name() == "testdata" {
			return filepath.SkipDir
		}
		pkg, err := build.Default.ImportDir(path, 0)
		if _, none := err.(*build.NoGoError); none {
			return nil
		}
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		checked++
		for _, imp := range pkg.Imports {
			if slices.Contains(forbiddenImports, imp) {
				t.Errorf("speculators/%s imports %s: policies may not do I/O (the drivers do; see learned.go)", path, imp)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 10 {
		t.Errorf("checked %d packages, want every package under speculators/ (at least 10)", checked)
	}
}
