//go:build integration

package cfa

import (
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/specbridge/specbridge/cfa/analyzer"
	"github.com/specbridge/specbridge/internal/itest"
	"github.com/specbridge/specbridge/yarnclient/hdfs"
)

// The analyzer's store on the HA nameservice (hdfs://mycluster/...,
// scripts/hdfs-ha-test.sh), with failovers inside its writes: before the
// third log append is completed on the NameNode, the active NameNode fails
// over and goes down; before the second snapshot is completed, the
// NameNode that went down is restarted and made active again. Every
// commit across them succeeds. The process then crashes (no Close): fsck
// finds every acknowledged record in the snapshot and the log, no damaged
// frame and no torn tail; a new service holds the acknowledged state,
// finishes the scenario, and the store reloads whole.
func TestHAStoreFailoverDuringWrites(t *testing.T) {
	hc, u := itest.HA(t, "cfa")
	store := u.String()
	var appends, snapshots atomic.Int32
	hc.Hooks = &hdfs.FaultHooks{BeforeComplete: func(p string) {
		switch {
		case strings.Contains(p, "/"+segmentPrefix) && appends.Add(1) == 3:
			itest.Failover(t, true)
		case strings.Contains(p, "/"+snapshotName+".tmp") && snapshots.Add(1) == 2:
			itest.Failover(t, false)
		}
	}}
	clock := &fakeClock{}
	clock.set(0)
	cfg := ServiceConfig{Analyzer: testConfig(), Store: store, HDFS: hc, Now: clock.Now}
	first := mustService(t, cfg)
	first.store.SnapshotEvery = 4
	scenario(t, first, clock, 0, 60) // fails at the first commit that fails
	if appends.Load() < 3 || snapshots.Load() < 2 {
		t.Fatalf("failover points reached by 60 s: %d log appends, %d snapshots; want 3 and 2", appends.Load(), snapshots.Load())
	}
	acked := stateJSON(t, first) // 60 s: Tick just committed everything
	var st analyzer.State
	if err := json.Unmarshal([]byte(acked), &st); err != nil {
		t.Fatal(err)
	}
	defer first.store.dir.(*HDFSDir).Close() // the crashed process's connection
	crash(first)

	dir, err := OpenDir(store, hc)
	if err != nil {
		t.Fatal(err)
	}
	release, err := dir.(*HDFSDir).Lock()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Fsck(dir, false)
	if err := release(); err != nil {
		t.Error(err)
	}
	dir.(*HDFSDir).Close()
	if err != nil {
		t.Fatal(err)
	}
	if rep.DamagedFrames != 0 || rep.TornBytes != 0 || rep.SnapshotSeq+uint64(rep.Records) < st.Seq {
		t.Fatalf("fsck after the failovers and the crash, %d records acknowledged:\n%s", st.Seq, rep)
	}
	t.Logf("fsck after the crash: snapshot to record %d, %d log records; %d acknowledged", rep.SnapshotSeq, rep.Records, st.Seq)

	second := mustService(t, cfg)
	second.store.SnapshotEvery = 4
	if got := stateJSON(t, second); got != acked {
		t.Fatalf("after the failovers and a crash the state differs from the acknowledged one:\n got  %s\n want %s", got, acked)
	}
	scenario(t, second, clock, 61, 130)
	third := reopenAtEnd(t, second, cfg, "after the failovers, a crash and a clean stop")
	if err := third.Close(); err != nil {
		t.Fatal(err)
	}
}
