package replay

import (
	"math"
	"math/rand/v2"

	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/yarnclient/history"
)

// swimSource is a SWIM trace kept as its rows (one small row a job): each
// job's tasks are derived from its row while the workload is built and let
// go at once, where reading the trace eagerly (history.ReadSWIMFrom) holds every
// task of the day as a recorded task with its attempt, ids and counters —
// most of a day-long replay's memory (docs/scale.md).
type swimSource struct {
	rows  []history.SWIMRow
	model history.SWIMModel
	name  string
}

// readSWIMSource reads the rows of src's file name; the model's checks
// come with the first job derived.
func readSWIMSource(src Source, name string, m history.SWIMModel) (*swimSource, error) {
	f, err := src.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := history.ReadSWIMRows(f, name)
	if err != nil {
		return nil, err
	}
	return &swimSource{rows: rows, model: m, name: name}, nil
}

// workload is FromHistory over the trace's jobs, streamed: the same
// workload as FromHistory(history.ReadSWIMFrom(...)) gives, but each job is a
// header (sim.Job.Load) whose tasks the simulator derives from the job's row
// when the job arrives and lets go when it ends. The build derives every
// job once, in row order, for its task counts and longest task and to keep
// the straggler model's random state at the job's start, so that a run's
// Load draws the job's stragglers as the eager build did; the slow nodes
// are drawn after the last job, as there. A SWIM job's submit is its
// row's, and its tasks name no host, so the origin comes from the rows and
// no cluster is inferred.
func (s *swimSource) workload(co ClusterOptions, seed uint64) (*Workload, error) {
	var origin int64 = math.MaxInt64
	for _, r := range s.rows {
		if ms := history.SWIMEpochMs + r.SubmitS*1000; ms < origin {
			origin = ms
		}
	}
	if origin == math.MaxInt64 {
		origin = 0
	}
	model, pcg, rs, err := stragglerDraws(co, seed)
	if err != nil {
		return nil, err
	}
	n := len(s.rows) // a job a row: no regrowing copies of a day's 24,442 jobs
	w := &Workload{Jobs: make([]sim.Job, 0, n), Groups: make([]string, 0, n),
		Overhead: make([]speculators.Time, 0, n), Recorded: make([]RecordedJob, 0, n)}
	var scratch sim.Job
	for i := range s.rows {
		at := *pcg
		ok, err := s.tasks(i, origin, model, rs, &scratch)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue // a job with no timed task has nothing to replay
		}
		h := streamHeader(&scratch)
		h.CopyWork = sim.Resample
		row := i
		h.Load = func(j *sim.Job) error {
			p := at
			j.Maps, j.Reduces = nil, nil
			if n := j.NumTasks[speculators.Map]; n > 0 {
				j.Maps = make([]sim.Task, 0, n)
			}
			if n := j.NumTasks[speculators.Reduce]; n > 0 {
				j.Reduces = make([]sim.Task, 0, n)
			}
			_, err := s.tasks(row, origin, model, rand.New(&p), j)
			return err
		}
		w.addRecorded(h, 0, RecordedJob{ID: h.ID, Status: history.Succeeded}, &swimSettings)
	}
	if len(w.Jobs) == 0 {
		return nil, errNoTimedJob
	}
	w.cluster(nil, co, seed, model, rs, true)
	return w, nil
}

// tasks sets j's id, submit and tasks (appended to j.Maps[:0] and
// j.Reduces[:0]) as fromJobs derives them from row i's job, stragglers
// drawn with rs; false when the job has no task. A row at the trace's
// time 0 is a job like any other (history.SWIMEpochMs).
func (s *swimSource) tasks(i int, origin int64, model StragglerModel, rs *rand.Rand, j *sim.Job) (bool, error) {
	row := s.rows[i]
	submit := history.SWIMEpochMs + row.SubmitS*1000
	j.ID, j.Submit = row.ID, 0
	if j.Maps != nil {
		j.Maps = j.Maps[:0]
	}
	if j.Reduces != nil {
		j.Reduces = j.Reduces[:0]
	}
	err := s.model.EachTask(row, s.name, func(typ history.TaskType, in, work int64) {
		t := sim.Task{InputBytes: in, Work: max(work, 1)}
		if typ == history.Map {
			j.Maps = append(j.Maps, t)
		} else {
			j.Reduces = append(j.Reduces, t)
		}
	})
	if err != nil {
		return false, err // it names the file (and line)
	}
	if len(j.Maps)+len(j.Reduces) == 0 {
		return false, nil
	}
	j.Submit = submit - origin
	if !model.Off {
		model.stretch(rs, j)
	}
	return true, nil
}

// each calls f with every row's job as history.ReadSWIMFrom derives it, one
// at a time (decisions mode).
func (s *swimSource) each(f func(*history.Job) error) error {
	for i, row := range s.rows {
		j, err := s.model.JobOf(row, i, s.name)
		if err != nil {
			return err
		}
		if err := f(j); err != nil {
			return err
		}
	}
	return nil
}
