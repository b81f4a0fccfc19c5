//go:build faults

package cfa

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/specbridge/specbridge/cfa/analyzer"
	"github.com/specbridge/specbridge/internal/hammer"
	"github.com/specbridge/specbridge/speculators"
)

// The analyzer's API under load while its store fails: a full disk
// (ENOSPC, part of each write landing) or a directory gone read-only
// (EROFS, nothing writable, truncation included), for random spells.
// Posts answered 204 are durable; the others wait (503) and are retried by
// the loaders. Once the store works again every acknowledged record is
// there after a restart.
func TestFaultStoreFailsUnderLoad(t *testing.T) {
	for _, c := range []struct {
		name  string
		errno syscall.Errno
	}{{"disk full", syscall.ENOSPC}, {"read-only", syscall.EROFS}} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			var failing atomic.Bool
			rng := rand.New(rand.NewSource(time.Now().UnixNano()))
			var rmu sync.Mutex
			fd := &faultDir{Dir: LocalDir(dir)}
			fd.plan = func(op, name string, n int) (int, error) {
				if !failing.Load() {
					return n, nil
				}
				keep := 0
				if c.errno == syscall.ENOSPC {
					rmu.Lock()
					keep = rng.Intn(n + 1)
					rmu.Unlock()
				}
				return keep, &os.PathError{Op: "write", Path: name, Err: c.errno}
			}
			var d Dir = fd
			if c.errno == syscall.EROFS {
				d = noTruncate{fd} // a read-only directory cannot be truncated either
			}
			log := logrus.New()
			log.SetOutput(&bytes.Buffer{})
			s := mustService(t, ServiceConfig{Analyzer: testConfig(), Dir: d, Gather: 20 * time.Millisecond, MaxPending: 500, Log: log})
			s.store.SnapshotEvery = 300
			srv := httptest.NewServer(s.Handler())
			defer srv.Close()
			ctx, cancel := context.WithCancel(context.Background())
			ran := make(chan error, 1)
			go func() { ran <- s.Run(ctx) }()

			var mu sync.Mutex
			acked := map[string]bool{}
			var unavailable atomic.Int64
			load := hammer.New()
			load.Go(8, func(j, i int) bool { // worker j posts job j's attempt i
				job := fmt.Sprintf("job_1_%04d", j)
				id := fmt.Sprintf("m_%06d_0", i)
				body, _ := json.Marshal([]WireEvent{{Kind: "attempt-started", Time: int64(i), Attempt: id, Node: "n1"}})
				for { // a post the store could not make durable is sent again
					resp, err := http.Post(srv.URL+"/v1/jobs/"+job+"/events", "application/json", bytes.NewReader(body))
					if err != nil {
						t.Error(err)
						return false
					}
					resp.Body.Close()
					if resp.StatusCode == http.StatusNoContent {
						mu.Lock()
						acked[job+" "+id] = true
						mu.Unlock()
						return true
					}
					unavailable.Add(1)
					select {
					case <-load.Stopped():
						return false
					case <-time.After(5 * time.Millisecond):
					}
				}
			})
			degradedSeen := 0
			for spell := 0; spell < 10; spell++ {
				time.Sleep(time.Duration(20+rng.Intn(60)) * time.Millisecond) // a random moment
				failing.Store(true)
				time.Sleep(time.Duration(20+rng.Intn(60)) * time.Millisecond) // a spell of failed writes
				if s.Health() != nil {
					degradedSeen++
				}
				failing.Store(false)
			}
			load.Stop()
			cancel()
			if err := <-ran; err != nil { // the final commit and snapshot
				t.Fatal(err)
			}
			if degradedSeen == 0 {
				t.Error("the store never reported degraded")
			}
			r := mustService(t, ServiceConfig{Analyzer: testConfig(), Store: dir})
			defer r.Close()
			recovered := 0
			r.View(func(st *analyzer.State, _ func(speculators.NodeID) analyzer.Time) {
				for k := range acked {
					var job, id string
					fmt.Sscan(k, &job, &id)
					if j := st.Jobs[job]; j != nil && j.Attempts[id] != nil {
						recovered++
					} else {
						t.Errorf("acknowledged %s lost", k)
					}
				}
			})
			if r.Loaded.Problems() > 0 {
				t.Errorf("reload reports %+v", r.Loaded)
			}
			fmt.Printf("FAULT %s (10 spells under load, %d posts answered 503 and retried): records acknowledged %d, recovered %d\n",
				c.name, unavailable.Load(), len(acked), recovered)
		})
	}
}
