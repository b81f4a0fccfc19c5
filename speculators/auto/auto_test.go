package auto_test

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/all/alltest"
	"github.com/specbridge/specbridge/speculators/auto"
	"github.com/specbridge/specbridge/speculators/grass"
	"github.com/specbridge/specbridge/speculators/spectest"
)

func registry(t testing.TB) *speculators.Registry {
	t.Helper()
	return alltest.Registry(t)
}

// TestData runs the switches in testdata/ (spectest's text format): one
// file per member auto may pick, each decision's reason naming it.
func TestData(t *testing.T) {
	spectest.RunDir(t, "testdata", registry(t))
}

type memberNamer interface{ Member() string }

// The rule's first choice per job, from what is known before it runs, and
// the optional interfaces the fitted policy takes from its members.
func TestFirstMemberAndInterfaces(t *testing.T) {
	reg := registry(t)
	cases := []struct {
		name                  string
		info                  speculators.JobInfo
		member                string
		chooser, prio, cloner bool
	}{
		{"reduces", speculators.JobInfo{ID: "j", Maps: 40, Reduces: 4}, "grass", true, true, true},
		{"reduces, slot pools", speculators.JobInfo{ID: "j", Maps: 40, Reduces: 4, SlotPools: true}, "late", true, true, true},
		{"reduces, no containers member", speculators.JobInfo{ID: "j", Maps: 40, Reduces: 4}, "late", true, true, true},
		{"reduces, no order, no idle cut", speculators.JobInfo{ID: "j", Maps: 40, Reduces: 4}, "grass", true, false, false},
		{"deadline", speculators.JobInfo{ID: "j", Maps: 40, Deadline: 100000}, "grass", true, true, false},
		{"error bound", speculators.JobInfo{ID: "j", Maps: 40, ErrorBound: 0.1}, "grass", true, true, false},
		{"error bound, bounds unordered", speculators.JobInfo{ID: "j", Maps: 40, ErrorBound: 0.1}, "grass", true, false, false},
		{"map-only", speculators.JobInfo{ID: "j", Maps: 40}, "grass", true, true, true},
		{"map-only, map-only unordered", speculators.JobInfo{ID: "j", Maps: 40}, "grass", true, false, false},
		{"pareto", speculators.JobInfo{ID: "j", Maps: 40, TailIndex: 2, TaskMillis: 20000}, "ras", true, true, true},
		{"pareto, never busy", speculators.JobInfo{ID: "j", Maps: 40, TailIndex: 2, TaskMillis: 20000}, "ras", true, true, true},
		{"pareto, unordered", speculators.JobInfo{ID: "j", Maps: 40, TailIndex: 2, TaskMillis: 20000}, "ras", true, false, true},
		{"pareto, never busy, unordered", speculators.JobInfo{ID: "j", Maps: 40, TailIndex: 2, TaskMillis: 20000}, "ras", true, false, false},
		{"small", speculators.JobInfo{ID: "j", Maps: 8, Reduces: 1}, "grass", true, true, true},
		{"heavy tail", speculators.JobInfo{ID: "j", Maps: 60, TailIndex: 1.5, TaskMillis: 20000}, "ras", true, true, true},
	}
	for _, c := range cases {
		var o map[string]string
		if strings.Contains(c.name, "no order") {
			o = map[string]string{auto.ParamOrder: auto.OrderNone, auto.ParamIdleShare: "0"}
		}
		if strings.Contains(c.name, "map-only unordered") {
			o = map[string]string{auto.ParamMapOrder: auto.OrderNone}
		}
		if strings.Contains(c.name, "bounds unordered") {
			o = map[string]string{auto.ParamBoundOrder: auto.OrderNone}
		}
		if strings.Contains(c.name, "no containers member") {
			o = map[string]string{auto.ParamContainers: ""}
		}
		if strings.Contains(c.name, "pareto") {
			o = map[string]string{}
			if strings.Contains(c.name, "never busy") {
				o[auto.ParamParetoLoad] = "1"
			}
			if strings.Contains(c.name, "unordered") {
				o[auto.ParamParetoOrder] = "false"
			}
		}
		e, err := reg.NewEngine(c.info, auto.Name, o, 1)
		if err != nil {
			t.Fatal(err)
		}
		m, ok := e.Policy.(memberNamer)
		if !ok {
			t.Fatalf("%s: the engine's policy %T names no member", c.name, e.Policy)
		}
		if m.Member() != c.member {
			t.Errorf("%s: first member %q, want %q", c.name, m.Member(), c.member)
		}
		if e.ChoosesSlots() != c.chooser || e.Prioritizes() != c.prio || e.Clones() != c.cloner {
			t.Errorf("%s: chooses slots %v, orders jobs %v, clones %v; want %v %v %v", c.name,
				e.ChoosesSlots(), e.Prioritizes(), e.Clones(), c.chooser, c.prio, c.cloner)
		}
	}
}

// A small job placed on an idle cluster is cloned (sca); at busy fraction
// small-busy-load (0.25, rule v8) or above it runs the small busy member
// (ras since rule v12; the busy member, sda, in rules v8-v11); with
// small-busy-load 1 (rule v7) it keeps its member below busy-load (0.4)
// and runs the busy member above. Copies running do not count as load.
func TestSmallJobClonesOnlyWhenTheClusterIsIdle(t *testing.T) {
	reg := registry(t)
	v7 := map[string]string{auto.ParamSmallBusy: "1"}
	v11 := map[string]string{auto.ParamSmallBusyM: ""}
	for _, c := range []struct {
		idle, slots, copies int
		params              map[string]string
		want                string
	}{{90, 100, 0, nil, "sca"}, {70, 100, 0, nil, "ras"}, {70, 100, 0, v11, "sda"}, {76, 100, 0, nil, "sca"}, {70, 100, 0, v7, "grass"}, {50, 100, 0, v7, "sda"}, {50, 100, 0, nil, "ras"}, {50, 100, 40, nil, "sca"}} {
		e, err := reg.NewEngine(speculators.JobInfo{ID: "j", Maps: 8, Reduces: 1, Slots: c.slots}, auto.Name, c.params, 1)
		if err != nil {
			t.Fatal(err)
		}
		e.LaunchCopies(speculators.ClusterView{Idle: c.idle, Slots: c.slots, SpeculativeRunning: c.copies}, 0)
		if got := e.Policy.(memberNamer).Member(); got != c.want {
			t.Errorf("idle %d of %d with %d copies, %v: member %q, want %q", c.idle, c.slots, c.copies, c.params, got, c.want)
		}
	}
}

// A job with reduces larger than small-tasks is small too when it takes at
// most small-idle-share of the idle slots at its first placement, on a
// lightly loaded cluster (rule v3, the tuning scenarios small-idle and
// small-crash); a map-only job of that size is not.
func TestJobOfReducesIsSmallByTheIdleSlots(t *testing.T) {
	reg := registry(t)
	for _, c := range []struct {
		maps, reduces, idle, slots int
		want                       string
	}{
		{18, 2, 72, 80, "sca"},      // 20 tasks, 36 idle slots' half
		{40, 2, 72, 80, "grass"},    // 42 tasks > 36: the containers member
		{18, 2, 50, 80, "grass"},    // busy fraction 0.375
		{20, 0, 72, 80, "grass"},    // map-only: the fixed cut only
		{300, 20, 990, 1000, "sca"}, // relative to the cluster, not a size
	} {
		e, err := reg.NewEngine(speculators.JobInfo{ID: "j", Maps: c.maps, Reduces: c.reduces, Slots: c.slots}, auto.Name, nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		e.LaunchCopies(speculators.ClusterView{Idle: c.idle, Slots: c.slots}, 0)
		if got := e.Policy.(memberNamer).Member(); got != c.want {
			t.Errorf("%d maps %d reduces, idle %d of %d: member %q, want %q", c.maps, c.reduces, c.idle, c.slots, got, c.want)
		}
	}
}

// A bad member name is an error naming the parameter, at construction.
func TestBadMemberIsRefused(t *testing.T) {
	reg := registry(t)
	for _, o := range []map[string]string{{"exact-member": "nosuch"}, {"small-member": "auto"}, {"busy-member": "nosuch"}, {"pareto-busy-member": "auto"}, {"order": "fifo"}} {
		_, _, err := reg.New(auto.Name, o, 1)
		if err == nil {
			t.Errorf("%v: built", o)
			continue
		}
		for k := range o {
			if !strings.Contains(err.Error(), k) {
				t.Errorf("%v: error %q does not name %s", o, err, k)
			}
		}
	}
}

// TestShimMemberCountersNameEveryPolicy: the java-shim counts applied
// decisions per member in a fixed counter group (SpecbridgeMember, an enum:
// the AM's job counters take only enum keys); every policy auto may name as
// a member has its counter there, under its registry name, so that none
// falls into "other" (bridge/PROTOCOL.md, "member").
func TestShimMemberCountersNameEveryPolicy(t *testing.T) {
	const props = "../../java-shim/src/main/resources/org/specbridge/shim/SpecbridgeMember.properties"
	raw, err := os.ReadFile(props)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, l := range strings.Split(string(raw), "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(l), ".name="); ok {
			if want := strings.ReplaceAll(strings.ToUpper(v), "-", "_"); k != want {
				t.Errorf("%s: counter %s shows as %q, want the constant %s", props, k, v, want)
			}
			names[v] = true
		}
	}
	for _, n := range registry(t).Names() {
		if n != auto.Name && !names[n] {
			t.Errorf("policy %s has no counter in %s (and SpecbridgeMember.java): the shim would count it as other", n, props)
		}
	}
	if !names["other"] {
		t.Errorf("%s: no counter for other", props)
	}
}

// An exact map-only job with an a-priori Pareto law runs the Pareto busy
// member (ese) when placed at a busy fraction of at least the larger of
// pareto-busy-load (0.7) and Xu and Lau's omega_U for its tail index
// (0.75 at 2, 0.36 at 3); copies running are not load (rule v4, the tuning
// scenario busy-pareto).
func TestParetoJobRunsTheBusyMemberAboveTheCutoff(t *testing.T) {
	reg := registry(t)
	for _, c := range []struct {
		tail                float64
		idle, slots, copies int
		want                string
	}{
		{2, 20, 100, 0, "ese"},  // 0.80 >= 0.75
		{2, 27, 100, 0, "ras"},  // 0.73: above 0.7, below omega_U(2)
		{3, 27, 100, 0, "ese"},  // 0.73 >= 0.7 > omega_U(3)
		{3, 35, 100, 0, "ras"},  // 0.65 < 0.7
		{2, 20, 100, 30, "ras"}, // 0.50 once ras's copies are left out
	} {
		e, err := reg.NewEngine(speculators.JobInfo{ID: "j", Maps: 40, TailIndex: c.tail, TaskMillis: 20000, Slots: c.slots}, auto.Name, nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		e.LaunchCopies(speculators.ClusterView{Idle: c.idle, Slots: c.slots, SpeculativeRunning: c.copies}, 0)
		if got := e.Policy.(memberNamer).Member(); got != c.want {
			t.Errorf("tail %.0f, idle %d of %d, %d copies: member %q, want %q", c.tail, c.idle, c.slots, c.copies, got, c.want)
		}
	}
}

// A small exact map-only job (at most small-tasks tasks) placed on an idle
// cluster is cloned like a small job with reduces. Rule v3 left it with
// grass: its check that the job runs the bounded member compared member
// indexes, and grass is both the map-only and the bounded member.
func TestSmallMapOnlyJobClonesOnAnIdleCluster(t *testing.T) {
	reg := registry(t)
	for _, c := range []struct {
		idle int
		want string
	}{{90, "sca"}, {60, "grass"}} {
		e, err := reg.NewEngine(speculators.JobInfo{ID: "j", Maps: 8, Slots: 100}, auto.Name, nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		e.LaunchCopies(speculators.ClusterView{Idle: c.idle, Slots: 100}, 0)
		if got := e.Policy.(memberNamer).Member(); got != c.want {
			t.Errorf("idle %d of 100: member %q, want %q", c.idle, got, c.want)
		}
	}
}

// Rule v5: a new exact job with reduces starts on gs when the last exact
// jobs' fitted map-time spread (kept by the driver, read through
// speculators.TailPrior) is at least tail-sigma (0.5); below it, or with no
// earlier job (a job that ran alone, as late-ec2-*), it keeps late.
func TestEarlierJobsSpreadStartsTheTailMember(t *testing.T) {
	reg := registry(t)
	for _, c := range []struct {
		fits []speculators.TailFit
		want string
	}{
		{nil, "late"},
		{[]speculators.TailFit{{Maps: 40, Sigma: 0.8}, {Maps: 30, Sigma: 0.9}}, "gs"},
		{[]speculators.TailFit{{Maps: 40, Sigma: 0.3}, {Maps: 20, Sigma: 0.6}}, "late"}, // weighted 0.4
		// only the last 5 count: an old heavy job is forgotten (five
		// alike jobs of tight map times made the busy member sca, rule v7,
		// until rule v19: the heavy one among the last 16 records keeps
		// the job off the alike member, and on containers it runs grass)
		{[]speculators.TailFit{{Maps: 500, Sigma: 2}, {Maps: 10, Sigma: 0.1}, {Maps: 10, Sigma: 0.1}, {Maps: 10, Sigma: 0.1}, {Maps: 10, Sigma: 0.1}, {Maps: 10, Sigma: 0.1}}, "grass"},
	} {
		store := grass.NewMemoryStore()
		for _, f := range c.fits {
			store.AddTail(f)
		}
		// tail-busy-member empty: at busy 0.7 rule v29 runs ras
		// (TestRuleV29Switch).
		e, err := reg.NewEngineWith(speculators.JobInfo{ID: "j", Maps: 40, Reduces: 4, Slots: 100}, auto.Name, map[string]string{auto.ParamTailBusy: ""}, 1, store)
		if err != nil {
			t.Fatal(err)
		}
		e.LaunchCopies(speculators.ClusterView{Idle: 30, Slots: 100}, 0) // busy 0.7: sda without v5
		want := c.want
		if want == "late" {
			want = "sda"
		}
		if got := e.Policy.(memberNamer).Member(); got != want {
			t.Errorf("fits %v: member %q, want %q", c.fits, got, want)
		}
	}
}

// Rule v6: a new exact job with reduces on a cluster of containers starts on
// the spread member (grass) when the last exact jobs' maps ran slow on at
// least spread-share (0.07) of their nodes; with Hadoop 1 slot pools on
// spread-slots-member (ese, rule v7; none with it empty, as in v6), which
// for slow nodes is spread-slots-slow-member (ras) since rule v28; below
// the cut, or with no earlier job it keeps late (sda when busy); a map-time
// spread over tail-sigma (rule v5) comes first.
func TestEarlierJobsSlowNodesStartTheSpreadMember(t *testing.T) {
	reg := registry(t)
	for _, c := range []struct {
		fits  []speculators.TailFit
		pools bool
		want  string
		param map[string]string
	}{
		{nil, false, "sda", nil},
		{[]speculators.TailFit{{Maps: 40, Sigma: 0.1, Slow: 0.3}, {Maps: 30, Sigma: 0.1, Slow: 0.25}}, false, "grass", nil},
		{[]speculators.TailFit{{Maps: 40, Sigma: 0.1, Slow: 0.3}, {Maps: 30, Sigma: 0.1, Slow: 0.25}}, true, "ras", nil}, // rule v28
		{[]speculators.TailFit{{Maps: 40, Sigma: 0.1, Slow: 0.3}, {Maps: 30, Sigma: 0.1, Slow: 0.25}}, true, "ese", map[string]string{auto.ParamSpreadSlow: ""}},
		{[]speculators.TailFit{{Maps: 40, Sigma: 0.1, Slow: 0.3}, {Maps: 30, Sigma: 0.1, Slow: 0.25}}, true, "hadoop", map[string]string{auto.ParamSpreadPool: ""}}, // busy-slots-member (rule v19)
		{[]speculators.TailFit{{Maps: 40, Sigma: 0.1, Slow: 0.3}, {Maps: 30, Sigma: 0.1, Slow: 0.25}}, true, "sda", map[string]string{auto.ParamSpreadPool: "", auto.ParamBusySlots: ""}},
		{[]speculators.TailFit{{Maps: 40, Sigma: 0.1, Slow: 0.05}, {Maps: 40, Sigma: 0.1, Slow: 0.08}}, false, "sda", nil}, // weighted 0.065
		{[]speculators.TailFit{{Maps: 40, Sigma: 0.1, Slow: 0.07}}, false, "grass", nil},                                   // at the cut
		{[]speculators.TailFit{{Maps: 40, Sigma: 0.8, Slow: 0.5}}, false, "gs", map[string]string{auto.ParamTailBusy: ""}}, // v5 first (busy: ras since v29)
		{[]speculators.TailFit{{Maps: 40, Sigma: 0.8, Slow: 0.5}}, false, "ras", nil},                                      // v5 first, busy: v29
	} {
		store := grass.NewMemoryStore()
		for _, f := range c.fits {
			store.AddTail(f)
		}
		e, err := reg.NewEngineWith(speculators.JobInfo{ID: "j", Maps: 40, Reduces: 4, Slots: 100, SlotPools: c.pools}, auto.Name, c.param, 1, store)
		if err != nil {
			t.Fatal(err)
		}
		e.LaunchCopies(speculators.ClusterView{Idle: 30, Slots: 100}, 0) // busy 0.7: sda without v5 or v6
		if got := e.Policy.(memberNamer).Member(); got != c.want {
			t.Errorf("fits %v, slot pools %v: member %q, want %q", c.fits, c.pools, got, c.want)
		}
	}
}

// Rule v7, busy placements read earlier jobs' fits: an exact map-only job
// without an a-priori law runs map-only-busy-member (sda) at a busy fraction
// of at least 0.7 when their map times spread at least 0.4, and an exact job
// with reduces runs alike-busy-member (sca) instead of sda when at least
// three earlier jobs spread less than 0.25 and ran slow on less than
// spread-share of their nodes.
func TestEarlierJobsChooseTheBusyMember(t *testing.T) {
	reg := registry(t)
	tight := speculators.TailFit{Maps: 40, Sigma: 0.2}
	for _, c := range []struct {
		name    string
		reduces int
		fits    []speculators.TailFit
		idle    int
		want    string
		slots   bool
	}{
		{"map-only, wide, busy", 0, []speculators.TailFit{{Maps: 40, Sigma: 0.5}}, 30, "sda", false},
		{"map-only, wide, below 0.7", 0, []speculators.TailFit{{Maps: 40, Sigma: 0.5}}, 31, "grass", false},
		{"map-only, narrow, busy", 0, []speculators.TailFit{{Maps: 40, Sigma: 0.39}}, 30, "grass", false},
		// Rule v35: before any record, busy, rule v7's member.
		{"map-only, no earlier job", 0, nil, 30, "sda", false},
		{"map-only, no earlier job, below 0.7", 0, nil, 31, "grass", false},
		{"reduces, three alike", 4, []speculators.TailFit{tight, tight, tight}, 30, "sca", false},
		{"reduces, two alike", 4, []speculators.TailFit{tight, tight}, 30, "sda", false},
		{"reduces, three weighted 0.25", 4, []speculators.TailFit{tight, tight, {Maps: 40, Sigma: 0.35}}, 30, "sda", false},
		{"reduces, three alike, slow on 0.02 of nodes", 4, []speculators.TailFit{tight, tight, {Maps: 40, Sigma: 0.2, Slow: 0.06}}, 30, "sca", false},
		// Rule v20: alike records, not busy: ras (alike-idle-member) in
		// place of containers-member, grass; not on slot pools (late),
		// nor at a spread of alike-idle-sigma (0.26) or more.
		{"reduces, three alike, not busy", 4, []speculators.TailFit{tight, tight, tight}, 61, "ras", false},
		{"reduces, three alike at 0.26, not busy", 4, repeat(speculators.TailFit{Maps: 40, Sigma: 0.26}, 3), 61, "grass", false},
		{"reduces, three alike, one slow, not busy", 4, []speculators.TailFit{tight, tight, {Maps: 40, Sigma: 0.2, Slow: 0.1}}, 61, "grass", false},
		{"reduces, slot pools, three alike, not busy (rule v49)", 4, []speculators.TailFit{tight, tight, tight}, 61, "grass", true},
		// Rule v19: a wide record among the last 16 map records (a burst's
		// heavy tail among a steady tenant's tight jobs) keeps the job off
		// the alike member; on containers it runs the spread member.
		{"reduces, ten alike after a wide one", 4, append([]speculators.TailFit{{Maps: 40, Sigma: 0.9}}, repeat(tight, 10)...), 30, "grass", false},
		{"reduces, sixteen alike after a wide one", 4, append([]speculators.TailFit{{Maps: 40, Sigma: 0.9}}, repeat(tight, 16)...), 30, "sca", false},
		// Rule v19: on slot pools the busy member is busy-slots-member.
		{"reduces, slot pools, busy", 4, nil, 30, "hadoop", true},
		{"reduces, slot pools, three alike", 4, []speculators.TailFit{tight, tight, tight}, 30, "sca", true},
		{"reduces, slot pools, ten alike after a wide one", 4, append([]speculators.TailFit{{Maps: 40, Sigma: 0.9}}, repeat(tight, 10)...), 30, "hadoop", true},
	} {
		store := grass.NewMemoryStore()
		for _, f := range c.fits {
			store.AddTail(f)
		}
		// JobOrder: a scenario's replay, which applies the job order
		// (rule v21's switch is TestRuleV21Switch).
		e, err := reg.NewEngineWith(speculators.JobInfo{ID: "j", Maps: 40, Reduces: c.reduces, Slots: 100, SlotPools: c.slots, JobOrder: true}, auto.Name, nil, 1, store)
		if err != nil {
			t.Fatal(err)
		}
		e.LaunchCopies(speculators.ClusterView{Idle: c.idle, Slots: 100}, 0)
		if got := e.Policy.(memberNamer).Member(); got != c.want {
			t.Errorf("%s: member %q, want %q", c.name, got, c.want)
		}
	}
}

// Rule v20's two switches: each names itself in the member's reason, and
// its empty value restores rule v19's member.
func TestRuleV20Switches(t *testing.T) {
	reg := registry(t)
	tight := speculators.TailFit{Maps: 40, Sigma: 0.2}
	type why interface{ Why() string }
	for _, c := range []struct {
		name         string
		maps, idle   int
		fits         []speculators.TailFit
		param        map[string]string
		want, param2 string
	}{
		{"alike records, not busy", 40, 61, repeat(tight, 3), nil, "ras", auto.ParamAlikeIdle},
		{"alike records, not busy, v19", 40, 61, repeat(tight, 3), map[string]string{auto.ParamAlikeIdle: ""}, "grass", ""},
		{"one map and one reduce, busy", 1, 70, nil, nil, "hadoop", auto.ParamSingleTask},
		{"one map and one reduce, busy, v19", 1, 70, nil, map[string]string{auto.ParamSingleTask: ""}, "ras", ""},
		{"one map and one reduce, idle", 1, 95, nil, nil, "sca", ""},
		{"two maps and one reduce, busy", 2, 70, nil, nil, "ras", ""},
	} {
		store := grass.NewMemoryStore()
		for _, f := range c.fits {
			store.AddTail(f)
		}
		reduces := 4
		if c.maps < 40 {
			reduces = 1
		}
		e, err := reg.NewEngineWith(speculators.JobInfo{ID: "j", Maps: c.maps, Reduces: reduces, Slots: 100}, auto.Name, c.param, 1, store)
		if err != nil {
			t.Fatal(err)
		}
		e.LaunchCopies(speculators.ClusterView{Idle: c.idle, Slots: 100}, 0)
		if got := e.Policy.(memberNamer).Member(); got != c.want {
			t.Errorf("%s: member %q, want %q", c.name, got, c.want)
		}
		if w := e.Policy.(why).Why(); c.param2 != "" && !strings.Contains(w, "("+c.param2+")") {
			t.Errorf("%s: reason %q does not name %s", c.name, w, c.param2)
		}
	}
}

// Rule v70: a job of one map and one reduce placed on an idle cluster of
// containers, while earlier jobs' clones running hold at least
// single-task-clone-budget (0.05) of the slots, runs single-task-member
// (hadoop) rather than the small member's clones, its reason naming the
// switch; below the budget, with the switch off (0), on slot pools or for
// a job of two maps it clones as in rule v66.
func TestRuleV70SingleTaskCloneBudget(t *testing.T) {
	reg := registry(t)
	type why interface{ Why() string }
	for _, c := range []struct {
		name         string
		maps, clones int
		pools        bool
		param        map[string]string
		want         string
		namesV70     bool
	}{
		{"one map and one reduce, clones at the budget", 1, 5, false, nil, "hadoop", true},
		{"one map and one reduce, clones above the budget", 1, 12, false, nil, "hadoop", true},
		{"one map and one reduce, clones below the budget", 1, 4, false, nil, "sca", false},
		{"one map and one reduce, switch off (v66)", 1, 12, false, map[string]string{auto.ParamSingleBudget: "0"}, "sca", false},
		{"one map and one reduce, slot pools", 1, 12, true, nil, "sca", false},
		{"two maps and one reduce", 2, 12, false, nil, "sca", false},
	} {
		e, err := reg.NewEngineWith(speculators.JobInfo{ID: "j", Maps: c.maps, Reduces: 1, Slots: 100, SlotPools: c.pools, JobOrder: true}, auto.Name, c.param, 1, grass.NewMemoryStore())
		if err != nil {
			t.Fatal(err)
		}
		e.LaunchCopies(speculators.ClusterView{Idle: 100 - c.clones - 2, Slots: 100, SpeculativeRunning: c.clones}, 0)
		if got := e.Policy.(memberNamer).Member(); got != c.want {
			t.Errorf("%s: member %q, want %q", c.name, got, c.want)
		}
		if w := e.Policy.(why).Why(); strings.Contains(w, "("+auto.ParamSingleBudget+")") != c.namesV70 {
			t.Errorf("%s: reason %q, naming %s: %v", c.name, w, auto.ParamSingleBudget, c.namesV70)
		}
	}
}

// Rule v21: where the cluster does not apply the job order (JobInfo.JobOrder
// false), the busy map-only job after widely spread records runs
// unordered-map-only-busy-member (mantri), its reason naming the switch; with
// the order it runs sda as in rules v7-v20, and the parameter's empty value
// restores sda without it too. Below the busy cut both run grass.
func TestRuleV21Switch(t *testing.T) {
	reg := registry(t)
	for _, c := range []struct {
		name     string
		order    bool
		idle     int
		param    map[string]string
		want     string
		namesV21 bool
	}{
		{"no job order, busy", false, 30, nil, "mantri", true},
		{"job order, busy", true, 30, nil, "sda", false},
		{"no job order, busy, v20", false, 30, map[string]string{auto.ParamUnordMapB: ""}, "sda", false},
		{"no job order, below the busy cut", false, 31, nil, "grass", false},
	} {
		store := grass.NewMemoryStore()
		store.AddTail(speculators.TailFit{Maps: 40, Sigma: 0.5})
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 40, Slots: 100, JobOrder: c.order}, c.param, store)
		e.LaunchCopies(speculators.ClusterView{Idle: c.idle, Slots: 100}, 0)
		checkSwitch(t, c.name, e, c.want, auto.ParamUnordMapB, c.namesV21)
	}
}

