// Package alltest hands tests the registry of every shipped policy
// (package all), so that a test needing it does not build it and check the
// error itself.
package alltest

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/all"
)

// Registry is all.Registry(); the test fails at once if it cannot be built
// (two policies sharing a name, a default that does not fit its
// parameter: programming errors).
func Registry(t testing.TB) *speculators.Registry {
	t.Helper()
	r, err := all.Registry()
	if err != nil {
		t.Fatal(err)
	}
	return r
}
