package grassamples

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
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
	s := mustOpen(t, dir)
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
	s = mustOpen(t, dir)
	defer s.Close()
	got := s.Samples(0)
	if len(got) != 2 || got[0].Algorithm != grass.AlgoGS || got[1].Algorithm != grass.AlgoRAS || len(got[0].Curve) != 3 {
		t.Errorf("bucket 0 after reopen: %+v", got)
	}
	if n := len(s.Samples(2)); n != 1 {
		t.Errorf("bucket 2 holds %d samples, want 1", n)
	}
	if err := s.Add(grass.Sample{Bucket: 5}); err == nil {
		t.Error("invalid sample accepted")
	}
}

// A corrupt line is an error naming the file and line.
func TestCorruptLineNamesFileAndLine(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir)
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
	s = mustOpen(t, dir)
	if err := s.Add(sample(0, grass.AlgoRAS)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = mustOpen(t, dir)
	defer s.Close()
	if got := s.Samples(0); len(got) != 2 || got[1].Algorithm != grass.AlgoRAS {
		t.Errorf("after a torn line: %+v", got)
	}
}

// Earlier jobs' run times (grass.RuntimePrior) survive closing and
// reopening: a reopened store gives the same prior, read from
// RuntimesFileName, and the samples file holds only samples.
func TestRuntimePriorPersists(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir)
	const block = 128 << 20
	for _, ms := range []float64{40000, 48000, 90000} {
		s.AddRuntime(speculators.Map, ms, block)
	}
	s.AddRuntime(speculators.Reduce, 7000, 0)
	s.AddRuntime(speculators.Map, -1, block) // ignored: not a run time
	if ms, ok := s.PriorRuntime(speculators.Map, block); !ok || ms != 48000 {
		t.Errorf("prior %v %v, want 48000 ms", ms, ok)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = mustOpen(t, dir)
	defer s.Close()
	if ms, ok := s.PriorRuntime(speculators.Map, block); !ok || ms != 48000 {
		t.Errorf("map prior after reopen %v %v, want 48000 ms", ms, ok)
	}
	if ms, ok := s.PriorRuntime(speculators.Reduce, 0); !ok || ms != 7000 {
		t.Errorf("reduce prior after reopen %v %v, want 7000 ms", ms, ok)
	}
	b, err := os.ReadFile(filepath.Join(dir, RuntimesFileName))
	if err != nil || strings.Count(string(b), "\n") != 4 || !strings.Contains(string(b), `{"type":"reduce","ms":7000,"input_bytes":0}`) {
		t.Errorf("run times file %q (%v), want 4 lines", b, err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, FileName)); err != nil || len(b) != 0 {
		t.Errorf("samples file %q (%v), want empty", b, err)
	}
}

// Run times reach the disk in batches of flushEvery, without Close: a store
// opened on the files a crashed one left has every full batch.
func TestRuntimeBatchesReachDiskWithoutClose(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir)
	defer s.Close()
	for i := 0; i < flushEvery+10; i++ {
		s.AddRuntime(speculators.Map, 1000, 1<<20)
	}
	crashed := mustOpen(t, dir) // reads what is on disk now
	defer crashed.Close()
	if n := crashed.mem.PriorLen(); n != flushEvery {
		t.Errorf("%d run times on disk before Close, want %d", n, flushEvery)
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	after := mustOpen(t, dir)
	defer after.Close()
	if n := after.mem.PriorLen(); n != flushEvery+10 {
		t.Errorf("%d run times on disk after Flush, want %d", n, flushEvery+10)
	}
}

// A torn final line of the run-times file is dropped; a bad line is an
// error naming the file and line.
func TestRuntimesTornAndCorrupt(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir)
	s.AddRuntime(speculators.Map, 30000, 1<<20)
	s.Close()
	path := filepath.Join(dir, RuntimesFileName)
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"type":"map","ms":99`)
	f.Close()
	s, err := Open(dir)
	if err != nil {
		t.Fatalf("torn final line: %v", err)
	}
	s.AddRuntime(speculators.Map, 50000, 1<<20)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(dir); err != nil {
		t.Fatalf("after a torn line was overwritten: %v", err)
	}
	if ms, ok := s.PriorRuntime(speculators.Map, 1<<20); !ok || ms != 40000 {
		t.Errorf("prior %v %v, want the median of 30 s and 50 s", ms, ok)
	}
	s.Close()
	for _, bad := range []struct{ line, want string }{
		{`{"type":"shuffle","ms":1,"input_bytes":0}`, `type "shuffle"`},
		{`{"type":"map","ms":-5,"input_bytes":0}`, "ms -5"},
		{`{"type":"map","ms":1e300,"input_bytes":0}`, "ms 1e+300"},
		{`{"type":"map","ms":1,"input_bytes":0,"extra":1}`, "unknown field"},
		{`not json`, "invalid character"},
	} {
		b, _ := os.ReadFile(path)
		os.WriteFile(path, append(append([]byte{}, b...), bad.line+"\n"...), 0o644)
		_, err := Open(dir)
		if err == nil || !strings.Contains(err.Error(), path+" line 3") || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("line %s: error %v, want one naming %s line 3 and %q", bad.line, err, path, bad.want)
		}
		os.WriteFile(path, b, 0o644)
	}
}

// The prior keeps the most recent grass.PriorWindow run times of a class,
// and the file is rewritten with them once it holds more than twice as
// many lines, so both stay bounded however long the sidecar runs.
func TestRuntimesBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 2.5 x grass.PriorWindow records")
	}
	dir := t.TempDir()
	s := mustOpen(t, dir)
	const block = 128 << 20
	old, recent := 3*grass.PriorWindow/2, grass.PriorWindow
	for i := 0; i < old; i++ {
		s.AddRuntime(speculators.Map, 900000, block) // old: 900 s
	}
	for i := 0; i < recent; i++ {
		s.AddRuntime(speculators.Map, 45000, block) // recent: 45 s
	}
	if ms, _ := s.PriorRuntime(speculators.Map, block); ms != 45000 {
		t.Errorf("prior %v ms, want 45000: only the last %d count", ms, grass.PriorWindow)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, RuntimesFileName))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n > 2*grass.PriorWindow {
		t.Errorf("run times file has %d lines after %d records, want at most %d", n, old+recent, 2*grass.PriorWindow)
	}
	s = mustOpen(t, dir)
	defer s.Close()
	if n := s.mem.PriorLen(); n != grass.PriorWindow {
		t.Errorf("reopened prior holds %d, want %d", n, grass.PriorWindow)
	}
	if ms, _ := s.PriorRuntime(speculators.Map, block); ms != 45000 {
		t.Errorf("reopened prior %v ms, want 45000", ms)
	}
}

// Engines of many sessions add run times at once; every record reaches the
// file once the store closes.
func TestRuntimesConcurrentAdds(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				s.AddRuntime(speculators.Map, float64(1000*(g+1)), 1<<20)
				s.PriorRuntime(speculators.Map, 1<<20)
			}
		}(g)
	}
	wg.Wait()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = mustOpen(t, dir)
	defer s.Close()
	if n := s.mem.PriorLen(); n != 800 {
		t.Errorf("%d run times after reopen, want 800", n)
	}
}

// mustOpen opens the store in dir or fails the test.
func mustOpen(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
