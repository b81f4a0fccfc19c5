package replay

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/workload/scenario"
)

// Streamed inputs (sim.Job.Load) against the same inputs read eagerly:
// the same workloads once every job is loaded, and tasks that exist only
// from a job's arrival.

const rumenSample = "../yarnclient/history/testdata/2jobs-rumen.json"

var (
	// historyTime is a recorded time (epoch ms) in a jhist or Rumen file.
	historyTime = regexp.MustCompile(`("[A-Za-z]*(?:Time|Finished)"\s*:\s*)(1\d{12})\b`)
	// clusterStamp is the cluster part of a Hadoop id (job_<stamp>_0001).
	clusterStamp = regexp.MustCompile(`_(1\d{12})_`)
)

// shiftedCopies returns n copies of a jhist or Rumen history's text, copy
// c with every recorded time c x gap ms later and the ids' cluster stamp
// c higher (distinct job ids).
func shiftedCopies(text string, n int, gap int64) []string {
	out := make([]string, n)
	for c := range n {
		shift := func(re *regexp.Regexp, by int64, s string) string {
			return re.ReplaceAllStringFunc(s, func(m string) string {
				sub := re.FindStringSubmatchIndex(m)
				a, b := sub[len(sub)-2], sub[len(sub)-1] // the number: the last group
				v, _ := strconv.ParseInt(m[a:b], 10, 64)
				return m[:a] + strconv.FormatInt(v+by, 10) + m[b:]
			})
		}
		out[c] = shift(clusterStamp, int64(c), shift(historyTime, int64(c)*gap, text))
	}
	return out
}

