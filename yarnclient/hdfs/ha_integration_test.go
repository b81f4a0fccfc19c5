//go:build integration

package hdfs

import (
	"bytes"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/specbridge/specbridge/internal/itest"
)

// haCluster is the HA mini HDFS of scripts/hdfs-ha-test.sh: its client
// configuration directory and a failover trigger.
func haCluster(t *testing.T) (failover func(down bool)) {
	t.Helper()
	confDir, failover := itest.HA(t)
	t.Cleanup(resetConf)
	if err := UseConf(confDir); err != nil {
		t.Fatal(err)
	}
	return failover
}

// hdfs:///path on the HA nameservice of HADOOP_CONF_DIR: a file read
// across a failover, and writes and appends on both sides of one (the
// second with the formerly active NameNode shut down) lose nothing.
func TestIntegrationHAFailover(t *testing.T) {
	failover := haCluster(t)
	u, err := ParseURL(fmt.Sprintf("hdfs:///specbridge-ha/%d", time.Now().UnixNano()))
	if err != nil {
		t.Fatal(err)
	}
	if u.NameNode != "mycluster" {
		t.Fatalf("hdfs:/// resolved to %q, want the nameservice mycluster", u.NameNode)
	}
	c, err := Dial(u.NameNode)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.MkdirAll(u.Path); err != nil {
		t.Fatal(err)
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
	failover(false) // during the read
	rest, err := io.ReadAll(r)
	r.Close()
	if err != nil || !bytes.Equal(append(half, rest...), data) {
		t.Fatalf("read across a failover: %d+%d bytes, %v", len(half), len(rest), err)
	}
	log := u.Path + "/log"
	var want []byte
	for i := range 20 {
		if i == 10 {
			failover(true) // and the NameNode that was active goes down
		}
		line := []byte(fmt.Sprintf("record %d\n", i))
		if err := c.Append(log, line); err != nil {
			t.Fatalf("append %d after failover: %v", i, err)
		}
		want = append(want, line...)
	}
	got, err := c.ReadFile(log)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("appends across a failover: got %q, %v", got, err)
	}
	if ents, err := c.List(u.Path); err != nil || len(ents) != 2 {
		t.Fatalf("list after failover: %v, %v", ents, err)
	}
}
