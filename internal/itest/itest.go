// Package itest holds what the integration tests (build tag integration)
// share: reading the mini cluster's endpoints from the environment that
// scripts/test-integration.sh exports, and asking the HA mini HDFS of
// scripts/hdfs-ha-test.sh to fail over. It must not start or stop clusters.
package itest

import (
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
)

// Env returns the environment variable name (SPECBRIDGE_FS,
// SPECBRIDGE_RM_WEB, SPECBRIDGE_JHS_WEB), without a trailing slash. The
// integration tests require it: a missing one fails the test, never skips.
func Env(t testing.TB, name string) string {
	t.Helper()
	v := strings.TrimRight(os.Getenv(name), "/")
	if v == "" {
		t.Fatalf("%s is not set: run scripts/test-integration.sh, or source a mini cluster's env file", name)
	}
	return v
}

// Failover asks the HA mini HDFS of scripts/hdfs-ha-test.sh (its control
// endpoint, SPECBRIDGE_HA_CONTROL) to make its other NameNode active, and
// with down to shut the formerly active one down; it returns once the
// failover is done, with the index of the NameNode now active.
func Failover(t testing.TB, down bool) string {
	t.Helper()
	u := Env(t, "SPECBRIDGE_HA_CONTROL") + "/failover"
	if down {
		u += "?down=1"
	}
	resp, err := http.Post(u, "text/plain", nil)
	if err != nil {
		t.Fatalf("failover: %v", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("failover: %d %s %v", resp.StatusCode, body, err)
	}
	active := strings.TrimSpace(string(body))
	t.Logf("failover (down=%v): NameNode %s is active", down, active)
	return active
}
