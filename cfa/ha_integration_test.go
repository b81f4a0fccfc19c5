//go:build integration

package cfa

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/specbridge/specbridge/internal/itest"
	"github.com/specbridge/specbridge/yarnclient/hdfs"
)

// The analyzer's store on the HA nameservice (hdfs://mycluster/...,
// scripts/hdfs-ha-test.sh), with failovers inside its writes: before the
// third log append is completed on the NameNode, the active NameNode fails
// over and goes down; before the second snapshot is completed, the
// NameNode that went down is restarted and made active again. Every
// commit across them succeeds; the run then crashes (no Close) and a new
// service finds every acknowledged record, finishes the scenario and
// reloads whole; fsck finds no damaged frame and no torn tail.
func TestHAStoreFailoverDuringWrites(t *testing.T) {
	if err := hdfs.UseConf(itest.Env(t, "SPECBRIDGE_HA_CONF")); err != nil {
		t.Fatal(err)
	}
	store := fmt.Sprintf("hdfs://mycluster/specbridge-ha/cfa-%d", time.Now().UnixNano())
	var appends, snapshots atomic.Int32
	defer hdfs.SetFaultHooks(&hdfs.FaultHooks{BeforeComplete: func(p string) {
		switch {
		case strings.Contains(p, "/"+segmentPrefix) && appends.Add(1) == 3:
			itest.Failover(t, true)
		case strings.Contains(p, "/"+snapshotName+".tmp") && snapshots.Add(1) == 2:
			itest.Failover(t, false)
		}
	}})()
	third, _ := crashAndRestart(t, store, 60, 4)
	if err := third.Close(); err != nil {
		t.Fatal(err)
	}
	if appends.Load() < 3 || snapshots.Load() < 2 {
		t.Fatalf("failover points reached: %d log appends, %d snapshots; want 3 and 2", appends.Load(), snapshots.Load())
	}
	dir, err := OpenDir(store)
	if err != nil {
		t.Fatal(err)
	}
	defer dir.(*HDFSDir).Close()
	release, err := dir.(*HDFSDir).Lock()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	rep, err := Fsck(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if rep.DamagedFrames != 0 || rep.TornBytes != 0 || rep.SnapshotSeq == 0 {
		t.Fatalf("fsck after the failovers:\n%s", rep)
	}
	t.Logf("fsck: %d log records after snapshot %d; %d log appends, %d snapshots", rep.Records, rep.SnapshotSeq, appends.Load(), snapshots.Load())
}
