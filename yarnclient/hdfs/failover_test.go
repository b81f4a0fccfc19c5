package hdfs

import (
	"errors"
	"io"
	"os"
	"testing"
	"time"

	"github.com/specbridge/specbridge/internal/hadoopconf"
)

// The failover back-off follows Hadoop's client settings on an HA
// nameservice and is off for a single NameNode.
func TestFailoverPolicy(t *testing.T) {
	if p := policyFromConf(nil, 1); p.attempts != 1 {
		t.Errorf("single NameNode: %+v, want one attempt", p)
	}
	if p := policyFromConf(nil, 2); p.attempts != 15 || p.base != 500*time.Millisecond || p.max != 15*time.Second {
		t.Errorf("HA defaults: %+v, want Hadoop's 15 attempts, 500 ms base, 15 s max", p)
	}
	c := hadoopconf.New("test", hadoopconf.Limits{})
	for k, v := range map[string]string{"dfs.client.failover.max.attempts": "3", "dfs.client.failover.sleep.base.millis": "1",
		"dfs.client.failover.sleep.max.millis": "bad"} {
		if err := c.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if p := policyFromConf(c, 2); p.attempts != 3 || p.base != time.Millisecond || p.max != 15*time.Second {
		t.Errorf("configured: %+v", p)
	}
}

// retry runs an operation again while no NameNode is active, up to the
// policy's attempts, and never after another error.
func TestRetryOnlyWhileFailingOver(t *testing.T) {
	c := &Client{failover: failoverPolicy{attempts: 3, base: time.Microsecond, max: time.Microsecond}}
	noneActive := &os.PathError{Op: "stat", Path: "/x", Err: errors.New("no available namenodes: org.apache.hadoop.ipc.StandbyException: Operation category READ is not supported in state standby")}
	calls := 0
	err := c.retry(func() error {
		calls++
		if calls < 3 {
			return noneActive
		}
		return nil
	})
	if err != nil || calls != 3 {
		t.Errorf("recovered failover: %d calls, %v", calls, err)
	}
	calls = 0
	if err := c.retry(func() error { calls++; return noneActive }); err != noneActive || calls != 3 {
		t.Errorf("lasting failover: %d calls, %v; want 3 and the error", calls, err)
	}
	calls = 0
	broken := &os.PathError{Op: "stat", Path: "/x", Err: io.EOF} // the NameNode went down mid-request
	if err := c.retry(func() error {
		if calls++; calls == 1 {
			return broken
		}
		return nil
	}); err != nil || calls != 2 {
		t.Errorf("broken connection: %d calls, %v; want a second, successful one", calls, err)
	}
	calls = 0
	if err := c.retry(func() error { calls++; return os.ErrNotExist }); err != os.ErrNotExist || calls != 1 {
		t.Errorf("other error: %d calls, %v; want 1", calls, err)
	}
}
