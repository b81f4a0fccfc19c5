package replay

import (
	"sync"

	"github.com/specbridge/specbridge/internal/inorder"

	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/grass"
)

// cell is one simulation's outcome: the workload it ran (shared by the
// run's policies) and its result.
type cell struct {
	w       *Workload
	res     *sim.Result
	members map[string]JobMember
}

// runCells runs every (run, policy) simulation on up to opts.Parallel
// goroutines and hands each result to deliver in run-major then policy
// order, on the calling goroutine, whatever order they finish in
// (internal/inorder): so the output of a parallel replay is byte-identical
// to a serial one (TestParallelOutputIdentical).
//
// A run's workload is built once, when its first simulation starts, shared
// read-only by its policies (the simulator does not write to it), and
// dropped once its last simulation is delivered. Every simulation starts
// from its own clone of start. What the simulations learn reaches
// opts.Store one call at a time; with several at once, in the order they
// happen to learn it (the store's content, not any result, may then differ
// from a serial run's in order).
func runCells(build WorkloadFunc, opts Options, runs int, start *grass.MemoryStore, deliver func(r, i int, w *Workload, res *sim.Result, members map[string]JobMember) error) error {
	pols := len(opts.Speculators)
	n := runs * pols

	var mu sync.Mutex // guards everything below, opts.Progress and opts.Store
	cond := sync.NewCond(&mu)
	workloads := make([]*Workload, runs)
	building := make([]bool, runs)
	buildErr := make([]error, runs)
	jobsDone := make([]int, n)
	var allDone int

	workload := func(r int) (*Workload, error) { // called with mu held
		for building[r] {
			cond.Wait()
		}
		if workloads[r] != nil || buildErr[r] != nil {
			return workloads[r], buildErr[r]
		}
		building[r] = true
		mu.Unlock()
		w, err := build(opts.Seed + uint64(r))
		mu.Lock()
		building[r] = false
		workloads[r], buildErr[r] = w, err
		cond.Broadcast()
		return w, err
	}
	store := opts
	if opts.Store != nil {
		store.Store = lockedStore{opts.Store, &mu}
	}
	work := func(k int) (cell, error) {
		mu.Lock()
		defer mu.Unlock()
		r, i := k/pols, k%pols
		w, err := workload(r)
		if err != nil {
			return cell{}, err
		}
		name, seed := opts.Speculators[i], opts.Seed+uint64(r)
		sw := *w
		sw.Config.RunningSamples = opts.RunningSamples
		if opts.Progress != nil {
			p := Progress{Run: r, Runs: runs, Policy: i, Policies: pols, Name: name, Jobs: len(w.Jobs)}
			p.AllDone, p.AllJobs = allDone, n*len(w.Jobs)
			opts.Progress(p)
			sw.Config.JobDone = func(done, _ int, now speculators.Time) {
				mu.Lock()
				defer mu.Unlock()
				allDone += done - jobsDone[k]
				jobsDone[k] = done
				p.JobsDone, p.SimS, p.AllDone = done, ms(now), allDone
				opts.Progress(p)
			}
		}
		known := start.Clone()
		mu.Unlock()
		res, members, err := runOne(&sw, name, store, seed, known)
		mu.Lock()
		return cell{w: w, res: res, members: members}, err
	}
	return inorder.Run(n, opts.Parallel, work, func(k int, c cell) error {
		r, i := k/pols, k%pols
		if i == pols-1 {
			mu.Lock()
			workloads[r] = nil
			mu.Unlock()
		}
		return deliver(r, i, c.w, c.res, c.members)
	})
}

// lockedStore serialises the simulations' calls to a Store.
type lockedStore struct {
	Store
	mu *sync.Mutex
}

func (l lockedStore) Keep(x speculators.Learned) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.Store.Keep(x)
}
