//go:build integration

package hdfs

import gohdfs "github.com/colinmarc/hdfs/v2"

// What the integration tests (package hdfs_test: they use internal/itest,
// which imports this package) need of the package's insides: the
// underlying client.
func Raw(c *Client) *gohdfs.Client { return c.c }
