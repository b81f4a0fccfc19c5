package grassamples

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/grass"
)

func sample(bucket int, algo string) grass.Sample {
	return grass.Sample{Bucket: bucket, Kind: grass.KindError, Algorithm: algo, Bound: 0.2, Utilisation: 0.5,
		Accuracy: 0.7, Tasks: 40, CurveStep: 0.25, Curve: []float64{0.5, 1, 1.5}}
}

// Samples added survive closing and reopening, in order, per bucket.
func TestPersistAcrossReopen(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []grass.Sample{sample(0, grass.AlgoGS), sample(2, grass.AlgoRAS), sample(0, grass.AlgoRAS)} {
		if err := s.Add(x); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Add(sample(0, grass.AlgoGS)); err == nil {
		t.Error("Add after Close succeeded")
	}
	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got := s.Load(0)
	if len(got) != 2 || got[0].Algorithm != grass.AlgoGS || got[1].Algorithm != grass.AlgoRAS || len(got[0].Curve) != 3 {
		t.Errorf("bucket 0 after reopen: %+v", got)
	}
	if n := len(s.Load(2)); n != 1 {
		t.Errorf("bucket 2 holds %d samples, want 1", n)
	}
	if err := s.Add(grass.Sample{Bucket: 5}); err == nil {
		t.Error("invalid sample accepted")
	}
}

// A corrupt line is an error naming the file and line.
func TestCorruptLineNamesFileAndLine(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Add(sample(1, grass.AlgoGS)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	path := filepath.Join(dir, FileName)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("{\"bucket\": 1, \"kind\": \"error\", \"algorithm\": \"gs\", \"curve_step\": 0.25}\n{not json\n")
	f.Close()
	_, err = Open(dir)
	if err == nil || !strings.Contains(err.Error(), path+" line 3") {
		t.Fatalf("error %v, want one naming %s line 3", err, path)
	}
	os.WriteFile(path, []byte("{\"bucket\": 9, \"kind\": \"error\", \"algorithm\": \"gs\", \"curve_step\": 0.25}\n"), 0o644)
	if _, err = Open(dir); err == nil || !strings.Contains(err.Error(), "line 1: bad sample: bucket 9") {
		t.Fatalf("error %v, want bad sample on line 1", err)
	}
}

// A final line torn by a crash mid-append is dropped and overwritten.
func TestTornFinalLine(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir)
	s.Add(sample(0, grass.AlgoGS))
	s.Close()
	path := filepath.Join(dir, FileName)
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("{\"bucket\": 0, \"ki")
	f.Close()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Add(sample(0, grass.AlgoRAS)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.Load(0); len(got) != 2 || got[1].Algorithm != grass.AlgoRAS {
		t.Errorf("after a torn line: %+v", got)
	}
}

// The store gives GRASS earlier jobs' run times (grass.RuntimePrior) while it
// is open; they are not written to the file, so a reopened store has none
// until new jobs complete tasks.
func TestRuntimePriorInMemory(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.AddRuntime(speculators.Map, 48000, 128<<20)
	if ms, ok := s.PriorRuntime(speculators.Map, 128<<20); !ok || ms != 48000 {
		t.Errorf("prior %v %v, want 48000 ms", ms, ok)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if ms, ok := s.PriorRuntime(speculators.Map, 128<<20); ok {
		t.Errorf("prior after reopen %v, want none", ms)
	}
	b, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil || len(b) != 0 {
		t.Errorf("samples file %q (%v), want empty: run times are not persisted", b, err)
	}
}
