package rmcapacity

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/specbridge/specbridge/internal/testclock"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/dolly"
	"github.com/specbridge/specbridge/speculators/ese"
	"github.com/specbridge/specbridge/speculators/sca"
	"github.com/specbridge/specbridge/speculators/spectest"
	"github.com/specbridge/specbridge/yarnclient/rest"
	"github.com/specbridge/specbridge/yarnclient/rmcapacity/rmtest"
)

func TestContainersTakesTheScarcerResource(t *testing.T) {
	c := Container{MB: 1024, VCores: 1}
	for _, tc := range []struct {
		m           rest.ClusterMetrics
		total, free int
	}{
		{rest.ClusterMetrics{TotalMB: 16384, AvailableMB: 8192, TotalVCores: 16, AvailableVCores: 4}, 16, 4},
		{rest.ClusterMetrics{TotalMB: 4096, AvailableMB: 3000, TotalVCores: 16, AvailableVCores: 16}, 4, 2},
		{rest.ClusterMetrics{TotalMB: 4096, AvailableMB: 2048}, 4, 2}, // memory-only scheduler
		{rest.ClusterMetrics{TotalMB: 4096, AvailableMB: 2048, TotalVCores: 8}, 4, 0},
	} {
		total, free := Containers(tc.m, c)
		if total != tc.total || free != tc.free {
			t.Errorf("%+v: %d total, %d free, want %d, %d", tc.m, total, free, tc.total, tc.free)
		}
	}
}

