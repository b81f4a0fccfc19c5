package grassamples

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/specbridge/specbridge/speculators/grass"
)

// A whole last sample without its newline (a file edited by hand, or
// written by another tool) is kept, and the next sample goes on a line of
// its own.
func TestLastLineWithoutNewlineIsKept(t *testing.T) {
	dir := t.TempDir()
	b, _ := json.Marshal(sample(0, grass.AlgoGS))
	if err := os.WriteFile(filepath.Join(dir, FileName), b, 0o644); err != nil {
		t.Fatal(err)
	}
	s := mustOpen(t, dir)
	if got := s.Samples(0); len(got) != 1 {
		t.Fatalf("last line without newline: %d samples loaded, want 1", len(got))
	}
	if err := s.Add(sample(0, grass.AlgoRAS)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = mustOpen(t, dir)
	defer s.Close()
	if got := s.Samples(0); len(got) != 2 {
		t.Fatalf("after another sample: %d samples, want 2", len(got))
	}
}

// A sample that cannot be written is logged once per episode with the
// path, not per attempt, and the recovery once; a failed append leaves no
// partial line behind.
func TestWriteFailuresLoggedOncePerEpisode(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir)
	defer s.Close()
	log, hook := logtest.NewNullLogger()
	s.Log = log
	good := s.file
	ro, err := os.Open(filepath.Join(dir, FileName)) // writes fail on a read-only handle
	if err != nil {
		t.Fatal(err)
	}
	s.file = ro
	for i := 0; i < 5; i++ {
		if err := s.Add(sample(0, grass.AlgoGS)); err == nil {
			t.Fatal("append to a read-only file succeeded")
		}
	}
	errs := 0
	for _, e := range hook.AllEntries() {
		if e.Level == logrus.ErrorLevel {
			errs++
			if p, _ := e.Data["path"].(string); !strings.HasSuffix(p, FileName) {
				t.Errorf("log without the path: %v", e.Data)
			}
		}
	}
	if errs != 1 {
		t.Errorf("%d error lines for 5 failed writes, want 1", errs)
	}
	s.file = good
	ro.Close()
	if err := s.Add(sample(0, grass.AlgoRAS)); err != nil {
		t.Fatal(err)
	}
	if e := hook.LastEntry(); e.Level != logrus.WarnLevel || !strings.Contains(e.Message, "work again") {
		t.Errorf("recovery not logged: %+v", e)
	}
}
