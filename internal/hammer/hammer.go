// Package hammer puts concurrent load on the code under test: workers that
// repeat a step until the test stops them, for the tests that check
// something while it is busy (a token set replaced while it is matched,
// the fault analyzer's API while its store fails, the sidecar killed while
// AMs post to it). It is test support and must not be imported by
// production code.
package hammer

import "sync"

// Load is a set of workers (Go) and the signal that stops them (Stop).
type Load struct {
	stop chan struct{}
	once sync.Once
	wg   sync.WaitGroup
}

// New is a Load with no workers yet.
func New() *Load { return &Load{stop: make(chan struct{})} }

// Start is New with n workers repeating step (Go).
func Start(n int, step func(w, i int) bool) *Load {
	l := New()
	l.Go(n, step)
	return l
}

// Go starts n more workers: worker w (0 to n-1) calls step(w, i) for
// i = 0, 1, 2, ... until Stop is called or step returns false. A step
// runs whole: Stop is seen between steps, or inside a step that waits on
// Stopped.
func (l *Load) Go(n int, step func(w, i int) bool) {
	for w := 0; w < n; w++ {
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			for i := 0; ; i++ {
				select {
				case <-l.stop:
					return
				default:
				}
				if !step(w, i) {
					return
				}
			}
		}()
	}
}

// Stopped is closed by Stop, for a step that waits (a back-off, a retry)
// to give up at once.
func (l *Load) Stopped() <-chan struct{} { return l.stop }

// Stop tells the workers to stop and waits until every one has returned.
// It may be called more than once.
func (l *Load) Stop() {
	l.once.Do(func() { close(l.stop) })
	l.wg.Wait()
}
