// Package rmtest is a stand-in for the ResourceManager's REST API in
// tests: its cluster metrics answer, as a Hadoop 3.5.0 MiniYARNCluster
// gives it, served by a real HTTP server whose answer the test changes.
// rmcapacity's watcher tests and the CLI's `serve --rm` test use it; the
// mini-cluster integration test reads a real ResourceManager. It is test
// support and must not be imported by production code.
package rmtest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// Metrics is /ws/v1/cluster/metrics as a Hadoop 3.5.0 MiniYARNCluster
// answers it (trimmed of the fields nobody reads), with the memory and
// vcores made to vary.
func Metrics(totalMB, availMB, totalVC, availVC int64) string {
	return fmt.Sprintf(`{"clusterMetrics":{"appsSubmitted":0,"appsCompleted":0,"appsPending":0,"appsRunning":0,"appsFailed":0,"appsKilled":0,`+
		`"reservedMB":0,"availableMB":%d,"allocatedMB":%d,"pendingMB":0,"reservedVirtualCores":0,"availableVirtualCores":%d,`+
		`"allocatedVirtualCores":%d,"pendingVirtualCores":0,"containersAllocated":0,"containersReserved":0,"containersPending":0,`+
		`"totalMB":%d,"totalVirtualCores":%d,"utilizedMBPercent":0,"utilizedVirtualCoresPercent":0,"rmSchedulerBusyPercent":-1,`+
		`"totalNodes":2,"lostNodes":0,"unhealthyNodes":0,"decommissioningNodes":0,"decommissionedNodes":0,"rebootedNodes":0,`+
		`"activeNodes":2,"shutdownNodes":0,"containerAssignedPerSecond":0,"totalUsedResourcesAcrossPartition":{"memory":0,"vCores":0},`+
		`"totalClusterResourcesAcrossPartition":{"memory":%d,"vCores":%d}}}`,
		availMB, totalMB-availMB, availVC, totalVC-availVC, totalMB, totalVC, totalMB, totalVC)
}

// RM answers /ws/v1/cluster/metrics with the body last Set, any other path
// or any request while Down with 503 (as a standby ResourceManager does).
type RM struct {
	// URL is the server's base URL, as --rm and Config.RMs take it.
	URL string
	// Down makes it answer 503; Hits counts the requests it had.
	Down atomic.Bool
	Hits atomic.Int64
	body atomic.Value // string
}

// New starts an RM answering body; it stops when the test ends.
func New(t testing.TB, body string) *RM {
	rm := &RM{}
	rm.Set(body)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rm.Hits.Add(1)
		if rm.Down.Load() || r.URL.Path != "/ws/v1/cluster/metrics" {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte(rm.body.Load().(string)))
	}))
	t.Cleanup(srv.Close)
	rm.URL = srv.URL
	return rm
}

// Set changes the answer.
func (rm *RM) Set(body string) { rm.body.Store(body) }