// writeFile writes text to dir/name and returns the path.
func writeFile(t testing.TB, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func readText(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// loaded returns w with every streamed job loaded as a run loads it and
// its header fields cleared: the workload an eager build gives.
func loaded(t *testing.T, w *Workload) *Workload {
	t.Helper()
	out := *w
	out.Jobs = make([]sim.Job, len(w.Jobs))
	for i := range w.Jobs {
		h := &w.Jobs[i]
		full := *h
		if h.Load != nil {
			if h.Maps != nil || h.Reduces != nil {
				t.Fatalf("job %d (%s) is streamed but holds its tasks", i, h.ID)
			}
			if err := h.Load(&full); err != nil {
				t.Fatal(err)
			}
			if maps, reduces := h.TaskCounts(); maps != len(full.Maps) || reduces != len(full.Reduces) {
				t.Fatalf("job %d (%s): announced %d+%d tasks, loaded %d+%d", i, h.ID, maps, reduces, len(full.Maps), len(full.Reduces))
			}
			full.Load, full.NumTasks, full.LongestWork = nil, [2]int{}, 0
		}
		out.Jobs[i] = full
	}
	return &out
}

// checkStreamedIsEager checks that the streamed input's workloads, every
// job loaded, equal the eager input's for two seeds, and returns how many
// jobs of the first were streamed.
func checkStreamedIsEager(t *testing.T, eager, lazy *Input, co ClusterOptions) int {
	t.Helper()
	if lazy.Jobs != nil || lazy.JobCount() != eager.JobCount() {
		t.Fatalf("streamed input: %d jobs held, %d counted; want none held and %d counted", len(lazy.Jobs), lazy.JobCount(), eager.JobCount())
	}
	streamed := 0
	for _, seed := range []uint64{1, 7} {
		we, err := WorkloadOf(eager, co)(seed)
		if err != nil {
			t.Fatal(err)
		}
		wl, err := WorkloadOf(lazy, co)(seed)
		if err != nil {
			t.Fatal(err)
		}
		if seed == 1 {
			for i := range wl.Jobs {
				if wl.Jobs[i].Load != nil {
					streamed++
				}
			}
		}
		if !reflect.DeepEqual(we, loaded(t, wl)) {
			t.Fatalf("seed %d: the streamed workload differs from the eager one", seed)
		}
	}
	return streamed
}

// liveTasks runs w with no speculation and returns the most tasks of
// loaded jobs not yet finished at any job's load (counting as live every
// job that finished at or after the last job end before that load, so an
// over-estimate; a job not streamed is live from the start), and the
// workload's tasks. Every streamed job must be
// loaded exactly once.
func liveTasks(t *testing.T, w *Workload) (peak, total int) {
	t.Helper()
	var lastEnd speculators.Time
	type load struct {
		job int
		at  speculators.Time
	}
	var loads []load
	jobs := make([]sim.Job, len(w.Jobs))
	copy(jobs, w.Jobs)
	for i := range jobs {
		maps, reduces := jobs[i].TaskCounts()
		total += maps + reduces
		if inner := jobs[i].Load; inner != nil {
			jobs[i].Load = func(j *sim.Job) error {
				loads = append(loads, load{i, lastEnd})
				return inner(j)
			}
		}
	}
	cfg := w.Config
	cfg.JobDone = func(_, _ int, now speculators.Time) { lastEnd = now }
	res, err := sim.Run(cfg, jobs, noSpeculation)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	loadedTasks := 0 // a job not streamed holds its tasks from the start
	for i := range jobs {
		if jobs[i].Load == nil {
			loadedTasks += len(jobs[i].Maps) + len(jobs[i].Reduces)
		}
	}
	peak = loadedTasks
	for _, l := range loads {
		if seen[l.job] {
			t.Fatalf("job %d loaded twice", l.job)
		}
		seen[l.job] = true
		maps, reduces := jobs[l.job].TaskCounts()
		loadedTasks += maps + reduces
		live := loadedTasks
		for k := range seen {
			if f := res.Jobs[k].Finish; f >= 0 && f < l.at {
				m, r := jobs[k].TaskCounts()
				live -= m + r
			}
		}
		peak = max(peak, live)
	}
	for i := range jobs {
		if jobs[i].Load != nil && !seen[i] {
			t.Fatalf("job %d (%s) never loaded", i, jobs[i].ID)
		}
	}
	return peak, total
}

// rumenDay writes n copies of the bundled Rumen sample, an hour apart
// (2n jobs, one after another), as one trace.
func rumenDay(t testing.TB, dir string, n int) string {
	return writeFile(t, dir, "day-rumen.json", strings.Join(shiftedCopies(readText(t, rumenSample), n, 3600_000), "\n"))
}

func loadBoth(t *testing.T, path string) (eager, lazy *Input) {
	t.Helper()
	eager = load(t, path)
	lazy, err := Load(path, LoadOptions{Stream: true})
	if err != nil {
		t.Fatal(err)
	}
	return eager, lazy
}

// TestHistoryStreamedWorkloadIsTheEagerOne: Rumen traces, jhist files
// (JSON and binary) and directories of them, read with LoadOptions.Stream, hold
// one header a job and give the eager workloads, calibrated or not, on
// the recorded hosts or on --nodes.
func TestHistoryStreamedWorkloadIsTheEagerOne(t *testing.T) {
	dir := t.TempDir()
	uncal := writeFile(t, dir, "uncalibrated.json",
		regexp.MustCompile(`(?m)^  "finishTime" : \d+`).ReplaceAllString(readText(t, rumenSample), `  "finishTime" : -1`))
	jdir := filepath.Join(dir, "jhists")
	if err := os.Mkdir(jdir, 0o755); err != nil {
		t.Fatal(err)
	}
	for c, text := range shiftedCopies(readText(t, filepath.Join(shared, "jhist", "job_2.4.0-FAILED.jhist")), 4, 600_000) {
		writeFile(t, jdir, fmt.Sprintf("job%d.jhist", c), text)
	}
	writeFile(t, jdir, "trace.json", readText(t, rumenSample))
	for _, path := range []string{rumenSample, rumenDay(t, dir, 6), uncal, jdir, filepath.Join(shared, "jhist"),
		"../yarnclient/history/testdata/job_3.5-SUCCEEDED-binary.jhist"} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			eager, lazy := loadBoth(t, path)
			for _, co := range []ClusterOptions{{}, {Nodes: 7, Slots: 3}} {
				if n := checkStreamedIsEager(t, eager, lazy, co); n == 0 {
					t.Fatalf("%+v: no job streamed", co)
				}
			}
		})
	}
}

