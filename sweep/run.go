package sweep

import (
	"fmt"
	"strings"

	"github.com/specbridge/specbridge/internal/inorder"
	"github.com/specbridge/specbridge/replay"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/yarnclient/hdfs"
	"github.com/specbridge/specbridge/yarnclient/history"
)

// Row is one cell's result: replay's figures for its one simulation. The
// JSON names are a public interface (docs/sweep.md): fields may be added,
// never renamed.
type Row struct {
	Cell   int    `json:"cell"`
	Input  string `json:"input"`
	Policy string `json:"policy"`
	Params string `json:"params"`
	Seed   uint64 `json:"seed"`
	replay.Figures
	FailedJobs float64 `json:"failed_jobs"`
}

// RegistryFunc returns the policy registry for a cell's parameters (replay's
// --param values: a LASER model path is one), as `specbridge replay` builds
// it.
type RegistryFunc func(params []string) (*speculators.Registry, error)

// Runner is what running a cell needs beside the cell.
type Runner struct {
	// Registry builds the cell's policies.
	Registry RegistryFunc
	// HDFS reaches hdfs:// inputs; nil: the environment's configuration
	// (hdfs.EnvConf).
	HDFS *hdfs.Config
}

// RunCell runs one cell: its input read as `specbridge replay` reads it,
// one simulation of its policy and seed.
func RunCell(c Cell, r Runner) (Row, error) {
	where := fmt.Sprintf("cell %d (%s, %s %s, seed %d)", c.Index, c.Input, c.Policy, c.ParamsText(), c.Seed)
	path := c.Input
	if c.File != "" {
		path = c.File
	}
	in, err := replay.Load(path, replay.LoadOptions{Format: history.Format(c.Format), Stream: true, HDFS: r.HDFS})
	if err != nil {
		return Row{}, fmt.Errorf("%s: %w", where, err)
	}
	if in.Scenario != nil && (c.Nodes > 0 || c.Slots > 0) {
		return Row{}, fmt.Errorf("%s: --nodes/--slots: %s is a scenario, which describes its own cluster", where, c.Input)
	}
	reg, err := r.Registry(c.ParamFlags())
	if err != nil {
		return Row{}, fmt.Errorf("%s: %w", where, err)
	}
	model := c.Stragglers.Model()
	opts := replay.Options{
		Speculators: []string{c.Policy},
		Params:      map[string]map[string]string{c.Policy: c.Params},
		Seed:        c.Seed,
		Runs:        1,
		Registry:    reg,
		Cluster:     replay.ClusterOptions{Nodes: c.Nodes, Slots: c.Slots, Scheduler: c.Scheduler, Stragglers: &model},
		Parallel:    1,
	}
	res, err := replay.Simulate(replay.LimitJobs(replay.WorkloadOf(in, opts.Cluster), c.MaxJobs), opts)
	if err != nil {
		return Row{}, fmt.Errorf("%s: %w", where, err)
	}
	if len(res) != 1 {
		return Row{}, fmt.Errorf("%s: replay returned %d results for one policy", where, len(res))
	}
	x := res[0]
	return Row{Cell: c.Index, Input: c.Input, Policy: c.Policy, Params: c.ParamsText(), Seed: c.Seed,
		Figures: x.Figures, FailedJobs: x.FailedJobs}, nil
}

// Run runs cells on up to parallel goroutines (0 or less: the number of
// CPUs) and hands each finished row to emit in cell order, on the calling
// goroutine, as soon as it and every earlier cell are done: the rows, and
// the order emit sees them in, do not depend on parallel. A cell that fails
// does not stop the sweep: the other cells run and their rows are emitted,
// and Run returns CellErrors naming every failed cell. An error of emit's
// stops the sweep (cells not yet started are not started) and is returned
// once the running cells end.
func Run(cells []Cell, parallel int, r Runner, emit func(Row) error) error {
	type result struct {
		row Row
		err error
	}
	failed := CellErrors{Cells: len(cells)}
	err := inorder.Run(len(cells), parallel,
		func(k int) (result, error) {
			row, err := RunCell(cells[k], r)
			return result{row, err}, nil
		},
		func(_ int, r result) error {
			if r.err != nil {
				failed.Errs = append(failed.Errs, r.err)
				return nil
			}
			return emit(r.row)
		})
	if err != nil {
		return err
	}
	if len(failed.Errs) > 0 {
		return failed
	}
	return nil
}

// CellErrors are the failures of a sweep's cells, in cell order, each
// naming its cell (RunCell's errors do).
type CellErrors struct {
	Cells int // in the sweep
	Errs  []error
}

func (e CellErrors) Error() string {
	var msgs []string
	for i, err := range e.Errs {
		if i == 10 { // one line stays readable; the rest are in the rows' absence
			msgs = append(msgs, fmt.Sprintf("and %d more", len(e.Errs)-10))
			break
		}
		msgs = append(msgs, err.Error())
	}
	return fmt.Sprintf("%d of %d cells failed (the other %d rows were written): %s", len(e.Errs), e.Cells, e.Cells-len(e.Errs), strings.Join(msgs, "; "))
}
