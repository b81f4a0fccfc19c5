package replay

import (
	"runtime"
	"sync"

	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/grass"
)

// cell is one simulation: run r (seed opts.Seed+r) of policy i.
type cell struct {
	r, i int
	w    *Workload
	res  *sim.Result
	err  error
	done bool
}

// runCells runs every (run, policy) simulation on up to opts.Parallel
// goroutines and hands each result to deliver in run-major then policy
// order, on the calling goroutine, whatever order they finish in: so the
// output of a parallel replay is byte-identical to a serial one
// (TestParallelOutputIdentical).
//
// A run's workload is built once, when its first simulation starts, shared
// read-only by its policies (the simulator does not write to it), and
// dropped once its last simulation is delivered. Every simulation starts
// from its own clone of start. What the simulations learn reaches
// opts.Store one call at a time; with several at once, in the order they
// happen to learn it (the store's content, not any result, may then differ
// from a serial run's in order).
func runCells(build WorkloadFunc, opts Options, runs int, start *grass.MemoryStore, deliver func(r, i int, w *Workload, res *sim.Result) error) error {
	pols := len(opts.Speculators)
	n := runs * pols
	workers := opts.Parallel
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(min(workers, n), 1)

	var mu sync.Mutex // guards everything below, opts.Progress and opts.Store
	cond := sync.NewCond(&mu)
	cells := make([]cell, n)
	workloads := make([]*Workload, runs)
	building := make([]bool, runs)
	buildErr := make([]error, runs)
	jobsDone := make([]int, n)
	var allDone int
	next, failed := 0, false

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
	work := func() {
		mu.Lock()
		defer mu.Unlock()
		for !failed && next < n {
			k := next
			next++
			r, i := k/pols, k%pols
			w, err := workload(r)
			if err != nil {
				cells[k] = cell{r: r, i: i, err: err, done: true}
				failed = true
				cond.Broadcast()
				return
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
			res, err := runOne(&sw, name, store, seed, known)
			mu.Lock()
			cells[k] = cell{r: r, i: i, w: w, res: res, err: err, done: true}
			failed = failed || err != nil
			cond.Broadcast()
		}
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	// Deliver in order as cells complete.
	var err error
	mu.Lock()
	for k := 0; k < n && err == nil; k++ {
		for !cells[k].done && !(failed && k >= next) {
			cond.Wait()
		}
		c := cells[k]
		if !c.done { // never started: an earlier cell failed
			break
		}
		if c.err != nil {
			err = c.err
			break
		}
		cells[k] = cell{done: true} // let the result go once delivered
		mu.Unlock()
		err = deliver(c.r, c.i, c.w, c.res)
		mu.Lock()
		if err != nil {
			failed = true
		}
		if c.i == pols-1 {
			workloads[c.r] = nil
		}
	}
	if err == nil && failed {
		for k := range cells {
			if cells[k].err != nil {
				err = cells[k].err
				break
			}
		}
	}
	mu.Unlock()
	wg.Wait()
	return err
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
