package grassamples

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/specbridge/specbridge/speculators"
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

func fit(maps int, sigma float64) speculators.TailFit {
	return speculators.TailFit{Maps: maps, Sigma: sigma}
}

// A restarted store (the same data directory reopened) returns the same
// last grass.TailWindow map-time spreads, in order; fits that are not
// usable (NaN, negative, huge) are neither kept nor written.
func TestTailFitsPersistAcrossReopen(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir)
	n := grass.TailWindow + 8
	for i := 0; i < n; i++ {
		s.AddTail(fit(10+i, 0.01*float64(i)))
	}
	for _, bad := range []speculators.TailFit{fit(40, math.NaN()), fit(40, -0.1), fit(40, math.Inf(1)), fit(0, 0.5),
		fit(-3, 0.5), fit(speculators.MaxJobTasks+1, 0.5), fit(40, speculators.MaxTailSigma+1)} {
		s.AddTail(bad)
	}
	if err := s.Keep(speculators.Learned{Tails: []speculators.TailFit{fit(77, 0.77)}}); err != nil {
		t.Fatal(err)
	}
	want := s.TailFits()
	if len(want) != grass.TailWindow || want[len(want)-1] != fit(77, 0.77) || want[0] != fit(10+9, 0.01*9) {
		t.Fatalf("kept %v, want the last %d valid fits", want, grass.TailWindow)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s.AddTail(fit(5, 5)) // after Close: memory only
	s = mustOpen(t, dir)
	defer s.Close()
	if got := s.TailFits(); !slices.Equal(got, want) {
		t.Errorf("after reopen %v, want %v", got, want)
	}
	if got := s.Snapshot().TailFits(); !slices.Equal(got, want) {
		t.Errorf("snapshot after reopen %v, want %v", got, want)
	}
}

// Every line is checksummed: a line whose digits changed, bad JSON, a
// hostile value with a right checksum or an unknown field is skipped with an
// error naming the file and line, and the store opens with the other fits.
func TestTailFitsCorruptLinesSkipped(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, TailsFileName)
	good1, good2 := appendTail(nil, fit(40, 0.8)), appendTail(nil, fit(30, 0.9))
	flipped := strings.Replace(string(appendTail(nil, fit(40, 0.6))), "0.6", "0.9", 1)
	huge := tailLine{Maps: speculators.MaxJobTasks + 1, Sigma: 0.5}
	huge.CRC = tailCRC(fit(huge.Maps, huge.Sigma))
	neg := tailLine{Maps: 40, Sigma: -1}
	neg.CRC = tailCRC(fit(neg.Maps, neg.Sigma))
	hb, _ := json.Marshal(huge)
	nb, _ := json.Marshal(neg)
	lines := []string{string(good1), flipped, "{not json\n", `{"maps":40,"sigma":NaN,"crc":1}` + "\n",
		string(hb) + "\n", string(nb) + "\n", `{"maps":40,"sigma":0.8,"crc":0,"extra":1}` + "\n", "\n", string(good2)}
	s, hook := openWithLines(t, dir, path, lines)
	defer s.Close()
	if got := s.TailFits(); !slices.Equal(got, []speculators.TailFit{fit(40, 0.8), fit(30, 0.9)}) {
		t.Errorf("fits %v, want the two good lines'", got)
	}
	wantLines := map[int]string{2: "checksum", 3: "invalid character", 4: "invalid character", 5: "maps 16777217", 6: "sigma -1", 7: "unknown field"}
	for _, e := range hook.AllEntries() {
		n, _ := e.Data["line"].(int)
		if e.Level != logrus.ErrorLevel || e.Data["path"] != path || !strings.Contains(e.Message, path+" line") {
			t.Errorf("log entry %q %v: want an error naming %s and the line", e.Message, e.Data, path)
		}
		if want, ok := wantLines[n]; !ok || !strings.Contains(fmt.Sprint(e.Data[logrus.ErrorKey]), want) {
			t.Errorf("line %d logged with %v, want %q", n, e.Data[logrus.ErrorKey], want)
		}
		delete(wantLines, n)
	}
	if len(wantLines) != 0 {
		t.Errorf("lines not logged: %v", wantLines)
	}
}

