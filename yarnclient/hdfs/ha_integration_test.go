//go:build integration

package hdfs_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/specbridge/specbridge/internal/itest"
	"github.com/specbridge/specbridge/yarnclient/hdfs"
)

// useHA connects with the client configuration of the HA mini HDFS
// (itest.HA) and hooks, if not nil, to a fresh directory on its
// nameservice that it makes, and returns the client, the directory's URL
// and the configuration.
func useHA(t *testing.T, name string, hooks *hdfs.FaultHooks) (*hdfs.Client, hdfs.URL, *hdfs.Config) {
	t.Helper()
	cfg, u := itest.HA(t, name)
	cfg.Hooks = hooks
	return itest.DialDir(t, cfg, u), u, cfg
}

// hdfs:///path on the HA nameservice of HADOOP_CONF_DIR: a file read
// across a failover, then appends on both sides of two failovers close
// together (the second shuts the NameNode that was active down, the third
// brings it back and fails over to it) lose nothing, and each append that
// returned is in the file.
func TestHAFailover(t *testing.T) {
	c, u, cfg := useHA(t, "failover", nil)
	if d, err := cfg.ParseURL("hdfs://" + u.Path); err != nil || d != u {
		t.Fatalf("hdfs://%s resolved to %v (%v), want %v: fs.defaultFS is the nameservice", u.Path, d, err, u)
	}
	data := bytes.Repeat([]byte("specbridge-ha "), 1<<16) // ~900 KB
	p := u.Path + "/input"
	if err := c.WriteFile(p, data); err != nil {
		t.Fatal(err)
	}
	r, err := c.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	half := make([]byte, len(data)/2)
	if _, err := io.ReadFull(r, half); err != nil {
		t.Fatal(err)
	}
	itest.Failover(t, false) // during the read
	rest, err := io.ReadAll(r)
	r.Close()
	if err != nil || !bytes.Equal(append(half, rest...), data) {
		t.Fatalf("read across a failover: %d+%d bytes, %v", len(half), len(rest), err)
	}
	log := u.Path + "/log"
	var want []byte
	for i := range 20 {
		switch i {
		case 7:
			itest.Failover(t, true) // the NameNode that was active goes down
		case 14:
			itest.Failover(t, false) // it comes back and is active again
		}
		line := []byte(fmt.Sprintf("record %d\n", i))
		if err := c.Append(log, line); err != nil {
			t.Fatalf("append %d after failover: %v", i, err)
		}
		want = append(want, line...)
	}
	got, err := c.ReadFile(log)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("appends across failovers: got %q, %v", got, err)
	}
	if ents, err := c.List(u.Path); err != nil || len(ents) != 2 {
		t.Fatalf("list after failover: %v, %v", ents, err)
	}
}

// A failover between a write's data and the NameNode's completion of the
// file (FaultHooks.BeforeComplete), with the NameNode that was active shut
// down: the DataNodes get the data, the file is completed on the NameNode
// active now, and the next append and the atomic rewrite go there too.
func TestHAFailoverBeforeComplete(t *testing.T) {
	var fired atomic.Int32
	c, u, _ := useHA(t, "complete", &hdfs.FaultHooks{BeforeComplete: func(p string) {
		if fired.Add(1) == 3 { // the third write: an append to a file that has data
			if !strings.HasSuffix(p, "/log") {
				t.Errorf("third write to %s, want the log", p)
			}
			itest.Failover(t, true)
		}
	}})
	log, snap := u.Path+"/log", u.Path+"/snap"
	var want []byte
	for i := range 5 {
		line := []byte(fmt.Sprintf("acknowledged %d\n", i))
		if err := c.Append(log, line); err != nil {
			t.Fatalf("append %d (failover before the third completes): %v", i, err)
		}
		want = append(want, line...)
	}
	if err := c.WriteFile(snap, want); err != nil {
		t.Fatal(err)
	}
	if fired.Load() < 3 {
		t.Fatalf("the failover hook ran %d times, want at least 3", fired.Load())
	}
	for _, f := range []string{log, snap} {
		got, err := c.ReadFile(f)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s after a failover before completion: got %q, %v", f, got, err)
		}
	}
}
