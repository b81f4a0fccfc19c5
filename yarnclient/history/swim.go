package history

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

const mib = 1 << 20

// SWIMModel turns a SWIM workload row, which records only a job's bytes,
// into tasks with durations. SWIM (Chen et al., "The Case for Evaluating
// MapReduce Performance Using Workload Suites", MASCOTS 2011) samples the
// Facebook 2009 trace into rows of: job id, submit time (s, relative to
// the workload start), gap to the previous submit (s), map input bytes,
// shuffle bytes, reduce output bytes.
//
// The model, with DefaultSWIMModel's values:
//
//   - Maps: one map per BlockBytes (128 MiB, the HDFS default block) of
//     input, at least one; every map reads a full block except the last,
//     which reads the remainder. MaxMaps (0: no cap) caps the count, the
//     input then being split evenly. The largest FB-2009 job (7.5 TB) gets
//     56,262 maps. With no cap, a row needing more than 1,048,576 maps is
//     an error (a guard against corrupt rows).
//   - Reduces: none when the shuffle is 0 (a map-only job, whose maps then
//     write the reduce output bytes); else ceil(shuffle / ReduceBytes)
//     (1 GiB per reduce), capped at MaxReduces (999), shuffle and output
//     split evenly.
//   - Durations: fixed overhead + MiB handled x rate. A map handles its
//     input: MapFixedMs 10 s + MapMsPerMiB 300 ms/MiB, so a full block
//     takes 48.4 s and a tiny map 10 s. A reduce handles its shuffle input
//     plus its output: ReduceFixedMs 15 s + ReduceMsPerMiB 300 ms/MiB.
//     The fixed parts stand for container launch, JVM start and task
//     commit, which on YARN take several seconds; 300 ms/MiB (about
//     3.3 MiB/s) stands for user code that deserialises and processes
//     records rather than for raw disk speed. They put maps in the 10-60 s
//     range reported for production MapReduce clusters of that era (most
//     FB-2009 jobs are small, so most maps are short). These are modelling
//     assumptions, not measurements; change them to fit the cluster being
//     modelled.
//
// Every task gets one synthetic SUCCEEDED attempt that starts at the job's
// submit time and lasts the modelled duration: the simulator uses only
// durations and bytes. Jobs are SUCCEEDED; Launch and Finish are 0
// (unknown).
type SWIMModel struct {
	// BlockBytes is the input per map (one map per block).
	BlockBytes int64
	// MaxMaps caps the maps of a job; 0 means no cap.
	MaxMaps int
	// ReduceBytes is the shuffle input per reduce.
	ReduceBytes int64
	// MaxReduces caps the reduces of a job; it must be at least 1.
	MaxReduces int
	// MapFixedMs and ReduceFixedMs are the per-task overheads in ms.
	MapFixedMs, ReduceFixedMs int64
	// MapMsPerMiB and ReduceMsPerMiB are the ms of work per MiB handled.
	MapMsPerMiB, ReduceMsPerMiB float64
}

// DefaultSWIMModel returns the model documented on SWIMModel.
func DefaultSWIMModel() SWIMModel {
	return SWIMModel{
		BlockBytes:     128 * mib,
		MaxMaps:        0,
		ReduceBytes:    1 << 30,
		MaxReduces:     999,
		MapFixedMs:     10_000,
		MapMsPerMiB:    300,
		ReduceFixedMs:  15_000,
		ReduceMsPerMiB: 300,
	}
}

// validate reports a model that cannot derive tasks.
func (m SWIMModel) validate() error {
	switch {
	case m.BlockBytes <= 0:
		return fmt.Errorf("BlockBytes %d is not positive", m.BlockBytes)
	case m.ReduceBytes <= 0:
		return fmt.Errorf("ReduceBytes %d is not positive", m.ReduceBytes)
	case m.MaxMaps < 0:
		return fmt.Errorf("MaxMaps %d is negative", m.MaxMaps)
	case m.MaxReduces < 1 || m.MaxReduces > swimMaxTasks || m.MaxMaps > swimMaxTasks:
		return fmt.Errorf("MaxReduces %d must be in 1..%d and MaxMaps %d at most %d", m.MaxReduces, swimMaxTasks, m.MaxMaps, swimMaxTasks)
	case m.MapFixedMs < 0 || m.ReduceFixedMs < 0:
		return errors.New("a fixed task overhead is negative")
	case !(m.MapMsPerMiB >= 0) || !(m.ReduceMsPerMiB >= 0) ||
		math.IsInf(m.MapMsPerMiB, 0) || math.IsInf(m.ReduceMsPerMiB, 0):
		return errors.New("a per-MiB rate is negative or not finite")
	}
	return nil
}

// ReadSWIMFrom reads a SWIM workload TSV stream and derives each job's
// tasks with model m (see SWIMModel); name is used in errors and as each
// Job's Source. Blank lines are skipped; a row without exactly six
// tab-separated columns, or whose numeric columns are not non-negative
// integers, is an error naming its line.
func ReadSWIMFrom(r io.Reader, name string, m SWIMModel) ([]*Job, error) {
	if err := m.validate(); err != nil {
		return nil, fmt.Errorf("read %s: SWIM model: %w", name, err)
	}
	rows, err := ReadSWIMRows(r, name)
	if err != nil {
		return nil, err
	}
	jobs := make([]*Job, 0, len(rows))
	for _, row := range rows {
		j, err := m.JobOf(row, len(jobs), name)
		if err != nil {
			return nil, err
		}
		jobs = append(jobs, j)
	}
	return jobs, nil
}

// swimRow is one SWIM row.
type swimRow struct {
	id                        string
	submitS, gapS             int64
	input, shuffle, outputRed int64
}