// A tail fit torn by a crash mid-append is dropped and the next fit goes
// on a line of its own; a whole last fit without its newline is kept. A
// line too long to be this file's is logged, and the file is rewritten
// with the fits before it.
func TestTailFitsTornAndOverlongLines(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, TailsFileName)
	s := mustOpen(t, dir)
	s.AddTail(fit(40, 0.8))
	s.Close()
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"maps":30,"sig`)
	f.Close()
	s = mustOpen(t, dir)
	s.AddTail(fit(20, 0.7))
	s.Close()
	s = mustOpen(t, dir)
	if got := s.TailFits(); !slices.Equal(got, []speculators.TailFit{fit(40, 0.8), fit(20, 0.7)}) {
		t.Errorf("after a torn line %v, want the two whole fits", got)
	}
	s.Close()
	whole := appendTail(nil, fit(10, 0.1))
	f, _ = os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.Write(whole[:len(whole)-1])
	f.Close()
	s = mustOpen(t, dir)
	s.AddTail(fit(11, 0.2))
	s.Close()
	s = mustOpen(t, dir)
	if got := s.TailFits(); len(got) != 4 || got[2] != fit(10, 0.1) || got[3] != fit(11, 0.2) {
		t.Errorf("after a last line without newline %v, want it kept and the next fit after it", got)
	}
	s.Close()

	f, _ = os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(strings.Repeat("x", 2*maxTailLine) + "\n")
	f.Write(appendTail(nil, fit(12, 0.3)))
	f.Close()
	log, hook := logtest.NewNullLogger()
	s, err := open(dir, log)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.TailFits(); len(got) != 4 {
		t.Errorf("after an overlong line %v, want the 4 fits before it", got)
	}
	if e := hook.LastEntry(); e == nil || !strings.Contains(fmt.Sprint(e.Data[logrus.ErrorKey]), path+" line 5") {
		t.Errorf("overlong line logged as %+v, want an error naming %s line 5", e, path)
	}
	if b, _ := os.ReadFile(path); strings.Count(string(b), "\n") != 4 || strings.Contains(string(b), "xxx") {
		t.Errorf("file after an overlong line %q, want the 4 fits rewritten", b)
	}
}

// The tails file is rewritten with the fits kept once it reaches
// compactTailsAt lines, so it stays bounded; the fits survive it.
func TestTailFitsFileBounded(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir)
	for i := 0; i < 3*compactTailsAt; i++ {
		s.AddTail(fit(1+i, 0.5))
	}
	want := s.TailFits()
	s.Close()
	b, err := os.ReadFile(filepath.Join(dir, TailsFileName))
	if n := strings.Count(string(b), "\n"); err != nil || n >= compactTailsAt {
		t.Errorf("tails file has %d lines after %d fits (%v), want fewer than %d", n, 3*compactTailsAt, err, compactTailsAt)
	}
	s = mustOpen(t, dir)
	defer s.Close()
	if got := s.TailFits(); !slices.Equal(got, want) || got[len(got)-1].Maps != 3*compactTailsAt {
		t.Errorf("after reopen %v, want %v", got, want)
	}
}

// Rule v41's deadline records are kept in memory and never written, also
// when the file is rewritten: a compaction that wrote them would leave
// lines every later open rejects.
func TestTailDeadlineRecordsNeverWritten(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir)
	for i := 0; i < 3*compactTailsAt; i++ {
		s.AddTail(fit(1+i, 0.5))
		s.AddTail(speculators.TailFit{Deadline: speculators.Time(1000 * (i + 1))})
	}
	var want []speculators.TailFit
	deadlines := 0
	for _, f := range s.TailFits() {
		if f.IsDeadline() {
			deadlines++
		} else {
			want = append(want, f)
		}
	}
	if deadlines == 0 {
		t.Fatal("no deadline record kept in memory")
	}
	s.Close()
	b, err := os.ReadFile(filepath.Join(dir, TailsFileName))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		if _, err := decodeTail([]byte(l)); err != nil {
			t.Errorf("line %d of the tails file: %v", i+1, err)
		}
	}
	s = mustOpen(t, dir)
	defer s.Close()
	if got := s.TailFits(); !slices.Equal(got, want) {
		t.Errorf("after reopen %d fits, want the %d map records alone", len(got), len(want))
	}
}

