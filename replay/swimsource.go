package replay

import (
	"fmt"
	"math"
	"os"

	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/yarnclient/history"
)

// swimSource is a SWIM trace kept as its rows (one small row a job): each
// job's tasks are derived from its row while the workload is built and let
// go at once, where reading the trace eagerly (history.ReadSWIM) holds every
// task of the day as a recorded task with its attempt, ids and counters —
// most of a day-long replay's memory (docs/scale.md).
type swimSource struct {
	rows  []history.SWIMRow
	model history.SWIMModel
	name  string
}

// readSWIMSource reads path's rows; the model's checks come with the first
// job derived.
func readSWIMSource(path string, m history.SWIMModel) (*swimSource, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	rows, err := history.ReadSWIMRows(f, path)
	if err != nil {
		return nil, err
	}
	return &swimSource{rows: rows, model: m, name: path}, nil
}

// workload is FromHistory over the trace's jobs, derived one at a time: the
// same workload as FromHistory(history.ReadSWIM(...)) gives, without holding
// the derived jobs. A SWIM job's submit is its row's, and its tasks name no
// host, so the origin comes from the rows and no cluster is inferred.
func (s *swimSource) workload(co ClusterOptions, seed uint64) (*Workload, error) {
	var origin int64 = math.MaxInt64
	for _, r := range s.rows {
		if ms := r.SubmitS * 1000; ms > 0 && ms < origin {
			origin = ms
		}
	}
	if origin == math.MaxInt64 {
		origin = 0
	}
	job := func(i int) (*history.Job, error) {
		j, err := s.model.JobOf(s.rows[i], i, s.name)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", s.name, err)
		}
		return j, nil
	}
	return fromJobs(len(s.rows), job, origin, func() []sim.Node { return nil }, co, seed)
}
