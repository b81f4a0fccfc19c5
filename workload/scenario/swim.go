package scenario

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"

	"gopkg.in/yaml.v3"

	"github.com/specbridge/specbridge/yarnclient/history"
)

// SWIMSource draws a job group's jobs from a SWIM trace (see
// history.SWIMModel for how a row's bytes become tasks and base
// durations). Each seed draws its own sample; the sampled jobs keep their
// order and relative arrival times in the trace.
//
//	swim:
//	  path: ../data/swim/FB-2009_samples_24_times_1hr_0.tsv
//	  small: 40        # jobs drawn from each GRASS bin (see Bin) ...
//	  medium: 20
//	  large: 5
//	  jobs: 0          # ... or this many from all eligible rows (0: all)
//	  min_tasks: 5     # rows whose job would have fewer tasks are skipped
//	  max_maps: 800    # a job reads only its first 800 blocks
//	  map_only: true   # drop the reduces
//	  time_scale: 0.1  # submit times x 0.1
//
// Group fields that shape tasks by hand (count, maps, reduces, map_s,
// reduce_s, inter_arrival_s, map_input_mib) are refused with a source;
// task_noise multiplies each task's modelled work, and copy_work, order
// and the bounds apply as for any group.
type SWIMSource struct {
	// Path is the trace, relative to the scenario file's directory.
	Path string `yaml:"path"`
	// Jobs is how many jobs to draw uniformly, without replacement, from
	// the eligible rows; 0 takes them all. Not with Small/Medium/Large.
	Jobs int `yaml:"jobs"`
	// Small, Medium and Large draw that many jobs from each bin instead.
	Small  int `yaml:"small"`
	Medium int `yaml:"medium"`
	Large  int `yaml:"large"`
	// MinTasks skips rows whose job has fewer tasks (after MaxMaps and
	// MapOnly).
	MinTasks int `yaml:"min_tasks"`
	// MaxMaps, when > 0, truncates a job's input to its first MaxMaps
	// blocks (shuffle and output shrink in proportion), so that every map
	// keeps the model's per-block duration.
	MaxMaps int `yaml:"max_maps"`
	// MapOnly drops the reduces: the job is its input phase.
	MapOnly bool `yaml:"map_only"`
	// TimeScale multiplies the trace's submit times (default 1).
	TimeScale float64 `yaml:"time_scale"`
	Line      int     `yaml:"-"`

	// rows are the eligible rows, with their task counts, once loaded.
	rows   []history.SWIMRow
	tasks  []int
	loaded bool
	source string
}

// UnmarshalYAML records the line and refuses unknown keys.
func (w *SWIMSource) UnmarshalYAML(n *yaml.Node) error {
	return decodeLined(n, (*rawSWIMSource)(w), &w.Line)
}