// A tail fit's write holds only the tails file's lock: it goes through
// while a sample or run-time write holds the store's, and readers
// (TailFits, from Decide) go through while a fit is being written. A
// failed write is logged once per episode with the path, the fit kept in
// memory and no partial line left.
func TestTailFitWritesBlockNoOtherStoreUser(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir)
	defer s.Close()
	s.mu.Lock()
	done := make(chan struct{})
	go func() {
		s.AddTail(fit(40, 0.8))
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("AddTail waited for the samples' lock")
	}
	s.mu.Unlock()
	s.tmu.Lock()
	got := s.TailFits() // would deadlock if reading took the file's lock
	s.tmu.Unlock()
	if len(got) != 1 {
		t.Fatalf("fits %v, want 1", got)
	}

	log, hook := logtest.NewNullLogger()
	s.Log = log
	good := s.tailFile
	ro, err := os.Open(filepath.Join(dir, TailsFileName))
	if err != nil {
		t.Fatal(err)
	}
	s.tailFile = ro
	for i := 0; i < 3; i++ {
		s.AddTail(fit(30, 0.9))
	}
	if errs := len(hook.AllEntries()); errs != 1 || hook.LastEntry().Data["path"] != filepath.Join(dir, TailsFileName) {
		t.Errorf("%d log entries for 3 failed writes (%+v), want 1 naming the tails file", errs, hook.LastEntry())
	}
	s.tailFile = good
	ro.Close()
	s.AddTail(fit(20, 0.7))
	if n := len(s.TailFits()); n != 5 {
		t.Errorf("%d fits in memory, want 5 (failed writes keep theirs)", n)
	}
	b, _ := os.ReadFile(filepath.Join(dir, TailsFileName))
	if string(b) != string(appendTail(appendTail(nil, fit(40, 0.8)), fit(20, 0.7))) {
		t.Errorf("tails file %q, want the two fits written", b)
	}
}

// Sessions keep fits at once: the file holds them in memory's order, so a
// reopened store returns what the running one held.
func TestTailFitsConcurrentAddsReopenAlike(t *testing.T) {
	dir := t.TempDir()
	s := mustOpen(t, dir)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				s.AddTail(fit(100*(g+1)+i, 0.1*float64(g)))
				s.TailFits()
			}
		}(g)
	}
	wg.Wait()
	want := s.TailFits()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = mustOpen(t, dir)
	defer s.Close()
	if got := s.TailFits(); !slices.Equal(got, want) {
		t.Errorf("after reopen %v, want %v", got, want)
	}
}

// A fit's slow-node share (auto's rule v6) is written, checksummed and read
// back; a line written before it (no "slow", the old checksum of maps and
// sigma) still reads, with a share of 0; a share out of [0, 1] or a changed
// share is skipped.
func TestTailFitsSlowShare(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, TailsFileName)
	old := fmt.Sprintf(`{"maps":30,"sigma":0.2,"crc":%d}`+"\n", tailCRC(fit(30, 0.2)))
	withSlow := speculators.TailFit{Maps: 40, Sigma: 0.1, Slow: 0.25}
	changed := strings.Replace(string(appendTail(nil, withSlow)), "0.25", "0.5", 1)
	over := tailLine{Maps: 40, Sigma: 0.1, Slow: 1.5}
	over.CRC = tailCRC(speculators.TailFit{Maps: 40, Sigma: 0.1, Slow: 1.5})
	ob, _ := json.Marshal(over)
	lines := []string{old, string(appendTail(nil, withSlow)), changed, string(ob) + "\n"}
	s, hook := openWithLines(t, dir, path, lines)
	want := []speculators.TailFit{fit(30, 0.2), withSlow}
	if got := s.TailFits(); !slices.Equal(got, want) {
		t.Errorf("fits %v, want %v", got, want)
	}
	if n := len(hook.AllEntries()); n != 2 {
		t.Errorf("%d lines logged, want 2 (the changed share and the share over 1)", n)
	}
	s.AddTail(speculators.TailFit{Maps: 50, Sigma: 0.3, Slow: 0.4})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = mustOpen(t, dir)
	defer s.Close()
	want = append(want, speculators.TailFit{Maps: 50, Sigma: 0.3, Slow: 0.4})
	if got := s.TailFits(); !slices.Equal(got, want) {
		t.Errorf("after reopen %v, want %v", got, want)
	}
}

// openWithLines writes lines to path and opens the store of dir with a
// logger whose entries hook keeps.
func openWithLines(t *testing.T, dir, path string, lines []string) (*Store, *logtest.Hook) {
	t.Helper()
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	log, hook := logtest.NewNullLogger()
	s, err := open(dir, log)
	if err != nil {
		t.Fatal(err)
	}
	return s, hook
}

