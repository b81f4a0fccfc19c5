//go:build integration

package rmcapacity

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/specbridge/specbridge/internal/itest"
	"github.com/specbridge/specbridge/speculators/dolly"
	"github.com/specbridge/specbridge/speculators/sca"
	"github.com/specbridge/specbridge/yarnclient/rest"
)

// setNodeMemory changes a real RM's view of node's capacity through its
// REST API (POST /ws/v1/cluster/nodes/{id}/resource, the admin's
// updateNodeResource) and waits until the cluster's metrics show totalMB.
func setNodeMemory(t *testing.T, ctx context.Context, rm *rest.ResourceManager, node string, mb, vcores int, totalMB int64) {
	t.Helper()
	body := fmt.Sprintf(`{"resource":{"memory":%d,"vCores":%d},"overCommitTimeout":-1}`, mb, vcores)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, rm.Base()+"/ws/v1/cluster/nodes/"+url.PathEscape(node)+"/resource?user.name=specbridge-it", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("update node %s resource: HTTP %d: %s", node, resp.StatusCode, msg)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		m, err := rm.ClusterMetrics(ctx)
		if err == nil && m.TotalMB == totalMB {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the RM's totalMB is %d, not %d, 60 s after the node's update (%v)", m.TotalMB, totalMB, err)
		}
		time.Sleep(200 * time.Millisecond) // polling the RM until it shows the change
	}
}

// The watcher reads a real MiniYARNCluster ResourceManager, and sca and
// dolly size a live job's clones by what it reports: the test changes the
// RM's capacity (one NodeManager's memory raised through the RM's own
// admin REST call, so that jobs of other tests running meanwhile lose
// nothing), and the clone counts follow; it puts the node back after.
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
	if len(nodes) == 0 {
		t.Fatal("the mini cluster has no RUNNING NodeManager")
	}
	w, err := New(Config{RMs: []string{addr}, Container: Container{MB: 1024, VCores: 1}, Refresh: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	read := func() (total, free int) {
		t.Helper()
		if err := w.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		total, free, ok := w.Capacity()
		if !ok {
			t.Fatal("a fresh reading is not used")
		}
		return total, free
	}
	before, err := rm.ClusterMetrics(ctx)
	if err != nil {
		t.Fatal(err)
	}
	small, freeSmall := read()
	if want := int(min(before.TotalMB/1024, before.TotalVCores)); small != want || small < 2 {
		t.Fatalf("%d containers read; the RM's metrics say %d MB, %d vcores", small, before.TotalMB, before.TotalVCores)
	}
	n := nodes[0]
	nodeMB, nodeVC := n.UsedMemoryMB+n.AvailMemoryMB, n.UsedVCores+n.AvailVCores
	const extraMB = 8192
	setNodeMemory(t, ctx, rm, n.ID, int(nodeMB+extraMB), nodeVC+8, before.TotalMB+extraMB)
	t.Cleanup(func() { setNodeMemory(t, ctx, rm, n.ID, int(nodeMB), nodeVC, before.TotalMB) })
	big, freeBig := read()
	if big != small+8 {
		t.Fatalf("after 8 GB more: %d containers, want %d", big, small+8)
	}
	t.Logf("real RM %s: %d containers (%d free), then %d (%d free) after node %s got 8 GB more", addr, small, freeSmall, big, freeBig, n.ID)

	capacity := func() (int, int, bool) { return w.Capacity() }
	// Dolly: a job of 4 tasks whose copies fit in budget 0.5 x the
	// containers; SCA: a job of 6.
	dp := map[string]string{"budget": "0.5", "copies": "8"}
	dBig, sBig := clonesLive(t, dolly.Policy(), dp, 4, capacity), clonesLive(t, sca.Policy(), nil, 6, capacity)
	setNodeMemory(t, ctx, rm, n.ID, int(nodeMB), nodeVC, before.TotalMB)
	if total, _ := read(); total != small {
		t.Fatalf("after the node is put back: %d containers, want %d", total, small)
	}
	dSmall, sSmall := clonesLive(t, dolly.Policy(), dp, 4, capacity), clonesLive(t, sca.Policy(), nil, 6, capacity)
	t.Logf("attempts per task: dolly %d at %d containers, %d at %d; sca %d, %d", dBig, big, dSmall, small, sBig, sSmall)
	wantBig, wantSmall := dolly.Clones(4, 10, 8, 0.5, big, 0), dolly.Clones(4, 10, 8, 0.5, small, 0)
	if dBig != wantBig || dSmall != wantSmall || wantBig == wantSmall {
		t.Errorf("dolly: %d then %d attempts per task as containers go %d -> %d; want %d then %d (and a change)", dBig, dSmall, big, small, wantBig, wantSmall)
	}
	if sSmall >= sBig {
		t.Errorf("sca: %d then %d attempts per task as containers go %d -> %d; want fewer", sBig, sSmall, big, small)
	}
}