// validateSWIM checks a group whose jobs come from a SWIM trace.
func (g *JobGroup) validateSWIM() error {
	w := g.SWIM
	if g.Count != 0 || g.Maps != 0 || g.Reduces != 0 || g.MapS != nil || g.ReduceS != nil || g.InterArrivalS != nil || g.MapInputMiB != 0 {
		return lineErr(g.Line, "job group %q: a swim group takes its jobs from the trace; remove count, maps, reduces, map_s, reduce_s, inter_arrival_s and map_input_mib", g.Name)
	}
	// The trace gives each task its own time and each job its size, so a
	// per-job size or work scale has nothing to apply to; refused rather than
	// ignored, as a key the replay would silently drop.
	if g.MapsDist != nil || g.JobScale != nil {
		return lineErr(g.Line, "job group %q: a swim group takes its job sizes and task times from the trace; remove maps_dist and job_scale", g.Name)
	}
	if err := g.validateReducePhases(); err != nil {
		return err
	}
	if w.Path == "" {
		return lineErr(w.Line, "job group %q: swim needs a path", g.Name)
	}
	if w.Jobs < 0 || w.Small < 0 || w.Medium < 0 || w.Large < 0 || w.MinTasks < 0 || w.MaxMaps < 0 {
		return lineErr(w.Line, "job group %q: swim counts must be >= 0", g.Name)
	}
	if w.Jobs > 0 && w.Small+w.Medium+w.Large > 0 {
		return lineErr(w.Line, "job group %q: swim takes jobs or small/medium/large, not both", g.Name)
	}
	if w.Jobs > maxJobs || w.Small+w.Medium+w.Large > maxJobs {
		return lineErr(w.Line, "job group %q: more than %d swim jobs", g.Name, maxJobs)
	}
	if w.TimeScale < 0 || math.IsNaN(w.TimeScale) || math.IsInf(w.TimeScale, 0) {
		return lineErr(w.Line, "job group %q: time_scale %g must be a finite number >= 0", g.Name, w.TimeScale)
	}
	for _, d := range []*Dist{g.TaskNoise, g.DeadlineS, g.ErrorBound} {
		if d != nil {
			if err := d.validate(); err != nil {
				return err
			}
		}
	}
	switch g.CopyWork {
	case "", "same", "resample":
	default:
		return lineErr(g.Line, "job group %q: copy_work %q is not same or resample", g.Name, g.CopyWork)
	}
	if g.AtS < 0 {
		return lineErr(g.Line, "job group %q: at_s must be >= 0", g.Name)
	}
	return nil
}

// swimModel is the model every SWIM group uses: the default one.
func swimModel() history.SWIMModel { return history.DefaultSWIMModel() }

// truncate applies MaxMaps and MapOnly to a row.
func (w *SWIMSource) truncate(row history.SWIMRow) history.SWIMRow {
	m := swimModel()
	if maps, _ := m.TaskCounts(row); w.MaxMaps > 0 && maps > int64(w.MaxMaps) {
		keep := int64(w.MaxMaps) * m.BlockBytes
		f := float64(keep) / float64(row.InputBytes)
		row.InputBytes = keep
		row.ShuffleBytes = int64(float64(row.ShuffleBytes) * f)
		row.OutputBytes = int64(float64(row.OutputBytes) * f)
	}
	if w.MapOnly {
		row.ShuffleBytes = 0
	}
	return row
}

// LoadTraces reads the SWIM trace of every group that has one, resolving
// relative paths against dir (Read passes the scenario file's directory),
// and keeps the eligible rows. Errors name the scenario file and the line
// of the swim block.
func (s *Scenario) LoadTraces(dir string) error {
	for gi := range s.Workload.Jobs {
		g := &s.Workload.Jobs[gi]
		w := g.SWIM
		if w == nil {
			continue
		}
		path := w.Path
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("read %s line %d: swim trace: %w", s.Source, w.Line, err)
		}
		rows, err := history.ReadSWIMRows(f, path)
		f.Close()
		if err != nil {
			return fmt.Errorf("read %s line %d: swim trace: %w", s.Source, w.Line, err)
		}
		m := swimModel()
		w.rows, w.tasks = w.rows[:0], w.tasks[:0]
		perBin := map[string]int{}
		for _, row := range rows {
			maps, reduces := m.TaskCounts(w.truncate(row))
			n := int(maps + reduces)
			if n < w.MinTasks || maps > 1<<20 {
				continue
			}
			w.rows = append(w.rows, row)
			w.tasks = append(w.tasks, n)
			perBin[Bin(n)]++
		}
		want := map[string]int{BinSmall: w.Small, BinMedium: w.Medium, BinLarge: w.Large}
		for _, b := range Bins {
			if want[b] > perBin[b] {
				return fmt.Errorf("read %s line %d: swim trace %s has %d eligible %s jobs, fewer than the %d asked for", s.Source, w.Line, w.Path, perBin[b], b, want[b])
			}
		}
		if w.Jobs > len(w.rows) {
			return fmt.Errorf("read %s line %d: swim trace %s has %d eligible jobs, fewer than the %d asked for", s.Source, w.Line, w.Path, len(w.rows), w.Jobs)
		}
		w.loaded, w.source = true, path
	}
	return nil
}

