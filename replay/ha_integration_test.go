//go:build integration

package replay

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/specbridge/specbridge/internal/itest"
	"github.com/specbridge/specbridge/yarnclient/hdfs"
)

// haHistories are the histories the HA replay test reads, ~170 KB.
var haHistories = []string{
	"../yarnclient/history/testdata/job_2.4-SUCCEEDED-speculative.jhist",
	"../yarnclient/history/testdata/job_3.5-SUCCEEDED-binary.jhist",
	"../yarnclient/history/testdata/job_3.5-SUCCEEDED-speculative.jhist",
	"../data/jhist/job_2.4.0-FAILED.jhist",
	"../data/jhist/job_0.23.9-FAILED.jhist",
}

// `replay hdfs://mycluster/dir` on the HA mini HDFS (scripts/hdfs-ha-test.sh)
// while the active NameNode fails over and goes down in the middle of the
// read (FaultHooks.Read, once half the input's bytes are read: the files
// after it are opened on the other NameNode): the input has the local
// copy's jobs, and every policy's simulation gives byte-identical output.
func TestHAReplayAcrossFailover(t *testing.T) {
	cfg, u := itest.HA(t, "replay")
	u = u.Join("done")
	root := u.Path
	local, total := stageHistories(t, itest.DialDir(t, cfg, u), root)
	var failedOver atomic.Bool
	var readAfter atomic.Int64
	// Read reports the bytes of one file so far: the input read so far is
	// the sum of each file's last report.
	perFile := map[string]int64{}
	cfg.Hooks = &hdfs.FaultHooks{Read: func(p string, soFar int64) {
		if !strings.HasPrefix(p, root) {
			return
		}
		perFile[p] = soFar
		var sum int64
		for _, v := range perFile {
			sum += v
		}
		if failedOver.Load() {
			readAfter.Store(sum)
			return
		}
		if sum >= total/2 {
			failedOver.Store(true)
			itest.Failover(t, true)
		}
	}}
	fromHDFS, err := Load(u.String()+"/", LoadOptions{HDFS: cfg})
	if err != nil {
		t.Fatalf("replay input across a failover: %v", err)
	}
	if !failedOver.Load() || readAfter.Load() <= total/2 {
		t.Fatalf("failover at half the input: failed over %v, %d of %d bytes read after it", failedOver.Load(), readAfter.Load(), total)
	}
	fromLocal, err := Load(local, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(fromHDFS.Jobs) != len(haHistories) || len(fromLocal.Jobs) != len(haHistories) {
		t.Fatalf("jobs: %d from HDFS, %d local, want %d", len(fromHDFS.Jobs), len(fromLocal.Jobs), len(haHistories))
	}
	if a, b := replayOutput(t, fromHDFS), replayOutput(t, fromLocal); !bytes.Equal(a, b) {
		t.Fatalf("replay of %s across a failover differs from the local replay:\n%s\n---\n%s", u, a, b)
	}
}

// stageHistories writes haHistories below root on HDFS and below a local
// temporary directory, in the same nested layout (a JobHistory done
// directory: YYYY/MM/DD/serial/); it returns the local directory and the
// input's bytes.
func stageHistories(t *testing.T, c *hdfs.Client, root string) (local string, total int64) {
	t.Helper()
	local = t.TempDir()
	for i, f := range haHistories {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		total += int64(len(b))
		sub := fmt.Sprintf("2026/11/%02d/000000", 20+i)
		if err := c.MkdirAll(root + "/" + sub); err != nil {
			t.Fatal(err)
		}
		if err := c.WriteFile(root+"/"+sub+"/"+filepath.Base(f), b); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(local, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(local, sub, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return local, total
}

// replayOutput is the JSON report of every policy's simulation of in
// (seed 3, two runs), under one input name so that inputs read from
// different places compare byte for byte.
func replayOutput(t *testing.T, in *Input) []byte {
	t.Helper()
	reg := registry(t)
	opts := Options{Speculators: reg.Names(), Seed: 3, Runs: 2, Registry: reg}
	res, err := Simulate(WorkloadOf(in, opts.Cluster), opts)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	rep := &Report{Input: "input", Format: string(in.Format), Mode: "simulate", Seed: opts.Seed, Runs: opts.Runs, Results: res}
	if err := rep.Write(&buf, "json"); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
