package replay

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/workload/scenario"
	"github.com/specbridge/specbridge/yarnclient/history"
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
	lazy, err := LoadStreaming(path, "", history.DefaultSWIMModel(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return eager, lazy
}

// TestHistoryStreamedWorkloadIsTheEagerOne: Rumen traces, jhist files
// (JSON and binary) and directories of them, read with LoadStreaming, hold
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
			in, err := LoadStreaming(path, "", history.DefaultSWIMModel(), nil)
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

// TestScenarioStreamedWorkloadIsTheEagerOne: a scenario read with
// LoadStreaming draws its exact jobs' tasks again at their arrival, the
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
