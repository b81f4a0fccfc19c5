package farms

import (
	"fmt"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/late"
	"github.com/specbridge/specbridge/speculators/none"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// testRegistry holds the policies these tests build: late and none as
// bases, and farms and tws. It does not use package all, so the tests do
// not depend on policies other packages are building at the same time.
func testRegistry(t testing.TB) *speculators.Registry {
	t.Helper()
	return spectest.Registry(t, none.Policy(), late.Policy(), Policy(), TWSPolicy())
}

// newHarness builds an engine running policy name (farms, tws or late) for a
// job of the given shape; a task's attempts after its first are copies.
func newHarness(t testing.TB, name string, info speculators.JobInfo, overrides map[string]string) *spectest.Harness {
	t.Helper()
	return spectest.New(t, testRegistry(t), spectest.Job{Policy: name, Info: info, Params: overrides, LaterAttemptsAreCopies: true})
}

func node(i int) speculators.NodeID { return speculators.NodeID(fmt.Sprintf("n%d", i)) }
