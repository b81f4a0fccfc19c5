package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocsNameNoMachinePaths: the README and docs/ are read on a user's
// clone, so they name no path of the machine they were written on (a
// working folder under /work, the shared inputs' folder) and cite papers by
// title and section, never by a file of ours (a .pdf, a paper's text file).
func TestDocsNameNoMachinePaths(t *testing.T) {
	files := []string{"../../README.md"}
	err := filepath.WalkDir("../../docs", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	bad := regexp.MustCompile(`/work/|shared/papers|\.pdf\b|\b\d{3}_[0-9a-f]{16}\b`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := bad.FindString(line); m != "" {
				t.Errorf("%s:%d names %q: %.120s", f, i+1, m, line)
			}
		}
	}
	if len(files) < 10 {
		t.Fatalf("read %d files: docs/ not found", len(files))
	}
}
