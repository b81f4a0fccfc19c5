package sweep

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/specbridge/specbridge/replay"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/yarnclient/history"
)

// Row is one cell's result: replay's figures for its one simulation. The
// JSON names are a public interface (docs/sweep.md): fields may be added,
// never renamed.
type Row struct {
	Cell                int     `json:"cell"`
	Input               string  `json:"input"`
	Policy              string  `json:"policy"`
	Params              string  `json:"params"`
	Seed                uint64  `json:"seed"`
	Jobs                int     `json:"jobs"`
	Tasks               int     `json:"tasks"`
	MeanJobS            float64 `json:"mean_job_s"`
	P50JobS             float64 `json:"p50_job_s"`
	P95JobS             float64 `json:"p95_job_s"`
	P99JobS             float64 `json:"p99_job_s"`
	MakespanS           float64 `json:"makespan_s"`
	ContainerS          float64 `json:"container_s"`
	SpeculativeAttempts float64 `json:"speculative_attempts"`
	SpeculativeWins     float64 `json:"speculative_wins"`
	KilledAttempts      float64 `json:"killed_attempts"`
	WastedContainerS    float64 `json:"wasted_container_s"`
	UnfinishedJobs      float64 `json:"unfinished_jobs"`
	FailedJobs          float64 `json:"failed_jobs"`
}

// RegistryFunc returns the policy registry for a cell's parameters (replay's
// --param values: a LASER model path is one), as `specbridge replay` builds
// it.
type RegistryFunc func(params []string) (*speculators.Registry, error)

// RunCell runs one cell: its input read as `specbridge replay` reads it,
// one simulation of its policy and seed.
func RunCell(c Cell, registry RegistryFunc) (Row, error) {
	where := fmt.Sprintf("cell %d (%s, %s %s, seed %d)", c.Index, c.Input, c.Policy, c.ParamsText(), c.Seed)
	path := c.Input
	if c.File != "" {
		path = c.File
	}
	in, err := replay.LoadStreaming(path, history.Format(c.Format), history.DefaultSWIMModel(), nil)
	if err != nil {
		return Row{}, fmt.Errorf("%s: %w", where, err)
	}
	if in.Scenario != nil && (c.Nodes > 0 || c.Slots > 0) {
		return Row{}, fmt.Errorf("%s: --nodes/--slots: %s is a scenario, which describes its own cluster", where, c.Input)
	}
	reg, err := registry(c.ParamFlags())
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
		Jobs: x.Jobs, Tasks: x.Tasks, MeanJobS: x.MeanJobS, P50JobS: x.P50JobS, P95JobS: x.P95JobS, P99JobS: x.P99JobS,
		MakespanS: x.MakespanS, ContainerS: x.ContainerS, SpeculativeAttempts: x.SpeculativeAttempts,
		SpeculativeWins: x.SpeculativeWins, KilledAttempts: x.KilledAttempts, WastedContainerS: x.WastedContainerS,
		UnfinishedJobs: x.UnfinishedJobs, FailedJobs: x.FailedJobs}, nil
}

// Run runs cells on up to parallel goroutines (0 or less: the number of
// CPUs) and hands each row to emit in cell order, on the calling goroutine,
// as soon as it and every earlier row are done: the rows, and the order emit
// sees them in, do not depend on parallel. The first error (a cell's, or
// emit's) stops the sweep: cells not yet started are not started, and Run
// returns it once the running cells end.
func Run(cells []Cell, parallel int, registry RegistryFunc, emit func(Row) error) error {
	if parallel <= 0 {
		parallel = runtime.GOMAXPROCS(0)
	}
	parallel = max(min(parallel, len(cells)), 1)
	type result struct {
		row  Row
		err  error
		done bool
	}
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	results := make([]result, len(cells))
	next, failed := 0, false
	var wg sync.WaitGroup
	for range parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			defer mu.Unlock()
			for !failed && next < len(cells) {
				k := next
				next++
				mu.Unlock()
				row, err := RunCell(cells[k], registry)
				mu.Lock()
				results[k] = result{row: row, err: err, done: true}
				failed = failed || err != nil
				cond.Broadcast()
			}
		}()
	}
	var err error
	mu.Lock()
	for k := 0; k < len(cells); k++ {
		for !results[k].done && !(failed && k >= next) {
			cond.Wait()
		}
		r := results[k]
		if !r.done { // never started: an earlier cell failed
			break
		}
		if r.err != nil {
			err = r.err
			break
		}
		mu.Unlock()
		err = emit(r.row)
		mu.Lock()
		if err != nil {
			failed = true
			break
		}
	}
	if err == nil && failed {
		for _, r := range results {
			if r.err != nil {
				err = r.err
				break
			}
		}
	}
	mu.Unlock()
	wg.Wait()
	return err
}
