//go:build faults

package bridge

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// TestFaultFullDiskServe is the full-disk fault of issue 24 in the
// fault-injection suite (scripts/fault-injection.sh): the embedded
// analyzer's disk is full (ENOSPC) while one AM floods status reports and
// another only pings. Every ping is answered while the writer's records
// wait; once the disk has room every record waiting is committed. The
// FAULT line gives the good AM's round trips.
func TestFaultFullDiskServe(t *testing.T) {
	rtts, svc := pingsBesideFullStore(t, 500)
	if len(rtts) != 500 {
		t.Fatalf("%d pongs of 500", len(rtts))
	}
	if err := svc.Health(); err != nil {
		t.Fatalf("store still degraded after the disk has room: %v", err)
	}
	slices.Sort(rtts)
	fmt.Printf("FAULT disk full under serve (one AM's records waiting, one turn slot): good AM's pings answered %d of %d, p50 %s, p99 %s; every waiting record committed once the disk had room\n",
		len(rtts), 500, rtts[len(rtts)/2].Round(time.Microsecond), rtts[len(rtts)*99/100].Round(time.Microsecond))
}

// TestFaultByeOnFullDisk: a bye whose job end cannot be committed is told
// so (job-end-failed) before anything else is answered.
func TestFaultByeOnFullDisk(t *testing.T) {
	TestByeSaysWhenTheJobEndIsNotDurable(t)
	fmt.Println("FAULT bye on a full disk: answered job-end-failed before the next pong; on a disk with room, the pong only")
}