func parseSWIMRow(text string) (swimRow, error) {
	cols := strings.Split(text, "\t")
	if len(cols) != 6 {
		return swimRow{}, fmt.Errorf("want 6 tab-separated columns (job id, submit s, gap s, input, shuffle, output bytes), found %d", len(cols))
	}
	row := swimRow{id: strings.TrimSpace(cols[0])}
	if row.id == "" {
		return swimRow{}, errors.New("empty job id")
	}
	names := [5]string{"submit time", "inter-arrival gap", "map input bytes", "shuffle bytes", "reduce output bytes"}
	dst := [5]*int64{&row.submitS, &row.gapS, &row.input, &row.shuffle, &row.outputRed}
	for i, col := range cols[1:] {
		v, err := strconv.ParseInt(strings.TrimSpace(col), 10, 64)
		if err != nil || v < 0 {
			return swimRow{}, fmt.Errorf("column %d (%s): %q is not a non-negative integer", i+2, names[i], col)
		}
		*dst[i] = v
	}
	if row.submitS > math.MaxInt64/1000 {
		return swimRow{}, fmt.Errorf("column 2 (submit time): %d s is out of range", row.submitS)
	}
	return row, nil
}

// swimMaxTasks bounds the maps of one job when MaxMaps is 0, so that a
// corrupt row cannot exhaust memory.
const swimMaxTasks = 1 << 20

// SWIMEpochMs is where a SWIM workload's time 0 falls in a Job's epoch
// ms: the format's times are seconds from the workload's start, and a row
// at 0 is common, while a Job's 0 means unknown (a job with no known
// time has nothing to replay). Relative times are unchanged.
const SWIMEpochMs = 1

// taskCounts returns the maps and reduces the model gives a row.
func (m SWIMModel) taskCounts(row swimRow) (maps, reduces int64) {
	maps = max(ceilDiv(row.input, m.BlockBytes), 1)
	if m.MaxMaps > 0 {
		maps = min(maps, int64(m.MaxMaps))
	}
	if row.shuffle > 0 {
		reduces = min(max(ceilDiv(row.shuffle, m.ReduceBytes), 1), int64(m.MaxReduces))
	}
	return maps, reduces
}

// job derives the Job of a row; seq is the row's position among jobs.
func (m SWIMModel) job(row swimRow, seq int, source string) *Job {
	job := &Job{
		ID: row.id, Name: row.id, Status: Succeeded,
		Submit: SWIMEpochMs + row.submitS*1000, Source: source,
	}
	maps, reduces := m.taskCounts(row)
	job.Tasks = make([]Task, 0, maps+reduces)
	prefix := fmt.Sprintf("swim_%04d", seq)
	m.eachTask(row, func(typ TaskType, i, in, out, dur int64) {
		counters := map[string]int64{"HDFS_BYTES_READ": in, "MAP_OUTPUT_MATERIALIZED_BYTES": out}
		if typ == Reduce {
			counters = map[string]int64{"REDUCE_SHUFFLE_BYTES": in, "HDFS_BYTES_WRITTEN": out}
		}
		job.Tasks = append(job.Tasks, swimTask(prefix, typ, int(i), job.Submit, dur, in, out, counters))
	})
	return job
}

// eachTask calls f with each task the model derives from row, maps then
// reduces in index order: its input and output bytes and its work in ms.
func (m SWIMModel) eachTask(row swimRow, f func(typ TaskType, i, in, out, dur int64)) {
	maps, reduces := m.taskCounts(row)
	byBlock := maps == max(ceilDiv(row.input, m.BlockBytes), 1)
	mapOut := row.shuffle
	if reduces == 0 {
		mapOut = row.outputRed
	}
	for i := range maps {
		in := evenShare(row.input, maps, i)
		if byBlock {
			in = min(m.BlockBytes, row.input-i*m.BlockBytes)
		}
		f(Map, i, in, evenShare(mapOut, maps, i), m.MapFixedMs+workMs(in, m.MapMsPerMiB))
	}
	for i := range reduces {
		in := evenShare(row.shuffle, reduces, i)
		out := evenShare(row.outputRed, reduces, i)
		f(Reduce, i, in, out, m.ReduceFixedMs+workMs(in+out, m.ReduceMsPerMiB))
	}
}

func swimTask(prefix string, typ TaskType, index int, start, dur, in, out int64, counters map[string]int64) Task {
	letter := "m"
	if typ == Reduce {
		letter = "r"
	}
	id := fmt.Sprintf("task_%s_%s_%06d", prefix, letter, index)
	attempt := Attempt{
		ID: "attempt" + strings.TrimPrefix(id, "task") + "_0", N: 0,
		Start: start, Finish: start + dur, Status: Succeeded, Counters: counters,
	}
	return Task{
		ID: id, Type: typ, Index: index, Start: start, Finish: start + dur, Status: Succeeded,
		InputBytes: in, OutputBytes: out, Attempts: []Attempt{attempt},
	}
}

// ceilDiv is ceil(a/b) for a >= 0, b > 0.
func ceilDiv(a, b int64) int64 {
	return a/b + min(a%b, 1)
}

// evenShare is part i of total split into n near-equal parts.
func evenShare(total, n, i int64) int64 {
	share := total / n
	if i < total%n {
		share++
	}
	return share
}

// workMs is the modelled work for bytes at rate ms per MiB, rounded.
func workMs(bytes int64, msPerMiB float64) int64 {
	ms := math.Round(float64(bytes) / mib * msPerMiB)
	if ms >= math.MaxInt64/4 {
		return math.MaxInt64 / 4
	}
	return int64(ms)
}