// Rule v22: where the cluster does not apply the job order, an exact job
// with reduces on containers placed at a busy fraction of at least
// unordered-busy-load, after map records that spread at least
// unordered-busy-sigma, runs unordered-busy-member (hadoop) over the busy
// member, its reason naming the switch. With the order, below either cut,
// with the parameter empty, on slot pools, or after records wide enough for
// the tail member, it runs what rule v21 ran.
func TestRuleV22Switch(t *testing.T) {
	reg := registry(t)
	for _, c := range []struct {
		name     string
		order    bool
		pools    bool
		sigma    float64
		idle     int
		param    map[string]string
		want     string
		namesV22 bool
	}{
		{"no job order, busy 0.8", false, false, 0.3, 20, nil, "hadoop", true},
		{"no job order, busy 0.75", false, false, 0.3, 25, nil, "hadoop", true},
		{"job order, busy 0.8", true, false, 0.3, 20, nil, "sda", false},
		{"no job order, below the cut", false, false, 0.3, 26, nil, "sda", false},
		{"no job order, tight records", false, false, 0.2, 20, nil, "sda", false},
		{"no job order, v21", false, false, 0.3, 20, map[string]string{auto.ParamUnordBusy: ""}, "sda", false},
		{"no job order, tail records", false, false, 0.6, 20, map[string]string{auto.ParamTailBusy: ""}, "gs", false},
		{"no job order, slot pools", false, true, 0.3, 20, map[string]string{auto.ParamBusySlots: ""}, "sda", false},
	} {
		store := grass.NewMemoryStore()
		store.AddTail(speculators.TailFit{Maps: 40, Sigma: c.sigma})
		info := speculators.JobInfo{ID: "j", Maps: 40, Reduces: 5, Slots: 100, JobOrder: c.order, SlotPools: c.pools}
		e := newAuto(t, reg, info, c.param, store)
		e.LaunchCopies(speculators.ClusterView{Idle: c.idle, Slots: 100}, 0)
		checkSwitch(t, c.name, e, c.want, auto.ParamUnordBusy, c.namesV22)
	}
}

// Rule v24: a job with a deadline or an error bound, after exact jobs'
// map records whose copies won less than futile-copy-wins (0.1) of at least
// three copied maps, runs futile-bounded-member (none) from its first decision,
// its reason naming the switch. Copies that won more, too few copied maps,
// or the parameter empty (rule v23) leave it on the bounded member, grass;
// an exact job with such records is not moved by the switch.
func TestRuleV24Switch(t *testing.T) {
	reg := registry(t)
	for _, c := range []struct {
		name         string
		bound        float64
		copied, wins int
		param        map[string]string
		want         string
		namesV24     bool
	}{
		{"error bound, copies never won", 0.1, 20, 0, nil, "none", true},
		{"error bound, copies won 0.25", 0.1, 20, 5, nil, "grass", false},
		{"error bound, two copied maps", 0.1, 2, 0, nil, "grass", false},
		{"error bound, v23", 0.1, 20, 0, map[string]string{auto.ParamFutileBound: ""}, "grass", false},
		// Rule v32 moves such an exact job (TestRuleV32Switch); without
		// it, rule v24's switch leaves it alone.
		{"exact job, copies never won", 0, 20, 0, map[string]string{auto.ParamFutileMaps: "0"}, "grass", false},
		{"exact job, copies never won, v32", 0, 20, 0, nil, "sca", false},
	} {
		store := grass.NewMemoryStore()
		store.AddTail(speculators.TailFit{Maps: 40, Sigma: 0.2, Copied: c.copied, CopyWins: c.wins})
		info := speculators.JobInfo{ID: "j", Maps: 40, Reduces: 5, Slots: 100, ErrorBound: c.bound, JobOrder: true}
		checkSwitch(t, c.name, newAuto(t, reg, info, c.param, store), c.want, auto.ParamFutileBound, c.namesV24)
	}
}

// Rule v25: an exact job with reduces after reduce records whose copies won
// less than futile-reduce-wins (0.05) of at least three copied reduces, and
// map records that copied fewer than three maps, runs futile-reduce-member
// (sca) in place of futile-member (hadoop), its reason naming the switch;
// the evidence is read over the records that copied, so that newer records
// of no copies (as the jobs sca runs write them) do not push it out. With
// the parameter empty (rule v24) the job runs hadoop while a copied record
// is among the last five, and its first member (grass, on containers) once
// five records of no copies follow; copies that won 0.25 leave it on grass.
// Without the job order rule v25 is rule v24 (hadoop).
func TestRuleV25Switch(t *testing.T) {
	reg := registry(t)
	losing := speculators.TailFit{Reduces: 8, Copied: 8, CopyWins: 0}
	quiet := speculators.TailFit{Reduces: 8}
	for _, c := range []struct {
		name     string
		records  []speculators.TailFit
		param    map[string]string
		noOrder  bool
		want     string
		namesV25 bool
	}{
		{"reduce copies never won", []speculators.TailFit{losing}, nil, false, "sca", true},
		{"then five records of no copies", append([]speculators.TailFit{losing}, repeat(quiet, 5)...), nil, false, "sca", true},
		{"reduce copies never won, v24", []speculators.TailFit{losing}, map[string]string{auto.ParamFutileRedM: ""}, false, "hadoop", false},
		{"then five records of no copies, v24", append([]speculators.TailFit{losing}, repeat(quiet, 5)...), map[string]string{auto.ParamFutileRedM: ""}, false, "grass", false},
		{"reduce copies won 0.25", []speculators.TailFit{{Reduces: 8, Copied: 8, CopyWins: 2}}, nil, false, "grass", false},
		{"two copied reduces", []speculators.TailFit{{Reduces: 8, Copied: 2}}, nil, false, "grass", false},
		{"reduce copies never won, no job order", []speculators.TailFit{losing}, nil, true, "hadoop", false},
	} {
		store := grass.NewMemoryStore()
		store.AddTail(speculators.TailFit{Maps: 40, Sigma: 0.3})
		for _, f := range c.records {
			store.AddTail(f)
		}
		info := speculators.JobInfo{ID: "j", Maps: 40, Reduces: 5, Slots: 100, JobOrder: !c.noOrder}
		checkSwitch(t, c.name, newAuto(t, reg, info, c.param, store), c.want, auto.ParamFutileRedM, c.namesV25)
	}
}

// Rule v26: a job with a deadline whose tasks are at least deadline-waves
// (2) times the slots it can hold runs deadline-waves-member (hadoop) from
// its first decision, its reason naming the switch. Fewer waves, an error
// bound, the parameter empty (rule v25), or unknown slots leave it on grass;
// rule v24's evidence (map copies that never won) stands over it (none).
func TestRuleV26Switch(t *testing.T) {
	reg := registry(t)
	for _, c := range []struct {
		name               string
		maps, slots        int
		deadline           speculators.Time
		errorBound         float64
		losing             bool
		param              map[string]string
		want               string
		namesV26, namesV24 bool
	}{
		{"deadline, 2.5 waves", 250, 100, 600000, 0, false, nil, "hadoop", true, false},
		{"deadline, exactly 2 waves", 200, 100, 600000, 0, false, nil, "hadoop", true, false},
		{"deadline, 1.9 waves", 190, 100, 600000, 0, false, nil, "grass", false, false},
		{"error bound, 2.5 waves", 250, 100, 0, 0.1, false, nil, "grass", false, false},
		{"deadline, 2.5 waves, v25", 250, 100, 600000, 0, false, map[string]string{auto.ParamWavesMember: ""}, "grass", false, false},
		{"deadline, 2.5 waves, cut 3", 250, 100, 600000, 0, false, map[string]string{auto.ParamWaves: "3"}, "grass", false, false},
		{"deadline, slots unknown", 250, 0, 600000, 0, false, nil, "grass", false, false},
		{"deadline, 2.5 waves, copies never won", 250, 100, 600000, 0, true, nil, "none", false, true},
	} {
		store := grass.NewMemoryStore()
		if c.losing {
			store.AddTail(speculators.TailFit{Maps: 40, Sigma: 0.2, Copied: 20})
		}
		info := speculators.JobInfo{ID: "j", Maps: c.maps, Slots: c.slots, Deadline: c.deadline, ErrorBound: c.errorBound, JobOrder: true}
		e := newAuto(t, reg, info, c.param, store)
		checkSwitch(t, c.name, e, c.want, auto.ParamWavesMember, c.namesV26)
		checkSwitch(t, c.name, e, c.want, auto.ParamFutileBound, c.namesV24)
	}
}

// repeat is n copies of f.
func repeat(f speculators.TailFit, n int) []speculators.TailFit {
	out := make([]speculators.TailFit, n)
	for i := range out {
		out[i] = f
	}
	return out
}

// SlowShare counts nodes, not attempts: a node whose maps' median time is
// at least 1.5x the job's median is slow however few maps it ran; a killed
// attempt counts with its time over its progress, a failed one not at all.
func TestSlowShareCountsSlowNodes(t *testing.T) {
	job, err := speculators.NewJob(speculators.JobInfo{ID: "j", Maps: 13, Reduces: 1})
	if err != nil {
		t.Fatal(err)
	}
	at := func(task int, node string, start, finish speculators.Time, st speculators.AttemptState, progress float64) {
		tk := job.Tasks[speculators.Map][task]
		tk.Attempts = append(tk.Attempts, &speculators.Attempt{Node: speculators.NodeID(node), Start: start, Finish: finish, State: st, Progress: progress})
	}
	s := speculators.Time(1000)
	for i := 0; i < 10; i++ { // four fast nodes, 20 s maps
		at(i, []string{"f1", "f2", "f3", "f4"}[i%4], 0, 20*s, speculators.StateSucceeded, 1)
	}
	at(10, "s1", 0, 40*s, speculators.StateSucceeded, 1)    // slow: 2x
	at(11, "s2", 0, 30*s, speculators.StateKilled, 0.5)     // killed at half: 60 s, slow
	at(12, "s3", 0, 90*s, speculators.StateFailed, 0.2)     // failed: left out
	at(12, "f1", 30*s, 51*s, speculators.StateSucceeded, 1) // the copy on a fast node
	if got, want := auto.SlowShare(job), 2.0/6; math.Abs(got-want) > 1e-12 {
		t.Errorf("SlowShare %.4f, want %.4f (2 slow of 6 nodes)", got, want)
	}
}

// Rule v8's two records: FitTail counts the maps that had a copy and those
// a copy won; FitReduces is the share of the nodes that ran the job's
// reduces on which they took at least twice the job's median reduce, and
// none with fewer than 6 reduce times.
func TestFitsCountCopiesAndSlowReduceNodes(t *testing.T) {
	job, err := speculators.NewJob(speculators.JobInfo{ID: "j", Maps: 12, Reduces: 6})
	if err != nil {
		t.Fatal(err)
	}
	at := func(ty speculators.TaskType, task int, node string, start, finish speculators.Time, st speculators.AttemptState, spec bool) {
		tk := job.Tasks[ty][task]
		tk.Attempts = append(tk.Attempts, &speculators.Attempt{Node: speculators.NodeID(node), Start: start, Finish: finish, State: st, Progress: 1, Speculative: spec})
	}
	s := speculators.Time(1000)
	for i := 0; i < 12; i++ {
		at(speculators.Map, i, "n1", 0, 20*s, speculators.StateSucceeded, false)
	}
	// Three maps copied: m0's copy won (its original killed), m1's and m2's lost.
	job.Tasks[speculators.Map][0].Attempts[0].State = speculators.StateKilled
	at(speculators.Map, 0, "n2", 5*s, 15*s, speculators.StateSucceeded, true)
	at(speculators.Map, 1, "n2", 10*s, 20*s, speculators.StateKilled, true)
	at(speculators.Map, 2, "n3", 10*s, 20*s, speculators.StateKilled, true)
	f, ok := auto.FitTail(job, 20*s)
	if !ok || f.Copied != 3 || f.CopyWins != 1 || f.IsReduce() || !f.Valid() {
		t.Errorf("FitTail %+v (ok %v), want a valid map record with 3 copied, 1 won", f, ok)
	}
	// 30 s reduces; r4's takes 1.8x (under 2x), r5's 2.5x.
	for i, d := range []speculators.Time{30, 30, 30, 30, 54} {
		at(speculators.Reduce, i, fmt.Sprintf("r%d", i), 20*s, (20+d)*s, speculators.StateSucceeded, false)
	}
	if _, ok := auto.FitReduces(job, 95*s); ok {
		t.Error("FitReduces with 5 reduce times: a record, want none")
	}
	at(speculators.Reduce, 5, "r5", 20*s, 95*s, speculators.StateSucceeded, false)
	r, ok := auto.FitReduces(job, 95*s)
	if !ok || !r.IsReduce() || r.Reduces != 6 || math.Abs(r.ReduceSlow-1.0/6) > 1e-12 || !r.Valid() {
		t.Errorf("FitReduces %+v (ok %v), want a valid reduce record of 6 times, slow on 1/6 of nodes", r, ok)
	}
}

// Rule v9: a reduce record carries the spread of the job's original
// reduces, fitted as the map spread is ((q50 - q10) / z(0.9) of their log
// times; a copy's time is not read), and none (0) with fewer than 6
// original reduces.
func TestFitReducesSpread(t *testing.T) {
	job, err := speculators.NewJob(speculators.JobInfo{ID: "j", Maps: 1, Reduces: 7})
	if err != nil {
		t.Fatal(err)
	}
	s := speculators.Time(1000)
	add := func(task int, d speculators.Time, spec bool) {
		tk := job.Tasks[speculators.Reduce][task]
		tk.Attempts = append(tk.Attempts, &speculators.Attempt{Node: speculators.NodeID(fmt.Sprintf("n%d", task)), Start: 0, Finish: d * s, State: speculators.StateSucceeded, Progress: 1, Speculative: spec})
	}
	times := []speculators.Time{10, 20, 30, 40, 50, 60}
	for i, d := range times {
		add(i, d, false)
	}
	add(6, 500, true) // a copy: not an original, not read by the spread
	var logs []float64
	for _, d := range times {
		logs = append(logs, math.Log(float64(d*s)))
	}
	want := (speculators.Percentile(logs, 50) - speculators.Percentile(logs, 10)) / 1.2815515655446004
	r, ok := auto.FitReduces(job, 60*s)
	if !ok || math.Abs(r.ReduceSigma-want) > 1e-12 || r.ReduceSigma <= 0 || !r.Valid() {
		t.Errorf("FitReduces %+v (ok %v), want a valid record with reduce spread %.4f", r, ok, want)
	}
	// Five originals (and two copies): a record of 7 reduce times, no spread.
	job.Tasks[speculators.Reduce][5].Attempts[0].Speculative = true
	if r, ok := auto.FitReduces(job, 60*s); !ok || r.ReduceSigma != 0 {
		t.Errorf("FitReduces with 5 original reduces %+v (ok %v), want a record without a spread", r, ok)
	}
}

// Rule v17: a map record's upper-half spread, (q90 - q50) / z(0.9) of the
// original maps' log times, reads an original a copy beat at its time over
// its progress: 20 maps, 19 of them 10-28 s (the last at 28 s), and the
// slowest killed by its copy at 20 s and 0.25 of its progress, so 80 s.
// Read at the time it ran (as the lower half is), it would be 20 s and
// leave the upper half narrow.
func TestFitTailUpperHalfReadsBeatenOriginalsAtTheirPace(t *testing.T) {
	job, err := speculators.NewJob(speculators.JobInfo{ID: "j", Maps: 20, Reduces: 1})
	if err != nil {
		t.Fatal(err)
	}
	s := speculators.Time(1000)
	var logs []float64
	for i := 0; i < 20; i++ {
		a := &speculators.Attempt{Node: "n1", Start: 0, Finish: speculators.Time(10+i) * s, State: speculators.StateSucceeded, Progress: 1}
		d := float64(10 + i)
		if i == 19 {
			a.Finish, a.State, a.Progress = 20*s, speculators.StateKilled, 0.25
			d = 80
		}
		job.Tasks[speculators.Map][i].Attempts = append(job.Tasks[speculators.Map][i].Attempts, a)
		logs = append(logs, math.Log(d*1000))
	}
	f, ok := auto.FitTail(job, 30*s)
	want := (speculators.Percentile(logs, 90) - speculators.Percentile(logs, 50)) / 1.2815515655446004
	if !ok || math.Abs(f.Upper-want) > 1e-12 || !f.Valid() {
		t.Errorf("FitTail upper %.4f (ok %v), want %.4f", f.Upper, ok, want)
	}
}

// Rule v23 (busy-copies-after-originals): a job the busy member (sda) runs
// takes sda's copies level, ahead of every other job, only once every
// original is placed; with an original still to place it stays in order's
// level. False is rules v4-v22: the copies level whenever a copy waits.
func TestRuleV23BusyCopiesLevel(t *testing.T) {
	reg := registry(t)
	for _, c := range []struct {
		name          string
		reducePlaced  bool
		param         map[string]string
		wantTier      int
		wantSpeculate bool
	}{
		{"originals to place", false, nil, 1, true},
		{"every original placed", true, nil, 0, true},
		{"originals to place, v22", false, map[string]string{auto.ParamBusyCopies: "false"}, 0, true},
		{"every original placed, v22", true, map[string]string{auto.ParamBusyCopies: "false"}, 0, true},
	} {
		info := speculators.JobInfo{ID: "j", Maps: 12, Reduces: 1, Slots: 100, TaskMillis: 20000, JobOrder: true}
		h := spectest.New(t, reg, spectest.Job{Policy: auto.Name, Info: info, Params: c.param})
		h.Engine.LaunchCopies(speculators.ClusterView{Idle: 20, Slots: 100}, 0)
		if got := h.Policy().(memberNamer).Member(); got != "sda" {
			t.Fatalf("%s: member %q, want sda (busy 0.8)", c.name, got)
		}
		h.AllRunning("n1", 0, spectest.Sec(30), 0.9, spectest.Maps(0, 11)...)
		h.Running(spectest.Map(11), "n2", 0, spectest.Sec(30), 0.1)
		if c.reducePlaced {
			h.Start(spectest.Reduce(0), "n3", spectest.Sec(1))
		}
		if got := len(h.Speculated(spectest.Sec(30))) > 0; got != c.wantSpeculate {
			t.Fatalf("%s: speculated %t, want %t", c.name, got, c.wantSpeculate)
		}
		if pr := h.Engine.JobPriority(spectest.Sec(31)); pr.Tier != c.wantTier {
			t.Errorf("%s: tier %d, want %d", c.name, pr.Tier, c.wantTier)
		}
	}
}

// newAuto is auto's engine for info with param, reading store.
// TestRuleV27Switch: an exact job with reduces leaves its member for
// lost-output-member (hadoop) at its first lost map output (a succeeded
// map attempt killed afterwards), not at a node failure, a map attempt
// that fails before it succeeds, or with the parameter empty; a job with a
// deadline keeps the bounded member, and without the job order on free
// slots the job keeps its member (rule v27 is rule v26 there).
func TestRuleV27Switch(t *testing.T) {
	reg := registry(t)
	m0 := speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map, Index: 0}}
	m1 := speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map, Index: 1}}
	started := func(a speculators.AttemptID, at speculators.Time) speculators.Event {
		return speculators.Event{Kind: speculators.AttemptStarted, Time: at, Attempt: a, Node: "n1"}
	}
	ev := func(k speculators.EventKind, a speculators.AttemptID, at speculators.Time) speculators.Event {
		return speculators.Event{Kind: k, Time: at, Attempt: a}
	}
	nodeFailed := speculators.Event{Kind: speculators.NodeFailed, Time: 20000, Node: "n1"}
	lost := []speculators.Event{started(m0, 0), started(m1, 0), ev(speculators.AttemptSucceeded, m0, 10000), ev(speculators.AttemptKilled, m0, 30000)}
	failedEarly := []speculators.Event{started(m0, 0), started(m1, 0), ev(speculators.AttemptFailed, m1, 10000), nodeFailed}
	for _, c := range []struct {
		name     string
		deadline speculators.Time
		noOrder  bool
		events   []speculators.Event
		param    map[string]string
		before   string
		want     string
		named    bool
	}{
		{"output lost", 0, false, lost, nil, "grass", "hadoop", true},
		{"output lost, no job order", 0, true, lost, nil, "grass", "grass", false},
		{"output lost, v26", 0, false, lost, map[string]string{auto.ParamLostMember: ""}, "grass", "grass", false},
		{"output lost, member late", 0, false, lost, map[string]string{auto.ParamLostMember: "late"}, "grass", "late", true},
		{"node failed, a map failed before it succeeded", 0, false, failedEarly, nil, "grass", "grass", false},
		{"deadline, output lost", 600000, false, lost, nil, "grass", "grass", false},
	} {
		info := speculators.JobInfo{ID: "j", Maps: 2, Reduces: 1, Deadline: c.deadline, JobOrder: !c.noOrder}
		e := newAuto(t, reg, info, c.param, grass.NewMemoryStore())
		checkSwitch(t, c.name+" (before)", e, c.before, auto.ParamLostMember, false)
		for i := range c.events {
			if err := e.Observe(&c.events[i]); err != nil {
				t.Fatalf("%s: event %d: %v", c.name, i, err)
			}
		}
		checkSwitch(t, c.name, e, c.want, auto.ParamLostMember, c.named)
	}
}