// TestHistoryTasksLiveFromArrivalToEnd: a streamed history holds a few
// jobs' tasks at a time, not the input's, and reads a job's tasks from its
// file when it arrives: a job spoiled in its file after the input was
// opened fails the run only once the jobs before it have run, naming the
// file and line. Cases: a Rumen day of 24 jobs one after another (a syntax
// error in the last job's first task), and a directory of 8 jhist files
// (the last one cut short).
func TestHistoryTasksLiveFromArrivalToEnd(t *testing.T) {
	for _, c := range []struct {
		name string
		// write writes the input below dir; spoil spoils its last job
		// and returns the file and line the error must name.
		write    func(dir string) string
		spoil    func(dir, input string) (string, int)
		fraction int // at most 1/fraction of the tasks live at once
	}{{
		name:  "rumen",
		write: func(dir string) string { return rumenDay(t, dir, 12) },
		spoil: func(dir, input string) (string, int) {
			text := readText(t, input)
			last := strings.LastIndex(text, `"jobID"`)
			bad := last + strings.Index(text[last:], `"taskID" :`) + len(`"taskID" `)
			writeFile(t, dir, filepath.Base(input), text[:bad]+"#"+text[bad+1:])
			return input, strings.Count(text[:bad], "\n") + 1
		},
		fraction: 6,
	}, {
		name: "jhist-dir",
		write: func(dir string) string {
			copies := shiftedCopies(readText(t, filepath.Join(shared, "jhist", "job_2.4.0-FAILED.jhist")), 8, 600_000)
			for k, text := range copies {
				writeFile(t, dir, fmt.Sprintf("job%d.jhist", k), text)
			}
			return dir
		},
		spoil: func(dir, _ string) (string, int) {
			text := readText(t, filepath.Join(dir, "job7.jhist"))
			cut := strings.Index(text, `"type":"TASK_STARTED"`) + 20
			return writeFile(t, dir, "job7.jhist", text[:cut]), strings.Count(text[:cut], "\n") + 1
		},
		fraction: 4,
	}} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := c.write(dir)
			in, err := Load(path, LoadOptions{Stream: true})
			if err != nil {
				t.Fatal(err)
			}
			w, err := WorkloadOf(in, ClusterOptions{})(1)
			if err != nil {
				t.Fatal(err)
			}
			if peak, total := liveTasks(t, w); peak*c.fraction > total {
				t.Errorf("at most %d of %d tasks live at once; want at most 1/%d", peak, total, c.fraction)
			}
			file, line := c.spoil(dir, path)
			done := 0
			cfg := w.Config
			cfg.JobDone = func(n, _ int, _ speculators.Time) { done = n }
			_, err = sim.Run(cfg, w.Jobs, noSpeculation)
			want := fmt.Sprintf("read %s line %d:", file, line)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("run over a spoiled job: error %v; want one naming %q", err, want)
			}
			if done < len(w.Jobs)-2 {
				t.Errorf("the spoiled job failed the run after %d of %d jobs; want it read only when it arrives", done, len(w.Jobs))
			}
		})
	}
}

