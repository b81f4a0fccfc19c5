//go:build integration

package rest

import (
	"context"
	"testing"
	"time"

	"github.com/specbridge/specbridge/internal/itest"
)

// The RM's priority API as the sidecar's job order uses it (serve
// --rm-job-order): a set priority reads back, one above the cluster's
// maximum is capped at it (scripts/minicluster.sh's cluster starts with
// yarn.cluster.max-application-priority 10), an unknown
// application is a 404 naming it, and a malformed id is refused.
func TestIntegrationApplicationPriority(t *testing.T) {
	ctx := context.Background()
	rm, err := NewResourceManager(itest.Env(t, "SPECBRIDGE_RM_WEB"), 10*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	maxPrio, err := rm.ConfValue(ctx, "yarn.cluster.max-application-priority")
	if err != nil {
		t.Fatal(err)
	}
	if maxPrio != "10" {
		t.Fatalf("yarn.cluster.max-application-priority is %q on the mini cluster, want 10 (scripts/minicluster/.../MiniCluster.java sets it)", maxPrio)
	}
	app := itest.SubmitSleeper(t, rm.Base())
	// Submitted without a priority, it reads -1 (Hadoop 3.5) until one is set.
	if p, err := rm.AppPriority(ctx, app); err != nil || p > 0 {
		t.Fatalf("a new application's priority: %d, %v; want 0 or less", p, err)
	}
	for _, c := range []struct{ ask, want int }{{3, 3}, {7, 7}, {11, 10}, {0, 0}} {
		got, err := rm.SetAppPriority(ctx, app, c.ask, itest.SleeperUser)
		if err != nil {
			t.Fatalf("set priority %d: %v", c.ask, err)
		}
		if got != c.want {
			t.Errorf("set priority %d: the RM answered %d, want %d", c.ask, got, c.want)
		}
		if p, err := rm.AppPriority(ctx, app); err != nil || p != c.want {
			t.Errorf("after setting %d the priority reads %d, %v; want %d", c.ask, p, err, c.want)
		}
	}
	missing := "application_1_0001"
	if _, err := rm.SetAppPriority(ctx, missing, 1, itest.SleeperUser); !IsNotFound(err) {
		t.Errorf("priority of an unknown application: %v, want a 404", err)
	}
	if _, err := rm.SetAppPriority(ctx, "not-an-app", 1, itest.SleeperUser); err == nil {
		t.Error("a malformed application id was accepted")
	}
}