// Rule v28: on Hadoop 1 slot pools, a job whose earlier records show slow
// nodes (maps slow on at least spread-share of their nodes, or reduces on
// at least reduce-spread-share) runs spread-slots-slow-member (ras) where
// rule v7 ran spread-slots-member (ese), the reason naming the switch;
// reduce times that spread on alike nodes (rule v9) keep ese, as do
// containers (grass), records below the cuts, a wide map spread (rule v5's
// gs first) and the parameter empty.
func TestRuleV28Switch(t *testing.T) {
	reg := registry(t)
	slowMaps := []speculators.TailFit{{Maps: 40, Sigma: 0.4, Slow: 0.2}, {Maps: 30, Sigma: 0.35, Slow: 0.15}}
	slowReduces := []speculators.TailFit{{Maps: 40, Sigma: 0.3, Slow: 0.02}, {Reduces: 6, ReduceSlow: 0.3}, {Maps: 30, Sigma: 0.3}, {Reduces: 6, ReduceSlow: 0.2}}
	wideReduces := []speculators.TailFit{{Maps: 40, Sigma: 0.1}, {Reduces: 30, ReduceSigma: 0.4}, {Maps: 30, Sigma: 0.1}, {Reduces: 40, ReduceSigma: 0.35}}
	fewSlow := []speculators.TailFit{{Maps: 40, Sigma: 0.3, Slow: 0.05}, {Maps: 40, Sigma: 0.3, Slow: 0.06}}
	wideMaps := []speculators.TailFit{{Maps: 40, Sigma: 0.6, Slow: 0.2}}
	for _, c := range []struct {
		name  string
		fits  []speculators.TailFit
		pools bool
		param map[string]string
		want  string
		named bool
	}{
		{"slot pools, slow maps", slowMaps, true, nil, "ras", true},
		{"slot pools, slow reduces", slowReduces, true, nil, "ras", true},
		{"slot pools, slow maps, member grass", slowMaps, true, map[string]string{auto.ParamSpreadSlow: "grass"}, "grass", true},
		{"slot pools, slow maps, v27", slowMaps, true, map[string]string{auto.ParamSpreadSlow: ""}, "ese", false},
		{"slot pools, reduce times spread (rule v9)", wideReduces, true, nil, "ese", false},
		{"slot pools, slow on 0.055 of nodes", fewSlow, true, nil, "late", false},
		{"slot pools, wide maps (rule v5)", wideMaps, true, nil, "gs", false},
		{"containers, slow maps", slowMaps, false, nil, "grass", false},
	} {
		store := grass.NewMemoryStore()
		for _, f := range c.fits {
			store.AddTail(f)
		}
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 40, Reduces: 4, Slots: 100, SlotPools: c.pools, JobOrder: true}, c.param, store)
		checkSwitch(t, c.name, e, c.want, auto.ParamSpreadSlow, c.named)
	}
}

// Rule v29: a job the tail switch (rule v5) chose runs tail-busy-member
// (ras) when its first placement finds the busy fraction at or above
// busy-load (0.4); below it, with the parameter empty, or when the tail
// switch did not fire, the job keeps what rule v28 gave it.
func TestRuleV29Switch(t *testing.T) {
	reg := registry(t)
	tail := []speculators.TailFit{{Maps: 40, Sigma: 0.8}, {Maps: 30, Sigma: 0.9}}
	tight := []speculators.TailFit{{Maps: 40, Sigma: 0.3}, {Maps: 30, Sigma: 0.3}}
	checkBusySwitch(t, reg, auto.ParamTailBusy, []busyCase{
		{"tail records, busy 0.7", tail, false, 30, nil, "ras", true},
		{"tail records, busy 0.4 (the cut)", tail, false, 60, nil, "ras", true},
		{"tail records, busy 0.7, member grass", tail, false, 30, map[string]string{auto.ParamTailBusy: "grass"}, "grass", true},
		{"tail records, busy 0.7, slot pools", tail, true, 30, nil, "ras", true},
		{"tail records, busy 0.39", tail, false, 61, nil, "gs", false},
		{"tail records, busy 0.7, v28", tail, false, 30, map[string]string{auto.ParamTailBusy: ""}, "gs", false},
		{"tail records, busy 0.7, busy-load 0.8", tail, false, 30, map[string]string{auto.ParamBusyLoad: "0.8"}, "gs", false},
		{"tight records, busy 0.7", tight, false, 30, nil, "sda", false},
	})
}

func newAuto(t *testing.T, reg *speculators.Registry, info speculators.JobInfo, param map[string]string, store *grass.MemoryStore) *speculators.Engine {
	t.Helper()
	e, err := reg.NewEngineWith(info, auto.Name, param, 1, store)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// checkSwitch checks e's member and whether its reason names the switch key.
// checkRerun decides at now and checks whether the failure layer re-ran
// map m0 (its output lost with a node) and whether the reason names key.
func checkRerun(t *testing.T, name string, e *speculators.Engine, m0 speculators.AttemptID, now speculators.Time, wantRerun bool, key string, wantNamed bool) {
	t.Helper()
	rerun := false
	for _, d := range e.Decide(now) {
		if d.Task == m0.Task && strings.Contains(d.Reason, "output lost with node") {
			rerun = true
		}
	}
	if rerun != wantRerun {
		t.Errorf("%s: m0 re-run 1 s after n1 failed %t, want %t", name, rerun, wantRerun)
	}
	w := e.Policy.(interface{ Why() string }).Why()
	if strings.Contains(w, "("+key+")") != wantNamed {
		t.Errorf("%s: reason %q, want it to name %s: %t", name, w, key, wantNamed)
	}
}

// observeAll feeds a case's events to its engine in order, failing the
// test on the first one refused.
func observeAll(t *testing.T, name string, e *speculators.Engine, events []speculators.Event) {
	t.Helper()
	for i := range events {
		if err := e.Observe(&events[i]); err != nil {
			t.Fatalf("%s: event %d: %v", name, i, err)
		}
	}
}

func checkSwitch(t *testing.T, name string, e *speculators.Engine, want, key string, named bool) {
	t.Helper()
	if got := e.Policy.(memberNamer).Member(); got != want {
		t.Errorf("%s: member %q, want %q", name, got, want)
	}
	w := e.Policy.(interface{ Why() string }).Why()
	if strings.Contains(w, "("+key+")") != named {
		t.Errorf("%s: reason %q, want it to name %s: %t", name, w, key, named)
	}
}

// smallRoomCase is one job of the small-room-share tests (rules v30, v31):
// its first placement finds idle of slots free.
type smallRoomCase struct {
	name        string
	info        speculators.JobInfo
	idle, slots int
	param       map[string]string
	want        string
	named       bool
}

// checkSmallRoom places each case's job and checks its member; a case
// without parameters gets def. It returns each case's reason.
func checkSmallRoom(t *testing.T, cases []smallRoomCase, def map[string]string) []string {
	t.Helper()
	reg := registry(t)
	var why []string
	for _, c := range cases {
		info := c.info
		info.Slots = c.slots
		param := c.param
		if param == nil {
			param = def
		}
		e := newAuto(t, reg, info, param, grass.NewMemoryStore())
		e.LaunchCopies(speculators.ClusterView{Idle: c.idle, Slots: c.slots}, 0)
		checkSwitch(t, c.name, e, c.want, auto.ParamSmallRoom, c.named)
		why = append(why, e.Policy.(interface{ Why() string }).Why())
	}
	return why
}

// TestRuleV30Switch: a job small by its size runs the small member (sca) at
// a light load only if its tasks are at most small-room-share of the idle
// slots; otherwise it keeps its member and the reason names the switch.
// Rule v30's share, 0.5 (rule v31 changed the default), unless a case sets
// its own.
func TestRuleV30Switch(t *testing.T) {
	checkSmallRoom(t, []smallRoomCase{
		{"9 tasks, 10 of 12 idle", speculators.JobInfo{ID: "j", Maps: 8, Reduces: 1, JobOrder: true}, 10, 12, nil, "grass", true},
		{"9 tasks, 12 of 12 idle", speculators.JobInfo{ID: "j", Maps: 8, Reduces: 1, JobOrder: true}, 12, 12, nil, "grass", true},
		{"9 tasks, 18 of 20 idle (the cut)", speculators.JobInfo{ID: "j", Maps: 8, Reduces: 1, JobOrder: true}, 18, 20, nil, "sca", false},
		{"9 tasks, 62 of 64 idle", speculators.JobInfo{ID: "j", Maps: 8, Reduces: 1, JobOrder: true}, 62, 64, nil, "sca", false},
		{"9 tasks, 10 of 12 idle, v29", speculators.JobInfo{ID: "j", Maps: 8, Reduces: 1, JobOrder: true}, 10, 12, map[string]string{auto.ParamSmallRoom: "0"}, "sca", false},
		{"9 tasks, 10 of 12 idle, share 0.9", speculators.JobInfo{ID: "j", Maps: 8, Reduces: 1, JobOrder: true}, 10, 12, map[string]string{auto.ParamSmallRoom: "0.9"}, "sca", false},
		{"9 map-only tasks, 10 of 12 idle", speculators.JobInfo{ID: "j", Maps: 9, JobOrder: true}, 10, 12, nil, "grass", true},
		{"heavy tail 1.3, 10 of 12 idle", speculators.JobInfo{ID: "j", Maps: 9, TailIndex: 1.3, JobOrder: true}, 10, 12, nil, "sca", false},
		{"9 tasks, 6 of 12 idle (busy)", speculators.JobInfo{ID: "j", Maps: 8, Reduces: 1, JobOrder: true}, 6, 12, nil, "ras", false},
	}, map[string]string{auto.ParamSmallRoom: "0.5"})
}

// TestRuleV31Switch: small-room-share is 0.25 by default (rule v31): a job
// small by its size clones at a light load only if its tasks are at most a
// quarter of the idle slots (room for three clones a task); rule v30's 0.5
// is one parameter away.
func TestRuleV31Switch(t *testing.T) {
	cases := []smallRoomCase{
		{"9 tasks, 20 of 24 idle", speculators.JobInfo{ID: "j", Maps: 8, Reduces: 1, JobOrder: true}, 20, 24, nil, "grass", true},
		{"9 tasks, 35 of 40 idle", speculators.JobInfo{ID: "j", Maps: 8, Reduces: 1, JobOrder: true}, 35, 40, nil, "grass", true},
		{"9 tasks, 36 of 40 idle (the cut)", speculators.JobInfo{ID: "j", Maps: 8, Reduces: 1, JobOrder: true}, 36, 40, nil, "sca", false},
		{"10 tasks, 38 of 40 idle", speculators.JobInfo{ID: "j", Maps: 9, Reduces: 1, JobOrder: true}, 38, 40, nil, "grass", true},
		{"10 tasks, 40 of 40 idle", speculators.JobInfo{ID: "j", Maps: 9, Reduces: 1, JobOrder: true}, 40, 40, nil, "sca", false},
		{"9 tasks, 20 of 24 idle, v30", speculators.JobInfo{ID: "j", Maps: 8, Reduces: 1, JobOrder: true}, 20, 24, map[string]string{auto.ParamSmallRoom: "0.5"}, "sca", false},
		{"9 map-only tasks, 20 of 24 idle", speculators.JobInfo{ID: "j", Maps: 9, JobOrder: true}, 20, 24, nil, "grass", true},
		{"heavy tail 1.3, 20 of 24 idle", speculators.JobInfo{ID: "j", Maps: 9, TailIndex: 1.3, JobOrder: true}, 20, 24, nil, "sca", false},
	}
	for i, w := range checkSmallRoom(t, cases, nil) {
		if c := cases[i]; c.named && c.param == nil && !strings.Contains(w, "more than 0.25 of") {
			t.Errorf("%s: reason %q, want rule v31's share 0.25 in it", c.name, w)
		}
	}
}

// TestRuleV32Switch: after map records whose copies won less than
// futile-reduce-wins of at least futile-map-copies (10) copied maps, with
// fewer than three reduces copied, an exact job with reduces runs
// futile-reduce-member (sca) over the tail switch, where the cluster
// applies the job order, its reason naming futile-map-copies. Too few
// copies, copies that won, reduce copies that won, no job order, a map-only
// job (rule v8's switch) or the parameter 0 (rule v31) leave the job to the
// other rules.
func TestRuleV32Switch(t *testing.T) {
	reg := registry(t)
	wide := speculators.TailFit{Maps: 40, Sigma: 0.6}
	losing := wide
	losing.Copied = 33
	quiet := speculators.TailFit{Reduces: 3, ReduceSigma: 0.1}
	for _, c := range []struct {
		name    string
		records []speculators.TailFit
		param   map[string]string
		maps    int
		reduces int
		noOrder bool
		want    string
		named   bool
	}{
		{"33 map copies lost, no reduce copied", []speculators.TailFit{losing, quiet}, nil, 40, 3, false, "sca", true},
		{"then five records of no copies", append([]speculators.TailFit{losing, quiet}, repeat(wide, 5)...), nil, 40, 3, false, "sca", true},
		{"10 map copies lost (the cut)", []speculators.TailFit{{Maps: 40, Sigma: 0.6, Copied: 10}, quiet}, nil, 40, 3, false, "sca", true},
		{"9 map copies lost", []speculators.TailFit{{Maps: 40, Sigma: 0.6, Copied: 9}, quiet}, nil, 40, 3, false, "gs", false},
		{"map copies won 1 of 33", []speculators.TailFit{{Maps: 40, Sigma: 0.6, Copied: 33, CopyWins: 1}, quiet}, nil, 40, 3, false, "sca", true},
		{"map copies won 2 of 33", []speculators.TailFit{{Maps: 40, Sigma: 0.6, Copied: 33, CopyWins: 2}, quiet}, nil, 40, 3, false, "gs", false},
		{"reduce copies won 4 of 8", []speculators.TailFit{losing, {Reduces: 8, Copied: 8, CopyWins: 4}}, nil, 40, 3, false, "gs", false},
		{"reduce copies lost too (rule v14; maps narrow, below the tail switch)", []speculators.TailFit{{Maps: 40, Sigma: 0.1, Copied: 33}, {Reduces: 8, Copied: 8}}, nil, 40, 3, false, "sca", false},
		{"no job order (rule v31 there)", []speculators.TailFit{losing, quiet}, nil, 40, 3, true, "gs", false},
		{"v31", []speculators.TailFit{losing, quiet}, map[string]string{auto.ParamFutileMaps: "0"}, 40, 3, false, "gs", false},
		{"map-only job (rule v8)", []speculators.TailFit{losing, quiet}, nil, 40, 0, false, "hadoop", false},
	} {
		store := grass.NewMemoryStore()
		for _, f := range c.records {
			store.AddTail(f)
		}
		info := speculators.JobInfo{ID: "j", Maps: c.maps, Reduces: c.reduces, Slots: 100, JobOrder: !c.noOrder}
		checkSwitch(t, c.name, newAuto(t, reg, info, c.param, store), c.want, auto.ParamFutileMaps, c.named)
	}
}

// placement is a table case of rules v33-v34: a job on a cluster of slots,
// idle of them free at its first placement, and auto's parameters.
type placement struct {
	name        string
	info        speculators.JobInfo
	idle, slots int
	param       map[string]string
}

// placedAuto is auto for a job of info on a cluster of slots, after its
// first placement with idle of them free (rules v30-v34 read the idle
// slots there).
func placedAuto(t *testing.T, reg *speculators.Registry, info speculators.JobInfo, slots, idle int, param map[string]string) *speculators.Engine {
	t.Helper()
	info.Slots = slots
	e := newAuto(t, reg, info, param, grass.NewMemoryStore())
	e.LaunchCopies(speculators.ClusterView{Idle: idle, Slots: slots}, 0)
	return e
}

// TestRuleV33Switch: an exact job whose reduces are at least
// reduces-after-maps-idle-share (0.3) of the idle slots at its first
// placement, and below rule v18's share of the cluster, waits for its maps
// (the spectest file reduces_after_maps_idle.txt has the tiers), and its
// reason names the switch; its member is the one the rest of the rule gives
// it.
func TestRuleV33Switch(t *testing.T) {
	reg := registry(t)
	off := map[string]string{auto.ParamReducesIdle: "0"}
	for _, c := range []struct {
		placement
		want  string
		named bool
	}{
		{placement{"4 reduces, 6 of 72 idle", speculators.JobInfo{ID: "j", Maps: 30, Reduces: 4, JobOrder: true}, 6, 72, nil}, "sda", true},
		{placement{"4 reduces, 13 of 72 idle (the cut)", speculators.JobInfo{ID: "j", Maps: 30, Reduces: 4, JobOrder: true}, 13, 72, nil}, "sda", true},
		{placement{"4 reduces, 14 of 72 idle", speculators.JobInfo{ID: "j", Maps: 30, Reduces: 4, JobOrder: true}, 14, 72, nil}, "sda", false},
		{placement{"4 reduces, 60 of 72 idle", speculators.JobInfo{ID: "j", Maps: 30, Reduces: 4, JobOrder: true}, 60, 72, nil}, "grass", false},
		{placement{"4 reduces, 6 of 72 idle, v32", speculators.JobInfo{ID: "j", Maps: 30, Reduces: 4, JobOrder: true}, 6, 72, off}, "sda", false},
		{placement{"30 reduces, 6 of 72 idle (rule v18's)", speculators.JobInfo{ID: "j", Maps: 30, Reduces: 30, JobOrder: true}, 6, 72, nil}, "sda", false},
		{placement{"34 maps, no reduces, 6 of 72 idle (rule v35's member)", speculators.JobInfo{ID: "j", Maps: 34, JobOrder: true}, 6, 72, nil}, "sda", false},
	} {
		e := placedAuto(t, reg, c.info, c.slots, c.idle, c.param)
		checkSwitch(t, c.name, e, c.want, auto.ParamReducesIdle, c.named)
		if w := e.Policy.(interface{ Why() string }).Why(); c.named && !strings.Contains(w, "more than 6 maps a reduce") {
			t.Errorf("%s: reason %q, want the running-maps bound 6 in it", c.name, w)
		}
	}
}

// TestRuleV34Switch: on slot pools a job that rule v33 would make wait
// (reduces at least reduces-after-maps-idle-share of the idle slots) does
// not, and its reason names reduces-after-maps-idle-slot-pools; with the
// switch true, or on containers, rule v33's wait is named instead; a job
// with room, or of no reduces, names neither.
func TestRuleV34Switch(t *testing.T) {
	reg := registry(t)
	v33 := map[string]string{auto.ParamReducesPool: "true"}
	for _, c := range []struct {
		placement
		pools, waits bool
	}{
		{placement{"slot pools, 4 reduces, 6 of 72 idle", speculators.JobInfo{ID: "j", Maps: 30, Reduces: 4, JobOrder: true, SlotPools: true}, 6, 72, nil}, true, false},
		{placement{"slot pools, 4 reduces, 13 of 72 idle (the cut)", speculators.JobInfo{ID: "j", Maps: 30, Reduces: 4, JobOrder: true, SlotPools: true}, 13, 72, nil}, true, false},
		{placement{"slot pools, 4 reduces, 14 of 72 idle", speculators.JobInfo{ID: "j", Maps: 30, Reduces: 4, JobOrder: true, SlotPools: true}, 14, 72, nil}, false, false},
		{placement{"slot pools, 4 reduces, 6 of 72 idle, v33", speculators.JobInfo{ID: "j", Maps: 30, Reduces: 4, JobOrder: true, SlotPools: true}, 6, 72, v33}, false, true},
		{placement{"containers, 4 reduces, 6 of 72 idle", speculators.JobInfo{ID: "j", Maps: 30, Reduces: 4, JobOrder: true}, 6, 72, nil}, false, true},
		{placement{"slot pools, no reduces, 6 of 72 idle", speculators.JobInfo{ID: "j", Maps: 34, JobOrder: true, SlotPools: true}, 6, 72, nil}, false, false},
	} {
		e := placedAuto(t, reg, c.info, c.slots, c.idle, c.param)
		// The switch moves the job's tier, not its member: the member is
		// rule v33's.
		e33 := placedAuto(t, reg, c.info, c.slots, c.idle, v33)
		checkSwitch(t, c.name, e, e33.Policy.(memberNamer).Member(), auto.ParamReducesPool, c.pools)
		w := e.Policy.(interface{ Why() string }).Why()
		if got := strings.Contains(w, "("+auto.ParamReducesIdle+")"); got != c.waits {
			t.Errorf("%s: reason %q names %s: %t, want %t", c.name, w, auto.ParamReducesIdle, got, c.waits)
		}
		if c.pools && !strings.Contains(w, "on slot pools: no wait") {
			t.Errorf("%s: reason %q, want it to say the job does not wait", c.name, w)
		}
	}
}

// TestRuleV35Switch: an exact map-only job placed before any map record,
// where the cluster applies the job order, at a busy fraction of at least
// map-only-busy-load (0.7), runs map-only-busy-member (sda), its reason
// naming the switch. Below the cut, without the order, with the parameter
// false, or after a record (rule v7 then reads its spread) it does not.
func TestRuleV35Switch(t *testing.T) {
	reg := registry(t)
	off := map[string]string{auto.ParamMapFirst: "false"}
	for _, c := range []struct {
		name  string
		order bool
		sigma float64 // a map record's spread; 0: no record
		idle  int
		param map[string]string
		want  string
		named bool
	}{
		{"no record, busy 0.70", true, 0, 30, nil, "sda", true},
		{"no record, busy 0.90", true, 0, 10, nil, "sda", true},
		{"no record, busy 0.69", true, 0, 31, nil, "grass", false},
		{"no record, busy 0.70, no job order", false, 0, 30, nil, "grass", false},
		{"no record, busy 0.70, switch off", true, 0, 30, off, "grass", false},
		{"a narrow record, busy 0.70", true, 0.2, 30, nil, "grass", false},
		{"a wide record, busy 0.70 (rule v7)", true, 0.5, 30, nil, "sda", false},
	} {
		store := grass.NewMemoryStore()
		if c.sigma > 0 {
			store.AddTail(speculators.TailFit{Maps: 40, Sigma: c.sigma})
		}
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 40, Slots: 100, JobOrder: c.order}, c.param, store)
		e.LaunchCopies(speculators.ClusterView{Idle: c.idle, Slots: 100}, 0)
		checkSwitch(t, c.name, e, c.want, auto.ParamMapFirst, c.named)
	}
	// A job with reduces is not the switch's.
	e := placedAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 40, Reduces: 2, JobOrder: true}, 100, 30, nil)
	if w := e.Policy.(interface{ Why() string }).Why(); strings.Contains(w, "("+auto.ParamMapFirst+")") {
		t.Errorf("a job with reduces: reason %q names %s", w, auto.ParamMapFirst)
	}
}

