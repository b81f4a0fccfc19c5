//go:build integration

package rmcapacity

import (
	"context"
	"testing"
	"time"

	"github.com/specbridge/specbridge/internal/itest"
	"github.com/specbridge/specbridge/speculators/dolly"
	"github.com/specbridge/specbridge/speculators/sca"
	"github.com/specbridge/specbridge/yarnclient/rest"
)

// The watcher reads a real MiniYARNCluster ResourceManager: its count
// agrees with the RM's own node list, and sca and dolly size a live job's
// clones by it. The capacity in containers changes with the container size
// (the same cluster holds half as many 2 GB maps as 1 GB ones), and the
// clone counts follow. (A change of the RM's answer while serve runs is
// TestServeSizesClonesFromTheResourceManager's.)
func TestIntegrationCapacityFromTheResourceManager(t *testing.T) {
	addr := itest.Env(t, "SPECBRIDGE_RM_WEB")
	ctx := context.Background()
	rm, err := rest.NewResourceManager(addr, 10*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	nodes, err := rm.Nodes(ctx, "RUNNING")
	if err != nil {
		t.Fatal(err)
	}
	var mb, vc int64
	for _, n := range nodes {
		mb += n.UsedMemoryMB + n.AvailMemoryMB
		vc += int64(n.UsedVCores + n.AvailVCores)
	}
	if len(nodes) == 0 || mb < 2048 {
		t.Fatalf("the mini cluster's RUNNING nodes %+v hold %d MB", nodes, mb)
	}
	read := func(c Container) (total, free int) {
		t.Helper()
		w, err := New(Config{RMs: []string{addr}, Container: c})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		total, free, ok := w.Capacity()
		if !ok {
			t.Fatal("a fresh reading is not used")
		}
		return total, free
	}
	small, freeSmall := read(Container{MB: 1024, VCores: 1})
	if want := int(min(mb/1024, vc)); small != want || freeSmall > small || freeSmall < 0 {
		t.Fatalf("1 GB containers: %d total, %d free; the node list says %d MB, %d vcores (%d containers)", small, freeSmall, mb, vc, want)
	}
	big, freeBig := read(Container{MB: 2048, VCores: 1})
	if big != int(min(mb/2048, vc)) || big >= small {
		t.Fatalf("2 GB containers: %d total (1 GB: %d)", big, small)
	}
	t.Logf("real RM %s: %d nodes, %d MB, %d vcores: %d (%d free) 1 GB containers, %d (%d free) 2 GB ones", addr, len(nodes), mb, vc, small, freeSmall, big, freeBig)

	fixed := func(total, free int) func() (int, int, bool) {
		return func() (int, int, bool) { return total, free, true }
	}
	// A job of 2 tasks: dolly's budget 0.5 x capacity is the copies' room.
	dp := map[string]string{"budget": "0.5", "copies": "8"}
	dSmall, dBig := clonesLive(t, dolly.Policy(), dp, 2, fixed(small, freeSmall)), clonesLive(t, dolly.Policy(), dp, 2, fixed(big, freeBig))
	sSmall, sBig := clonesLive(t, sca.Policy(), nil, 2, fixed(small, freeSmall)), clonesLive(t, sca.Policy(), nil, 2, fixed(big, freeBig))
	t.Logf("attempts per task: dolly %d at %d containers, %d at %d; sca %d, %d", dSmall, small, dBig, big, sSmall, sBig)
	wantSmall, wantBig := dolly.Clones(2, 10, 8, 0.5, small, 0), dolly.Clones(2, 10, 8, 0.5, big, 0)
	if dSmall != wantSmall || dBig != wantBig || sBig > sSmall {
		t.Errorf("clones do not follow the capacity: dolly %d -> %d (want %d -> %d), sca %d -> %d as containers go %d -> %d",
			dSmall, dBig, wantSmall, wantBig, sSmall, sBig, small, big)
	}
	if wantSmall == wantBig {
		t.Errorf("the mini cluster's %d containers are too many for the check: dolly gives %d attempts either way", small, wantSmall)
	}
}
