//go:build integration

package cfa

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/specbridge/specbridge/cfa/analyzer"
	"github.com/specbridge/specbridge/internal/itest"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/yarnclient/hdfs"
)

// hdfsStore returns a fresh store URL on the mini cluster's HDFS.
func hdfsStore(t *testing.T) string {
	t.Helper()
	return itest.FreshDir(t, "SPECBRIDGE_FS", "/tmp/specbridge-it", "cfa").String()
}

// The restart test on a real HDFS: a crash in the middle of n1's episode,
// every acknowledged record back after the restart (the whole state is
// compared), the run finished on the restarted analyzer, and a clean stop
// reloaded whole. Snapshots every 4 records mix snapshot and log at each
// reload; the second run reloads from the log alone.
func TestIntegrationStoreRestartMidRunHDFS(t *testing.T) {
	_, heard := crashAndRestart(t, hdfsStore(t), nil, 50, 4)
	// As TestStoreRestartMidRunLocal: the jobs' new sessions are told again
	// at their first round that n1, still silent, has failed.
	want := append(append(append([]string(nil), wantNotices[:4]...), "J1 node-failed n1", "J2 node-failed n1"), wantNotices[4:]...)
	if !reflect.DeepEqual(heard, want) {
		t.Errorf("notices across the restart\n got  %v\n want %v", heard, want)
	}
	_, heard = crashAndRestart(t, hdfsStore(t), nil, 85, 0)
	if !reflect.DeepEqual(heard, wantNotices) {
		t.Errorf("notices across the restart (log only)\n got  %v\n want %v", heard, wantNotices)
	}
}

// A torn last record on HDFS (bytes a crash cut, appended after the last
// acknowledged commit) is dropped and reported; everything acknowledged is
// back.
func TestIntegrationStoreTornTailHDFS(t *testing.T) {
	store := hdfsStore(t)
	s, clock, cfg := storeService(t, store)
	s.store.SnapshotEvery = 0
	scenario(t, s, clock, 0, 50)
	acked := stateJSON(t, s)
	d := s.store.dir.(*HDFSDir)
	all, err := d.Names()
	var names []string
	for _, n := range all {
		if _, ok := segmentNumber(n); ok {
			names = append(names, n)
		}
	}
	if err != nil || len(names) != 1 {
		t.Fatalf("store files %v, %v", names, err)
	}
	torn := frame(nil, []byte(`{"seq":999999,"kind":"job-started","job":"torn"}`))
	if err := d.Append(names[0], torn[:len(torn)-7]); err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	crash(s)
	r, err := NewService(cfg)
	if err != nil {
		t.Fatalf("reload: %v", err)
	}
	defer r.Close()
	if len(r.Loaded.Torn) != 1 || !strings.Contains(r.Loaded.Torn[0], "hdfs://") {
		t.Errorf("torn report %v", r.Loaded.Torn)
	}
	if got := stateJSON(t, r); got != acked {
		t.Fatalf("state after reload differs:\n got  %s\n want %s", got, acked)
	}
}

// The REST prober against the real RM and NMs: every RUNNING NodeManager
// answers healthy, and a live Service gathering through it sees no episode
// on a healthy cluster.
func TestIntegrationProbeRealCluster(t *testing.T) {
	p, err := NewRESTProber(itest.Env(t, "SPECBRIDGE_RM_WEB"), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	probes, err := p.Probe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ok := 0
	for _, pr := range probes {
		if pr.OK {
			ok++
			if pr.StartedAt == 0 || pr.Node == "" || pr.NM == "" {
				t.Errorf("probe %+v", pr)
			}
		}
	}
	if ok == 0 {
		t.Fatalf("no NodeManager answered: %+v", probes)
	}
	s := mustService(t, ServiceConfig{Analyzer: testConfig(), Prober: p})
	for range 3 {
		if err := s.Tick(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	s.View(func(st *analyzer.State, _ func(speculators.NodeID) analyzer.Time) {
		for n, nr := range st.Nodes {
			if nr.Open != nil || len(nr.Episodes) != 0 {
				t.Errorf("healthy node %s has episodes: %+v", n, nr)
			}
		}
	})
}

// One owner per store on HDFS: a second service on the same store fails at
// once naming the owner's pid and host (the lease file); after the first
// closes, the store can be taken again.
func TestIntegrationStoreLeaseHDFS(t *testing.T) {
	store := hdfsStore(t)
	cfg := ServiceConfig{Analyzer: testConfig(), Store: store}
	s := mustService(t, cfg)
	host, _ := os.Hostname()
	_, err := NewService(cfg)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("pid %d on host %s", os.Getpid(), host)) {
		t.Fatalf("second owner: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := NewService(cfg)
	if err != nil {
		t.Fatalf("after the owner closed: %v", err)
	}
	_ = r.Close()
}

// Failed appends on HDFS (random, with part of the data landing): the
// store moves to a new segment, and every acknowledged record loads.
func TestIntegrationStoreFailedAppendsHDFS(t *testing.T) {
	var none *hdfs.Config // hdfs://host:port
	u, _ := none.ParseURL(hdfsStore(t))
	d, err := OpenDir(u.String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeDir(d)
	rng := rand.New(rand.NewSource(4))
	fd := &faultDir{Dir: d}
	fd.plan = func(op, name string, n int) (int, error) {
		if rng.Intn(4) == 0 {
			return rng.Intn(n + 1), enospc
		}
		return n, nil
	}
	c := newCommitter(t, noTruncate{fd}, 0)
	for i := 0; i < 40; i++ {
		_ = c.commit(t, 1+rng.Intn(3))
	}
	fd.plan = nil
	if err := c.commit(t, 1); err != nil {
		t.Fatal(err)
	}
	_, st, rep, err := OpenStore(d, testConfig())
	if err != nil {
		t.Fatal(err)
	}
	for seq := range c.acked {
		if st.Jobs[propRecord(seq).Job] == nil {
			t.Fatalf("acknowledged record %d lost on HDFS (report %+v)", seq, rep)
		}
	}
	if rep.Problems() > 0 {
		t.Fatalf("report %+v", rep)
	}
}