// Rule v36 (map-only-kill-behind-wins): an exact map-only job whose copies
// seldom won kills a running copy of a map that, at its own pace, would
// finish no sooner than its running original at the original's; a copy
// ahead of its original, one not yet at 0.1 progress, a job whose copies
// won at least 0.3 of its copied maps, a job with reduces or with a
// deadline, and the switch off kill nothing.
func TestRuleV36Switch(t *testing.T) {
	reg := registry(t)
	s := speculators.Time(1000)
	mapAttempt := func(task int, n int32) speculators.AttemptID {
		return speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map, Index: int32(task)}, N: n}
	}
	orig, cp := mapAttempt(0, 0), mapAttempt(0, 1)
	for _, c := range []struct {
		name     string
		reduces  int
		deadline speculators.Time
		param    map[string]string
		copyAt   float64 // the copy's progress at 30 s, started at 10 s
		won      int     // of maps 1-3, copied before, how many a copy won
		kill     bool
	}{
		// The original is at 0.5 at 30 s (it finishes at 60 s at its pace).
		{"same pace, later start", 0, 0, nil, 0.4, 0, true}, // 10 + 20/0.4 = 60 s: no sooner
		{"slower copy", 0, 0, nil, 0.2, 0, true},            // 110 s
		{"faster copy", 0, 0, nil, 0.5, 0, false},           // 50 s
		{"copy below 0.1", 0, 0, nil, 0.05, 0, false},       // not read yet
		{"copies won 1 of 4", 0, 0, nil, 0.4, 1, true},      // 0.25, below 0.3
		{"copies won 2 of 4", 0, 0, nil, 0.4, 2, false},     // 0.5
		{"switch off", 0, 0, map[string]string{auto.ParamKillBehind: "0"}, 0.4, 0, false},
		{"a job with reduces", 1, 0, nil, 0.4, 0, false},
		{"a job with a deadline", 0, 600 * s, nil, 0.4, 0, false},
	} {
		info := speculators.JobInfo{ID: "j", Maps: 5, Reduces: c.reduces, Deadline: c.deadline}
		e := newAuto(t, reg, info, c.param, grass.NewMemoryStore())
		events := copiedMaps(c.won, 1*s, 5*s)
		events = append(events,
			speculators.Event{Kind: speculators.AttemptStarted, Time: 0, Attempt: orig, Node: "n1"},
			speculators.Event{Kind: speculators.AttemptStarted, Time: 10 * s, Attempt: cp, Node: "n2", Speculative: true},
			speculators.Event{Kind: speculators.AttemptStatus, Time: 30 * s, Attempt: orig, Progress: 0.5, Phase: speculators.PhaseMap},
			speculators.Event{Kind: speculators.AttemptStatus, Time: 30 * s, Attempt: cp, Progress: c.copyAt, Phase: speculators.PhaseMap})
		observeAll(t, c.name, e, events)
		var kills []speculators.Decision
		for _, d := range e.Decide(31 * s) {
			if d.Kind == speculators.Kill {
				kills = append(kills, d)
			}
		}
		if got := len(kills) > 0; got != c.kill {
			t.Errorf("%s: kills %v, want a kill: %t", c.name, kills, c.kill)
			continue
		}
		if c.kill {
			if kills[0].Attempt != cp || len(kills) != 1 || !strings.Contains(kills[0].ReasonText(), "("+auto.ParamKillBehind+")") {
				t.Errorf("%s: kills %v, want one of the copy, the reason naming %s", c.name, kills, auto.ParamKillBehind)
			}
			// Until the kill is reported, a second Decide does not ask again.
			for _, d := range e.Decide(32 * s) {
				if d.Kind == speculators.Kill {
					t.Errorf("%s: asked again to kill %v", c.name, d.Attempt)
				}
			}
		}
	}
}

// TestRuleV37Switch: on slot pools an exact job of one reduce and at least
// slots-one-reduce-maps (4) maps runs slots-one-reduce-member (hadoop) from
// its first decision, over the small member's clones on an idle cluster and
// over rule v28's spread member after slow-node records, its reason naming
// the switch; a job below the floor, of two reduces, on containers, or with
// the member empty keeps what the rest of the rule gives it.
func TestRuleV37Switch(t *testing.T) {
	reg := registry(t)
	off := map[string]string{auto.ParamOneReduce: ""}
	floor0 := map[string]string{auto.ParamOneRedMaps: "0"}
	for _, c := range []struct {
		name    string
		maps    int
		reduces int
		pools   bool
		slow    bool // map records with slow nodes (rule v28's spread switch)
		idle    int  // of 100 slots at the job's first placement
		param   map[string]string
		want    string
		named   bool
	}{
		{"12 maps, 1 reduce, idle", 12, 1, true, false, 100, nil, "hadoop", true},
		{"4 maps, 1 reduce, idle", 4, 1, true, false, 100, nil, "hadoop", true},
		{"12 maps, 1 reduce, slow-node records", 12, 1, true, true, 100, nil, "hadoop", true},
		{"12 maps, 1 reduce, busy 0.3", 12, 1, true, false, 70, nil, "hadoop", true},
		{"3 maps, 1 reduce, idle (below the floor)", 3, 1, true, false, 100, nil, "sca", false},
		{"3 maps, 1 reduce, idle, floor 0", 3, 1, true, false, 100, floor0, "hadoop", true},
		{"12 maps, 2 reduces, idle", 12, 2, true, false, 100, nil, "sca", false},
		{"12 maps, 2 reduces, slow-node records", 12, 2, true, true, 100, nil, "ras", false},
		{"12 maps, 1 reduce, slow-node records, switch off", 12, 1, true, true, 100, off, "ras", false},
		{"12 maps, 1 reduce, idle, switch off", 12, 1, true, false, 100, off, "sca", false},
		{"12 maps, 1 reduce, idle, containers", 12, 1, false, false, 100, nil, "sca", false},
	} {
		store := grass.NewMemoryStore()
		if c.slow {
			store.AddTail(speculators.TailFit{Maps: 40, Sigma: 0.1, Slow: 0.3})
			store.AddTail(speculators.TailFit{Maps: 30, Sigma: 0.1, Slow: 0.2})
		}
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: c.maps, Reduces: c.reduces, Slots: 100, SlotPools: c.pools, JobOrder: true}, c.param, store)
		e.LaunchCopies(speculators.ClusterView{Idle: c.idle, Slots: 100}, 0)
		checkSwitch(t, c.name, e, c.want, auto.ParamOneReduce, c.named)
	}
}

// TestRuleV38Switch: an exact map-only job runs map-only-lost-paced-member
// (hadoop) from its first decision when at least 0.75 of the last map
// records' lost copies (at least 3) ran at their originals' pace, the
// records spread at least map-only-busy-sigma and their copies won less
// than map-only-lost-paced-wins (0.6), its reason naming the switch; below the
// share, with 2 lost copies, spread 0.3, copies won 0.6, or the switch at 0
// it keeps its member. FitTail counts a lost copy at its original's pace,
// one that ran faster than 1.25x its pace, and none below 0.1.
func TestRuleV38Switch(t *testing.T) {
	reg := registry(t)
	off := map[string]string{auto.ParamLostPaced: "0"}
	low := map[string]string{auto.ParamLostPaced: "0.5"}
	sda := map[string]string{auto.ParamLostPacedM: "sda"}
	rec := func(sigma float64, copied, wins, lost, paced int) speculators.TailFit {
		return speculators.TailFit{Maps: 40, Sigma: sigma, Copied: copied, CopyWins: wins, Lost: lost, LostPaced: paced}
	}
	for _, c := range []struct {
		name  string
		recs  []speculators.TailFit
		param map[string]string
		want  string
		named bool
	}{
		{"5 of 6 lost at pace, won 0.4", []speculators.TailFit{rec(0.7, 10, 4, 6, 5)}, nil, "hadoop", true},
		{"over two records, 3 of 4 at pace", []speculators.TailFit{rec(0.7, 5, 2, 2, 2), rec(0.7, 5, 2, 2, 1)}, nil, "hadoop", true},
		{"member sda", []speculators.TailFit{rec(0.7, 10, 4, 6, 5)}, sda, "sda", true},
		{"4 of 6 at pace (0.67)", []speculators.TailFit{rec(0.7, 10, 4, 6, 4)}, nil, "grass", false},
		{"4 of 6 at pace, share 0.5", []speculators.TailFit{rec(0.7, 10, 4, 6, 4)}, low, "hadoop", true},
		{"2 lost copies", []speculators.TailFit{rec(0.7, 10, 4, 2, 2)}, nil, "grass", false},
		{"copies won 0.6", []speculators.TailFit{rec(0.7, 10, 6, 3, 3)}, nil, "grass", false},
		{"spread 0.3", []speculators.TailFit{rec(0.3, 10, 4, 6, 6)}, nil, "grass", false},
		{"switch off", []speculators.TailFit{rec(0.7, 10, 4, 6, 6)}, off, "grass", false},
	} {
		store := grass.NewMemoryStore()
		for _, f := range c.recs {
			store.AddTail(f)
		}
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 20, Slots: 100}, c.param, store)
		e.LaunchCopies(speculators.ClusterView{Idle: 100, Slots: 100}, 0)
		checkSwitch(t, c.name, e, c.want, auto.ParamLostPaced, c.named)
	}

	// FitTail's lost copies: 12 maps of 10 s each; maps 0-2 were copied at
	// 4 s and their copies killed when the originals succeeded at 10 s. The
	// copy of map 0 was at 0.4 then (15 s a map: slower than its original),
	// map 1's at 0.9 (6.7 s a map: faster than 10 s over 1.25), map 2's at
	// 0.05 (not read).
	s := speculators.Time(1000)
	job, err := speculators.NewJob(speculators.JobInfo{ID: "j", Maps: 12})
	if err != nil {
		t.Fatal(err)
	}
	copyAt := []float64{0.4, 0.9, 0.05}
	for i := 0; i < 12; i++ {
		tk := job.Tasks[speculators.Map][i]
		tk.Attempts = append(tk.Attempts, &speculators.Attempt{Node: "n1", Start: 0, Finish: 10 * s, LastReport: 10 * s, State: speculators.StateSucceeded, Progress: 1})
		if i < 3 {
			tk.Attempts = append(tk.Attempts, &speculators.Attempt{Node: "n2", Start: 4 * s, Finish: 10 * s, LastReport: 10 * s, State: speculators.StateKilled, Progress: copyAt[i], Speculative: true})
		}
	}
	f, ok := auto.FitTail(job, 11*s)
	if !ok || f.Lost != 2 || f.LostPaced != 1 || !f.Valid() {
		t.Errorf("FitTail: %+v (ok %t), want a valid record of 2 lost copies read, 1 at its original's pace", f, ok)
	}
}

// TestRuleV39Switch: rule v37's switch (a job of one reduce and at least 4
// maps on slot pools runs hadoop) holds only while the largest of the last
// 5 records of reduce time after the maps over the map phase
// (TailFit.ReduceRatio) is at least slots-one-reduce-ratio (2), once at
// least slots-one-reduce-ratio-records (2; 3 as first fitted) records carry one; before that,
// or with the ratio at 0, it holds as under rule v37. Records of the ratio
// alone (jobs of fewer than 6 reduces) are skipped by the readers of the
// other reduce fields. ReduceRatio reads the reduce's time after the last
// map over the map phase, and none for a job of fewer than 4 maps.
func TestRuleV39Switch(t *testing.T) {
	reg := registry(t)
	ratio := func(r float64) speculators.TailFit { return speculators.TailFit{Reduces: 1, ReduceRatio: r} }
	short := []speculators.TailFit{ratio(0.8), ratio(1.5), ratio(0.4)}
	long := []speculators.TailFit{ratio(0.8), ratio(3), ratio(0.4)}
	for _, c := range []struct {
		name  string
		recs  []speculators.TailFit
		param map[string]string
		want  string
		key   string // the switch the reason must name
	}{
		{"no record", nil, nil, "hadoop", auto.ParamOneReduce},
		{"3 records, the largest 3", long, nil, "hadoop", auto.ParamOneRedRatio},
		{"3 records, the largest 1.5", short, nil, "sca", ""},
		{"1 record, the largest 0.8 (too few)", short[:1], nil, "hadoop", auto.ParamOneReduce},
		{"2 records, the largest 1.5", short[:2], nil, "sca", ""},
		{"2 records, the largest 1.5, 3 records wanted (rule v39 as first fitted)", short[:2], map[string]string{auto.ParamOneRedRecs: "3"}, "hadoop", auto.ParamOneReduce},
		{"3 records, the largest 1.5, cut 1.5", short, map[string]string{auto.ParamOneRedRatio: "1.5"}, "hadoop", auto.ParamOneRedRatio},
		{"3 records, the largest 1.5, ratio off", short, map[string]string{auto.ParamOneRedRatio: "0"}, "hadoop", auto.ParamOneReduce},
		{"a full reduce record of ratio 3 among short ones", append(short, speculators.TailFit{Reduces: 8, ReduceRatio: 3}), nil, "hadoop", auto.ParamOneRedRatio},
		{"the long one 6 records back", append(append([]speculators.TailFit{ratio(3)}, short...), ratio(1), ratio(1)), nil, "sca", ""},
	} {
		store := grass.NewMemoryStore()
		for _, f := range c.recs {
			store.AddTail(f)
		}
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 12, Reduces: 1, Slots: 100, SlotPools: true, JobOrder: true}, c.param, store)
		e.LaunchCopies(speculators.ClusterView{Idle: 100, Slots: 100}, 0)
		if c.key == "" {
			checkSwitch(t, c.name, e, c.want, auto.ParamOneReduce, false)
			continue
		}
		checkSwitch(t, c.name, e, c.want, c.key, true)
	}

	// Ratio-only records do not hide reduce records from rule v9's spread
	// switch: a job of 2 reduces on slot pools after wide reduce records
	// starts on the spread member with or without 5 ratio-only records
	// after them, and on sca without the wide records.
	members := make([]string, 3)
	for i, recs := range [][]speculators.TailFit{
		repeat(speculators.TailFit{Reduces: 8, ReduceSigma: 0.6}, 5),
		append(repeat(speculators.TailFit{Reduces: 8, ReduceSigma: 0.6}, 5), repeat(ratio(1), 5)...),
		repeat(ratio(1), 5),
	} {
		store := grass.NewMemoryStore()
		for _, f := range recs {
			store.AddTail(f)
		}
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 12, Reduces: 2, Slots: 100, SlotPools: true, JobOrder: true}, nil, store)
		e.LaunchCopies(speculators.ClusterView{Idle: 100, Slots: 100}, 0)
		members[i] = e.Policy.(memberNamer).Member()
	}
	if members[0] != members[1] || members[0] == members[2] || members[2] != "sca" {
		t.Errorf("members after wide reduce records, the same and 5 ratio-only records, ratio-only records alone: %v, want the first two alike and the last sca", members)
	}

	// ReduceRatio: 12 maps from 0 s, the last ending at 20 s; the reduce
	// started at 5 s (slow-start) and ended at 60 s: 40 s after the maps
	// over a map phase of 20 s.
	s := speculators.Time(1000)
	job, err := speculators.NewJob(speculators.JobInfo{ID: "j", Maps: 12, Reduces: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 12; i++ {
		job.Tasks[speculators.Map][i].Attempts = append(job.Tasks[speculators.Map][i].Attempts,
			&speculators.Attempt{Node: "n1", Start: 0, Finish: speculators.Time(9+i) * s, State: speculators.StateSucceeded, Progress: 1})
	}
	job.Tasks[speculators.Reduce][0].Attempts = append(job.Tasks[speculators.Reduce][0].Attempts,
		&speculators.Attempt{Node: "n2", Start: 5 * s, Finish: 60 * s, State: speculators.StateSucceeded, Progress: 1})
	if r, ok := auto.ReduceRatio(job); !ok || math.Abs(r-2) > 1e-12 {
		t.Errorf("ReduceRatio %g (ok %t), want 2: 40 s after the maps over a map phase of 20 s", r, ok)
	}
	few, err := speculators.NewJob(speculators.JobInfo{ID: "k", Maps: 3, Reduces: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		few.Tasks[speculators.Map][i].Attempts = append(few.Tasks[speculators.Map][i].Attempts,
			&speculators.Attempt{Node: "n1", Start: 0, Finish: 10 * s, State: speculators.StateSucceeded, Progress: 1})
	}
	few.Tasks[speculators.Reduce][0].Attempts = append(few.Tasks[speculators.Reduce][0].Attempts,
		&speculators.Attempt{Node: "n2", Start: 10 * s, Finish: 60 * s, State: speculators.StateSucceeded, Progress: 1})
	if r, ok := auto.ReduceRatio(few); ok {
		t.Errorf("ReduceRatio of a job of 3 maps: %g, want none", r)
	}
}

// TestRuleV40Switch: a job with an error bound (and no deadline) whose
// reduces are at least bounded-reduce-heavy-share (1) of its maps runs
// bounded-reduce-heavy-member (sca) in place of grass, its reason naming the
// switch, also when the bound comes later live (a JobBounds event); fewer
// reduces than maps, a deadline, the member empty (the rule before v40) or rule v24's
// futile-bounded-member (copies of the last exact jobs' maps never won)
// leave it to the rule before.
func TestRuleV40Switch(t *testing.T) {
	reg := registry(t)
	off := map[string]string{auto.ParamRedHeavy: ""}
	half := map[string]string{auto.ParamRedHeavyS: "0.5"}
	for _, c := range []struct {
		name          string
		maps, reduces int
		deadline      speculators.Time
		bound         float64
		live, losing  bool
		param         map[string]string
		want          string
		named         bool
	}{
		{"6 maps, 8 reduces, bound 0.1", 6, 8, 0, 0.1, false, false, nil, "sca", true},
		{"8 maps, 8 reduces, bound 0.1", 8, 8, 0, 0.1, false, false, nil, "sca", true},
		{"6 maps, 8 reduces, bound given live", 6, 8, 0, 0.1, true, false, nil, "sca", true},
		{"9 maps, 8 reduces, bound 0.1", 9, 8, 0, 0.1, false, false, nil, "grass", false},
		{"9 maps, 8 reduces, share 0.5", 9, 8, 0, 0.1, false, false, half, "sca", true},
		{"15 maps, 4 reduces, bound given live", 15, 4, 0, 0.1, true, false, nil, "grass", false},
		{"6 maps, 8 reduces, deadline", 6, 8, 600000, 0, false, false, nil, "grass", false},
		{"6 maps, 8 reduces, deadline given live", 6, 8, 600000, 0, true, false, nil, "grass", false},
		{"6 maps, 8 reduces, switch off", 6, 8, 0, 0.1, false, false, off, "grass", false},
		{"6 maps, 8 reduces, copies never won (rule v24)", 6, 8, 0, 0.1, false, true, nil, "none", false},
	} {
		store := grass.NewMemoryStore()
		if c.losing {
			store.AddTail(speculators.TailFit{Maps: 40, Sigma: 0.2, Copied: 20})
		}
		info := speculators.JobInfo{ID: "j", Maps: c.maps, Reduces: c.reduces, Slots: 100, JobOrder: true}
		if !c.live {
			info.Deadline, info.ErrorBound = c.deadline, c.bound
		}
		e := newAuto(t, reg, info, c.param, store)
		if c.live {
			if err := e.Observe(&speculators.Event{Kind: speculators.JobBounds, Deadline: c.deadline, ErrorBound: c.bound}); err != nil {
				t.Fatal(err)
			}
		}
		checkSwitch(t, c.name, e, c.want, auto.ParamRedHeavy, c.named)
	}
}

// TestRuleV41Switch: an exact job with reduces placed while a deadline
// record's deadline lies ahead of its start runs deadline-beside-member
// (hadoop-legacy), its reason naming the switch; a deadline passed, no record, or
// the member empty (the rule before v41) leave it to the rule before. A job
// with a deadline hands out its deadline record when it is built, and when
// it is given its deadline later, live; the record is no map or reduce
// record and has a window of its own in the store.
func TestRuleV41Switch(t *testing.T) {
	reg := registry(t)
	const s = speculators.Time(1000)
	checkBeside(t, reg, auto.ParamBeside, "deadline", speculators.TailFit{Deadline: 100 * s})
	// The records a deadline job hands out.
	for _, live := range []bool{false, true} {
		info := speculators.JobInfo{ID: "d", Maps: 20, Slots: 100, JobOrder: true, Start: 10 * s}
		if !live {
			info.Deadline = 70 * s
		}
		e := newAuto(t, reg, info, nil, grass.NewMemoryStore())
		if live {
			if err := e.Observe(&speculators.Event{Kind: speculators.JobBounds, Deadline: 70 * s}); err != nil {
				t.Fatal(err)
			}
		}
		found := false
		for _, f := range e.Learned().Tails {
			found = found || f == speculators.TailFit{Deadline: 70 * s}
		}
		if !found {
			t.Errorf("deadline job (live %t): no deadline record handed out", live)
		}
	}
	d := speculators.TailFit{Deadline: 70 * s}
	if !d.Valid() || !d.IsDeadline() || d.IsReduce() || d.RatioOnly() {
		t.Errorf("deadline record: valid %t, deadline %t, reduce %t, ratio-only %t; want true, true, false, false", d.Valid(), d.IsDeadline(), d.IsReduce(), d.RatioOnly())
	}
	if bad := (speculators.TailFit{Deadline: 70 * s, Maps: 3}); bad.Valid() {
		t.Errorf("a deadline record with map fields is valid")
	}
	// A record's mark is one of the known kinds, and only a deadline
	// record carries one (a bound-copy record carries its copy counts
	// too: TestRuleV52Switch).
	for _, m := range []speculators.DeadlineMark{speculators.MarkBoundAhead, speculators.MarkOutputLost, speculators.MarkBoundCopies, speculators.MarkNodeFailed, speculators.MarkNodeResumed} {
		if f := (speculators.TailFit{Deadline: 70 * s, Mark: m}); f.Valid() != (m != speculators.MarkBoundCopies) {
			t.Errorf("a deadline record marked %d alone: valid %t", m, f.Valid())
		}
		if f := (speculators.TailFit{Maps: 40, Sigma: 0.5, Copied: 3, Mark: m}); f.Valid() {
			t.Errorf("a map record marked %d is valid", m)
		}
	}
	if bad := (speculators.TailFit{Deadline: 70 * s, Mark: speculators.MarkNodeResumed + 1}); bad.Valid() {
		t.Errorf("a deadline record of an unknown mark is valid")
	}
	store := grass.NewMemoryStore()
	store.AddTail(speculators.TailFit{Maps: 40, Sigma: 0.5})
	for i := 0; i < 2*grass.TailWindow; i++ {
		store.AddTail(speculators.TailFit{Deadline: speculators.Time(i+1) * s})
	}
	if fits := store.TailFits(); len(fits) != grass.TailWindow+1 || fits[0].Maps != 40 {
		t.Errorf("store kept %d fits, first %+v; want the map record and %d deadline records", len(fits), fits[0], grass.TailWindow)
	}
}

// TestRuleV42Switch: an exact job with reduces on containers, after map
// records whose nodes ran slow (slow share 0.3, at or above
// copies-last-below) and whose copies won less than copies-last-wins-below
// (0.5) of the copied maps, pooled, waits behind queued originals once it
// has only copies to place (rule v16's tier), its reason naming the switch
// at its first placement. With copies that won, the switch off, a deadline
// record in the prior, or on slot pools (rule v17) it does not.
func TestRuleV42Switch(t *testing.T) {
	reg := registry(t)
	for _, c := range []struct {
		name     string
		wins     int
		param    map[string]string
		deadline bool
		pools    bool
		named    bool
	}{
		{"copies lost", 3, nil, false, false, true},
		{"copies won", 7, nil, false, false, false},
		{"switch off", 3, map[string]string{auto.ParamCopiesWins: "0"}, false, false, false},
		{"deadline record", 3, nil, true, false, false},
		{"slot pools", 3, nil, false, true, false},
	} {
		store := grass.NewMemoryStore()
		for i := 0; i < 6; i++ {
			store.AddTail(speculators.TailFit{Maps: 30, Sigma: 0.3, Slow: 0.3, Copied: 10, CopyWins: c.wins})
		}
		if c.deadline {
			store.AddTail(speculators.TailFit{Deadline: 1000})
		}
		info := speculators.JobInfo{ID: "j", Maps: 30, Reduces: 2, Slots: 96, JobOrder: true, SlotPools: c.pools, Start: 2000}
		e := newAuto(t, reg, info, c.param, store)
		e.LaunchCopies(speculators.ClusterView{Idle: 40, Slots: 96}, 0)
		w := e.Policy.(interface{ Why() string }).Why()
		if got := strings.Contains(w, "("+auto.ParamCopiesWins+")"); got != c.named {
			t.Errorf("%s: reason %q names %s: %t, want %t", c.name, w, auto.ParamCopiesWins, got, c.named)
		}
	}
}

// TestRuleV43Switch: an exact map-only job runs map-only-copies-win-member
// (gs) from its first decision when copies of the last map records' copied
// maps (at least 3) won at least map-only-copies-win (0.9) of the time, its
// reason naming the switch, over rule v7's busy member (sda) on a busy
// cluster and map-only-member (grass) on an idle one; below the share, with
// 2 copied maps, with the member empty or the share at 0 it keeps what the
// rule before gives it, and rule v12's spread member (ras, a few slow nodes
// and tight map times) stands over it.
func TestRuleV43Switch(t *testing.T) {
	reg := registry(t)
	off := map[string]string{auto.ParamWinsMember: ""}
	zero := map[string]string{auto.ParamWinsShare: "0"}
	low := map[string]string{auto.ParamWinsShare: "0.8"}
	rec := func(sigma, slow float64, copied, wins int) speculators.TailFit {
		return speculators.TailFit{Maps: 40, Sigma: sigma, Slow: slow, Copied: copied, CopyWins: wins}
	}
	for _, c := range []struct {
		name  string
		recs  []speculators.TailFit
		idle  int // of 100 slots at the job's first placement
		param map[string]string
		want  string
		named bool
	}{
		{"won 0.9, busy 0.8", []speculators.TailFit{rec(0.7, 0.3, 20, 18)}, 20, nil, "gs", true},
		{"won 0.9, idle", []speculators.TailFit{rec(0.7, 0.3, 20, 18)}, 100, nil, "gs", true},
		{"over two records, 19 of 20 won, busy 0.8", []speculators.TailFit{rec(0.7, 0.3, 10, 9), rec(0.7, 0.3, 10, 10)}, 20, nil, "gs", true},
		{"won 0.85, busy 0.8", []speculators.TailFit{rec(0.7, 0.3, 20, 17)}, 20, nil, "sda", false},
		{"won 0.8, busy 0.8", []speculators.TailFit{rec(0.7, 0.3, 20, 16)}, 20, nil, "sda", false},
		{"won 0.8, busy 0.8, share 0.8", []speculators.TailFit{rec(0.7, 0.3, 20, 16)}, 20, low, "gs", true},
		{"won 0.8, idle", []speculators.TailFit{rec(0.7, 0.3, 20, 16)}, 100, nil, "grass", false},
		{"2 copied, both won, busy 0.8", []speculators.TailFit{rec(0.7, 0.3, 2, 2)}, 20, nil, "sda", false},
		{"won 0.9, busy 0.8, member empty", []speculators.TailFit{rec(0.7, 0.3, 20, 18)}, 20, off, "sda", false},
		{"won 0.9, busy 0.8, share 0", []speculators.TailFit{rec(0.7, 0.3, 20, 18)}, 20, zero, "sda", false},
		{"won 0.9, a few slow nodes, tight maps (rule v12)", []speculators.TailFit{rec(0.2, 0.1, 20, 18)}, 100, nil, "ras", false},
	} {
		store := grass.NewMemoryStore()
		for _, f := range c.recs {
			store.AddTail(f)
		}
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 20, Slots: 100, JobOrder: true}, c.param, store)
		e.LaunchCopies(speculators.ClusterView{Idle: c.idle, Slots: 100}, 0)
		checkSwitch(t, c.name, e, c.want, auto.ParamWinsShare, c.named)
	}
}