// Rule v8's fields (copies and their wins in a map record; a reduce record
// of reduces and their slow share) are kept, checked and read back; a line
// whose copy wins changed fails its checksum, and one with more wins than
// copies is refused.
func TestTailFitsRuleV8Records(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, TailsFileName)
	copies := speculators.TailFit{Maps: 40, Sigma: 0.2, Copied: 6, CopyWins: 1}
	reduces := speculators.TailFit{Reduces: 8, ReduceSlow: 0.375}
	changed := strings.Replace(string(appendTail(nil, copies)), `"copy_wins":1`, `"copy_wins":2`, 1)
	over := tailLine{Maps: 40, Sigma: 0.2, Copied: 1, CopyWins: 2}
	over.CRC = tailCRC(over.fitOf())
	ob, _ := json.Marshal(over)
	lines := []string{string(appendTail(nil, copies)), string(appendTail(nil, reduces)), changed, string(ob) + "\n"}
	s, hook := openWithLines(t, dir, path, lines)
	want := []speculators.TailFit{copies, reduces}
	if got := s.TailFits(); !slices.Equal(got, want) {
		t.Errorf("fits %v, want %v", got, want)
	}
	if n := len(hook.AllEntries()); n != 2 {
		t.Errorf("%d lines logged, want 2 (the changed wins and the wins over copies)", n)
	}
	s.AddTail(speculators.TailFit{Reduces: 4, ReduceSlow: 0.25})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = mustOpen(t, dir)
	defer s.Close()
	want = append(want, speculators.TailFit{Reduces: 4, ReduceSlow: 0.25})
	if got := s.TailFits(); !slices.Equal(got, want) {
		t.Errorf("after reopen %v, want %v", got, want)
	}
}

// Rule v9's reduce spread is kept, checked and read back with its reduce
// record; a rule v8 reduce record (no spread) checks as it did, a line
// whose spread changed fails its checksum, and a spread in a map record is
// refused.
func TestTailFitsRuleV9ReduceSpread(t *testing.T) {
	spread := speculators.TailFit{Reduces: 16, ReduceSlow: 0.125, ReduceSigma: 0.42}
	v8 := speculators.TailFit{Reduces: 8, ReduceSlow: 0.375}
	v8line := `{"maps":0,"sigma":0,"reduces":8,"reduce_slow":0.375,"crc":` + fmt.Sprint(tailCRC(v8)) + "}\n"
	changed := strings.Replace(string(appendTail(nil, spread)), `"reduce_sigma":0.42`, `"reduce_sigma":0.24`, 1)
	inMap := checkedLine(tailLine{Maps: 40, Sigma: 0.2, ReduceSigma: 0.3})
	checkTailLines(t, []string{string(appendTail(nil, spread)), v8line, changed, inMap},
		[]speculators.TailFit{spread, v8}, 2, "the changed spread and the spread in a map record")
}

// Rule v14's reduce copies (copied reduces and their wins in a reduce
// record) are kept, checked and read back; a reduce record with more wins
// than copies is refused.
func TestTailFitsRuleV14ReduceCopies(t *testing.T) {
	copies := speculators.TailFit{Reduces: 10, ReduceSlow: 0.1, ReduceSigma: 0.8, Copied: 7, CopyWins: 0}
	over := checkedLine(tailLine{Reduces: 10, ReduceSlow: 0.1, Copied: 1, CopyWins: 2})
	checkTailLines(t, []string{string(appendTail(nil, copies)), over},
		[]speculators.TailFit{copies}, 1, "the reduce record with wins over copies")
}

// Rule v17's upper-half spread is kept, checked and read back with its map
// record; a rule v9 map record (no upper half) checks as it did, a line
// whose upper half changed fails its checksum, and an upper half in a
// reduce record is refused.
func TestTailFitsRuleV17UpperSpread(t *testing.T) {
	upper := speculators.TailFit{Maps: 30, Sigma: 0.8, Slow: 0.05, Upper: 0.4}
	old := speculators.TailFit{Maps: 20, Sigma: 0.3, Copied: 2, CopyWins: 1}
	oldLine := `{"maps":20,"sigma":0.3,"copied":2,"copy_wins":1,"crc":` + fmt.Sprint(tailCRC(old)) + "}\n"
	changed := strings.Replace(string(appendTail(nil, upper)), `"upper":0.4`, `"upper":0.04`, 1)
	inReduce := checkedLine(tailLine{Reduces: 8, ReduceSlow: 0.1, Upper: 0.3})
	checkTailLines(t, []string{string(appendTail(nil, upper)), oldLine, changed, inReduce},
		[]speculators.TailFit{upper, old}, 2, "the changed upper half and the upper half in a reduce record")
}

