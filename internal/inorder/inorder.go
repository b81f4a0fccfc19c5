// Package inorder runs n indexed jobs on several goroutines and hands their
// results back in index order, on the calling goroutine: what a caller
// emits does not depend on how many goroutines ran the jobs, which is what
// keeps parallel replays and sweeps byte-identical to serial ones. It knows
// nothing of what a job is; it must not hold its lock while a job or the
// emit callback runs.
package inorder

import (
	"runtime"
	"sync"
)

// Run calls work(k) for k in [0, n) on up to parallel goroutines (0 or
// less: GOMAXPROCS) and hands each result to emit in index order, on the
// calling goroutine, as soon as it and every earlier one are done. A result
// is dropped once emitted.
//
// The first error, a job's or emit's, stops the run: jobs not yet started
// are not started, and Run returns it (emit's, or the job error of lowest
// index) once the running jobs end. work is called concurrently; emit is
// never called concurrently with itself.
func Run[T any](n, parallel int, work func(k int) (T, error), emit func(k int, v T) error) error {
	if parallel <= 0 {
		parallel = runtime.GOMAXPROCS(0)
	}
	parallel = max(min(parallel, n), 1)
	type result struct {
		v    T
		err  error
		done bool
	}
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	results := make([]result, n)
	next, failed := 0, false
	var wg sync.WaitGroup
	for range parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			defer mu.Unlock()
			for !failed && next < n {
				k := next
				next++
				mu.Unlock()
				v, err := work(k)
				mu.Lock()
				results[k] = result{v: v, err: err, done: true}
				failed = failed || err != nil
				cond.Broadcast()
			}
		}()
	}
	var err error
	mu.Lock()
	for k := 0; k < n; k++ {
		for !results[k].done && !(failed && k >= next) {
			cond.Wait()
		}
		r := results[k]
		if !r.done { // never started: an earlier job failed
			break
		}
		if r.err != nil {
			err = r.err
			break
		}
		results[k] = result{done: true} // let the result go once emitted
		mu.Unlock()
		err = emit(k, r.v)
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