// checkBeside checks a "beside" switch (rules v41 and v44): an exact job
// with reduces placed before the record's time runs hadoop-legacy, its
// reason naming param; placed after it, with no record, or with param
// empty (the rule before) it keeps grass.
func checkBeside(t *testing.T, reg *speculators.Registry, param, kind string, record speculators.TailFit) {
	t.Helper()
	before, after := record.Deadline/2, record.Deadline+record.Deadline/2
	off := map[string]string{param: ""}
	for _, c := range []struct {
		name   string
		record bool
		start  speculators.Time
		param  map[string]string
		want   string
		named  bool
	}{
		{kind + " ahead", true, before, nil, "hadoop-legacy", true},
		{kind + " record passed", true, after, nil, "grass", false},
		{"no " + kind + " record", false, before, nil, "grass", false},
		{"switch off", true, before, off, "grass", false},
	} {
		store := grass.NewMemoryStore()
		if c.record {
			store.AddTail(record)
		}
		info := speculators.JobInfo{ID: "j", Maps: 20, Reduces: 3, Slots: 100, JobOrder: true, Start: c.start}
		checkSwitch(t, c.name, newAuto(t, reg, info, c.param, store), c.want, param, c.named)
	}
}

// TestRuleV44Switch: an exact job with reduces placed while a bound record
// (rule v44: a job with an error bound short of it) reaches past its start
// runs error-beside-member (hadoop-legacy), its reason naming the switch; a
// record passed, no record, or the member empty (the rule before v44) leave
// it to the rule before. A job with an error bound hands out a bound record
// when it is built (and, not checked here, while it is short of its bound);
// the record is no deadline record for rule v41 and has a window of its own
// in the store.
func TestRuleV44Switch(t *testing.T) {
	reg := registry(t)
	const s = speculators.Time(1000)
	off := map[string]string{auto.ParamErrBeside: ""}
	checkBeside(t, reg, auto.ParamErrBeside, "bound", speculators.TailFit{Deadline: 60 * s, Mark: speculators.MarkBoundAhead})
	// A bound record is not rule v41's deadline record.
	store := grass.NewMemoryStore()
	store.AddTail(speculators.TailFit{Deadline: 60 * s, Mark: speculators.MarkBoundAhead})
	info := speculators.JobInfo{ID: "j", Maps: 20, Reduces: 3, Slots: 100, JobOrder: true, Start: 50 * s}
	checkSwitch(t, "bound record, rule v41", newAuto(t, reg, info, map[string]string{auto.ParamErrBeside: ""}, store), "grass", auto.ParamBeside, false)
	// The records a job with an error bound hands out.
	e := newAuto(t, reg, speculators.JobInfo{ID: "b", Maps: 2, Slots: 100, JobOrder: true, Start: 10 * s, ErrorBound: 0.5}, nil, grass.NewMemoryStore())
	found := false
	for _, f := range e.Learned().Tails {
		found = found || f == speculators.TailFit{Deadline: 20 * s, Mark: speculators.MarkBoundAhead}
	}
	if !found {
		t.Errorf("error-bound job: no bound record handed out when built")
	}
	if l := newAuto(t, reg, speculators.JobInfo{ID: "b", Maps: 2, Slots: 100, JobOrder: true, Start: 10 * s, ErrorBound: 0.5}, off, grass.NewMemoryStore()).Learned(); len(l.Tails) > 0 {
		t.Errorf("switch off: records %+v handed out", l.Tails)
	}
	d := speculators.TailFit{Deadline: 70 * s, Mark: speculators.MarkBoundAhead}
	if !d.Valid() || !d.IsDeadline() || d.IsReduce() || d.RatioOnly() {
		t.Errorf("bound record: valid %t, deadline %t, reduce %t, ratio-only %t; want true, true, false, false", d.Valid(), d.IsDeadline(), d.IsReduce(), d.RatioOnly())
	}
	store = grass.NewMemoryStore()
	store.AddTail(speculators.TailFit{Deadline: 500 * s})
	for i := 0; i < 2*grass.TailWindow; i++ {
		store.AddTail(speculators.TailFit{Deadline: speculators.Time(i+1) * s, Mark: speculators.MarkBoundAhead})
	}
	if fits := store.TailFits(); len(fits) != grass.TailWindow+1 || fits[0] != (speculators.TailFit{Deadline: 500 * s}) {
		t.Errorf("store kept %d fits, first %+v; want the deadline record and %d bound records", len(fits), fits[0], grass.TailWindow)
	}
}

// spreadCase is one job of checkSpread: earlier map records' lower- and
// upper-half spreads, the job's bounds, and the member it wants.
type spreadCase struct {
	name            string
	sigma, upper    float64
	bound, deadline bool
	live            bool
	param           map[string]string
	want            string
	named           bool
}

// checkSpread places each case's job after five map records of its spreads
// (a bound given with the job or later, live, or a deadline) and checks its
// member and whether its reason names param (rules v45 and v48).
func checkSpread(t *testing.T, reg *speculators.Registry, param string, cases []spreadCase) {
	t.Helper()
	for _, c := range cases {
		store := grass.NewMemoryStore()
		for i := 0; i < 5; i++ {
			store.AddTail(speculators.TailFit{Maps: 40, Sigma: c.sigma, Upper: c.upper})
		}
		info := speculators.JobInfo{ID: "j", Maps: 40, Reduces: 1, Slots: 72, JobOrder: true, SlotPools: true}
		var ev *speculators.Event
		switch {
		case c.live:
			ev = &speculators.Event{Kind: speculators.JobBounds, ErrorBound: 0.1}
		case c.bound:
			info.ErrorBound = 0.1
		case c.deadline:
			info.Deadline = 600000
		}
		e := newAuto(t, reg, info, c.param, store)
		if ev != nil {
			if err := e.Observe(ev); err != nil {
				t.Fatal(err)
			}
		}
		checkSwitch(t, c.name, e, c.want, param, c.named)
	}
}

// TestRuleV45Switch: a job with an error bound (no deadline) placed after
// map records that spread at least bounded-memoryless-sigma with an upper
// half at most bounded-memoryless-upper of it (an exponential law's
// shape) runs bounded-memoryless-member (mantri), also when the bound is
// given later, live, its reason naming the switch; a lognormal's even
// halves, a narrow spread, a deadline, or the member empty (the rule
// before) leave it to grass.
func TestRuleV45Switch(t *testing.T) {
	reg := registry(t)
	off := map[string]string{auto.ParamMemoryless: ""}
	checkSpread(t, reg, auto.ParamMemoryless, []spreadCase{
		{"memoryless records", 1.4, 0.85, true, false, false, nil, "mantri", true},
		{"memoryless records, bound given live", 1.4, 0.85, true, false, true, nil, "mantri", true},
		{"lognormal records", 1.4, 1.4, true, false, false, nil, "grass", false},
		{"narrow records", 0.6, 0.55, true, false, false, nil, "grass", false},
		{"deadline", 1.4, 0.85, false, true, false, nil, "grass", false},
		{"switch off", 1.4, 0.85, true, false, false, off, "grass", false},
	})
}

// TestRuleV48Switch: a job with an error bound (no deadline) placed after
// map records whose upper-half spread is at most bounded-narrow-upper and at
// most bounded-narrow-ratio of their spread (a flat, bounded law's shape:
// U(4, 16) s reads 0.31 above the median and 0.51 below) runs
// bounded-narrow-member (none), also when the bound is given later, live,
// its reason naming the switch; a lognormal's even halves, a wide upper
// half, records narrow on both sides (rare far outliers), a deadline, or the
// member empty (the rule before) leave it to grass.
func TestRuleV48Switch(t *testing.T) {
	reg := registry(t)
	off := map[string]string{auto.ParamNarrow: ""}
	checkSpread(t, reg, auto.ParamNarrow, []spreadCase{
		{"flat bounded records", 0.5, 0.3, true, false, false, nil, "none", true},
		{"flat bounded records, bound given live", 0.5, 0.3, true, false, true, nil, "none", true},
		{"lognormal records", 0.4, 0.4, true, false, false, nil, "grass", false},
		{"wide upper half", 0.8, 0.5, true, false, false, nil, "grass", false},
		{"narrow both halves (rare outliers)", 0.12, 0.15, true, false, false, nil, "grass", false},
		{"deadline", 0.5, 0.3, false, true, false, nil, "grass", false},
		{"switch off", 0.5, 0.3, true, false, false, off, "grass", false},
	})
}

// TestRuleV48HeavyUpperSwitch: a job with an error bound (no deadline)
// placed after map records whose upper-half spread is at least
// bounded-heavy-upper and at least bounded-heavy-ratio of a lower half of at
// least bounded-heavy-lower (a tail heavier than a lognormal's) runs
// bounded-heavy-upper-member (mantri), also when the bound is given later,
// live, its reason naming the switch; a lognormal's even halves, a narrow
// lower half under a far upper mode, a deadline, or the member empty (the
// rule before) leave it to grass.
func TestRuleV48HeavyUpperSwitch(t *testing.T) {
	reg := registry(t)
	off := map[string]string{auto.ParamHeavyUpperM: ""}
	checkSpread(t, reg, auto.ParamHeavyUpperM, []spreadCase{
		{"heavy upper half", 0.75, 1.15, true, false, false, nil, "mantri", true},
		{"heavy upper half, bound given live", 0.75, 1.15, true, false, true, nil, "mantri", true},
		{"lognormal records", 0.9, 0.95, true, false, false, nil, "grass", false},
		{"narrow lower half, far upper mode", 0.25, 1.4, true, false, false, nil, "grass", false},
		{"deadline", 0.75, 1.15, false, true, false, nil, "grass", false},
		{"switch off", 0.75, 1.15, true, false, false, off, "grass", false},
	})
}

// TestRuleV46Switch: under bounded-order first, a job with a deadline is
// ordered on free slots by its deadline plus its work left over the
// cluster's slots, a level behind the jobs with an error bound, which keep their
// work left as the key, and its reason names the switch at its first
// placement; with the switch off every job with a bound shares one level by
// its work left (rule v45), and the reason does not name it.
func TestRuleV46Switch(t *testing.T) {
	reg := registry(t)
	off := map[string]string{auto.ParamDeadlineEDF: "false"}
	const dl = speculators.Time(90000)
	var tiers [2][2]int
	for i, param := range []map[string]string{nil, off} {
		for k, c := range []struct {
			deadline speculators.Time
			bound    float64
		}{{dl, 0}, {0, 0.1}} {
			info := speculators.JobInfo{ID: "j", Maps: 30, Reduces: 2, Slots: 80, TaskMillis: 12000, Deadline: c.deadline, ErrorBound: c.bound, JobOrder: true}
			h := spectest.New(t, reg, spectest.Job{Policy: auto.Name, Info: info, Params: param})
			h.Engine.LaunchCopies(speculators.ClusterView{Idle: 40, Slots: 80}, 0)
			h.Start(spectest.Map(0), "n1", 0)
			pr := h.Engine.JobPriority(spectest.Sec(1))
			tiers[i][k] = pr.Tier
			named := strings.Contains(h.Policy().(interface{ Why() string }).Why(), "("+auto.ParamDeadlineEDF+")")
			onDeadline := i == 0 && k == 0
			if named != onDeadline {
				t.Errorf("switch %v, deadline %d: reason names %s: %t, want %t", param, c.deadline, auto.ParamDeadlineEDF, named, onDeadline)
			}
			// 32 tasks (30 maps, 2 reduces) of 12 s a-priori over 80
			// slots: 4.8 s after the deadline.
			const work = 32 * 12000
			if want := float64(dl) + work/80; onDeadline && pr.Key != want {
				t.Errorf("deadline job: key %g, want its deadline plus its work over the slots, %g", pr.Key, want)
			}
			if !onDeadline && pr.Key != work {
				t.Errorf("switch %v, deadline %d: key %g, want the work left %d", param, c.deadline, pr.Key, work)
			}
		}
	}
	if tiers[0][1] >= tiers[0][0] {
		t.Errorf("rule v46: error-bound tier %d, deadline tier %d: want the error-bound jobs first", tiers[0][1], tiers[0][0])
	}
	if tiers[1][1] != tiers[1][0] {
		t.Errorf("rule v45: error-bound tier %d, deadline tier %d: want one level", tiers[1][1], tiers[1][0])
	}
}

// TestRuleV47Switch: a GRASS member of auto gives no copy to a reduce in
// its copy phase that has copied as much as the job's maps done
// (grass.reduce-copies-after-maps, which auto sets for grass, gs and ras:
// auto.grass-reduce-copies-after-maps), and the job's reason names the
// switch; a reduce that copies slower than the maps end, a job placed
// after map records whose times spread at least map-only-busy-sigma, or
// the switch off, gets its copy as GRASS would give it.
func TestRuleV47Switch(t *testing.T) {
	reg := registry(t)
	s := speculators.Time(1000)
	off := map[string]string{auto.ParamRedAfter: "false"}
	for _, c := range []struct {
		name   string
		param  map[string]string
		sigma  float64 // the map records' spread (0: no record)
		copied float64 // share of its shuffle input each reduce has copied at 100 s (maps done: 0.25)
		want   bool    // a copy of a reduce
	}{
		{"reduces copied as much as the maps done", nil, 0, 0.25, false},
		{"reduces copied a little less (a report behind)", nil, 0, 0.2, false},
		{"records spread 0.3", nil, 0.3, 0.25, false},
		{"reduces copied far less than the maps done", nil, 0, 0.05, true},
		{"records spread 0.4 (map-only-busy-sigma)", nil, 0.4, 0.25, true},
		{"switch off", off, 0, 0.25, true},
	} {
		store := grass.NewMemoryStore()
		if c.sigma > 0 {
			store.AddTail(speculators.TailFit{Maps: 40, Sigma: c.sigma})
		}
		for range 3 {
			store.AddRuntime(speculators.Reduce, 4000, 0) // earlier jobs' reduces: 4 s
		}
		// 40 maps and 2 reduces placed at a busy fraction of 0.3 (grass,
		// rule v10); maps 0-9 end in 10 s, the others are nearly done at
		// 100 s (no map is worth a copy), the reduces wait in their copy
		// phase.
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 40, Reduces: 2}, c.param, store)
		e.LaunchCopies(speculators.ClusterView{Idle: 70, Slots: 100}, 0)
		evs := copyingReducesEvents(c.copied)
		for i := range evs {
			if err := e.Observe(&evs[i]); err != nil {
				t.Fatalf("%s: event %d: %v", c.name, i, err)
			}
		}
		if m := e.Policy.(memberNamer).Member(); m != "grass" {
			t.Fatalf("%s: member %q, want grass", c.name, m)
		}
		if !e.OfferSlots() {
			t.Fatalf("%s: no slot chooser", c.name)
		}
		e.Decide(101 * s)
		id, isCopy, ok := e.ChooseForSlot("z", 101*s)
		got := ok && isCopy && id.Type == speculators.Reduce
		if got != c.want {
			t.Errorf("%s: copy of a reduce %t (%v %t %t), want %t", c.name, got, id, isCopy, ok, c.want)
		}
		if want := e.WantsSlot(101 * s); want != c.want {
			t.Errorf("%s: wants a slot %t, want %t", c.name, want, c.want)
		}
		w := e.Policy.(interface{ Why() string }).Why()
		if named := strings.Contains(w, "("+auto.ParamRedAfter+")"); named == c.want {
			t.Errorf("%s: reason %q names %s: %t", c.name, w, auto.ParamRedAfter, named)
		}
	}
}

// TestRuleV49Switch: an exact job with reduces on slot pools, placed at a
// low busy fraction after map records that show no slow node, runs
// slots-alike-member (grass) in exact-member's place (late), its reason
// naming the switch; no record yet (the LATE sorts, a job alone), records
// with slow nodes (rule v28's spread switch), containers (rule v10) or the
// member empty (the rule before v49) leave it to the rule before.
func TestRuleV49Switch(t *testing.T) {
	reg := registry(t)
	alike := speculators.TailFit{Maps: 54, Sigma: 0.1}
	slow := speculators.TailFit{Maps: 54, Sigma: 0.1, Slow: 0.25}
	off := map[string]string{auto.ParamSlotsAlike: ""}
	for _, c := range []struct {
		name  string
		pools bool
		recs  []speculators.TailFit
		param map[string]string
		want  string
		named bool
	}{
		{"slot pools, alike records", true, repeat(alike, 3), nil, "grass", true},
		{"slot pools, alike records, switch off", true, repeat(alike, 3), off, "late", false},
		{"slot pools, no record", true, nil, nil, "late", false},
		{"slot pools, 2 alike records (too few)", true, repeat(alike, 2), nil, "late", false},
		{"slot pools, slow-node records", true, repeat(slow, 3), nil, "ras", false},
		{"containers, alike records (rule v20)", false, repeat(alike, 3), nil, "ras", false},
	} {
		store := grass.NewMemoryStore()
		for _, f := range c.recs {
			store.AddTail(f)
		}
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 54, Reduces: 8, Slots: 72, SlotPools: c.pools, JobOrder: true}, c.param, store)
		e.LaunchCopies(speculators.ClusterView{Idle: 70, Slots: 72}, 0)
		checkSwitch(t, c.name, e, c.want, auto.ParamSlotsAlike, c.named)
	}
}

// TestRuleV50Switch: under order least-remaining-first, an exact map-only
// job without an a-priori mean task time and with no map done is keyed by
// its maps left times the mean time its running maps would take at their
// pace (two maps at 0.5 after 10 s: 20 s), and its reason names the switch
// at its first placement; before any report, once a map is done, with an
// a-priori mean, for a job with reduces, and with the switch off (rule
// v49) the key is the work left at the job's mean (1 ms a task with no law
// and no map done).
func TestRuleV50Switch(t *testing.T) {
	reg := registry(t)
	off := map[string]string{auto.ParamUnknownPace: "false"}
	for _, c := range []struct {
		name    string
		param   map[string]string
		taskMs  float64
		reduces int
		report  bool // the two running maps report 0.5 at 10 s
		done    bool // a third map succeeded in 8 s
		wantKey float64
	}{
		{"new job", nil, 0, 0, false, false, 40},
		{"maps running, no report", nil, 0, 0, false, false, 40},
		{"maps running at half after 10 s", nil, 0, 0, true, false, 40 * 20000},
		{"a map done", nil, 0, 0, true, true, 39 * 8000},
		{"a-priori mean", nil, 5000, 0, true, false, 40 * 5000},
		{"with reduces", nil, 0, 2, true, false, 42},
		{"switch off", off, 0, 0, true, false, 40},
	} {
		info := speculators.JobInfo{ID: "j", Maps: 40, Reduces: c.reduces, Slots: 80, TaskMillis: c.taskMs, JobOrder: true}
		h := spectest.New(t, reg, spectest.Job{Policy: auto.Name, Info: info, Params: c.param})
		h.Engine.LaunchCopies(speculators.ClusterView{Idle: 40, Slots: 80}, 0)
		named := strings.Contains(h.Policy().(interface{ Why() string }).Why(), "("+auto.ParamUnknownPace+")")
		if want := c.param == nil && c.taskMs == 0 && c.reduces == 0; named != want {
			t.Errorf("%s: reason names %s: %t, want %t", c.name, auto.ParamUnknownPace, named, want)
		}
		if c.name != "new job" {
			for i := range 2 {
				a := h.Start(spectest.Map(i), "n1", 0)
				if c.report {
					h.Status(a, spectest.Sec(10), 0.5)
				}
			}
		}
		if c.done {
			h.Completed("n2", 0, spectest.Sec(8), spectest.Map(2))
		}
		pr := h.Engine.JobPriority(spectest.Sec(11))
		if pr.Tier != 1 {
			t.Errorf("%s: tier %d, want order's level 1", c.name, pr.Tier)
		}
		if math.Abs(pr.Key-c.wantKey) > 1e-6*c.wantKey {
			t.Errorf("%s: key %g, want %g", c.name, pr.Key, c.wantKey)
		}
	}
}