func TestWatcherReadsFailsOverAndGoesStale(t *testing.T) {
	standby := rmtest.New(t, "")
	standby.Down.Store(true)
	active := rmtest.New(t, rmtest.Metrics(16384, 12288, 16, 12))
	clk := testclock.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	w, err := New(Config{RMs: []string{standby.URL, active.URL}, Container: Container{MB: 1024, VCores: 1},
		Refresh: time.Second, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := w.Capacity(); ok {
		t.Fatal("capacity known before any read")
	}
	ctx := context.Background()
	if err := w.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	total, free, ok := w.Capacity()
	if !ok || total != 16 || free != 12 {
		t.Fatalf("capacity %d, %d, %v; want 16, 12, true", total, free, ok)
	}
	// The next read starts at the RM that answered: the standby is not asked again.
	before := standby.Hits.Load()
	active.Set(rmtest.Metrics(16384, 2048, 16, 12))
	if err := w.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if standby.Hits.Load() != before {
		t.Error("the standby RM was asked although the active one answered last")
	}
	if total, free, _ := w.Capacity(); total != 16 || free != 2 {
		t.Errorf("after the change: %d, %d; want 16, 2", total, free)
	}
	// Both down: the error names both, and the reading stays until stale.
	active.Down.Store(true)
	err = w.Refresh(ctx)
	if err == nil || !strings.Contains(err.Error(), standby.URL) || !strings.Contains(err.Error(), active.URL) {
		t.Fatalf("error %v does not name both RMs", err)
	}
	clk.Advance(StaleAfter * time.Second)
	if _, _, ok := w.Capacity(); !ok {
		t.Error("reading dropped before it was stale")
	}
	clk.Advance(time.Millisecond)
	if _, _, ok := w.Capacity(); ok {
		t.Error("stale reading still used")
	}
	if age := w.age; age == nil {
		t.Fatal("no age metric")
	}
}

func TestWatcherRejectsHostileAnswers(t *testing.T) {
	for _, body := range []string{`{"clusterMetrics":{"totalMB":-5,"availableMB":1}}`, `{"clusterMetrics":{"totalMB":"x"}}`, `not json`} {
		rm := rmtest.New(t, body)
		w, err := New(Config{RMs: []string{rm.URL}, Container: Container{MB: 1024, VCores: 1}})
		if err != nil {
			t.Fatal(err)
		}
		err = w.Refresh(context.Background())
		if err == nil || !strings.Contains(err.Error(), rm.URL) {
			t.Errorf("%s: error %v, want one naming the RM", body, err)
		}
		if _, _, ok := w.Capacity(); ok {
			t.Errorf("%s: capacity known after a bad answer", body)
		}
	}
}

// clonesLive runs one live job of tasks maps under policy with capacity
// read from w, starts every map's first attempt, and returns how many
// attempts each task gets (1 + the copies Decide asks for).
func clonesLive(t *testing.T, policy speculators.Policy, params map[string]string, tasks int, capacity speculators.Capacity) int {
	t.Helper()
	return clonesOf(t, policy, params, speculators.JobInfo{Maps: tasks, TaskMillis: 20000, TailIndex: 2, Capacity: capacity}, 0.01)
}

// clonesOf is clonesLive for a job of info whose maps report progress at 1 s.
func clonesOf(t *testing.T, policy speculators.Policy, params map[string]string, info speculators.JobInfo, progress float64) int {
	t.Helper()
	tasks := info.Maps
	h := spectest.For(t, policy, info, params)
	h.AllRunning("n1", 0, spectest.Sec(1), progress, spectest.Maps(0, tasks)...)
	// The engine gives one Speculate per task until a copy starts: start
	// each copy asked for, as the AM would, and ask again.
	per := map[speculators.TaskID]int{}
	for round := 0; round < 16; round++ {
		now := spectest.Sec(2 + float64(round))
		asked := 0
		for _, d := range h.Decide(now) {
			if d.Kind == speculators.Speculate {
				asked++
				for range max(d.Copies, 1) {
					per[d.Task]++
					h.StartCopy(d.Task, speculators.NodeID(fmt.Sprintf("n%d", 1+per[d.Task])), now)
				}
			}
		}
		if asked == 0 {
			break
		}
	}
	if len(per) != 0 && len(per) != tasks {
		t.Fatalf("%s: copies for %d of %d tasks", policy.Name, len(per), tasks)
	}
	return 1 + per[spectest.Map(0)]
}

// TestClonesFollowTheRMCapacity is issue 25's done-when for capacity at the
// unit level: sca, dolly and ese size a live job's clones from what the RM
// reports, and a change of the RM's capacity changes the count; without a
// reading they keep their behaviour without one.
func TestClonesFollowTheRMCapacity(t *testing.T) {
	rm := rmtest.New(t, rmtest.Metrics(8*1024, 4*1024, 8, 4)) // the job's 4 maps hold 4 of 8
	w, err := New(Config{RMs: []string{rm.URL}, Container: Container{MB: 1024, VCores: 1}, Refresh: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	dollyParams := map[string]string{"budget": "0.5", "copies": "4"}
	noRM := func() (int, int, bool) { return 0, 0, false }
	scaBlind, dollyBlind := clonesLive(t, sca.Policy(), nil, 4, noRM), clonesLive(t, dolly.Policy(), dollyParams, 4, noRM)

	if clonesLive(t, sca.Policy(), nil, 4, nil) != scaBlind || clonesLive(t, dolly.Policy(), dollyParams, 4, nil) != dollyBlind {
		t.Error("an unknown capacity does not keep the behaviour without one")
	}
	if err := w.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	scaSmall, dollySmall := clonesLive(t, sca.Policy(), nil, 4, w.Capacity), clonesLive(t, dolly.Policy(), dollyParams, 4, w.Capacity)
	rm.Set(rmtest.Metrics(64*1024, 60*1024, 64, 60))
	if err := w.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	scaBig, dollyBig := clonesLive(t, sca.Policy(), nil, 4, w.Capacity), clonesLive(t, dolly.Policy(), dollyParams, 4, w.Capacity)
	// ESE: a job of 4 maps of 5 s (below xi = 1 unit of 10 s), half done at
	// 1 s, so that no map is a straggler to back up.
	eseJob := speculators.JobInfo{Maps: 4, TaskMillis: 5000, TailIndex: 2, Capacity: w.Capacity}
	eseBig := clonesOf(t, ese.Policy(), nil, eseJob, 0.5)
	rm.Set(rmtest.Metrics(8*1024, 4*1024, 8, 4))
	if err := w.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	eseSmall := clonesOf(t, ese.Policy(), nil, eseJob, 0.5)
	t.Logf("attempts per task: sca %d blind, %d at 8 containers, %d at 64; dolly %d, %d, %d; ese %d at 8, %d at 64",
		scaBlind, scaSmall, scaBig, dollyBlind, dollySmall, dollyBig, eseSmall, eseBig)
	// ESE clones a job only when it is small against the idle slots
	// (m < eta N(l), eta = 0.1): 4 tasks are small in 64 containers, not in 8.
	if eseSmall != 1 || eseBig < 2 {
		t.Errorf("ese: %d attempts per task at 8 containers, %d at 64; want 1, then clones", eseSmall, eseBig)
	}
	// 4 running maps + 4 free of 8: SCA's P2 has room for 2 attempts per task.
	if scaSmall != 2 || scaBig <= scaSmall {
		t.Errorf("sca: %d attempts per task at 8 containers, %d at 64: want 2, then more", scaSmall, scaBig)
	}
	// Dolly: budget 0.5 x 8 containers = 4 extra attempts for 4 tasks, 2
	// attempts each; at 64 containers its cap of 4 copies. Blind, no budget.
	if dollySmall != 2 || dollyBig != 4 || dollyBlind != 4 {
		t.Errorf("dolly: %d, %d, %d attempts per task (blind, 8, 64 containers); want 4, 2, 4", dollyBlind, dollySmall, dollyBig)
	}
}