// Rule v38's lost copies are kept, checked and read back with their map
// record; a rule v17 map record (none) checks as it did, a line whose
// count at pace changed fails its checksum, and more at pace than lost, or
// lost copies in a reduce record, are refused.
func TestTailFitsRuleV38LostCopies(t *testing.T) {
	lost := speculators.TailFit{Maps: 30, Sigma: 0.7, Copied: 9, CopyWins: 3, Upper: 0.5, Lost: 6, LostPaced: 5}
	old := speculators.TailFit{Maps: 30, Sigma: 0.8, Slow: 0.05, Upper: 0.4}
	oldLine := `{"maps":30,"sigma":0.8,"slow":0.05,"upper":0.4,"crc":` + fmt.Sprint(tailCRC(old)) + "}\n"
	changed := strings.Replace(string(appendTail(nil, lost)), `"lost_paced":5`, `"lost_paced":4`, 1)
	over := checkedLine(tailLine{Maps: 30, Sigma: 0.7, Lost: 2, LostPaced: 3})
	inReduce := checkedLine(tailLine{Reduces: 8, ReduceSlow: 0.1, Lost: 2, LostPaced: 1})
	checkTailLines(t, []string{string(appendTail(nil, lost)), oldLine, changed, over, inReduce},
		[]speculators.TailFit{lost, old}, 3, "the changed count at pace, more at pace than lost, and lost copies in a reduce record")
}

// checkedLine is l as a line of the file with a checksum that holds, for
// lines the store must refuse for what they say, not for their checksum.
func checkedLine(l tailLine) string {
	l.CRC = tailCRC(l.fitOf())
	b, _ := json.Marshal(l)
	return string(b) + "\n"
}

// checkTailLines opens a store whose tail file holds lines and checks the
// fits it reads back and how many lines it logged as refused (why names
// them).
func checkTailLines(t *testing.T, lines []string, want []speculators.TailFit, logged int, why string) {
	t.Helper()
	dir := t.TempDir()
	s, hook := openWithLines(t, dir, filepath.Join(dir, TailsFileName), lines)
	defer s.Close()
	if got := s.TailFits(); !slices.Equal(got, want) {
		t.Errorf("fits %v, want %v", got, want)
	}
	if n := len(hook.AllEntries()); n != logged {
		t.Errorf("%d lines logged, want %d (%s)", n, logged, why)
	}
}

// TestTailFitsRuleV39ReduceRatio: rule v39's reduce ratio is kept under the
// checksum (on a reduce record of its own and on a full one), lines
// written before it still check, a changed ratio fails its checksum, and a
// ratio on a map record, a negative or NaN-free but huge one, or a
// ratio-only record with other reduce fields are refused.
func TestTailFitsRuleV39ReduceRatio(t *testing.T) {
	alone := speculators.TailFit{Reduces: 1, ReduceRatio: 9.25}
	full := speculators.TailFit{Reduces: 8, ReduceSlow: 0.125, ReduceSigma: 0.3, ReduceRatio: 2.5}
	old := speculators.TailFit{Reduces: 8, ReduceSlow: 0.125, ReduceSigma: 0.3}
	oldLine := `{"maps":0,"sigma":0,"reduces":8,"reduce_slow":0.125,"reduce_sigma":0.3,"crc":` + fmt.Sprint(tailCRC(old)) + "}\n"
	if tailCRC(full) == tailCRC(old) {
		t.Fatalf("the ratio does not enter the checksum")
	}
	changed := strings.Replace(string(appendTail(nil, alone)), `"reduce_ratio":9.25`, `"reduce_ratio":3.25`, 1)
	if changed == string(appendTail(nil, alone)) {
		t.Fatalf("the ratio's spelling changed: %s", appendTail(nil, alone))
	}
	onMaps := checkedLine(tailLine{Maps: 30, Sigma: 0.7, ReduceRatio: 4})
	negative := checkedLine(tailLine{Reduces: 1, ReduceRatio: -4})
	huge := checkedLine(tailLine{Reduces: 1, ReduceRatio: 2 * speculators.MaxReduceRatio})
	mixed := checkedLine(tailLine{Reduces: 2, ReduceSlow: 0.5, ReduceRatio: 4})
	checkTailLines(t, []string{string(appendTail(nil, alone)), string(appendTail(nil, full)), oldLine, changed, onMaps, negative, huge, mixed},
		[]speculators.TailFit{alone, full, old}, 5, "the changed ratio, a ratio on a map record, a negative and a huge one, and a ratio-only record with a slow share")
	if !alone.RatioOnly() || full.RatioOnly() || old.RatioOnly() {
		t.Errorf("RatioOnly: %v %v %v, want true false false", alone.RatioOnly(), full.RatioOnly(), old.RatioOnly())
	}
}