// TestRuleV73Switch: under order least-remaining-first, an exact job with
// reduces on slot pools and no a-priori mean task time, once a task of it has started,
// is keyed in the started jobs' level by its count of tasks not done (41
// with a map of 40 done, 2 reduces), and before that it waits in the new
// jobs' level behind every started job; its reason names the switch at its
// first placement. With the switch off (rule v72) both go in one level by
// work left (a map done in 8 s: 41 x 8 s; new: 42 tasks x the 1 ms
// stand-in), and with an a-priori mean or on containers the switch leaves
// the job alone.
func TestRuleV73Switch(t *testing.T) {
	reg := registry(t)
	off := map[string]string{auto.ParamTasksLeft: "false"}
	for _, c := range []struct {
		name       string
		param      map[string]string
		taskMs     float64
		containers bool
		started    bool
		wantTier   int
		wantKey    float64
	}{
		{"new job", nil, 0, false, false, 2, 42},
		{"a map done", nil, 0, false, true, 1, 41},
		{"new job, switch off", off, 0, false, false, 1, 42},
		{"a map done, switch off", off, 0, false, true, 1, 41 * 8000},
		{"a-priori mean", nil, 5000, false, true, 1, 41 * 5000},
		{"containers", nil, 0, true, true, 1, 41 * 8000},
	} {
		info := speculators.JobInfo{ID: "j", Maps: 40, Reduces: 2, Slots: 80, TaskMillis: c.taskMs, SlotPools: !c.containers, JobOrder: true}
		h := spectest.New(t, reg, spectest.Job{Policy: auto.Name, Info: info, Params: c.param})
		h.Engine.LaunchCopies(speculators.ClusterView{Idle: 40, Slots: 80}, 0)
		named := strings.Contains(h.Policy().(interface{ Why() string }).Why(), "("+auto.ParamTasksLeft+")")
		if want := c.param == nil && c.taskMs == 0 && !c.containers; named != want {
			t.Errorf("%s: reason names %s: %t, want %t", c.name, auto.ParamTasksLeft, named, want)
		}
		if c.started {
			h.Completed("n2", 0, spectest.Sec(8), spectest.Map(2))
		}
		pr := h.Engine.JobPriority(spectest.Sec(11))
		if pr.Tier != c.wantTier {
			t.Errorf("%s: tier %d, want %d", c.name, pr.Tier, c.wantTier)
		}
		if math.Abs(pr.Key-c.wantKey) > 1e-6*c.wantKey {
			t.Errorf("%s: key %g, want %g", c.name, pr.Key, c.wantKey)
		}
	}
}

// TestRuleV65Switch: under order least-remaining-first, an exact map-only
// job without an a-priori mean task time whose maps have not reported (none
// placed here) is keyed by its maps times the prior's run time of maps
// (20 s: 40 x 20 s), not by the 1 ms stand-in (key 40), when no job with
// reduces was built before it, and its reason names the switch; with a
// reduces-built record, with no run time in the prior, with the switch off
// (rule v64) the key is 40; a job with reduces hands out a reduces-built
// record when built, and none with the switch off.
func TestRuleV65Switch(t *testing.T) {
	reg := registry(t)
	off := map[string]string{auto.ParamUnknownPrior: "false"}
	for _, c := range []struct {
		name    string
		param   map[string]string
		runtime bool
		built   bool
		wantKey float64
	}{
		{"prior run time", nil, true, false, 40 * 20000},
		{"switch off", off, true, false, 40},
		{"no run time", nil, false, false, 40},
		{"a job with reduces built before", nil, true, true, 40},
	} {
		store := grass.NewMemoryStore()
		if c.runtime {
			store.AddRuntime(speculators.Map, 20000, 0)
		}
		if c.built {
			store.AddTail(speculators.TailFit{Deadline: 1, Mark: speculators.MarkReducesBuilt})
		}
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 40, Slots: 80, JobOrder: true}, c.param, store)
		e.LaunchCopies(speculators.ClusterView{Idle: 40, Slots: 80}, 0)
		named := strings.Contains(e.Policy.(interface{ Why() string }).Why(), "("+auto.ParamUnknownPrior+")")
		if want := c.wantKey > 40; named != want {
			t.Errorf("%s: reason names %s: %t, want %t", c.name, auto.ParamUnknownPrior, named, want)
		}
		pr := e.JobPriority(0)
		if pr.Tier != 1 || math.Abs(pr.Key-c.wantKey) > 1e-6*c.wantKey {
			t.Errorf("%s: priority tier %d key %g, want tier 1 key %g", c.name, pr.Tier, pr.Key, c.wantKey)
		}
	}
	for _, on := range []bool{true, false} {
		var param map[string]string
		if !on {
			param = off
		}
		store := grass.NewMemoryStore()
		e := newAuto(t, reg, speculators.JobInfo{ID: "r", Maps: 4, Reduces: 1, Slots: 80, Start: 5000, JobOrder: true}, param, store)
		var l speculators.Learned
		e.Policy.(speculators.Teacher).TakeLearned(&l)
		got := false
		for _, f := range l.Tails {
			got = got || f.IsDeadline() && f.Mark == speculators.MarkReducesBuilt && f.Deadline == 5000
		}
		if got != on {
			t.Errorf("switch %t: reduces-built record handed out: %t", on, got)
		}
	}
}

// TestRuleV51LostOutputRecords: a job that loses a map output hands out a
// lost-output record (rule v51); a later job built after one, or a running
// job at a node failure after one, re-runs the failed node's completed
// maps at once (the failure layer of rule v27's prompt re-runs), its reason
// naming the switch; without a record, with the parameter off, or with a
// record later than the failure, the maps wait failure-rerun-after-ms.
func TestRuleV51LostOutputRecords(t *testing.T) {
	reg := registry(t)
	m0 := speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map, Index: 0}}
	m1 := speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map, Index: 1}}
	events := []speculators.Event{
		{Kind: speculators.AttemptStarted, Time: 0, Attempt: m0, Node: "n1"},
		{Kind: speculators.AttemptStarted, Time: 0, Attempt: m1, Node: "n2"},
		{Kind: speculators.AttemptSucceeded, Time: 10000, Attempt: m0},
	}
	failed := speculators.Event{Kind: speculators.NodeFailed, Time: 20000, Node: "n1"}
	off := map[string]string{auto.ParamLostAll: "false"}
	for _, c := range []struct {
		name       string
		atBuild    speculators.Time // a record in the store when the job is built (0: none)
		beforeFail speculators.Time // a record added while the job runs (0: none)
		param      map[string]string
		wantRerun  bool
		wantNamed  bool
	}{
		{"record before the job", 5000, 0, nil, true, true},
		{"record while it runs", 0, 15000, nil, true, true},
		{"record after the failure", 0, 25000, nil, false, false},
		{"no record", 0, 0, nil, false, false},
		{"record before the job, v49", 5000, 0, off, false, false},
		{"record while it runs, v49", 0, 15000, off, false, false},
	} {
		store := grass.NewMemoryStore()
		if c.atBuild > 0 {
			store.AddTail(speculators.TailFit{Deadline: c.atBuild, Mark: speculators.MarkOutputLost})
		}
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 2, Reduces: 1, JobOrder: true}, c.param, store)
		observeAll(t, c.name, e, events)
		if c.beforeFail > 0 {
			store.AddTail(speculators.TailFit{Deadline: c.beforeFail, Mark: speculators.MarkOutputLost})
		}
		ev := failed
		if err := e.Observe(&ev); err != nil {
			t.Fatalf("%s: node failed: %v", c.name, err)
		}
		checkRerun(t, c.name, e, m0, 21000, c.wantRerun, auto.ParamLostAll, c.wantNamed)
	}
	// The job that loses an output a reducer could not fetch hands out the
	// record; an output lost without such a report (the failure layer's
	// own re-run of a hung node's maps) hands out none, nor does the job
	// with the parameter off.
	r0 := speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Reduce, Index: 0}}
	fetchFailed := []speculators.Event{
		{Kind: speculators.AttemptStarted, Time: 11000, Attempt: r0, Node: "n2"},
		{Kind: speculators.AttemptStatus, Time: 25000, Attempt: r0, Progress: 0.1, Phase: speculators.PhaseShuffle, FetchFailedMaps: []speculators.TaskID{m0.Task}},
	}
	for _, c := range []struct {
		name   string
		fetch  bool
		param  map[string]string
		wanted int
	}{
		{"fetch failure, then lost", true, nil, 1},
		{"lost without a fetch failure", false, nil, 0},
		{"fetch failure, then lost, v49", true, off, 0},
	} {
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 2, Reduces: 1, JobOrder: true}, c.param, grass.NewMemoryStore())
		lost := append([]speculators.Event(nil), events...)
		if c.fetch {
			lost = append(lost, fetchFailed...)
		}
		lost = append(lost, speculators.Event{Kind: speculators.AttemptKilled, Time: 30000, Attempt: m0})
		records := 0
		for i := range lost {
			if err := e.Observe(&lost[i]); err != nil {
				t.Fatalf("%s: event %d: %v", c.name, i, err)
			}
			for _, f := range e.Learned().Tails {
				if f.Mark == speculators.MarkOutputLost && f.Deadline == 30000 {
					records++
				}
			}
		}
		if records != c.wanted {
			t.Errorf("%s: %d lost-output records handed out, want %d", c.name, records, c.wanted)
		}
	}
}

// Rule v52: a job with an error bound (and no deadline), after bound-copy
// records (speculators.MarkBoundCopies, handed out by error-bound jobs
// at their bound) whose copies won less than bounded-copies-lost-wins (0.1)
// of at least bounded-copies-lost-copied (5) copied maps over the last
// five, runs bounded-copies-lost-member (none) from its first decision, its
// reason naming the switch; it stands over rule v24's evidence. Copies that
// won more, too few copied maps (four), a deadline, or the parameter empty
// (rule v51) leave it on grass; a bound-copy record is no deadline record
// for rule v41 (an exact job after one stays on grass, its containers
// member).
func TestRuleV52Switch(t *testing.T) {
	reg := registry(t)
	rec := func(copied, wins int) speculators.TailFit {
		return speculators.TailFit{Deadline: 3600 * 1000, Mark: speculators.MarkBoundCopies, Copied: copied, CopyWins: wins}
	}
	if f := rec(3, 0); !f.Valid() {
		t.Fatalf("bound-copy record %+v not valid", f)
	}
	if f := (speculators.TailFit{Deadline: 1000, Mark: speculators.MarkBoundCopies, Copied: 3, Maps: 40}); f.Valid() {
		t.Fatalf("bound-copy record with map fields %+v valid", f)
	}
	for _, c := range []struct {
		name       string
		records    []speculators.TailFit
		bound      float64
		deadline   speculators.Time
		param      map[string]string
		want       string
		namesV52   bool
		beforeV52  bool // a map record of losing copies too (rule v24)
		namesV24   bool
		exactNoV41 bool
	}{
		{"copies never won", []speculators.TailFit{rec(2, 0), rec(3, 0)}, 0.1, 0, nil, "none", true, false, false, false},
		{"copies never won, v51", []speculators.TailFit{rec(2, 0), rec(3, 0)}, 0.1, 0, map[string]string{auto.ParamBoundLostM: ""}, "grass", false, false, false, false},
		{"copies won 0.2", []speculators.TailFit{rec(5, 1), rec(5, 1)}, 0.1, 0, nil, "grass", false, false, false, false},
		{"two copied maps", []speculators.TailFit{rec(2, 0)}, 0.1, 0, nil, "grass", false, false, false, false},
		{"four copied maps", []speculators.TailFit{rec(1, 0), rec(3, 0)}, 0.1, 0, nil, "grass", false, false, false, false},
		{"four copied maps, count 3", []speculators.TailFit{rec(1, 0), rec(3, 0)}, 0.1, 0, map[string]string{auto.ParamBoundLostN: "3"}, "none", true, false, false, false},
		{"older losses out of the last five", append([]speculators.TailFit{rec(20, 0)}, repeat(rec(2, 1), 5)...), 0.1, 0, nil, "grass", false, false, false, false},
		{"a deadline", []speculators.TailFit{rec(20, 0)}, 0, 600000, nil, "grass", false, false, false, false},
		{"over rule v24", []speculators.TailFit{rec(20, 0)}, 0.1, 0, map[string]string{auto.ParamBoundLostM: "dolly"}, "dolly", true, true, false, false},
		{"exact job", []speculators.TailFit{rec(20, 0)}, 0, 0, nil, "grass", false, false, false, true},
	} {
		store := grass.NewMemoryStore()
		if c.beforeV52 {
			store.AddTail(speculators.TailFit{Maps: 40, Sigma: 0.2, Copied: 20})
		}
		for _, f := range c.records {
			store.AddTail(f)
		}
		info := speculators.JobInfo{ID: "j", Maps: 40, Reduces: 2, Slots: 100, ErrorBound: c.bound, Deadline: c.deadline, JobOrder: true}
		e := newAuto(t, reg, info, c.param, store)
		checkSwitch(t, c.name, e, c.want, auto.ParamBoundLostM, c.namesV52)
		checkSwitch(t, c.name, e, c.want, auto.ParamFutileBound, c.namesV24)
		if c.exactNoV41 {
			checkSwitch(t, c.name, e, c.want, auto.ParamBeside, false)
		}
	}
}

// Rule v53: a job the spread switch chose on its reduce records (rule v8:
// reduces slow on at least reduce-spread-share of their nodes; rule v9:
// reduce times spread at least reduce-tail-sigma) on containers runs
// spread-busy-member (ras) when its first placement finds the busy fraction
// at or above spread-busy-load (0.25); below it, with the parameter empty, on
// slot pools (rule v7's or v28's member), or when the spread switch read
// slow maps (rule v6), the job keeps what rule v52 gave it.
func TestRuleV53SpreadBusy(t *testing.T) {
	reg := registry(t)
	redSlow := []speculators.TailFit{{Maps: 40, Sigma: 0.1}, {Reduces: 8, ReduceSlow: 0.35}, {Maps: 30, Sigma: 0.1}, {Reduces: 8, ReduceSlow: 0.3}}
	redWide := []speculators.TailFit{{Maps: 40, Sigma: 0.1}, {Reduces: 8, ReduceSigma: 0.5}, {Maps: 30, Sigma: 0.1}, {Reduces: 8, ReduceSigma: 0.4}}
	mapSlow := []speculators.TailFit{{Maps: 40, Sigma: 0.1, Slow: 0.3}, {Maps: 30, Sigma: 0.1, Slow: 0.25}}
	checkBusySwitch(t, reg, auto.ParamSpreadBusy, []busyCase{
		{"slow reduces, busy 0.7", redSlow, false, 30, nil, "ras", true},
		{"slow reduces, busy 0.25 (the cut)", redSlow, false, 75, nil, "ras", true},
		{"wide reduces, busy 0.7", redWide, false, 30, nil, "ras", true},
		{"slow reduces, busy 0.7, member hadoop", redSlow, false, 30, map[string]string{auto.ParamSpreadBusy: "hadoop"}, "hadoop", true},
		{"slow reduces, busy 0.24", redSlow, false, 76, nil, "grass", false},
		{"slow reduces, busy 0.7, v52", redSlow, false, 30, map[string]string{auto.ParamSpreadBusy: ""}, "grass", false},
		{"wide reduces, busy 0.7, v52", redWide, false, 30, map[string]string{auto.ParamSpreadBusy: ""}, "grass", false},
		{"slow reduces, busy 0.7, cut 0.8", redSlow, false, 30, map[string]string{auto.ParamSpreadBusyLoad: "0.8"}, "grass", false},
		{"slow maps, busy 0.7", mapSlow, false, 30, nil, "grass", false},
		{"slow reduces, busy 0.7, slot pools", redSlow, true, 30, nil, "ras", false}, // rule v28
	})
}

// busyCase is a job of 40 maps and 4 reduces placed after fits, on slot
// pools or containers, with idle of 100 slots free at its first placement
// (a busy fraction of 1 - idle/100): want is its member, named whether its
// reason names the switch under test.
type busyCase struct {
	name  string
	fits  []speculators.TailFit
	pools bool
	idle  int
	param map[string]string
	want  string
	named bool
}

// checkBusySwitch checks the member of each busyCase's job and whether
// its reason names param (rules v29 and v53: a switch read at the busy
// fraction of the job's first placement).
func checkBusySwitch(t *testing.T, reg *speculators.Registry, param string, cases []busyCase) {
	t.Helper()
	for _, c := range cases {
		store := grass.NewMemoryStore()
		for _, f := range c.fits {
			store.AddTail(f)
		}
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 40, Reduces: 4, Slots: 100, SlotPools: c.pools, JobOrder: true}, c.param, store)
		e.LaunchCopies(speculators.ClusterView{Idle: c.idle, Slots: 100}, 0)
		checkSwitch(t, c.name, e, c.want, param, c.named)
	}
}

// TestRuleV54NarrowExact checks rule v54: an exact job with reduces on
// containers placed after at least 3 map records whose upper-half spread
// is at most narrow-exact-upper, none of them (nor a reduce record) with
// slow nodes, runs narrow-exact-member (hadoop) in the busy member's
// (sda's) place on a busy cluster, and a job small by its size is not
// cloned on an idle one; off (an empty member) it is rule v53.
func TestRuleV54NarrowExact(t *testing.T) {
	reg := registry(t)
	narrow := []speculators.TailFit{{Maps: 40, Sigma: 0.3, Upper: 0.2}, {Maps: 30, Sigma: 0.3, Upper: 0.25}, {Maps: 20, Sigma: 0.3, Upper: 0.2}}
	wide := []speculators.TailFit{{Maps: 40, Sigma: 0.3, Upper: 0.4}, {Maps: 30, Sigma: 0.3, Upper: 0.35}, {Maps: 20, Sigma: 0.3, Upper: 0.4}}
	slow := []speculators.TailFit{{Maps: 40, Sigma: 0.3, Upper: 0.2}, {Maps: 30, Sigma: 0.3, Upper: 0.25, Slow: 0.1}, {Maps: 20, Sigma: 0.3, Upper: 0.2}}
	off := map[string]string{auto.ParamNarrowExact: ""}
	checkBusySwitch(t, reg, auto.ParamNarrowExact, []busyCase{
		{"narrow, busy 0.7", narrow, false, 30, nil, "hadoop", true},
		{"narrow, busy 0.7, member none", narrow, false, 30, map[string]string{auto.ParamNarrowExact: "none"}, "none", true},
		{"narrow, busy 0.7, v53", narrow, false, 30, off, "sda", false},
		{"narrow, busy 0.7, cut 0.15", narrow, false, 30, map[string]string{auto.ParamNarrowExactU: "0.15"}, "sda", false},
		{"wide upper half, busy 0.7", wide, false, 30, nil, "sda", false},
		{"a record with slow nodes, busy 0.7", slow, false, 30, nil, "sda", false},
		{"two records, busy 0.7", narrow[:2], false, 30, nil, "sda", false},
		{"narrow, busy 0.7, slot pools", narrow, true, 30, map[string]string{auto.ParamNarrowClone: ""}, "hadoop", false}, // rule v19 (rule v61 off: it gives sca)
		{"narrow, idle, 44 tasks", narrow, false, 100, nil, "sca", false},                                                 // rule v3's idle-slot clone stays
	})
	// A job small by its size (at most small-tasks) on an idle cluster.
	for _, c := range []struct {
		name  string
		fits  []speculators.TailFit
		param map[string]string
		want  string
		named bool
	}{
		{"small, narrow, idle", narrow, nil, "grass", true},
		{"small, narrow, idle, v53", narrow, off, "sca", false},
		{"small, wide, idle", wide, nil, "sca", false},
		{"small, slow record, idle", slow, nil, "sca", false},
	} {
		store := grass.NewMemoryStore()
		for _, f := range c.fits {
			store.AddTail(f)
		}
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 6, Reduces: 2, Slots: 100, JobOrder: true}, c.param, store)
		e.LaunchCopies(speculators.ClusterView{Idle: 100, Slots: 100}, 0)
		checkSwitch(t, c.name, e, c.want, auto.ParamNarrowExact, c.named)
	}
}

// Rule v55: on slot pools, a busy job the alike switch (rule v7) chose runs
// alike-busy-copies-won-member (sda) in alike-busy-member's (sca's) place
// when the copies of the last map records that copied won at least 0.3 of
// at least 3 copied maps, the reason naming the switch; copies that won
// less, too few copied maps, containers and the parameter empty keep sca.
func TestRuleV55AlikeCopiesWon(t *testing.T) {
	reg := registry(t)
	alike := func(copied, wins int) []speculators.TailFit {
		var fits []speculators.TailFit
		for i := 0; i < 5; i++ {
			fits = append(fits, speculators.TailFit{Maps: 30, Sigma: 0.15, Slow: 0.01, Copied: copied, CopyWins: wins})
		}
		return fits
	}
	won, lost, few := alike(12, 6), alike(12, 2), alike(0, 0)
	few[3].Copied, few[3].CopyWins, few[4].Copied, few[4].CopyWins = 1, 1, 1, 1
	// sca's own records at the busy load copy nothing: read over those
	// that copied.
	wonThenNone := append(append([]speculators.TailFit{}, won...), alike(0, 0)...)
	checkBusySwitch(t, reg, auto.ParamAlikeWonMember, []busyCase{
		{"slot pools, copies won 0.50 of 60, busy 0.7", won, true, 30, nil, "sda", true},
		{"slot pools, copies won, then records of no copies", wonThenNone, true, 30, nil, "sda", true},
		{"slot pools, copies won, member ese", won, true, 30, map[string]string{auto.ParamAlikeWonMember: "ese"}, "ese", true},
		{"slot pools, copies won, v53", won, true, 30, map[string]string{auto.ParamAlikeWonMember: ""}, "sca", false},
		{"slot pools, copies won 0.17", lost, true, 30, nil, "sca", false},
		{"slot pools, 2 copied maps", few, true, 30, nil, "sca", false},
		{"slot pools, copies won, share 0.6", won, true, 30, map[string]string{auto.ParamAlikeWonShare: "0.6"}, "sca", false},
		{"slot pools, copies won, count 61", won, true, 30, map[string]string{auto.ParamAlikeWonCopied: "61"}, "sca", false},
		{"containers, copies won", won, false, 30, nil, "sca", false},
	})
}

// TestRuleV57OwnCopiesLost: on slot pools an exact job whose own done maps
// that had a copy (at least slots-own-copies-lost-copied, 3) were won by a
// copy less than slots-own-copies-lost-wins (0.1) of the time starts no
// more map copies, its reason naming the switch; a job whose copies won,
// one on containers, or with the switch off (0) keeps its member's copies.
func TestRuleV57OwnCopiesLost(t *testing.T) {
	reg := registry(t)
	s := speculators.Time(1000)
	mapAttempt := func(task int, n int32) speculators.AttemptID {
		return speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map, Index: int32(task)}, N: n}
	}
	for _, c := range []struct {
		name  string
		pools bool
		won   int // of maps 1-3, copied and done, how many a copy won
		param map[string]string
		copy  bool // a map copy asked for
		named bool
	}{
		{"copies lost 3 of 3, slot pools", true, 0, nil, false, true},
		{"copies won 1 of 3, slot pools", true, 1, nil, true, false},
		{"copies lost, containers", false, 0, nil, true, false},
		{"switch off", true, 0, map[string]string{auto.ParamOwnLostCopied: "0"}, true, false},
	} {
		info := speculators.JobInfo{ID: "j", Maps: 12, Reduces: 2, SlotPools: c.pools}
		e := newAuto(t, reg, info, c.param, grass.NewMemoryStore())
		events := copiedMaps(c.won, 10*s, 20*s)
		for i := 4; i <= 10; i++ {
			// Maps 4-10 ran alone in 20 s.
			events = append(events,
				speculators.Event{Kind: speculators.AttemptStarted, Time: 0, Attempt: mapAttempt(i, 0), Node: "n3"},
				speculators.Event{Kind: speculators.AttemptSucceeded, Time: 20 * s, Attempt: mapAttempt(i, 0)})
		}
		// Maps 0 and 11 still run, map 0 far behind.
		events = append(events,
			speculators.Event{Kind: speculators.AttemptStarted, Time: 0, Attempt: mapAttempt(0, 0), Node: "n4"},
			speculators.Event{Kind: speculators.AttemptStarted, Time: 60 * s, Attempt: mapAttempt(11, 0), Node: "n5"},
			speculators.Event{Kind: speculators.AttemptStatus, Time: 100 * s, Attempt: mapAttempt(0, 0), Progress: 0.1, Phase: speculators.PhaseMap},
			speculators.Event{Kind: speculators.AttemptStatus, Time: 100 * s, Attempt: mapAttempt(11, 0), Progress: 0.9, Phase: speculators.PhaseMap})
		observeAll(t, c.name, e, events)
		copied := false
		for _, d := range e.Decide(101 * s) {
			if d.Kind == speculators.Speculate && d.Task.Type == speculators.Map {
				copied = true
			}
		}
		if copied != c.copy {
			t.Errorf("%s (member %s): a map copy asked for: %t, want %t", c.name, e.Policy.(memberNamer).Member(), copied, c.copy)
		}
		w := e.Policy.(interface{ Why() string }).Why()
		if strings.Contains(w, "("+auto.ParamOwnLostCopied+")") != c.named {
			t.Errorf("%s: reason %q, want it to name %s: %t", c.name, w, auto.ParamOwnLostCopied, c.named)
		}
	}
}