// TestDecisionsStreamedIsEager: decisions mode over streamed inputs (each
// job read, or derived, again one at a time) decides what it decides over
// the same inputs read whole, and lists the same recorded speculations.
func TestDecisionsStreamedIsEager(t *testing.T) {
	dir := t.TempDir()
	lines := strings.SplitAfter(readText(t, filepath.Join(shared, "swim", "FB-2009_samples_24_times_1hr_0.tsv")), "\n")
	swim := writeFile(t, dir, "FB-2009_first100.tsv", strings.Join(lines[:100], ""))
	reg := registry(t)
	opts := Options{Speculators: []string{"hadoop", "late", "mantri"}, Seed: 1, Registry: reg}
	compared := 0
	for _, path := range []string{rumenDay(t, dir, 3), "../yarnclient/history/testdata", swim} {
		eager, lazy := loadBoth(t, path)
		de, ae, err := Decide(eager, opts)
		if err != nil {
			t.Fatal(err)
		}
		dl, al, err := Decide(lazy, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(de, dl) || !reflect.DeepEqual(ae, al) {
			t.Errorf("%s: decisions over the streamed input differ from the eager input's", path)
		}
		compared += len(de[0].Decisions) + len(ae)
	}
	if compared == 0 {
		t.Error("no decision and no recorded speculation in any input: nothing compared")
	}
}

// TestScenarioStreamedWorkloadIsTheEagerOne: a scenario read with
// Load with Stream draws its exact jobs' tasks again at their arrival, the
// same tasks as the eager draw (deadline and error-bound jobs, and
// scenarios with dry-run deadlines, keep theirs); a run holds a few jobs'
// tasks at a time.
func TestScenarioStreamedWorkloadIsTheEagerOne(t *testing.T) {
	for _, c := range []struct {
		name     string
		streamed bool
	}{{"grass-exact", true}, {"late-ec2-stragglers", true}, {"farms-1gb", true}, {"grass-deadline", false}, {"grass-error", false}} {
		t.Run(c.name, func(t *testing.T) {
			eager, lazy := loadBoth(t, "../scenarios/"+c.name+".yaml")
			n := 0
			for _, seed := range []uint64{1, 7} {
				we, err := WorkloadOf(eager, ClusterOptions{})(seed)
				if err != nil {
					t.Fatal(err)
				}
				wl, err := WorkloadOf(lazy, ClusterOptions{})(seed)
				if err != nil {
					t.Fatal(err)
				}
				n = 0
				for i := range wl.Jobs {
					if wl.Jobs[i].Load != nil {
						n++
						if wl.Jobs[i].Deadline > 0 || wl.Jobs[i].ErrorBound > 0 {
							t.Fatalf("job %s has a bound and is streamed", wl.Jobs[i].ID)
						}
					}
				}
				if !reflect.DeepEqual(we, loaded(t, wl)) {
					t.Fatalf("seed %d: the streamed workload differs from the eager one", seed)
				}
			}
			if (n > 0) != c.streamed {
				t.Fatalf("%d jobs streamed; want streamed %v", n, c.streamed)
			}
		})
	}
	path := spreadScenario(t, t.TempDir())
	s, err := scenario.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := fromScenario(s, 1, ClusterOptions{}, true)
	if err != nil {
		t.Fatal(err)
	}
	if peak, total := liveTasks(t, w); peak*4 > total {
		t.Errorf("40 jobs 10 minutes apart: at most %d of %d tasks live at once; want at most a quarter", peak, total)
	}
}

// spreadScenario writes a scenario of 40 jobs about 10 minutes apart on
// 10 nodes: jobs that rarely overlap.
func spreadScenario(t testing.TB, dir string) string {
	return writeFile(t, dir, "spread.yaml", `name: spread
cluster:
  nodes:
    - {name: n, count: 10, slots: 2}
workload:
  jobs:
    - name: job
      count: 40
      inter_arrival_s: {dist: exponential, mean: 600}
      maps_dist: {dist: uniform, min: 5, max: 40}
      reduces: 2
      map_s: {dist: pareto, scale: 10, shape: 2}
      reduce_s: 30
`)
}

// BenchmarkRumenMemory replays a large Rumen trace (writeRumenTrace: 100
// jobs of 1,000 maps and 50 reduces, 10 minutes apart, on 100 hosts; 105,000
// tasks, a 52 MB file), read eagerly (Load) and streamed (LoadOptions.Stream),
// with no speculation, and reports the live heap once the input is read
// and its workload built (held-MB, after a collection), and the largest
// heap, garbage included, from the start of the read to the end of the run
// (peak-MB, sampled every 2 ms).
func BenchmarkRumenMemory(b *testing.B) {
	path := writeRumenTrace(b, b.TempDir(), 100, 1000, 50)
	loaders := map[string]func() (*Input, error){
		"eager":    func() (*Input, error) { return Load(path, LoadOptions{}) },
		"streamed": func() (*Input, error) { return Load(path, LoadOptions{Stream: true}) },
	}
	for _, name := range []string{"eager", "streamed"} {
		b.Run(name, func(b *testing.B) {
			var held, peak float64
			heap := func(collect bool) float64 {
				var ms runtime.MemStats
				if collect {
					runtime.GC()
				}
				runtime.ReadMemStats(&ms)
				return float64(ms.HeapAlloc) / (1 << 20)
			}
			for range b.N {
				base := heap(true)
				stop, sampled := make(chan struct{}), make(chan float64)
				go func() { // the heap as the run has it, garbage included
					top := 0.0
					tick := time.NewTicker(2 * time.Millisecond)
					defer tick.Stop()
					for {
						select {
						case <-stop:
							sampled <- top
							return
						case <-tick.C:
							top = max(top, heap(false))
						}
					}
				}()
				in, err := loaders[name]()
				if err != nil {
					b.Fatal(err)
				}
				w, err := WorkloadOf(in, ClusterOptions{})(1)
				if err != nil {
					b.Fatal(err)
				}
				held = heap(true) - base
				if _, err := sim.Run(w.Config, w.Jobs, noSpeculation); err != nil {
					b.Fatal(err)
				}
				runtime.KeepAlive(in)
				close(stop)
				peak = <-sampled - base
			}
			b.ReportMetric(held, "held-MB")
			b.ReportMetric(peak, "peak-MB")
		})
	}
}

// writeRumenTrace writes a Rumen trace of n jobs, 10 minutes apart, each
// of maps maps (20 to 60 s, in waves over 100 hosts of 8 containers) and
// reduces reduces (60 to 120 s, after the maps), every attempt successful,
// with Rumen's fields as TraceBuilder writes them; times drawn from a
// fixed seed.
func writeRumenTrace(b testing.TB, dir string, n, maps, reduces int) string {
	path := filepath.Join(dir, "big-rumen.json")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	r := rand.New(rand.NewPCG(1, 2))
	const t0, hosts, slots = int64(1371222200000), 100, 8
	task := func(job, typ string, i int, start, end int64, host int, extra string) string {
		id := fmt.Sprintf("%s_%s_%06d", job, typ, i)
		return fmt.Sprintf(`{"startTime":%d,"taskID":"task_%s","taskType":"%s","finishTime":%d,"inputBytes":134217728,`+
			`"attempts":[{"location":{"layers":["default-rack","host%03d"]},"hostName":"/default-rack/host%03d","startTime":%d,`+
			`"result":"SUCCESS","finishTime":%d,"attemptID":"attempt_%s_0","hdfsBytesRead":134217728,"mapInputRecords":1000%s}],`+
			`"preferredLocations":[{"layers":["default-rack","host%03d"]}],"taskStatus":"SUCCESS"}`,
			start, id, map[string]string{"m": "MAP", "r": "REDUCE"}[typ], end, host, host, start, end, id, extra, host)
	}
	for j := range n {
		job := fmt.Sprintf("1369942127770_%04d", j+1)
		submit := t0 + int64(j)*600_000
		launch := submit + 2000
		free := make([]int64, hosts*slots) // when each container is next free
		for k := range free {
			free[k] = launch + 1000
		}
		next := func(d int64) (int64, int64, int) {
			k := 0
			for c := range free {
				if free[c] < free[k] {
					k = c
				}
			}
			start := free[k]
			free[k] = start + d
			return start, start + d, k / slots
		}
		var ms, rs []string
		lastMap := launch
		for i := range maps {
			start, end, host := next(20_000 + r.Int64N(40_000))
			lastMap = max(lastMap, end)
			ms = append(ms, task(job, "m", i, start, end, host, ""))
		}
		for k := range free {
			free[k] = max(free[k], lastMap)
		}
		finish := lastMap
		for i := range reduces {
			start, end, host := next(60_000 + r.Int64N(60_000))
			finish = max(finish, end)
			ms := start + (end-start)/3
			rs = append(rs, task(job, "r", i, start, end, host, fmt.Sprintf(`,"shuffleFinished":%d,"sortFinished":%d`, ms, ms+(end-start)/3)))
		}
		fmt.Fprintf(w, `{"priority":"NORMAL","jobID":"job_%s","user":"bench","jobName":"big","submitTime":%d,"launchTime":%d,`+
			`"finishTime":%d,"queue":"default","outcome":"SUCCESS","mapTasks":[%s],"reduceTasks":[%s],"otherTasks":[]}`+"\n",
			job, submit, launch, finish+1500, strings.Join(ms, ",\n"), strings.Join(rs, ",\n"))
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}
