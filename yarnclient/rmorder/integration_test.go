//go:build integration

package rmorder

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/specbridge/specbridge/internal/itest"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/yarnclient/rest"
)

// The job order on a real ResourceManager (scripts/test-integration.sh's
// mini cluster, started with yarn.cluster.max-application-priority 10): the levels are
// read from the RM, the best-ranked job gets the highest priority, a change
// of order is written and an unchanged one is not, an application the RM
// does not know is refused once and left alone, and a forgotten job is no
// longer written.
func TestIntegrationJobOrderSetsApplicationPriorities(t *testing.T) {
	ctx := context.Background()
	web := itest.Env(t, "SPECBRIDGE_RM_WEB")
	rm, err := rest.NewResourceManager(web, 10*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	big, small := itest.SubmitSleeper(t, web), itest.SubmitSleeper(t, web)
	o, err := New(Config{RMs: []string{web}, User: itest.SleeperUser})
	if err != nil {
		t.Fatal(err)
	}
	round := func(want int) {
		t.Helper()
		n, err := o.Round(ctx)
		if err != nil || n != want {
			t.Fatalf("round: %d priorities set, %v; want %d", n, err, want)
		}
	}
	prio := func(app string) int {
		t.Helper()
		p, err := rm.AppPriority(ctx, app)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	ownerBig, ownerSmall := new(int), new(int)
	o.Publish(big, ownerBig, speculators.Priority{Tier: 1, Key: 900})
	o.Publish(small, ownerSmall, speculators.Priority{Tier: 1, Key: 30})
	round(2)
	if got := testutil.ToFloat64(o.levelGauge); got != 10 {
		t.Errorf("levels read from the RM: %v, want 10", got)
	}
	if ps, pb := prio(small), prio(big); ps != 10 || pb != 9 {
		t.Errorf("least work left first: small job %d, big job %d; want 10 and 9", ps, pb)
	}
	round(0) // nothing changed: nothing written
	if d := o.Describe(); !strings.HasPrefix(d, "2 jobs ordered over 10 priority levels, 2 priorities set on "+web) {
		t.Errorf("the dashboard's line: %q", d)
	}

	// The big job's copies come first now (a lower tier): the order flips.
	o.Publish(big, ownerBig, speculators.Priority{Tier: 0, Key: 900})
	round(2)
	if ps, pb := prio(small), prio(big); ps != 9 || pb != 10 {
		t.Errorf("after the flip: small job %d, big job %d; want 9 and 10", ps, pb)
	}

	// An application the RM does not know: refused once, then left alone.
	o.Publish("application_1_0001", new(int), speculators.Priority{Tier: 2})
	round(0)
	if got := testutil.ToFloat64(o.refusals); got != 1 {
		t.Errorf("refusals: %v, want 1", got)
	}
	round(0)
	if got := testutil.ToFloat64(o.refusals); got != 1 {
		t.Errorf("refusals after another round: %v, want still 1", got)
	}

	// Forgotten by another owner: kept; by its own: dropped, the small job
	// alone is the best and is written again.
	o.Forget(big, ownerSmall)
	round(0)
	o.Forget(big, ownerBig)
	round(1)
	if ps, pb := prio(small), prio(big); ps != 10 || pb != 10 {
		t.Errorf("after the big job was forgotten: small job %d (want 10), big job %d (kept its last, 10)", ps, pb)
	}
	if got := testutil.ToFloat64(o.updates); got != 5 {
		t.Errorf("updates: %v, want 5", got)
	}
}