// Rule v56: a job with an error bound (and no deadline), placed when the
// prior holds no map record but holds bound-spread records
// (speculators.MarkBoundSpread, handed out by error-bound jobs at their
// bound) whose upper-half spread over the last five, weighted by their
// maps, is at most bounded-narrow-upper (0.35), runs
// bounded-spread-narrow-member (none) from its first decision, its reason
// naming the switch. A wide upper half, a map record held (rule v48 reads
// that instead), a deadline, an exact job or the parameter empty (rule
// v55) leave it on grass; rule v52's losing copies still stand over it.
func TestRuleV56BoundSpread(t *testing.T) {
	reg := registry(t)
	rec := func(maps int, sigma, upper float64) speculators.TailFit {
		return speculators.TailFit{Deadline: 3600 * 1000, Mark: speculators.MarkBoundSpread, Maps: maps, Sigma: sigma, Upper: upper}
	}
	if f := rec(27, 0.3, 0.25); !f.Valid() || f.IsReduce() {
		t.Fatalf("bound-spread record %+v: valid %t, reduce %t", f, f.Valid(), f.IsReduce())
	}
	if f := (speculators.TailFit{Deadline: 1000, Mark: speculators.MarkBoundSpread, Maps: 27, Copied: 3}); f.Valid() {
		t.Fatalf("bound-spread record with copy counts %+v valid", f)
	}
	narrow := []speculators.TailFit{rec(27, 0.3, 0.25), rec(36, 0.28, 0.28)}
	for _, c := range []struct {
		name     string
		records  []speculators.TailFit
		bound    float64
		deadline speculators.Time
		param    map[string]string
		want     string
		names    bool
	}{
		{"narrow", narrow, 0.1, 0, nil, "none", true},
		{"narrow, v55", narrow, 0.1, 0, map[string]string{auto.ParamBoundSpreadM: ""}, "grass", false},
		{"narrow, member sca", narrow, 0.1, 0, map[string]string{auto.ParamBoundSpreadM: "sca"}, "sca", true},
		{"wide upper half", []speculators.TailFit{rec(27, 0.5, 0.5), rec(36, 0.5, 0.6)}, 0.1, 0, nil, "grass", false},
		{"upper cut 0.2", narrow, 0.1, 0, map[string]string{auto.ParamNarrowUpper: "0.2"}, "grass", false},
		{"a map record held", append([]speculators.TailFit{{Maps: 40, Sigma: 0.5, Upper: 0.6}}, narrow...), 0.1, 0, nil, "grass", false},
		{"older wide records out of the last five", append([]speculators.TailFit{rec(40, 0.5, 2), rec(40, 0.5, 2)}, repeat(rec(30, 0.3, 0.25), 5)...), 0.1, 0, nil, "none", true},
		{"a deadline", narrow, 0, 600000, nil, "grass", false},
		{"exact job", narrow, 0, 0, nil, "grass", false},
		{"copies lost too (rule v52)", append([]speculators.TailFit{{Deadline: 1000, Mark: speculators.MarkBoundCopies, Copied: 9}}, narrow...), 0.1, 0, map[string]string{auto.ParamBoundLostM: "dolly"}, "dolly", false},
	} {
		store := grass.NewMemoryStore()
		for _, f := range c.records {
			store.AddTail(f)
		}
		info := speculators.JobInfo{ID: "j", Maps: 40, Reduces: 2, Slots: 100, ErrorBound: c.bound, Deadline: c.deadline, JobOrder: true}
		e := newAuto(t, reg, info, c.param, store)
		checkSwitch(t, c.name, e, c.want, auto.ParamBoundSpreadM, c.names)
	}
}

// TestRuleV58WeakSlow: on slot pools, when rule v28's spread switch fires on
// the last map records' slow share (at least spread-share, 0.07) but that
// share is below spread-slots-weak-share (0.15), the job runs
// spread-slots-weak-member (sda), the reason naming the switch; a share at
// or above the cut, slow reduces (rule v8), containers, or the switch off
// keep what rule v28 (or v6) gives.
func TestRuleV58WeakSlow(t *testing.T) {
	reg := registry(t)
	weak := []speculators.TailFit{{Maps: 40, Sigma: 0.35, Slow: 0.10}, {Maps: 30, Sigma: 0.35, Slow: 0.09}}
	strong := []speculators.TailFit{{Maps: 40, Sigma: 0.4, Slow: 0.2}, {Maps: 30, Sigma: 0.35, Slow: 0.15}}
	slowReduces := []speculators.TailFit{{Maps: 40, Sigma: 0.3, Slow: 0.02}, {Reduces: 6, ReduceSlow: 0.1}, {Maps: 30, Sigma: 0.3}, {Reduces: 6, ReduceSlow: 0.1}}
	for _, c := range []struct {
		name  string
		fits  []speculators.TailFit
		pools bool
		red   int
		param map[string]string
		want  string
		named bool
	}{
		{"slot pools, slow on 0.096 of nodes", weak, true, 2, nil, "sda", true},
		{"slot pools, weak share, member ese", weak, true, 2, map[string]string{auto.ParamWeakSlowM: "ese"}, "ese", true},
		{"slot pools, weak share, v57", weak, true, 2, map[string]string{auto.ParamWeakSlowM: ""}, "ras", false},
		{"slot pools, weak share, cut 0.09", weak, true, 2, map[string]string{auto.ParamWeakSlowShare: "0.09"}, "ras", false},
		{"slot pools, weak share, 1 reduce, no reduce-ratio record (rule v37 stands over it)", weak, true, 1, nil, "hadoop", false},
		{"slot pools, weak share, 3 reduces", weak, true, 3, nil, "ras", false},
		{"slot pools, slow on 0.18 of nodes", strong, true, 2, nil, "ras", false},
		{"slot pools, slow reduces 0.1 (rule v8)", slowReduces, true, 2, nil, "ras", false},
		{"containers, weak share", weak, false, 2, nil, "grass", false},
	} {
		store := grass.NewMemoryStore()
		for _, f := range c.fits {
			store.AddTail(f)
		}
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 40, Reduces: c.red, Slots: 100, SlotPools: c.pools, JobOrder: true}, c.param, store)
		checkSwitch(t, c.name, e, c.want, auto.ParamWeakSlowM, c.named)
	}
}

// Rule v59: on Hadoop 1 slot pools, a job the spread switch chose on slow
// trackers (map records slow on at least spread-share of their nodes) runs
// spread-slots-slow-member (ras) until one of its running original maps,
// read at its pace, takes at least spread-slots-limping-factor (5.5) times
// the median of its original maps (at least 3 done); then
// spread-slots-limping-member (gs), the reason naming the switch. A map
// 2.5x the median, too few done maps, containers and the parameter empty
// keep the member.
func TestRuleV59SpreadSlotsLimpingMap(t *testing.T) {
	reg := registry(t)
	slow := []speculators.TailFit{{Maps: 40, Sigma: 0.2, Slow: 0.2}, {Maps: 30, Sigma: 0.2, Slow: 0.15}}
	const s = 1000
	for _, c := range []struct {
		name     string
		pools    bool
		done     int
		progress float64
		param    map[string]string
		want     string
		named    bool
	}{
		{"slot pools, a map at 10x the median", true, 10, 0.1, nil, "gs", true},
		{"slot pools, a map at 10x, member grass", true, 10, 0.1, map[string]string{auto.ParamLimpMember: "grass"}, "grass", true},
		{"slot pools, a map at 10x, v57", true, 10, 0.1, map[string]string{auto.ParamLimpMember: ""}, "ras", false},
		{"slot pools, a map at 10x, factor 12", true, 10, 0.1, map[string]string{auto.ParamLimpFactor: "12"}, "ras", false},
		{"slot pools, a map at 2.5x the median", true, 10, 0.4, nil, "ras", false},
		{"slot pools, 2 maps done", true, 2, 0.1, nil, "ras", false},
		{"containers, a map at 10x the median", false, 10, 0.1, nil, "grass", false},
	} {
		store := grass.NewMemoryStore()
		for _, f := range slow {
			store.AddTail(f)
		}
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 12, Reduces: 2, Slots: 100, SlotPools: c.pools, JobOrder: true}, c.param, store)
		// Map 11 at 10 s: a tenth done reads 100 s at its pace, 0.4 done
		// 25 s.
		events := limpingMapEvents(c.done, c.progress)
		observeAll(t, c.name, e, events)
		e.Decide(11 * s)
		checkSwitch(t, c.name, e, c.want, auto.ParamLimpMember, c.named)
	}
}

// TestRuleV60SlotsOneReduceTrackersApart: a job rule v37 gave hadoop (one
// reduce, slot pools, no ratio records) moves to
// slots-one-reduce-tracker-member (gs) once its own original maps' log
// times spread between trackers at least slots-one-reduce-tracker-split
// (1.2) times their spread within a tracker, read once it has at least
// slots-one-reduce-tracker-maps (8) readings on at least 3 trackers of two
// or more. The first case fails with the switch off.
func TestRuleV60SlotsOneReduceTrackersApart(t *testing.T) {
	reg := registry(t)
	const s = 1000
	mapAttempt := func(task int) speculators.AttemptID {
		return speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map, Index: int32(task)}}
	}
	// Twelve maps, three a tracker on n0-n3, and a thirteenth on n4 still
	// running. apart: n0 and n1 run theirs in 10, 11 and 12 s, n2 and n3
	// in 30, 33 and 36 s (between 0.63, within 0.09: 7x). alike: every
	// tracker runs one of 10, 20 and 30 s (between 0, within 0.55).
	apart := []speculators.Time{10, 11, 12, 10, 11, 12, 30, 33, 36, 30, 33, 36}
	alike := []speculators.Time{10, 20, 30, 10, 20, 30, 10, 20, 30, 10, 20, 30}
	for _, c := range []struct {
		name  string
		times []speculators.Time
		done  int
		pools bool
		param map[string]string
		want  string
		named bool
	}{
		{"trackers apart", apart, 12, true, nil, "gs", true},
		{"trackers apart, member grass", apart, 12, true, map[string]string{auto.ParamTrackerMember: "grass"}, "grass", true},
		{"trackers apart, switch off (rule v59)", apart, 12, true, map[string]string{auto.ParamTrackerMember: ""}, "hadoop", false},
		{"trackers apart, split 0 (off)", apart, 12, true, map[string]string{auto.ParamTrackerSplit: "0"}, "hadoop", false},
		{"trackers apart, split 10", apart, 12, true, map[string]string{auto.ParamTrackerSplit: "10"}, "hadoop", false},
		{"trackers alike", alike, 12, true, nil, "hadoop", false},
		{"trackers apart, 9 maps read on 3 trackers", apart, 9, true, nil, "gs", true},
		{"trackers apart, 9 maps read, 12 needed", apart, 9, true, map[string]string{auto.ParamTrackerMaps: "12"}, "hadoop", false},
		{"trackers apart, 6 maps read on 2 trackers", apart, 6, true, map[string]string{auto.ParamTrackerMaps: "2"}, "hadoop", false},
	} {
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 13, Reduces: 1, Slots: 100, SlotPools: c.pools, JobOrder: true}, c.param, grass.NewMemoryStore())
		var events []speculators.Event
		for i := 0; i < 13; i++ {
			events = append(events, speculators.Event{Kind: speculators.AttemptStarted, Time: 0, Attempt: mapAttempt(i), Node: speculators.NodeID(fmt.Sprintf("n%d", i/3))})
		}
		for i := 0; i < c.done; i++ {
			events = append(events, speculators.Event{Kind: speculators.AttemptSucceeded, Time: c.times[i] * s, Attempt: mapAttempt(i)})
		}
		observeAll(t, c.name, e, events)
		e.Decide(40 * s)
		checkSwitch(t, c.name, e, c.want, auto.ParamTrackerMember, c.named)
	}
}

// TestRuleV66StrongSlowShare: on slot pools, rule v28's spread switch on
// map records slow on at least spread-slots-strong-share (0.3) of their
// nodes gives a job of at most spread-slots-weak-reduces (2) reduces
// spread-slots-strong-member (gs), not ras. The first case fails with the
// switch off.
func TestRuleV66StrongSlowShare(t *testing.T) {
	reg := registry(t)
	const s = 1000
	mapAttempt := func(task int) speculators.AttemptID {
		return speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map, Index: int32(task)}}
	}
	for _, c := range []struct {
		name    string
		slow    float64
		reduces int
		param   map[string]string
		want    string
		named   bool
	}{
		{"slow on 0.35 of the nodes, 2 reduces", 0.35, 2, nil, "gs", true},
		{"slow on 0.35, member grass", 0.35, 2, map[string]string{auto.ParamStrongSlowM: "grass"}, "grass", true},
		{"slow on 0.35, switch off (rule v64)", 0.35, 2, map[string]string{auto.ParamStrongSlowM: ""}, "ras", false},
		{"slow on 0.35, 4 reduces", 0.35, 4, nil, "ras", false},
		{"slow on 0.2", 0.2, 2, nil, "ras", false},
		{"slow on 0.35, share 0.4", 0.35, 2, map[string]string{auto.ParamStrongSlowShare: "0.4"}, "ras", false},
	} {
		store := grass.NewMemoryStore()
		store.AddTail(speculators.TailFit{Maps: 40, Sigma: 0.2, Slow: c.slow})
		store.AddTail(speculators.TailFit{Maps: 30, Sigma: 0.2, Slow: c.slow})
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 12, Reduces: c.reduces, Slots: 100, SlotPools: true, JobOrder: true}, c.param, store)
		var events []speculators.Event
		for i := 0; i < 12; i++ {
			events = append(events, speculators.Event{Kind: speculators.AttemptStarted, Time: 0, Attempt: mapAttempt(i), Node: speculators.NodeID(fmt.Sprintf("n%d", i/2))})
			events = append(events, speculators.Event{Kind: speculators.AttemptStatus, Time: 5 * s, Attempt: mapAttempt(i), Progress: 0.5, Phase: speculators.PhaseMap})
		}
		observeAll(t, c.name, e, events)
		e.Decide(6 * s)
		checkSwitch(t, c.name, e, c.want, auto.ParamStrongSlowM, c.named)
	}
}

// TestRuleV66SlotsLimpingMap: on slot pools, a job of at most
// spread-slots-weak-reduces (2) reduces placed before any record (late,
// the exact member) moves to slots-limping-member (gs) once one of its
// running maps, at its pace, takes at least slots-limping-factor (3) times
// the median of its maps, 3 or more done. The first case fails with the
// switch off.
func TestRuleV66SlotsLimpingMap(t *testing.T) {
	reg := registry(t)
	const s = 1000
	for _, c := range []struct {
		name     string
		pools    bool
		reduces  int
		progress float64
		param    map[string]string
		want     string
		named    bool
	}{
		{"slot pools, a map at 4x the median", true, 2, 0.25, nil, "gs", true},
		{"slot pools, a map at 4x, member grass", true, 2, 0.25, map[string]string{auto.ParamSlotsLimpMember: "grass"}, "grass", true},
		{"slot pools, a map at 4x, switch off (rule v64)", true, 2, 0.25, map[string]string{auto.ParamSlotsLimpMember: ""}, "late", false},
		{"slot pools, a map at 4x, factor 5", true, 2, 0.25, map[string]string{auto.ParamSlotsLimpFactor: "5"}, "late", false},
		{"slot pools, a map at 2x the median", true, 2, 0.5, nil, "late", false},
		{"slot pools, a map at 4x, 4 reduces", true, 4, 0.25, nil, "late", false},
	} {
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 12, Reduces: c.reduces, Slots: 12, SlotPools: c.pools, JobOrder: true}, c.param, grass.NewMemoryStore())
		// Maps 0-9 done in 10 s; map 11 at 10 s: a quarter done reads 40 s
		// at its pace, half done 20 s.
		events := limpingMapEvents(10, c.progress)
		observeAll(t, c.name, e, events)
		e.Decide(11 * s)
		checkSwitch(t, c.name, e, c.want, auto.ParamSlotsLimpMember, c.named)
	}
}

// copiedMaps is maps 1-3 of a job, each started at 0 on n1 and copied at
// copyAt on n2, ending at end: the first won of them won by their copy,
// the others by their original (rules v36 and v57 count them).
func copiedMaps(won int, copyAt, end speculators.Time) []speculators.Event {
	attempt := func(task int, n int32) speculators.AttemptID {
		return speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map, Index: int32(task)}, N: n}
	}
	var events []speculators.Event
	for i := 1; i <= 3; i++ {
		winner, loser := attempt(i, 0), attempt(i, 1)
		if i <= won {
			winner, loser = loser, winner
		}
		events = append(events,
			speculators.Event{Kind: speculators.AttemptStarted, Time: 0, Attempt: attempt(i, 0), Node: "n1"},
			speculators.Event{Kind: speculators.AttemptStarted, Time: copyAt, Attempt: attempt(i, 1), Node: "n2", Speculative: true},
			speculators.Event{Kind: speculators.AttemptSucceeded, Time: end, Attempt: winner},
			speculators.Event{Kind: speculators.AttemptKilled, Time: end, Attempt: loser})
	}
	return events
}

// Rule v61: a map-only job, or an exact job on slot pools whose records say
// its reduces wait on its maps (a reduce-to-map-phase ratio of at least 2,
// or fewer than 2 such records), placed after at least 3 map records whose
// upper half spreads at most narrow-clone-upper (0.25), none with slow
// nodes, runs narrow-clone-member (sca), the reason naming the switch; a
// wide upper half, a record with slow nodes, a short reduce phase,
// containers for an exact job, a lower cut and the member empty keep what
// the rules before give.
func TestRuleV61NarrowClone(t *testing.T) {
	reg := registry(t)
	narrow := []speculators.TailFit{{Maps: 40, Sigma: 0.28, Upper: 0.2}, {Maps: 30, Sigma: 0.27, Upper: 0.22}, {Maps: 20, Sigma: 0.29, Upper: 0.19}}
	wide := []speculators.TailFit{{Maps: 40, Sigma: 0.28, Upper: 0.4}, {Maps: 30, Sigma: 0.27, Upper: 0.35}, {Maps: 20, Sigma: 0.29, Upper: 0.4}}
	slow := []speculators.TailFit{{Maps: 40, Sigma: 0.28, Upper: 0.2}, {Maps: 30, Sigma: 0.27, Upper: 0.22, Slow: 0.1}, {Maps: 20, Sigma: 0.29, Upper: 0.19}}
	ratio := func(fits []speculators.TailFit, r float64) []speculators.TailFit {
		return append(append([]speculators.TailFit{}, fits...), speculators.TailFit{Reduces: 8, ReduceRatio: r}, speculators.TailFit{Reduces: 8, ReduceRatio: r})
	}
	off := map[string]string{auto.ParamNarrowClone: ""}
	for _, c := range []struct {
		name  string
		fits  []speculators.TailFit
		red   int
		pools bool
		param map[string]string
		want  string
		named bool
	}{
		{"map-only, narrow", narrow, 0, false, nil, "sca", true},
		{"map-only, narrow, slot pools", narrow, 0, true, nil, "sca", true},
		{"map-only, narrow, member hadoop", narrow, 0, false, map[string]string{auto.ParamNarrowClone: "hadoop"}, "hadoop", true},
		{"map-only, narrow, v59", narrow, 0, false, off, "grass", false},
		{"map-only, narrow, cut 0.15", narrow, 0, false, map[string]string{auto.ParamNarrowCloneU: "0.15"}, "grass", false},
		{"map-only, two records", narrow[:2], 0, false, nil, "grass", false},
		{"map-only, wide upper half", wide, 0, false, nil, "grass", false},
		{"map-only, a record with slow nodes", slow, 0, false, nil, "grass", false},
		{"slot pools, narrow, reduces wait (ratio 4.5)", ratio(narrow, 4.5), 8, true, nil, "sca", true},
		{"slot pools, narrow, no ratio record yet", narrow, 8, true, nil, "sca", true},
		{"slot pools, narrow, ratio 1.5", ratio(narrow, 1.5), 8, true, nil, "grass", false},
		{"slot pools, narrow, ratio 1.5, cut 1", ratio(narrow, 1.5), 8, true, map[string]string{auto.ParamNarrowCloneR: "1"}, "sca", true},
		{"slot pools, narrow, v59", ratio(narrow, 4.5), 8, true, off, "grass", false},
		{"containers, narrow, reduces wait", ratio(narrow, 4.5), 8, false, nil, "grass", false},
	} {
		store := grass.NewMemoryStore()
		for _, f := range c.fits {
			store.AddTail(f)
		}
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 40, Reduces: c.red, Slots: 100, SlotPools: c.pools, JobOrder: true}, c.param, store)
		checkSwitch(t, c.name, e, c.want, auto.ParamNarrowClone, c.named)
	}
}

// TestRuleV64BoundedNoReduceCopies: a job with an error bound whose member
// chooses slots (grass) gives no copy to its reduces, in the simulator's
// pull form (ChooseForSlot) and in Decide's push form (live), and its
// reason names auto.bounded-error-no-reduce-copies, on containers; an exact
// job, a job on Hadoop 1 slot pools (a reduce copy takes a reduce slot no
// map would use), or the switch off, gets the copy GRASS gives a reduce
// that reads as a straggler.
func TestRuleV64BoundedNoReduceCopies(t *testing.T) {
	reg := registry(t)
	s := speculators.Time(1000)
	// Rule v47 off for the exact job, so that its reduce copy is GRASS's.
	off := map[string]string{auto.ParamBoundNoRed: "false"}
	exact := map[string]string{auto.ParamRedAfter: "false"}
	for _, c := range []struct {
		name  string
		param map[string]string
		bound float64
		slots bool // Hadoop 1 slot pools
		want  bool // a copy of a reduce
	}{
		{"error bound", nil, 0.1, false, false},
		{"error bound, switch off", off, 0.1, false, true},
		{"exact job", exact, 0, false, true},
		{"error bound on slot pools", nil, 0.1, true, true},
	} {
		for _, pull := range []bool{true, false} {
			store := grass.NewMemoryStore()
			for range 3 {
				store.AddRuntime(speculators.Reduce, 4000, 0) // earlier jobs' reduces: 4 s
			}
			// 40 maps and 2 reduces; maps 0-9 end in 10 s, the others are
			// nearly done at 100 s (no map is worth a copy); the reduces
			// have copied far less than the maps done: GRASS reads them as
			// stragglers.
			e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 40, Reduces: 2, ErrorBound: c.bound, SlotPools: c.slots}, c.param, store)
			e.LaunchCopies(speculators.ClusterView{Idle: 70, Slots: 100}, 0)
			evs := copyingReducesEvents(0.05)
			for i := range evs {
				if err := e.Observe(&evs[i]); err != nil {
					t.Fatalf("%s: event %d: %v", c.name, i, err)
				}
			}
			if m := e.Policy.(memberNamer).Member(); m != "grass" {
				t.Fatalf("%s: member %q, want grass", c.name, m)
			}
			got := false
			if pull {
				if !e.OfferSlots() {
					t.Fatalf("%s: no slot chooser", c.name)
				}
				e.Decide(101 * s)
				id, isCopy, ok := e.ChooseForSlot("z", 101*s)
				got = ok && isCopy && id.Type == speculators.Reduce
			} else {
				for _, d := range e.Decide(101 * s) {
					got = got || d.Kind == speculators.Speculate && d.Task.Type == speculators.Reduce
				}
			}
			if got != c.want {
				t.Errorf("%s (pull %t): copy of a reduce %t, want %t", c.name, pull, got, c.want)
			}
			w := e.Policy.(interface{ Why() string }).Why()
			if named := strings.Contains(w, "("+auto.ParamBoundNoRed+")"); named == c.want {
				t.Errorf("%s (pull %t): reason %q names %s: %t", c.name, pull, w, auto.ParamBoundNoRed, named)
			}
		}
	}
}

