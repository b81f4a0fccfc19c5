// Package itest holds what the integration tests (build tag integration)
// share: reading the mini cluster's endpoints from the environment that
// scripts/test-integration.sh exports. It must not start or stop clusters.
package itest

import (
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