// TracesLoaded reports whether every SWIM group's trace has been read
// (Read does it; a scenario from Parse or ReadFrom needs LoadTraces).
func (s *Scenario) TracesLoaded() bool {
	for _, g := range s.Workload.Jobs {
		if g.SWIM != nil && !g.SWIM.loaded {
			return false
		}
	}
	return true
}

// sample picks the rows of one materialization, in trace order.
func (w *SWIMSource) sample(r *rand.Rand) []int {
	var picked []int
	pick := func(idx []int, k int) {
		if k <= 0 || k >= len(idx) {
			picked = append(picked, idx...)
			return
		}
		for i := 0; i < k; i++ { // partial Fisher-Yates
			j := i + r.IntN(len(idx)-i)
			idx[i], idx[j] = idx[j], idx[i]
		}
		picked = append(picked, idx[:k]...)
	}
	if w.Small+w.Medium+w.Large > 0 {
		for _, b := range Bins {
			var idx []int
			for i, n := range w.tasks {
				if Bin(n) == b {
					idx = append(idx, i)
				}
			}
			k := map[string]int{BinSmall: w.Small, BinMedium: w.Medium, BinLarge: w.Large}[b]
			if k > 0 {
				pick(idx, k)
			}
		}
	} else {
		idx := make([]int, len(w.rows))
		for i := range idx {
			idx[i] = i
		}
		pick(idx, w.Jobs)
	}
	sort.Ints(picked)
	return picked
}

// swimJobs materializes a SWIM group: a sample of rows, each a job whose
// tasks have the model's work times task_noise, arriving at at_s plus its
// trace submit time (relative to the first sampled job) x time_scale.
// Each job goes to add with the state of pcg, r's source, before its task
// draws, and a function that draws its tasks again from such a state
// (Materialized.add).
func (g *JobGroup) swimJobs(pcg *rand.PCG, r *rand.Rand, slots [2]int, add func(Job, rand.PCG, func(*rand.Rand) Job)) {
	w := g.SWIM
	if !w.loaded {
		return
	}
	picked := w.sample(r)
	if len(picked) == 0 {
		return
	}
	first := w.rows[picked[0]].SubmitS
	for _, i := range picked {
		state := *pcg
		j, ok := g.swimJob(i, first, r)
		if !ok {
			continue // LoadTraces kept only rows within the model's limits
		}
		if g.DeadlineS != nil {
			j.DeadlineS = g.DeadlineS.Sample(r)
		}
		if g.ErrorBound != nil {
			j.ErrorBound = math.Min(g.ErrorBound.Sample(r), 0.99)
		}
		g.bound(&j, slots, r)
		add(j, state, func(r *rand.Rand) Job {
			j, _ := g.swimJob(i, first, r)
			return j
		})
	}
}

// swimJob is row i's job with its tasks, their task_noise drawn with r;
// first is the first sampled row's submit.
func (g *JobGroup) swimJob(i int, first int64, r *rand.Rand) (Job, bool) {
	w := g.SWIM
	name := g.Name
	if name == "" {
		name = "swim"
	}
	scale := w.TimeScale
	if scale == 0 {
		scale = 1
	}
	row := w.truncate(w.rows[i])
	hj, err := swimModel().JobOf(row, i, w.source)
	if err != nil {
		return Job{}, false
	}
	phases := reduceSplit(g.ReducePhases)
	j := Job{Name: name + "-" + row.ID, Group: name, Conf: g.Conf, SubmitS: g.AtS + float64(row.SubmitS-first)*scale,
		Resample: g.CopyWork == "resample"}
	for _, t := range hj.Tasks {
		work := float64(t.Finish-t.Start) / 1000
		if g.TaskNoise != nil {
			work *= g.TaskNoise.Sample(r)
		}
		task := Task{WorkS: math.Max(work, 0.001), InputBytes: t.InputBytes}
		if t.Type == history.Map {
			j.Maps = append(j.Maps, task)
		} else {
			task.Phases = phases
			j.Reduces = append(j.Reduces, task)
		}
	}
	return j, true
}