// TestRuleV63AlikeNoWait: a job of at most alike-busy-no-wait-reduces (2)
// reduces that rule v7 gives alike-busy-member (sca) on a busy cluster,
// whose reduces are at least reduces-after-maps-idle-share of the idle
// slots, keeps no rule v33 wait: its reason names rule v63, not rule v33.
// With the switch off (0), with more reduces than the cut, or without
// alike records (the busy member, sda) rule v33's wait is named instead.
// The spectest file alike_busy_reduces_no_wait.txt has the tiers.
func TestRuleV63AlikeNoWait(t *testing.T) {
	reg := registry(t)
	alike := []speculators.TailFit{{Maps: 40, Sigma: 0.15}, {Maps: 30, Sigma: 0.15}, {Maps: 50, Sigma: 0.15}}
	off := map[string]string{auto.ParamAlikeNoWait: "0"}
	for _, c := range []struct {
		name    string
		fits    []speculators.TailFit
		reduces int
		param   map[string]string
		want    string
		named   bool
	}{
		{"alike records, 2 reduces", alike, 2, nil, "sca", true},
		{"alike records, 2 reduces, v61", alike, 2, off, "sca", false},
		{"alike records, 4 reduces", alike, 4, nil, "sca", false},
		{"alike records, 4 reduces, cut 4", alike, 4, map[string]string{auto.ParamAlikeNoWait: "4"}, "sca", true},
		{"no record, 2 reduces", nil, 2, nil, "sda", false},
	} {
		store := grass.NewMemoryStore()
		for _, f := range c.fits {
			store.AddTail(f)
		}
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 30, Reduces: c.reduces, Slots: 72, JobOrder: true}, c.param, store)
		e.LaunchCopies(speculators.ClusterView{Idle: 6, Slots: 72}, 0)
		checkSwitch(t, c.name, e, c.want, auto.ParamAlikeNoWait, c.named)
		w := e.Policy.(interface{ Why() string }).Why()
		if got := strings.Contains(w, "("+auto.ParamReducesIdle+")"); got == c.named {
			t.Errorf("%s: reason %q names %s: %t, want %t", c.name, w, auto.ParamReducesIdle, got, !c.named)
		}
	}
}

// Rule v62: on containers, where rule v6's spread switch fires on at least
// 2 map records, or rule v12's busy switch gives the spread member beside
// one slow map record (after copies that won at least 0.1 of 3 or more,
// and a reduce record),
// a job whose map records show slow nodes few (the slowest record below
// spread-once-below, 0.2) and not repeated (fewer than 2 records at
// spread-share) runs spread-once-member (late), the reason naming the
// switch; the first record, a large share, two slow records, slot pools
// and the parameter empty keep rule v61's member.
func TestRuleV62SpreadOnce(t *testing.T) {
	reg := registry(t)
	once := []speculators.TailFit{{Maps: 20, Sigma: 0.1}, {Maps: 60, Sigma: 0.1, Slow: 0.125}}
	first := []speculators.TailFit{{Maps: 60, Sigma: 0.1, Slow: 0.125}}
	large := []speculators.TailFit{{Maps: 20, Sigma: 0.1}, {Maps: 60, Sigma: 0.1, Slow: 0.3}}
	twice := []speculators.TailFit{{Maps: 20, Sigma: 0.1, Slow: 0.1}, {Maps: 60, Sigma: 0.1, Slow: 0.125}}
	alike := func(won int, reduceRecord bool) []speculators.TailFit {
		fits := []speculators.TailFit{{Maps: 40, Sigma: 0.15, Copied: 10, CopyWins: won}, {Maps: 30, Sigma: 0.15, Copied: 10, CopyWins: won}, {Maps: 50, Sigma: 0.15, Slow: 0.1, Copied: 10, CopyWins: won}}
		if reduceRecord {
			fits = append(fits, speculators.TailFit{Reduces: 8})
		}
		return fits
	}
	off := map[string]string{auto.ParamSpreadOnce: ""}
	checkBusySwitch(t, reg, auto.ParamSpreadOnce, []busyCase{
		{"one slow map record of two", once, false, 30, nil, "late", true},
		{"one slow map record of two, v61", once, false, 30, off, "grass", false},
		{"one slow map record of two, repeat 1", once, false, 30, map[string]string{auto.ParamSpreadRepeat: "1"}, "grass", false},
		{"one slow map record of two, member hadoop", once, false, 30, map[string]string{auto.ParamSpreadOnce: "hadoop"}, "hadoop", true},
		{"the first record", first, false, 30, nil, "grass", false},
		{"a large share", large, false, 30, nil, "grass", false},
		{"a large share, no bound", large, false, 30, map[string]string{auto.ParamSpreadOnceBelow: "0"}, "late", true},
		{"two slow map records", twice, false, 30, nil, "grass", false},
		{"one slow map record, slot pools", once, true, 30, nil, "ras", false}, // rule v28
		// Rule v12's busy switch: alike by the means, one slow map record.
		{"alike means, one slow map record, busy", alike(4, true), false, 30, nil, "late", true},
		{"alike means, one slow map record, busy, v61", alike(4, true), false, 30, off, "grass", false},
		{"alike means, one slow map record, no reduce record", alike(4, false), false, 30, nil, "grass", false},
		{"alike means, one slow map record, copies never won", alike(0, true), false, 30, nil, "sca", false},
		{"alike means, one slow map record, copies never won, v61", alike(0, true), false, 30, off, "sca", false}, // as under v61 (rule v8's futile switch)
	})
}

// copyingReducesEvents is a job of 40 maps and 2 reduces: every attempt
// starts at 0 on a node of its own, maps 0-9 end at 10 s, the others read
// 0.99 at 100 s (no map is worth a copy), and the reduces read their
// shuffle phase at copied of their input then.
func copyingReducesEvents(copied float64) []speculators.Event {
	const s = speculators.Time(1000)
	at := func(ty speculators.TaskType, task int, n int32) speculators.AttemptID {
		return speculators.AttemptID{Task: speculators.TaskID{Type: ty, Index: int32(task)}, N: n}
	}
	var evs []speculators.Event
	for i := 0; i < 40; i++ {
		evs = append(evs, speculators.Event{Kind: speculators.AttemptStarted, Time: 0, Attempt: at(speculators.Map, i, 0), Node: speculators.NodeID(fmt.Sprintf("n%d", i))})
	}
	for i := 0; i < 2; i++ {
		evs = append(evs, speculators.Event{Kind: speculators.AttemptStarted, Time: 0, Attempt: at(speculators.Reduce, i, 0), Node: speculators.NodeID(fmt.Sprintf("r%d", i))})
	}
	for i := 0; i < 10; i++ {
		evs = append(evs, speculators.Event{Kind: speculators.AttemptSucceeded, Time: 10 * s, Attempt: at(speculators.Map, i, 0)})
	}
	for i := 10; i < 40; i++ {
		evs = append(evs, speculators.Event{Kind: speculators.AttemptStatus, Time: 100 * s, Attempt: at(speculators.Map, i, 0), Progress: 0.99, Phase: speculators.PhaseMap})
	}
	for i := 0; i < 2; i++ {
		evs = append(evs, speculators.Event{Kind: speculators.AttemptStatus, Time: 100 * s, Attempt: at(speculators.Reduce, i, 0), Progress: speculators.ReduceProgress(speculators.PhaseShuffle, copied), Phase: speculators.PhaseShuffle})
	}
	return evs
}

// limpingMapEvents is a job of twelve maps, two a node on n0-n5, started
// at 0: maps 0 to done-1 succeed at 10 s, maps done to 10 read 0.99 then,
// and map 11 reads progress (rules v59 and v66 read its pace).
func limpingMapEvents(done int, progress float64) []speculators.Event {
	const s = speculators.Time(1000)
	mapAttempt := func(task int) speculators.AttemptID {
		return speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map, Index: int32(task)}}
	}
	var events []speculators.Event
	for i := 0; i < 12; i++ {
		events = append(events, speculators.Event{Kind: speculators.AttemptStarted, Time: 0, Attempt: mapAttempt(i), Node: speculators.NodeID(fmt.Sprintf("n%d", i/2))})
	}
	for i := 0; i < done; i++ {
		events = append(events, speculators.Event{Kind: speculators.AttemptSucceeded, Time: 10 * s, Attempt: mapAttempt(i)})
	}
	for i := done; i < 11; i++ {
		events = append(events, speculators.Event{Kind: speculators.AttemptStatus, Time: 10 * s, Attempt: mapAttempt(i), Progress: 0.99, Phase: speculators.PhaseMap})
	}
	return append(events, speculators.Event{Kind: speculators.AttemptStatus, Time: 10 * s, Attempt: mapAttempt(11), Progress: progress, Phase: speculators.PhaseMap})
}

// TestRuleV67FullReducePool: on slot pools, a job of 3 to 4 reduces that
// rule v28's spread switch gives ras runs spread-slots-reduce-pool-member
// (mantri) when its first placement finds the reduce pool at least
// spread-slots-reduce-pool-load (0.9) busy and the last
// spread-slots-reduce-pool-records (2) reduce-pool records average at
// least that too; every placement on slot pools hands out its own record.
// The first case fails with the switch off.
func TestRuleV67FullReducePool(t *testing.T) {
	reg := registry(t)
	for _, c := range []struct {
		name          string
		reduces       int
		records       []float64
		redIdle       int
		param         map[string]string
		want          string
		named, record bool
	}{
		{"pool full, records 1 and 0.94", 4, []float64{1, 0.94}, 0, nil, "mantri", true, true},
		{"member hadoop", 4, []float64{1, 0.94}, 0, map[string]string{auto.ParamPoolMember: "hadoop"}, "hadoop", true, true},
		{"switch off (rule v66)", 4, []float64{1, 0.94}, 0, map[string]string{auto.ParamPoolMember: ""}, "ras", false, false},
		{"records average 0.72", 4, []float64{1, 0.44}, 0, nil, "ras", false, true},
		{"one record", 4, []float64{1}, 0, nil, "ras", false, true},
		{"8 of 32 reduce slots free", 4, []float64{1, 1}, 8, nil, "ras", false, true},
		{"6 reduces", 6, []float64{1, 1}, 0, nil, "ras", false, true},
		{"2 reduces (rule v58's sda)", 2, []float64{1, 1}, 0, nil, "sda", false, true},
	} {
		store := grass.NewMemoryStore()
		store.AddTail(speculators.TailFit{Maps: 40, Sigma: 0.2, Slow: 0.13})
		store.AddTail(speculators.TailFit{Maps: 30, Sigma: 0.2, Slow: 0.15})
		for i, b := range c.records {
			store.AddTail(speculators.TailFit{Deadline: speculators.Time(1000 * (i + 1)), Mark: speculators.MarkReducePool, Sigma: b})
		}
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 12, Reduces: c.reduces, Slots: 100, SlotPools: true, JobOrder: true}, c.param, store)
		e.LaunchCopies(speculators.ClusterView{Slots: 96, Idle: 40 + c.redIdle, ReduceSlots: 32, ReduceIdle: c.redIdle}, 5000)
		checkSwitch(t, c.name, e, c.want, auto.ParamPoolMember, c.named)
		var l speculators.Learned
		e.Policy.(speculators.Teacher).TakeLearned(&l)
		got := false
		for _, f := range l.Tails {
			if f.IsDeadline() && f.Mark == speculators.MarkReducePool {
				got = f.Deadline == 5000 && f.Sigma == 1-float64(c.redIdle)/32
			}
		}
		if got != c.record {
			t.Errorf("%s: reduce-pool record handed out %t, want %t (%v)", c.name, got, c.record, l.Tails)
		}
	}
}

// TestRuleV68LastWaveReduces: on slot pools, a job of at most
// spread-slots-last-wave-reduces (3) reduces that the spread switch
// started on ras (rule v28) moves to spread-slots-limping-member (gs) once
// every map is done and a reduce runs: its reduces are its last wave. The
// first case fails with the switch off.
func TestRuleV68LastWaveReduces(t *testing.T) {
	reg := registry(t)
	slow := []speculators.TailFit{{Maps: 40, Sigma: 0.2, Slow: 0.2}, {Maps: 30, Sigma: 0.2, Slow: 0.15}}
	const s = 1000
	attempt := func(ty speculators.TaskType, task int) speculators.AttemptID {
		return speculators.AttemptID{Task: speculators.TaskID{Type: ty, Index: int32(task)}}
	}
	for _, c := range []struct {
		name    string
		pools   bool
		reduces int
		done    int  // maps done of 12
		reduce  bool // a reduce runs
		param   map[string]string
		want    string
		named   bool
	}{
		{"slot pools, 3 reduces, maps done, a reduce runs", true, 3, 12, true, nil, "gs", true},
		{"slot pools, 3 reduces, switch off (rule v66)", true, 3, 12, true, map[string]string{auto.ParamLastWaveRed: "0"}, "ras", false},
		{"slot pools, 3 reduces, member grass", true, 3, 12, true, map[string]string{auto.ParamLimpMember: "grass"}, "grass", true},
		{"slot pools, 4 reduces", true, 4, 12, true, nil, "ras", false},
		{"slot pools, 3 reduces, records slow on 0.18, share 0.2", true, 3, 12, true, map[string]string{auto.ParamLastWaveShare: "0.2"}, "ras", false},
		{"slot pools, 4 reduces, bound 4", true, 4, 12, true, map[string]string{auto.ParamLastWaveRed: "4"}, "gs", true},
		{"slot pools, 3 reduces, 11 maps done", true, 3, 11, true, nil, "ras", false},
		{"slot pools, 3 reduces, no reduce running", true, 3, 12, false, nil, "ras", false},
		{"containers, 3 reduces", false, 3, 12, true, nil, "grass", false},
	} {
		store := grass.NewMemoryStore()
		for _, f := range slow {
			store.AddTail(f)
		}
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 12, Reduces: c.reduces, Slots: 100, SlotPools: c.pools, JobOrder: true}, c.param, store)
		var events []speculators.Event
		for i := 0; i < 12; i++ {
			events = append(events, speculators.Event{Kind: speculators.AttemptStarted, Time: 0, Attempt: attempt(speculators.Map, i), Node: speculators.NodeID(fmt.Sprintf("n%d", i/2))})
		}
		for i := 0; i < 12; i++ {
			if i < c.done {
				events = append(events, speculators.Event{Kind: speculators.AttemptSucceeded, Time: 10 * s, Attempt: attempt(speculators.Map, i)})
			} else {
				events = append(events, speculators.Event{Kind: speculators.AttemptStatus, Time: 10 * s, Attempt: attempt(speculators.Map, i), Progress: 0.99, Phase: speculators.PhaseMap})
			}
		}
		if c.reduce {
			events = append(events,
				speculators.Event{Kind: speculators.AttemptStarted, Time: 10 * s, Attempt: attempt(speculators.Reduce, 0), Node: "n0"},
				speculators.Event{Kind: speculators.AttemptStatus, Time: 12 * s, Attempt: attempt(speculators.Reduce, 0), Progress: 0.2, Phase: speculators.PhaseShuffle})
		}
		observeAll(t, c.name, e, events)
		e.Decide(13 * s)
		checkSwitch(t, c.name, e, c.want, auto.ParamLastWaveRed, c.named)
	}
}

// TestRuleV69FailedNodeMember: an exact job with reduces on containers
// that rule v6's spread switch gives grass, built within
// failed-node-within-ms of a node-failed record with no node-resumed
// record after it, and after map records slow on less than
// failed-node-slow-below of their nodes, runs failed-node-member (sda)
// from its first decision, its reason naming the switch; with the switch
// off, a resumed record after the failure, a failure too long ago, map
// records slow on a quarter of their nodes, it keeps grass. A job told of a node failure or resumption hands out the record.
func TestRuleV69FailedNodeMember(t *testing.T) {
	reg := registry(t)
	m0 := speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map, Index: 0}}
	off := map[string]string{auto.ParamFailedNodeMember: ""}
	for _, c := range []struct {
		name     string
		slow     float64
		failed   speculators.Time // a node-failed record (0: none)
		resumed  speculators.Time // a node-resumed record (0: none)
		start    speculators.Time
		param    map[string]string
		want     string
		wantName bool
	}{
		{"failed 100 s before", 0.15, 200000, 0, 300000, nil, "sda", true},
		{"switch off (rule v66)", 0.15, 200000, 0, 300000, off, "grass", false},
		{"no record", 0.15, 0, 0, 300000, nil, "grass", false},
		{"resumed after", 0.15, 200000, 250000, 300000, nil, "grass", false},
		{"failed again after resumed", 0.15, 260000, 250000, 300000, nil, "sda", true},
		{"failed 700 s before", 0.15, 200000, 0, 900000, nil, "grass", false},
		{"slow nodes a quarter", 0.25, 200000, 0, 300000, nil, "grass", false},
	} {
		store := grass.NewMemoryStore()
		for i := 0; i < 3; i++ {
			store.AddTail(speculators.TailFit{Maps: 40, Sigma: 0.3, Slow: c.slow})
		}
		if c.failed > 0 {
			store.AddTail(speculators.TailFit{Deadline: c.failed, Mark: speculators.MarkNodeFailed})
		}
		if c.resumed > 0 {
			store.AddTail(speculators.TailFit{Deadline: c.resumed, Mark: speculators.MarkNodeResumed})
		}
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 40, Reduces: 3, Start: c.start, JobOrder: true}, c.param, store)
		e.LaunchCopies(speculators.ClusterView{Idle: 50, Slots: 80}, 0) // busy fraction 0.375
		ev := speculators.Event{Kind: speculators.AttemptStarted, Time: c.start, Attempt: m0, Node: "n1"}
		if err := e.Observe(&ev); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		e.Decide(c.start + 1000)
		checkSwitch(t, c.name, e, c.want, auto.ParamFailedNodeMember, c.wantName)
	}
	// The record: a job told of a node failure, and of its return.
	for _, on := range []bool{true, false} {
		var param map[string]string
		if !on {
			param = off
		}
		e := newAuto(t, reg, speculators.JobInfo{ID: "r", Maps: 2, Reduces: 1, JobOrder: true}, param, grass.NewMemoryStore())
		for _, ev := range []speculators.Event{
			{Kind: speculators.NodeFailed, Time: 20000, Node: "n1"},
			{Kind: speculators.NodeResumed, Time: 50000, Node: "n1"},
		} {
			if err := e.Observe(&ev); err != nil {
				t.Fatal(err)
			}
		}
		var l speculators.Learned
		e.Policy.(speculators.Teacher).TakeLearned(&l)
		failed, resumed := false, false
		for _, f := range l.Tails {
			failed = failed || f.IsDeadline() && f.Mark == speculators.MarkNodeFailed && f.Deadline == 20000
			resumed = resumed || f.IsDeadline() && f.Mark == speculators.MarkNodeResumed && f.Deadline == 50000
		}
		if failed != on || resumed != on {
			t.Errorf("switch %t: node-failed record %t, node-resumed record %t", on, failed, resumed)
		}
	}
}

// TestRuleV71RerunNeededSlots: on slot pools, a node declared failed that
// holds a completed map output while every reduce still copying waits on
// it (r0 in its shuffle after every map is done, r1 not started) has it
// re-run at once, the reason naming the switch (rule v71); with the switch
// off, on containers, or while a map still runs (r0 then copies each
// output as its map ends: it has n1's), the output waits
// failure-rerun-after-slots-ms (10 s, rule v15).
func TestRuleV71RerunNeededSlots(t *testing.T) {
	reg := registry(t)
	m0 := speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map, Index: 0}}
	m1 := speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map, Index: 1}}
	r0 := speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Reduce, Index: 0}}
	off := map[string]string{auto.ParamRerunNeeded: "false"}
	for _, c := range []struct {
		name      string
		slots     bool
		mapsDone  bool
		param     map[string]string
		wantRerun bool
	}{
		{"slot pools, maps done", true, true, nil, true},
		{"slot pools, maps done, v70", true, true, off, false},
		{"containers, maps done", false, true, nil, false},
		{"slot pools, a map running", true, false, nil, false},
	} {
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 2, Reduces: 2, JobOrder: true, SlotPools: c.slots}, c.param, grass.NewMemoryStore())
		events := []speculators.Event{
			{Kind: speculators.AttemptStarted, Time: 0, Attempt: m0, Node: "n1"},
			{Kind: speculators.AttemptStarted, Time: 0, Attempt: m1, Node: "n2"},
			{Kind: speculators.AttemptSucceeded, Time: 10000, Attempt: m0},
		}
		if c.mapsDone {
			events = append(events, speculators.Event{Kind: speculators.AttemptSucceeded, Time: 11000, Attempt: m1})
		}
		events = append(events,
			speculators.Event{Kind: speculators.AttemptStarted, Time: 12000, Attempt: r0, Node: "n2"},
			speculators.Event{Kind: speculators.AttemptStatus, Time: 15000, Attempt: r0, Progress: 0.2, Phase: speculators.PhaseShuffle},
			speculators.Event{Kind: speculators.NodeFailed, Time: 20000, Node: "n1"},
		)
		observeAll(t, c.name, e, events)
		checkRerun(t, c.name, e, m0, 21000, c.wantRerun, auto.ParamRerunNeeded, c.wantRerun)
	}
}

// TestRuleV72OneReduceLimpingMap: on slot pools, a job rule v37 gave hadoop
// (one reduce, at least 4 maps) before slots-one-reduce-ratio-records (2)
// ratio records moves to slots-one-reduce-limping-member (gs) once one of
// its running maps, at its pace, takes at least
// slots-one-reduce-limping-factor (3.5) times the median of its maps, 3 or more done; after two records that say
// the reduce is the long phase rule v37's hadoop stays. The first case
// fails with the switch off.
func TestRuleV72OneReduceLimpingMap(t *testing.T) {
	reg := registry(t)
	const s = 1000
	long := []speculators.TailFit{{Reduces: 1, ReduceRatio: 3}, {Reduces: 1, ReduceRatio: 4}}
	for _, c := range []struct {
		name     string
		records  []speculators.TailFit
		progress float64
		param    map[string]string
		want     string
		named    bool
	}{
		{"no record, a map at 4x the median", nil, 0.25, nil, "gs", true},
		{"one record, a map at 4x the median", long[:1], 0.25, nil, "gs", true},
		{"no record, a map at 4x, member grass", nil, 0.25, map[string]string{auto.ParamOneRedLimp: "grass"}, "grass", true},
		{"no record, a map at 4x, switch off (rule v70)", nil, 0.25, map[string]string{auto.ParamOneRedLimp: ""}, "hadoop", false},
		{"no record, a map at 4x, factor 5", nil, 0.25, map[string]string{auto.ParamOneRedLimpFactor: "5"}, "hadoop", false},
		{"no record, a map at 4x, factor 0 (off)", nil, 0.25, map[string]string{auto.ParamOneRedLimpFactor: "0"}, "hadoop", false},
		{"no record, a map at 2x the median", nil, 0.5, nil, "hadoop", false},
		{"two records of a long reduce, a map at 4x", long, 0.25, nil, "hadoop", false},
	} {
		store := grass.NewMemoryStore()
		for _, r := range c.records {
			store.AddTail(r)
		}
		e := newAuto(t, reg, speculators.JobInfo{ID: "j", Maps: 12, Reduces: 1, Slots: 12, SlotPools: true, JobOrder: true}, c.param, store)
		events := limpingMapEvents(10, c.progress)
		observeAll(t, c.name, e, events)
		e.Decide(11 * s)
		checkSwitch(t, c.name, e, c.want, auto.ParamOneRedLimp, c.named)
	}
}
