package hdfs

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/specbridge/specbridge/internal/hadoopconf"
)

// failoverPolicy is how a client of an HA nameservice waits out a
// failover, as Hadoop's own client does (dfs.client.failover.max.attempts,
// default 15; dfs.client.failover.sleep.base.millis, 500;
// dfs.client.failover.sleep.max.millis, 15000: exponential back-off).
//
// colinmarc/hdfs already moves to the next NameNode on a StandbyException
// or a refused connection, but it skips a NameNode for 5 s after one
// failure and then answers "no available namenodes": two failovers close
// together (the active one goes standby, then the other one, back, goes
// down) leave it with no NameNode to try. An operation that fails so is
// safe to run again (nothing reached an active NameNode), and is, after
// the back-off. Off (attempts 1) for a single NameNode: there is nothing
// to fail over to, and an outage should be reported at once.
type failoverPolicy struct {
	attempts  int
	base, max time.Duration
}

func policyFromConf(c *hadoopconf.Conf, namenodes int) failoverPolicy {
	if namenodes < 2 {
		return failoverPolicy{attempts: 1}
	}
	num := func(key string, def int) int {
		if n, err := strconv.Atoi(get(c, key)); err == nil && n >= 0 {
			return n
		}
		return def
	}
	return failoverPolicy{
		attempts: max(1, num("dfs.client.failover.max.attempts", 15)),
		base:     time.Duration(num("dfs.client.failover.sleep.base.millis", 500)) * time.Millisecond,
		max:      time.Duration(num("dfs.client.failover.sleep.max.millis", 15000)) * time.Millisecond,
	}
}

// failingOver reports whether err says that no NameNode was active (all
// standby, or unreachable), as during a failover, or that the connection
// to the NameNode broke (it went down between a request and its answer:
// colinmarc/hdfs reports that as it is, and reconnects, to the next
// NameNode, at the next request).
//
// Sending a request again after a broken connection is what Hadoop's
// client does for idempotent operations; for the others (create, append,
// rename) it relies on the NameNode's retry cache, which this client
// cannot use (a new call id). The choice here: send them again too, since
// a NameNode that dies between applying a request and answering it is
// rare, and the effect is a refused request (the file exists, or is open
// by this client), reported as an error, never a silent duplicate: the
// fault analyzer's store then moves on to a new segment (cfa.Store).
func failingOver(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNREFUSED) {
		return true
	}
	s := err.Error()
	return strings.Contains(s, "no available namenodes") || strings.Contains(s, "org.apache.hadoop.ipc.StandbyException")
}

// retry runs op until it succeeds, fails otherwise than failingOver, or
// the policy's attempts are spent.
func (c *Client) retry(op func() error) error {
	wait := c.failover.base
	for attempt := 1; ; attempt++ {
		err := op()
		if !failingOver(err) || attempt >= c.failover.attempts {
			return explain(err)
		}
		time.Sleep(wait) // Hadoop's failover back-off: waiting for a NameNode to become active
		wait = min(2*wait, c.failover.max)
	}
}

// FaultHooks are called at the points of a transfer where fault-injection
// tests act, e.g. to make a NameNode fail over in the middle of a read or
// of a write (Config.Hooks, for every Client dialled with it). Production
// code never sets them; nil fields do nothing.
type FaultHooks struct {
	// Read is called after each read from a file opened with Open, with
	// the file's path and the bytes read from it so far.
	Read func(path string, read int64)
	// BeforeComplete is called when a write's data has been given to the
	// client, before the DataNodes acknowledge it and before the NameNode
	// completes the file (Create, Append, WriteFile).
	BeforeComplete func(path string)
}

// hookedReader counts a file's bytes for FaultHooks.Read.
type hookedReader struct {
	io.ReadCloser
	path string
	n    int64
	hook func(string, int64)
}

func (r *hookedReader) Read(p []byte) (int, error) {
	n, err := r.ReadCloser.Read(p)
	r.n += int64(n)
	if n > 0 {
		r.hook(r.path, r.n)
	}
	return n, err
}

// explain adds what an error of colinmarc/hdfs that says little means.
// A NameNode with Kerberos answers a client without it (simple
// authentication) with a fatal error out of the request sequence, which
// the library reports as "unexpected sequence number" and drops the
// NameNode's message ("SIMPLE authentication is not enabled").
func explain(err error) error {
	if err != nil && strings.Contains(err.Error(), "unexpected sequence number") {
		return fmt.Errorf("%w (the NameNode refused the connection; a cluster with Kerberos refuses a client without it: "+
			"set hadoop.security.authentication=kerberos in the client's core-site.xml, see --hadoop-conf)", err)
	}
	return err
}
