// Package itest holds what the integration tests (build tag integration)
// share: reading the mini cluster's endpoints from the environment that
// scripts/test-integration.sh exports, and asking the HA HDFS of
// scripts/hdfs-ha-test.sh for a failover. It must not start or stop
// clusters.
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

// HA is the HA mini HDFS of scripts/hdfs-ha-test.sh: its client
// configuration directory (SPECBRIDGE_HA_CONF, for hdfs.UseConf) and a
// trigger that asks its control endpoint (SPECBRIDGE_HA_CONTROL) to fail the
// active NameNode over, and with down to shut the formerly active one down.
// The HA tests run only under that script: without it they skip.
func HA(t testing.TB) (confDir string, failover func(down bool)) {
	t.Helper()
	confDir, control := os.Getenv("SPECBRIDGE_HA_CONF"), os.Getenv("SPECBRIDGE_HA_CONTROL")
	if confDir == "" || control == "" {
		t.Skip("SPECBRIDGE_HA_CONF / SPECBRIDGE_HA_CONTROL unset: run scripts/hdfs-ha-test.sh")
	}
	return confDir, func(down bool) {
		t.Helper()
		u := control + "/failover"
		if down {
			u += "?down=1"
		}
		resp, err := http.Post(u, "text/plain", nil)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("failover: %d %s", resp.StatusCode, body)
		}
		t.Logf("failover: NameNode %s is active", strings.TrimSpace(string(body)))
	}
}
