package replay

import (
	"path/filepath"
	"strings"
	"testing"
)

// autoRivals are the single policies auto is held against in the scenario
// test: every policy that was best, on its headline measure, on at least
// one bundled scenario in the one-seed survey of all sixteen
// (docs/auto-history.md), and hadoop. The others (none, hadoop-legacy,
// mantri, dolly, sda, ese, srquant, laser) led nowhere; leaving them out
// keeps the test's time down. scripts/auto-table.sh runs all sixteen.
var autoRivals = []string{"hadoop", "late", "gs", "ras", "grass", "farms", "tws", "sca"}

const (
	// autoMaxTasks bounds the scenarios the auto test simulates whole; a
	// larger one is cut to its first jobs (loadPrefix), about
	// autoCutTasks tasks, at least autoMinJobs jobs (fewer jobs of a few
	// hundred tasks each are too few to rank policies) and at most
	// autoCutJobs. The bundled scenarios, the done-when of issue 27, keep
	// at least bundledMinJobs: on the first 30 jobs of
	// xulau/large-jobs (100-500 tasks each) ras, auto's member there, is
	// 5.2% behind gs at seed 1 and 2.6% on the first 60, 0.6% over 5 seeds
	// on the first 150 (docs/auto-history.md): 30 such jobs rank
	// policies 1% apart by chance.
	autoMaxTasks   = 3000
	autoCutTasks   = 1500
	autoMinJobs    = 30
	bundledMinJobs = 60
	autoCutJobs    = 60
	// autoSlack is how far behind the best single policy auto may be.
	autoSlack = 0.05
)

// headline is a result's headline measure as issue 27 defines it, and
// whether higher is better: time to bound for error-bound jobs, accuracy
// for deadline jobs, PoCD where jobs have deadlines to meet and no
// approximation, else mean job time.
func headline(r *Result) (name string, v float64, higher bool) {
	switch {
	case r.ErrorBoundJobs > 0 && r.MeanTimeToBoundS != nil:
		return "mean time to bound", *r.MeanTimeToBoundS, false
	case r.DeadlineJobs > 0 && r.Accuracy != nil:
		return "accuracy", *r.Accuracy, true
	case r.PoCD != nil:
		return "PoCD", *r.PoCD, true
	}
	return "mean job time", r.MeanJobS, false
}

// behind is how far a is behind b on the headline (0 or less: not behind),
// as a fraction of b.
func behind(a, b float64, higher bool) float64 {
	if b == 0 {
		return 0
	}
	if higher {
		return (b - a) / b
	}
	return (a - b) / b
}

// On every bundled scenario, reduced, auto's headline measure is within 5%
// of the best single policy's and never behind hadoop's (issue 27). The
// held-out scenarios (scenarios/heldout) are checked the same way in
// TestAutoOnHeldOutScenarios and reported apart.
func TestAutoWithinBestOnEveryScenario(t *testing.T) {
	top, _ := filepath.Glob("../scenarios/*.yaml")
	xl, _ := filepath.Glob("../scenarios/xulau/*.yaml")
	if len(top) < 13 || len(xl) < 11 {
		t.Fatalf("%d and %d bundled scenarios; want at least 13 and 11", len(top), len(xl))
	}
	checkAuto(t, append(top, xl...), autoRivals, nil, bundledMinJobs)
}

// heldOutMisses pins where auto misses on the held-out scenarios, as
// measured when they were first run (docs/auto-history.md): the test
// checks that they still miss, so that a change that fixes one makes it
// fail and the pin is removed. The rule was not tuned on them.
var heldOutMisses = map[string]string{
	// Rule v3 fixed the first set's two misses (failures-mixed: the idle-slot
	// cut clones its 18-task jobs; hetero-mixed: least-work-first order and
	// sda when busy). Rule v4 fixed the second set's small-busy (ese above
	// the cutoff load). The second and third sets, written before v4, have
	// these (5-seed figures in docs/auto-history.md). heldout3/
	// map-only-hetero-busy misses over 5 seeds (+18.7%, sda leads) but not
	// reduced at seed 1 (+4.2%), so it is checked, not pinned.
	// heldout2/hetero-four-speeds: fixed by rule v9 (least-remaining-first order; 5 seeds: v8 +5.0%,
	// v9 +2.6% against ras).
	// heldout2/hetero-four-speeds: fixed by rules v44-v47 (seed 1: 152.1 s, grass 147.5, +3.1%, hadoop 174.5).
	// Rule v6 fixed heldout3/hetero-three-speeds, heldout3/hetero-idle-reduces,
	// heldout4/weak-quarter-small and heldout4/hetero-two-speeds-long-reduces
	// (grass from earlier jobs' slow nodes; 5 seeds: +2.5%, +1.2%, +2.2%, +1.5%).
	// heldout2/mixed-fifo: moved by rule v6 (8.5% behind sda at seed 1), fixed by rule v9's order (5 seeds:
	// v8 +4.4%, v9 -11.7%).
	// heldout3/lognormal-reduces-mid: fixed by rule v5 (gs from the earlier jobs' map-time spread;
	// seed 1: +3.1% against gs; 5 seeds: +4.1%); pinned since rule v29 (below).
	// The fourth set, written before rule v5 and first run under v4 (5 seeds:
	// docs/auto-history.md).
	// heldout4/lognormal-reduces-busy: fixed by rules v44-v47 (seed 1: 57.0 s, grass 56.15, +1.5%, hadoop 79.54).
	// The fifth set, written after rule v5 and before any further tuning
	// (5 seeds: docs/auto-history.md): the node-speed pattern again.
	"heldout5/slow-tenth-large": "large jobs with reduces, a tenth of the nodes 4x slower: sda leads, auto " +
		"35% behind at seed 1, ahead of hadoop",
	// heldout5/hang-two-speeds-reduces: fixed by rule v10 (grass on containers; seed 1: 6.5% ahead of gs;
	// 5 seeds: v9 +4.1%, v10 -0.7%).
	// heldout3/map-only-hetero-busy: pinned from rule v6 to v42 (seed 1, first 30 jobs: v6 +7.0%, v13 +21.9%
	// behind gs); rule v43 (gs for map-only jobs whose earlier copies won at least 0.9) +2.9% at seed 1,
	// 5 seeds on all 80 jobs 102.4 -> 81.6 s (sda 121.4).
	// The sixth set, written before rule v6 and run once after it was final
	// (5 seeds: docs/auto-history.md).
	"heldout6/alike-large-reduces-busy": "larger jobs with reduces on alike nodes, busy: sca leads; rule v7 runs " +
		"sca once three earlier jobs show tight map times, 9.1% behind at seed 1 (v6: 27%), ahead of hadoop " +
		"(5 seeds: v6 +16.7%, v7 +5.6%)",
	"heldout6/slots-three-speeds-reduces": "Hadoop 1 slot pools over three node speeds: ras/ese lead; rule v7 runs " +
		"ese once earlier jobs show slow nodes, rule v28 ras: 6.5% behind ese at seed 1 (139.0 s against 130.4; v6: 27%), " +
		"ahead of hadoop (5 seeds: v6 +15.1%, v7 +6.0% against ras, v27 +8.7%, v28 -2.1%: in)",
	// The seventh set, written before rule v7 and run once under v6 (5
	// seeds: docs/auto-history.md).
	"heldout7/reduce-slow-nodes-stream": "a third of the nodes slow on reduces only: the GRASS family leads; " +
		"rule v8 runs grass once earlier jobs' reduces show slow nodes, 29% behind ras at seed 1, ahead of hadoop " +
		"(5 seeds: v7 +62.9% and behind hadoop, v8 +13.9%)",
	// heldout7/skewed-map-only-mid: fixed by rule v8 (hadoop once earlier jobs' copies
	// seldom won; seed 1: level with hadoop, 0.1% behind none).
	// heldout7/slowdown-faults-stream: fixed by rule v12 (alike-every-record: sda, not sca, once any of the last
	// records shows slow nodes; seed 1: -1.2% against grass).
	// heldout7/tiny-jobs-pack-mid: fixed by rule v12 (small-busy-member ras; seed 1: +2.5% against gs).
	// The eighth set, written before rule v8 and run once under v7 (5
	// seeds: docs/auto-history.md).
	// heldout8/big-small-machines: fixed by rule v12 (small-idle-every-record: no idle-slot clone after a
	// record of slow nodes; seed 1 within 5% of gs; 5 seeds: v11 +8.6%, v12 +3.1%).
	// The ninth set, written before rule v9 and run once under v8 (5
	// seeds: docs/auto-history.md).
	"heldout9/reduce-heavy-busy": "reduce-heavy jobs (16-24 lognormal reduces, few maps) on alike nodes, busy: ras/grass " +
		"lead; rule v9 runs grass once earlier jobs' reduce times spread, 19.7% behind ras at seed 1, ahead of hadoop " +
		"(5 seeds: v8 +34.6% and behind hadoop, v9 +19.0%)",
	// heldout9/flaky-nodes: fixed by rule v10 (grass, not late, on containers; seed 1: +4.8% against gs;
	// 5 seeds: v9 +10.2%, v10 +0.5%).
	"heldout4/hetero-two-speeds-long-reduces": "half the nodes 1.6x slower, long reduces: reduced at seed 1 under " +
		"rule v10 auto is 6.3% behind sda, ahead of hadoop; over 5 seeds on all jobs +2.1% against grass (v9 +1.5%)",
	// The tenth set, written before rule v10 and run once under v9 (5
	// seeds: docs/auto-history.md).
	"heldout10/skew-slow-nodes": "data skew on a quarter of slow nodes, jobs with reduces: sda/ese lead; auto runs " +
		"grass once earlier jobs show the slow nodes, and its job order lets a job's futile copies ahead of other jobs' " +
		"originals: 26.5% behind sda at seed 1 and behind hadoop (5 seeds: v9 +17.6%, v10 +18.5%, both behind hadoop)",
	// heldout10/reduce-stragglers-only: fixed by rule v12 (alike-every-record; seed 1: level with ras).
	// The eleventh set, written before rule v12 and run once under v11 (5
	// seeds: docs/auto-history.md).
	"heldout11/reduce-phase-slowdowns": "transient 5x slowdowns of a job's reduce node in its reduce phase: gs/grass " +
		"lead; 12.8% behind gs at seed 1 under rule v11, reduced, 5.5% under v12 (small-idle-every-record keeps one more " +
		"early job off sca's clones), ahead of hadoop; over 5 seeds on all jobs v11 +8.0%, v12 +1.5%",
	// heldout9/flaky-nodes: fixed at seed 1 by rule v14 (failure-rerun-after-ms: a flaky node's outputs are not
	// re-run at once; seed 1: +4.1% against gs; 5 seeds: v13 +0.6%, v14 -0.0%).
	"heldout3/busy-pareto-large": "reduced to its first 30 jobs, ras leads and auto (ras, ese when busy) " +
		"is 5.4% behind at seed 1; over 5 seeds on all 120 jobs auto leads (-4.6% against ese; rule v11's order: -7.2%)",
	// The twelfth set, written after rule v12 and run once under it (5
	// seeds: docs/auto-history.md).
	"heldout12/early-slowstart-busy": "reduces scheduled at 5% of a job's maps on a busy cluster: ras/grass lead; " +
		"auto (gs, grass, sda) is 25.3% behind ras at seed 1 and behind hadoop (5 seeds under v12: +33.4%, behind hadoop)",
	// heldout12/error-fifth-two-speeds: fixed by rule v13 (bounded-order first: the error-bound jobs ahead of
	// the ordered exact jobs; seed 1: 8.1% ahead of ese; 5 seeds: v12 +16.6%, v13 -3.6% against ras).
	// heldout12/tiny-bursts-giants: fixed by rule v13 (map-only-order all: tiny map-only jobs in the giants'
	// level; seed 1: +0.4% against ras; 5 seeds: v12 +33.0%, v13 +1.5%).
	// The thirteenth set, written before rule v13 and run once under it (5
	// seeds: docs/auto-history.md).
	// heldout13/network-blips: fixed by rule v14 (failure-rerun-after-ms: the layer re-runs a paused node's
	// outputs only after 10 s down; seed 1: +2.6% against sda, ahead of hadoop; 5 seeds: v13 +25.5%, v14 +3.9%).
	// heldout13/pareto-reduce-skew-light: in at seed 1 (reduced) since rule v32 (futile-map-copies; 257.6 s, level
	// with none and hadoop); 5 seeds still 0.2% behind none and 0.3 s behind hadoop (176.8 s against 176.4 and
	// 176.5), as under v14-v31.
	// Rule v14 moved two rows with hangs out at seed 1, reduced; over 5 seeds on all jobs both stay within 5%.
	// heldout3/hang-stream: pinned from rule v14 (seed 1: 9.2% behind grass; futile-reduce-wins alone 8.2%) to v24;
	// back inside at seed 1 under rule v25 (futile-reduce-member sca: 56.39 s, grass 54.09, +4.3%, hadoop 65.76;
	// 5 seeds: v24 -0.9%, v25 -3.0% against gs).
	// heldout5/hang-two-speeds-reduces: back inside at seed 1 under rule v15 (the layer re-runs a hung node's
	// outputs 40 s after it is declared failed; seed 1: 4.2% ahead of gs, v14 8.0% behind; 5 seeds: v14 +2.3%,
	// v15 +2.8% against grass).
	// The fourteenth set, written before rule v14 and run once under it (5
	// seeds: docs/auto-history.md).
	"heldout14/late-joining-nodes": "half the nodes absent (hung) until 360 s: ras/grass lead; auto's early jobs " +
		"read the absent nodes' containers as idle and clone (sca) or run sda: 38.3% behind ras at seed 1 and behind " +
		"hadoop (5 seeds under v14: +15.0%, behind hadoop)",
	// heldout14/reduce-hangs-busy: fixed by rule v15 (failure-rerun-after-ms 40 s: a node hung for most of a
	// minute keeps its outputs; seed 1: +2.1% against tws, v14 +5.0%; 5 seeds: v14 +17.7%, behind hadoop,
	// v15 +2.4%).
	// The fifteenth set, written before rule v15 and run once under it (5
	// seeds: docs/auto-history.md).
	// heldout15/daily-cycle: fixed by rule v16 (copies-last-below: a job with only copies to place waits behind
	// other jobs' originals; seed 1: +2.7% against sca, ahead of hadoop, v15 +27.4% and behind hadoop; 5 seeds:
	// v15 +23.5%, behind hadoop, v16 +2.1%).
	// heldout15/few-fat-nodes: within 5% and ahead of hadoop at seed 1 under v15 and v16; over 5 seeds v15 +2.5%
	// (0.4 s behind hadoop), v16 +1.3%, ahead of hadoop.
	// Rule v16 moved two rows of the set out at seed 1; over 5 seeds both stay within 5% and ahead of hadoop.
	"heldout15/slow-heartbeats": "status reports every 10 s: gs leads, every policy within 4%; at seed 1 under rule " +
		"v16 auto is 0.1 s behind hadoop (30.47 s against 30.37; v15 30.02, v17 30.48), +0.7% against gs; over 5 seeds " +
		"v15 -0.2%, v16 +0.1%, v17 +0.3% against gs, ahead of hadoop (29.9 s)",
	// heldout15/long-maps-one-wave: passes at seed 1 under rule v33 (reduces-after-maps-idle-share); pinned
	// from rule v16 (1073 s against ese's 1021); over 5 seeds in under v31 and v33 (+2.1%, +1.8%).
	// The sixteenth set, written before rule v16 and run once under it (5
	// seeds: docs/auto-history.md). heldout16/ramp-down-uniform-maps misses
	// over 5 seeds (+8.1% against sca, 2.2 s behind hadoop) but not at seed 1
	// (+0.2%), so it is checked, not pinned.
	// Rule v17 moved both pinned rows; both still miss, now ahead of hadoop.
	"heldout16/one-slow-node-many-reduces": "one node of 20 six times slower, jobs of 30 reduces: sda leads; at seed 1 " +
		"under rule v17 auto is 26.7% behind sda, ahead of hadoop (109.2 s against 86.2 and 135.6; v16 189.3 s, behind " +
		"hadoop); 5 seeds v16 +103.8%, behind hadoop, v17 +16.0%, ahead of it; rule v18 (reduces-after-maps-share) " +
		"at seed 1 +7.7% (92.8 s), 5 seeds +5.4% (77.8 s)",
	// heldout16/slots-bimodal-reduces-fifo: passes at seed 1 under rule v29 (tail-busy-member ras; seed 1,
	// reduced: 57.74 s against ras's 57.69); over 5 seeds still out (65.6 s, grass 62.2, +5.5%).
	// The seventeenth set, written before rule v17 and run once under it (5
	// seeds: docs/auto-history.md).
	"heldout17/error-quarter-fifo-outliers": "error-bound jobs as a quarter of a FIFO stream, one map in 20 four times " +
		"long: at seed 1 under rule v17 auto is 8.7% behind ras (28.4 s against 26.2), ahead of hadoop; over 5 seeds it " +
		"leads (31.6 s, ras 43.7, hadoop 56.8)",
	// The eighteenth set, written before rule v18 and run once under it (5
	// seeds: docs/auto-history.md).
	// heldout18/prod-adhoc-tenants: within 5% at seed 1 under rule v19 (alike-sigma-records: a burst's wide
	// record keeps its jobs off sca; seed 1: +3.8% against gs, ahead of hadoop, v18 +24.6% and behind hadoop;
	// 5 seeds: v18 +19.2%, behind hadoop, v19 +6.3%, ahead of it), so it is checked, not pinned.
	// heldout18/slots-reboot-loop-fifo: fixed by rule v19 (busy-slots-member hadoop; seed 1: +1.8% against
	// farms, v18 +8.5%; 5 seeds: v18 +32.0%, v19 -0.2%).
	"heldout18/reduce-dominated-one-reduce": "jobs of one 5-minute reduce: every policy within 1%; auto 0.9 s behind " +
		"hadoop at seed 1 (353.8 s against 352.9), 0.7 s over 5 seeds (345.8 against 345.1)",
	// heldout18/idle-error-lognormal-heavy: fixed by rule v48 (bounded-heavy-upper-member mantri; seed 1: 15.50 s to the
	// bound, mantri 15.30, +1.3%, hadoop 25.88; 5 seeds 15.90 against mantri's 15.47, +2.8%).
	// The nineteenth set, written before rule v19 and run once under it (5
	// seeds: docs/auto-history.md).
	// heldout19/iterative-chains-fair: fixed by rule v20 (alike-idle-member ras: alike records; seed 1: +0.4%
	// against ras, ahead of hadoop, 43.4 s against 43.3 and 44.3, v19 +6.1% and behind hadoop; 5 seeds: v19
	// +6.4%, behind hadoop, v20 +1.6%, ahead of it, 43.8 against 43.9).
	// heldout19/slots-slow-disk-creep: fixed by rules v48-v49 (seed 1: 66.82 s, ese 66.91, hadoop 71.11).
	// heldout19/one-by-one-high-rate: fixed by rule v70 (no clone of a one-map job past Dolly's clone budget; seed 1:
	// 22.28 s, level with hadoop; 5 seeds 22.400 -> 22.282, hadoop 22.282).
	// The twentieth set, written before rule v20 and run once under it (5
	// seeds: docs/auto-history.md; v19 gave the same figures).
	// heldout20/rolling-restart: fixed by rule v69 (after a node failure, a GRASS member's job on containers runs sda;
	// seed 1: 88.38 s, farms 84.75, +4.3%, hadoop 232.9; 5 seeds 89.86 -> 80.85 against farms's 88.31).
	// heldout20/slots-wave-edge-fifo: fixed by rule v49 (slots-alike-member grass in late's place; seed 1: 78.76 s, gs
	// 76.35, +3.2%, hadoop 80.79; 5 seeds 79.04 against grass's 75.98, +4.0%).
	// heldout21/deadline-many-waves-speeds: fixed by rule v26 (deadline-waves-member hadoop for deadline jobs of two
	// waves or more; seed 1, reduced: accuracy 0.9889 against hadoop's 0.9627; 5 seeds 0.9696 against 0.9632).
	// The twenty-second set, written before rule v22 and run once under it (5
	// seeds: docs/auto-history.md).
	// heldout22/phantom-stragglers-busy: fixed by rule v32 (futile-map-copies: map copies that lost, no reduce
	// copied; seed 1: 75.05 s, sca 72.09, +4.1%, hadoop 81.02; 5 seeds: v31 +5.7%, v32 +4.3%, ahead of hadoop).
	// heldout22/zipf-partitions-reduce-heavy: fixed by rule v25 (futile-reduce-member sca, the evidence read over the
	// records that copied; seed 1: 116.7 s, sca 115.1, +1.4%, hadoop 125.9; 5 seeds: v24 +8.5% and behind hadoop,
	// v25 +4.8%; seeds 6-10 +5.5%, ahead of hadoop).
	"heldout22/interactive-beside-long-batch-fair": "small queries beside three long batch jobs: hadoop leads; auto's " +
		"clones (sca, ras) and its order slow the queries, 20.7% behind at seed 1 (20.73 s against 17.18); 5 seeds: " +
		"35.3 s against 17.4 (+102%); rule v23 (busy-copies-after-originals) 18.55 s over 5 seeds (+6.3%), the " +
		"queries 28.7 -> 11.6 s",
	// Rule v23 (busy-copies-after-originals) moved these three at seed 1;
	// over 5 seeds each stays within 5% of the best and ahead of hadoop
	// (docs/auto-history.md, rule v23), and heldout17/two-generations-many-
	// reduces, pinned since rule v17, passes at seed 1 (94.6 -> 79.9 s, ese
	// 83.2).
	"heldout15/few-fat-nodes": "four NodeManagers of 24 containers, one node's trouble a quarter of the cluster: ese leads at seed 1; rule v23 " +
		"126.6 -> 129.6 s, 6.5% behind ese (121.7) and behind hadoop (127.9); 5 seeds 141.0 -> 142.0 (ese 139.2, " +
		"hadoop 142.3: +2.0%, in)",
	// heldout20/scan-and-score-busy and heldout2/hetero-four-speeds: pinned from rule v23 (seed 1 5.4% and
	// 7.5% behind), pass at seed 1 under rule v33 (reduces-after-maps-idle-share); over 5 seeds in under v31
	// and v33 (+1.9% -> -0.7% against ese; +2.8% -> +1.5% against ras).
	// The twenty-third set, written before rule v23 and run once under it (5
	// seeds: docs/auto-history.md). heldout23/deadline-quarter-nodes-hang was
	// within 5% and ahead of hadoop at seed 1 until rule v27 (0.9859 against
	// 0.9855), checked, not pinned; over 5 seeds it is behind hadoop (0.9660
	// against 0.9862).
	// heldout23/split-sizes-three-map-only: fixed by rule v24 (futile-bounded-member none: the error-bound jobs
	// stop copying once the exact jobs' copies never won; seed 1, reduced: 47.19 -> 41.07 s, 1.9% ahead of none,
	// ahead of hadoop 43.34; 5 seeds: v23 50.0 s, +13.9% against dolly, v24 45.3, +3.2%).
	// heldout23/failed-nodes-replaced-faster: passes at seed 1 under rule v27 (80.85 s against farms's 86.0; 5
	// seeds 64.5 s, 20.7% ahead of farms).
	// heldout23/deadline-quarter-nodes-hang: passes at seed 1 under rule v41 (0.9901 against sda's 0.9891;
	// 5 seeds 0.9855, still 0.0007 behind hadoop's 0.9862, v40 0.9634).
	// The twenty-fourth set, written before rule v24 and run once under it
	// (5 seeds: docs/auto-history.md).
	// heldout24/grow-batch-overload-fifo: passes at seed 1 under rules v62-v64 (57.20 s, hadoop 59.0); 5 seeds
	// 66.75 against hadoop's 66.07, still behind it (docs/auto-history.md).
	// The twenty-fifth set, written before rule v25 and run once under it
	// (5 seeds: docs/auto-history.md).
	// heldout25/deadline-skew-slow-quarter-pack-fifo: fixed by rule v46 (deadline jobs ordered by their deadline; seed
	// 1: accuracy 0.8413, none 0.8144, hadoop 0.8053; 5 seeds 0.8494 against hadoop-legacy's 0.8247).
	// The twenty-sixth set, written before rule v26 and run once under it
	// (5 seeds: docs/auto-history.md).
	// heldout26/slots-old-gen-reduce-pools-fair: pinned from rule v27 (seed 1 0.3 s behind hadoop under v28),
	// passes at seed 1 under rule v33 (86.21 s against hadoop's 86.46); 5 seeds in under v31 and v33;
	// pinned again under rule v34 (below).
	// heldout26/square-wave-overload-fair: passes at seed 1 under rule v29 (tail-busy-member ras; seed 1,
	// reduced: 46.5 s against mantri's 50.02; 5 seeds 47.9 -> 45.3, mantri 48.4).
	// heldout26/slots-old-gen-reduce-pools-fair: passes at seed 1 again under rule v59 (85.85 s, hadoop 86.46, the
	// best single; 5 seeds 89.10 against ras's 88.75); pinned from rule v34 to v58 (seed 1 0.3 s behind hadoop).
	// heldout26/shuffle-crashes-eager-fetch-failures-fifo: fixed by rule v51 (seed 1: 76.21 s, farms 76.02, hadoop
	// 90.28; pinned from rule v27, 82.4 s); 5 seeds 92.38 against tws's 93.89.
	// The twenty-seventh set, written before rule v27 and run once under it
	// (5 seeds: docs/auto-history.md).
	// heldout27/overload-stingy-caps-fifo: fixed by rule v29 (tail-busy-member ras on a busy cluster; seed 1,
	// reduced: 71.0 -> 51.17 s, ras 50.65, hadoop 62.13; 5 seeds 68.6 -> 55.9, ras 54.7, hadoop 66.2).
	"heldout27/clockwork-identical-jobs-gamma-fifo": "identical jobs every 8 s, light-tailed gamma maps, load 0.88: " +
		"hadoop leads; auto 63.08 s at seed 1 against 51.97; 5 seeds 55.4 against 50.5 (+9.7%, behind hadoop)",
	// heldout27/hetero-two-slow-kinds-pools-fair: fixed by rule v28 (spread-slots-slow-member ras: slow nodes
	// on slot pools; seed 1: 91.3 -> 76.14 s, ras 75.96; 5 seeds 96.7 -> 81.1, ras 78.8).
	// heldout27/deadline-fixed-slo-spread-sizes-fair: fixed by rule v46 (seed 1: accuracy 0.9792, ras 0.9823, hadoop
	// 0.9792; 5 seeds 0.9753, the best).
	// The twenty-eighth set, written before rule v28 and run once under it
	// (5 seeds: docs/auto-history.md).
	// heldout28/overload-lognormal-gaps-fair: passes at seed 1 under rule v29 (tail-busy-member ras; seed 1,
	// reduced: 63.55 -> 55.88 s, ras 57.24; 5 seeds 70.9 -> 63.4, ras 69.3).
	// heldout28/hetero-one-container-micro-nodes-fair: pinned from rule v28 (seed 1 5.2% behind gs), passes at
	// seed 1 under rule v33 (reduces-after-maps-idle-share); 5 seeds in under v31 and v33.
	"heldout28/fail-slow-limping-maps-node-fifo": "a node that limps on maps, unseen by the detectors, FIFO: grass " +
		"leads; rule v33 (reduces-after-maps-idle-share) moved it out at seed 1 (58.1 s, 19.2% behind grass's 48.76, " +
		"ahead of hadoop); 5 seeds in under v31 and v33 (58.96 -> 60.74 s against grass's 58.93: +0.1% -> +3.1%)",
	// heldout28/tiny-dev-cluster-three-nodes-fifo: fixed by rule v30 (small-room-share: a job small by its size
	// clones only with room for its clones; seed 1, reduced: 26.59 -> 25.72 s, ras 25.58, hadoop 26.27; 5 seeds
	// 27.2 -> 26.2, ras 25.9, hadoop 26.9).
	// Rule v29 (tail-busy-member ras: the tail switch's jobs placed on a
	// busy cluster run ras) moved these two out at seed 1; over 5 seeds
	// each stays within 5% of gs and far ahead of hadoop (docs/auto-history.md, rule v29).
	"heldout3/lognormal-reduces-mid": "lognormal reduces, mid load: gs leads; rule v29 runs ras for the tail " +
		"switch's jobs placed busy, 65.98 s at seed 1, 5.7% behind gs's 62.43, ahead of hadoop (131.6); 5 seeds " +
		"64.5 -> 67.6 against gs's 65.1 (+3.8%, in)",
	// heldout24/three-gens-dense-fast-fair: pinned from rule v29 (seed 1 6.2% behind gs), passes at seed 1
	// under rule v33 (reduces-after-maps-idle-share); 5 seeds in under v31 and v33 (+1.8%, +2.2%).
	// The thirtieth set, written before rule v30 and run once under it
	// (5 seeds: docs/auto-history.md).
	// heldout30/overload-squatting-reduces-slowstart-zero-fair: fixed by rule v33 (reduces-after-maps-idle-share:
	// a job's few reduces on a busy cluster wait while more than 6 of its maps a reduce run; seed 1, reduced:
	// 60.37 -> 57.97 s, ras 55.39, hadoop 58.87; 5 seeds 61.1 -> 58.3, ras 56.3, hadoop 60.4).
	// The thirty-first set, written before rule v31 and run once under it
	// (5 seeds: docs/auto-history.md).
	"heldout31/overload-split-skew-same-work-pack-fifo": "load 0.91, packed, a copy redoes its task's own work on " +
		"alike nodes, so no copy can win: none leads at seed 1; auto 82.39 s under rules v32-v33 (sca once the " +
		"first jobs' map copies lost; the first jobs run sda before any record), 8.3% behind none's 76.08 and behind " +
		"hadoop's 81.57 (v31: 98.9 s, ras for most jobs); 5 seeds in under v33 (76.66 against sca's 73.33, +4.5%; " +
		"v32 79.3, +8.2%; v31 101.0, +37.8%)",
	// The thirty-second set, written before rule v32 and run once under it
	// (5 seeds: docs/auto-history.md). Its deadline row passes at seed 1
	// under rule v41 (0.9958 against hadoop's 0.9931; 5 seeds 0.9871, in).
	// heldout32/error-swim-ljf-hang-or-slow-choice-fifo: fixed by rule v44 (error-beside-member hadoop-legacy for exact
	// jobs beside an error-bound job short of its bound; seed 1: 108.3 s to the bound, sca 135.4, hadoop 137.1; 5 seeds
	// 114.8 against hadoop's 119.4, the best single).
	// The thirty-third set, written before rule v33 and run once under it
	// (5 seeds: docs/auto-history.md).
	// heldout33/fail-late-reduce-crash-noisy-progress-short-shuffle-fifo: pinned from rule v33 to v42; under rule
	// v43 +2.1% against farms at seed 1 (5 seeds: 71.9 -> 70.8 s, farms 67.4, +5.1%, still out).
	"heldout33/overload-few-large-jobs-gamma-reduce-heavy-fair": "load 0.98 from 20 large jobs, reduce-heavy: gs " +
		"leads at seed 1; auto (ras for most jobs) 108.4 s against 102.3, ahead of hadoop (110.4); 5 seeds under " +
		"v33 111.0 against gs's 103.3 (+7.5%)",
	"heldout33/slots-slow-heartbeats-reduce-hangs-sleep-sums-fifo": "slot pools, 12 s heartbeats, reduce-node " +
		"hangs: gs leads at seed 1; auto 97.39 s against 91.27, ahead of hadoop (101.9), under rules v33 and v34; " +
		"5 seeds under v33 112.0 against gs's 106.0 (+5.7%), in under v34 (110.8, +4.6%)",
	// The thirty-fourth set, written before rule v34 and run once under it
	// (5 seeds: docs/auto-history.md); 6 of 6 in over 5 seeds.
	"heldout34/hetero-three-gens-fresh-job-scale-sjf-fair": "three node generations (1x, 1.6x, 3x), a per-job " +
		"scale, fresh exponential copies, shortest first, fair: gs leads at seed 1; auto 59.65 s against 53.66 " +
		"(+11.2%), ahead of hadoop (100.1); 5 seeds under v34 in (59.37 against gs's 59.47)",
	// The thirty-fifth set, written before a first search for rule v35
	// that chose none, so it was run once under rule v34 (5 seeds:
	// docs/auto-history.md).
	// heldout35/error-few-maps-heavy-gamma-reduces-fair: fixed by rules v44-v45 (seed 1: 14.06 s to the bound, sca
	// 14.38, hadoop 16.35; 5 seeds 14.28 against sca's 14.21).
	// The thirty-sixth set, written before rule v35 and run once under it
	// (5 seeds: docs/auto-history.md); 6 of 6 in over 5 seeds. The
	// thirty-seventh, written before a rule v36 that was not chosen, run
	// once under rule v35: 4 of 6 over 5 seeds. Its one-reduce slot-pool
	// row, pinned under v35 (135.7 s at seed 1 against mantri's 96.04),
	// passes under rule v37 (96.18, hadoop's own: a job of one reduce on
	// slot pools runs hadoop).
	// The thirty-eighth set, written before a rule v36 that was not
	// chosen, run once under rule v35: 2 of 6 over 5 seeds.
	"heldout38/error-heavy-reduces-slots-fair": "error-bound jobs of four long reduces beside exact jobs on slot " +
		"pools, fair: mantri leads at seed 1; auto (grass for the bounded jobs) 16.61 s to the bound against " +
		"14.61 (+13.6%), ahead of hadoop (17.56); 5 seeds under v35 17.4 against mantri's 15.0 (+15.9%), ahead of " +
		"hadoop's 17.8",
	// heldout38/fail-long-shuffle-slowstart-hang-crash-fair: fixed by rule v69 (seed 1: 86.86 s, farms 96.09, hadoop
	// 118.8; 5 seeds 120.5 -> 105.5 against farms's 103.9).
	"heldout38/overload-two-three-long-reduces-containers-fair": "two or three long reduces a job at load 0.91 " +
		"on containers, fair: sca leads at seed 1; auto (grass, ras) 194.4 s against 175.8 (+10.6%), behind " +
		"hadoop's 181.3; 5 seeds under v35 201.5 against sca's 187.1 (+7.7%), behind hadoop's 191.0",
	// The thirty-ninth set, written before rules v36 and v37, run once
	// under v37: 6 of 6 over 5 seeds.
	"heldout39/overload-slowstart-all-pareto-reduces-slow-quarter-slots-fair": "six Pareto reduces a job " +
		"with slow-start 1.0 on slot pools, a quarter of the trackers 2x slow, the reduce pool at 0.91, fair: " +
		"ras leads at seed 1; auto (ras for 48 of 50 jobs) 81.27 s against 76.13 (+6.8%), ahead of hadoop " +
		"(103.3); 5 seeds under v37 88.02 against ras's 83.85 (+5.0%, within), ahead of hadoop's 121.0",
	// The fortieth set, written before rule v38, run once under it: 5 of 6
	// over 5 seeds.
	// heldout40/fail-weibull-0.6-slots-crash-midway-fifo: fixed by rule v72 (a lone-reduce job placed before the
	// ratio records runs gs once its own map limps; seed 1: 28.8 s, gs 28.48, hadoop 54.55; 5 seeds 33.60 -> 29.48
	// against gs's 29.00).
	"heldout40/midload-long-reduces-slowstart-0.5-slow-rack-containers-fair": "jobs of two or four long " +
		"reduces, slow-start 0.5, a slow rack, containers, fair: ras leads at seed 1; auto (grass, gs, ras) " +
		"159.4 s against 142.6 (+11.8%), ahead of hadoop (168.2); 5 seeds under v38 151.9 against ras's 145.5 " +
		"(+4.4%, within), ahead of hadoop's 175.1",
	// The forty-first and forty-second sets, written before rules v39 and
	// v40, run once under v40: 4 of 6 and 5 of 6 over 5 seeds.
	// heldout41/hetero-map-only-gamma-half-nodes-2x-fast-fair: rule v43 (5 seeds 27.3 -> 26.5 s, grass 25.9;
	// seed 1 +1.2%).
	// heldout42/hetero-map-only-exponential-fifth-4x-light-0.3-fifo: rule v43 (5 seeds 24.5 -> 23.2 s, gs
	// 23.1; seed 1 +3.4%).
	// The forty-third set, written before rule v41, run once under it: 4
	// of 6 over 5 seeds, none behind hadoop.
	"heldout43/fail-per-job-map-node-slowdowns-pareto-lengths-slots-fifo": "a quarter of the jobs' map nodes " +
		"slow 8x for Pareto-distributed lengths, slot pools, FIFO: gs leads at seed 1; auto 36.79 s against " +
		"34.24 (+7.4%), ahead of hadoop (41.85); 5 seeds under v41 43.3 against grass's 40.7 (+6.6%), ahead of " +
		"hadoop's 50.4; with rule v39's records at 2 (from 3) 36.2 s at seed 1 (+5.7%), 5 seeds 41.4 " +
		"(+1.8%, within)",
	"heldout43/hetero-mild-continuum-0.8-1.25-same-work-busy-0.85-fair": "node speeds drawn from 0.8-1.25, " +
		"copies redo the same work, load 0.85, fair: sca leads at seed 1; auto 78.41 s against 71.09 (+10.3%), " +
		"ahead of hadoop (96.35); 5 seeds under v41 58.3 against sca's 54.3 (+7.3%), ahead of hadoop's 63.9",
	// The forty-fourth set, written before rule v42, run once under rule v43:
	// 3 of 6 over 5 seeds, 2 behind hadoop (docs/auto-history.md). At seed 1
	// its SWIM map-only row (5 seeds: 212.0 s, ras 189.4, hadoop 209.6) is
	// within 5% (+4.5%) and its error-bound row at the edge (+4.9%), so
	// they are checked, not pinned.
	// heldout44/deadline-uniform-maps-pack-alike-0.7-containers-fair: fixed by rule v46 (seed 1: accuracy 1, none
	// 0.9953, hadoop 0.993; 5 seeds 1 against tws's 0.9981).
	// heldout44/hetero-slots-three-gens-pools-grow-with-speed-fifo: passes at seed 1 under rule v66 (38.63 s, grass
	// 38.07, hadoop 57.46).
	// Under rules v44-v47 (session 32), seed 1 outside 5% where 5 seeds are within it.
	"heldout30/overload-squatting-reduces-slowstart-zero-fair": "reduces placed at once (slow start 0) squat on an " +
		"overloaded cluster: ras leads at seed 1; under rule v47 auto 58.79 s against 55.39 (+6.1%), ahead of hadoop " +
		"(58.87); 5 seeds 58.60 against ras's 56.30 (+4.1%, in)",
	// heldout31/fail-fixed-detector-short-threshold-fifo: passes at seed 1 under rules v67-v70 (51.89 s, sda 55.92,
	// hadoop 81.12; 5 seeds 50.04, in).
	"heldout39/error-lognormal-1.2-busy-reduces-kept-fifo": "error-bound jobs of lognormal sigma-1.2 maps beside " +
		"exact jobs with reduces, busy: grass leads at seed 1; under rule v44 (hadoop-legacy for the exact jobs beside " +
		"a bound short of it) auto 15.96 s to the bound against 14.98 (+6.6%), ahead of hadoop (26.15); 5 seeds " +
		"15.86 against mantri's 15.79 (+0.4%, in; 14.98 under v43)",
	// The forty-fifth set, written before rule v44 and run once under rule v47 (5 seeds: docs/auto-history.md).
	// heldout45/error-uniform-maps-noisy-progress-containers-fifo-0.72: fixed by rule v48 (bounded-narrow-member none
	// after flat map records; seed 1: 17.49 s to the bound, sca 17.71, hadoop 18.01; 5 seeds 18.79 against sca's 19.69).
	// heldout45/fail-pack-job-maps-node-crash-returns-containers-fair-0.6: passes at seed 1 under rules v62-v64
	// (52.27 s, farms 52.83, hadoop 55.07).
	"heldout9/flaky-nodes": "flaky nodes: gs leads at seed 1; with rule v47's waiting reduces released at a map's end " +
		"in the simulator as live (session 32) auto 56.81 s against 54.06 (+5.1%), ahead of hadoop (67.76); passed " +
		"at seed 1 from rule v14 to v31 and under v44-v49 before that fix",
	"heldout46/hetero-seven-speeds-empirical-poisson-maps-containers-fair": "seven node speeds, Poisson maps: ras " +
		"leads at seed 1; with rule v47's waiting reduces released at a map's end (session 32) auto 59.41 s against " +
		"56.08 (+5.9%), behind hadoop's 58.85; 5 seeds 49.09 against grass's 50.32 (in)",
	// The forty-sixth set, written before rule v48 and run once under rule v49 (5 seeds: docs/auto-history.md).
	// heldout46/swim-reduces-kept-shuffle-heavy-phases-sjf-tenant-containers-fair: passes at seed 1 under rules
	// v62-v64 (352.1 s, late 356.5, hadoop 367.6).
	// The forty-seventh and forty-eighth sets, written before rule v50 and run once under rule v49 (5 seeds:
	// docs/auto-history.md).
	"heldout47/tenants-wide-map-only-same-work-tiny-adhoc-capped-reports-containers-fair": "three tenants, copy " +
		"models apart: grass leads at seed 1; auto 27.24 s against 24.99 (+9.0%), ahead of hadoop (29.43); 5 seeds " +
		"26.54 against grass's 25.96 (in)",
	"heldout47/midload-poisson-whole-second-gaps-0.8-constant-ten-map-jobs-pareto-2.2-containers-fifo": "ten-map " +
		"Pareto jobs at load 0.8: ras leads; auto (grass for most jobs) 26.70 s against 21.49 (+24.2%) and behind " +
		"hadoop's 25.16 at seed 1; 5 seeds 17.85 against ras's 16.70 (+6.9%), ahead of hadoop (18.53)",
	"heldout47/error-reduces-at-submission-slowstart-0-lognormal-0.7-six-container-nodes-fair": "error bounds, " +
		"reduces from submission: mantri leads at seed 1; auto 16.31 s to the bound against 14.94 (+9.2%), ahead " +
		"of hadoop (18.91); 5 seeds 21.01 against mantri's 24.88 (in)",
	// heldout48/overload-reduce-pool-0.9-map-pool-0.4-lognormal-reduces-slots-fifo: fixed by rule v67 (a reduce pool
	// that stays full runs mantri; seed 1: 87.75 s, mantri 87.22, +0.6%, hadoop 89.96; 5 seeds 106.5 -> 86.55 against
	// mantri's 87.18, hadoop 87.99).
	// The forty-ninth and fiftieth sets, written before rule v50 and run once under rule v51 (5 seeds:
	// docs/auto-history.md).
	// heldout49/error-same-work-pareto-1.6-input-skew-bounds-containers-fifo: fixed by rule v52 (error-bound jobs'
	// records of copies that lost send the next ones to none; 5 seeds 30.20 s to the bound -> 21.88, dolly 21.99,
	// hadoop 22.45; under v51 at seed 1 29.89 against none's 21.92).
	"heldout50/hetero-normal-speed-law-wide-map-narrow-reduce-pools-uniform-maps-slots-fair": "node slowdowns " +
		"from a normal law, wide map and narrow reduce pools: sda leads at seed 1; auto 43.42 s against 40.78 " +
		"(+6.5%), ahead of hadoop; 5 seeds 42.31 against ese's 40.75 (in)",
	// The fifty-first set, written before rule v54 and run once under rule v53: 6 of 6 (5 seeds), none missed at
	// seed 1.
	// The fifty-second and fifty-third sets, written before rule v54 and run once under rule v53 (5 seeds:
	// docs/auto-history.md).
	// heldout52/hetero-slots-bell-speed-law-sum-four-uniform-0.8-2.4-three-reduces-fair: fixed by rule v55 (the
	// alike switch's busy jobs on slot pools run sda after records whose copies won; seed 1: 46.80 s, ese 44.85,
	// +4.3%, hadoop 47.59; 5 seeds 46.35 -> 45.45 against sda's 43.59). Under v53 at seed 1 47.52 (+6.0%).
	// heldout53/fail-job-reduces-node-hangs-copy-phase-erlang-2-lengths-containers-fair: passes at seed 1 under rules
	// v67-v70 (52.18 s, grass 55.29, hadoop 64.09; 5 seeds 51.03, in).
	"heldout52/swim-reduces-kept-slow-heartbeats-10s-slowstart-0.8-slots-fair": "SWIM jobs with 10 s heartbeats " +
		"and slow start 0.8 on fair slot pools: hadoop leads at seed 1; under rule v73 (SCA's levels for SWIM jobs " +
		"with reduces on slot pools) auto 515.4 s against 513.9 (+0.3%, behind); 5 seeds 417.4 against hadoop's " +
		"423.4 (in)",
	// The fifty-fourth and fifty-fifth sets, written before rule v56 and run once under rule v55 (5 seeds:
	// docs/auto-history.md).
	// heldout54/error-triangular-bounds-sum-two-uniform-0-0.2-poisson-maps-1s-heartbeats-containers-fair: fixed by rule
	// v56 (narrow bound-spread records send error-bound jobs to none; seed 1: 19.17 s to the bound, sca 19.02,
	// hadoop 19.32; 5 seeds 30.12 -> 23.32 against sca's 23.37). Under v55 at seed 1 21.10 (+10.9%, behind hadoop).
	"heldout54/hetero-slots-lognormal-sum-speed-law-three-parts-equal-3-3-pools-four-reduces-fifo": "tracker " +
		"slowdowns a sum of three lognormal parts, equal pools: gs leads at seed 1; auto 34.98 s against 33.01 " +
		"(+6.0%), ahead of hadoop (44.16); 5 seeds 36.60 against gs's 34.95 (+4.7%, in)",
	"heldout55/error-slow-heartbeats-8s-lognormal-0.6-three-map-two-reduce-slots-fifo": "error bounds with 8 s " +
		"heartbeats on slot pools: mantri leads at seed 1; auto 19.19 s to the bound against 18.07 (+6.2%), ahead " +
		"of hadoop (19.55); 5 seeds 19.97 against mantri's 19.71 (in)",
	// The fifty-sixth and fifty-seventh sets, written before rule v58 and run once under rule v57 (5 seeds:
	// docs/auto-history.md).
	"heldout56/fail-job-maps-tracker-limps-x10-erlang-3-lengths-slots-fair": "a job's map tracker slowed 10x for " +
		"an Erlang-3 time on fair slot pools: gs leads at seed 1; auto 35.18 s against 31.13 (+13.0%), ahead of " +
		"hadoop (49.69); 5 seeds 35.92 against gs's 32.18 (+11.6%)",
	"heldout57/hetero-slots-sum-two-pareto-3-speed-law-floor-nominal-fair": "tracker slowdowns a sum of two " +
		"Pareto draws on fair slot pools: grass leads at seed 1; auto 35.17 s against 30.85 (+14.0%), ahead of " +
		"hadoop (38.31); 5 seeds 35.20 against sda's 33.45 (+5.2%)",
	// heldout57/load-sum-three-lognormal-gaps-0.82-three-map-slot-trackers-slots-fifo: fixed by rule v58 (a slow share
	// below 0.15 on slot pools runs sda; seed 1: 34.53 s, sda 33.89, hadoop 35.39; 5 seeds 35.85 -> 34.77 against
	// sda's 33.99). Under v57 at seed 1 35.75 (+5.5%, behind hadoop).
	// The fifty-eighth and fifty-ninth sets, written before rule v60 and run once under rule v59 (5 seeds:
	// docs/auto-history.md).
	"heldout58/hetero-slots-erlang-4-speed-law-one-reduce-slot-trackers-fifo": "tracker speeds from an Erlang-4 " +
		"law on FIFO slot pools: gs leads at seed 1; auto 29.11 s against 24.67 (+18.0%), ahead of hadoop (37.91); " +
		"5 seeds 31.28 against gs's 26.17 (+19.5%)",
	"heldout58/overload-past-capacity-1.15-poisson-whole-second-gaps-slots-fair": "load past capacity on fair " +
		"slot pools: sda leads at seed 1; auto 43.06 s against 40.72 (+5.8%), ahead of hadoop (49.17); 5 seeds " +
		"46.45 against ese's 44.33 (+4.8%, in)",
	// heldout58/swim-reduces-kept-slowstart-0.05-sum-three-uniform-noise-slots-fifo: fixed by rule v61 (after map
	// records with no tail, slot-pool jobs whose reduces wait on their maps run sca; 5 seeds 400.2 -> 364.0 against
	// sca's 349.2). Under v59 at seed 1 485.3 (+11.8%).
	// Rules v60 and v61 moved rows that stay within 5% over 5 seeds out at seed 1 (5 seeds: docs/auto-history.md).
	// heldout51/swim-map-only-empirical-two-value-noise-bad-read-one-in-ten-containers-fair: passes at seed 1 under
	// rule v65 (91.07 s, ras 95.88, hadoop 139.8).
	"heldout48/fail-job-reduces-tracker-hangs-pareto-lengths-shuffle-slots-fifo": "the tracker of a job's reduces " +
		"hangs in the shuffle: gs leads at seed 1; auto 52.88 s against 49.89 (+6.0%), ahead of hadoop (58.13); " +
		"5 seeds 54.46 against tws's 57.13 (in)",
	// heldout59/swim-map-only-sjf-sum-three-uniform-noise-0.3-1.8-containers-fifo: passes at seed 1 under rule v65
	// (110.7 s, sca 110.2, hadoop 120.4).
	"heldout39/fail-tiny-map-only-flood-hung-tracker-slots-fifo": "a flood of tiny map-only jobs beside a hung " +
		"tracker: at seed 1 auto 5.027 s, 0.6% behind hadoop's 4.995 (farms 4.946); 5 seeds 4.986 against hadoop's " +
		"5.182 and farms's 5.028 (in)",
	// heldout59/fail-job-maps-tracker-crash-at-map-end-slowstart-1.0-lognormal-down-expiry-120s-three-reduces-slots-fifo:
	// fixed by rule v71 (a failed node's outputs re-run at once while every copying reduce waits on them; seed 1:
	// 45.13 s, farms 49.68, hadoop 207.4; 5 seeds 62.81 -> 55.58 against farms's 58.16).
	// The sixtieth and sixty-first sets, written before rule v62 and run once under rule v61 (5 seeds:
	// docs/auto-history.md).
	"heldout61/error-pareto-bounds-scale-0.03-shape-2-floor-3pct-lognormal-0.5-maps-containers-fifo": "error " +
		"bounds from a Pareto law: ras leads at seed 1; auto 15.97 s to the bound against 14.7 (+8.6%), ahead of " +
		"hadoop (16.77); 5 seeds 15.39 against grass's 15.54 (in)",
	// heldout61/load-clock-30s-mid-jobs-plus-poisson-small-jobs-0.64-slots-fair: passes at seed 1 under rules v71-v73
	// (28.49 s, grass 27.84, hadoop 31.03; 5 seeds 30.25, in).
	"heldout61/deadline-pareto-factors-scale-1.1-shape-3-tight-waves-lognormal-0.6-containers-fair": "tight " +
		"deadlines from a Pareto law of factors: at seed 1 auto's accuracy 0.9721, below hadoop's 0.9742; 5 " +
		"seeds 0.9944 against hadoop's 0.9903 and ras's 0.9919 (in)",
	// The sixty-second and sixty-third sets, written before rule v62 and run once under rule v61 (5 seeds:
	// docs/auto-history.md).
	// heldout62/error-erlang-4-bounds-mean-0.08-four-copy-heavy-reduces-lognormal-0.7-maps-containers-fair: fixed by
	// rule v64 (no reduce copy for an error-bound job on containers; 5 seeds 22.25 -> 15.38 s to the bound against
	// mantri's 16.22). Under v61 at seed 1 18.47 (+31.3%, behind hadoop).
	"heldout62/swim-reduces-kept-slowstart-1.0-lognormal-noise-0.3-slots-fair": "SWIM jobs whose reduces wait " +
		"for every map, fair slot pools: sca leads at seed 1; auto 555.9 s against 500.4 (+11.1%), behind hadoop " +
		"(521.9); 5 seeds 432.2 against sca's 411.0, hadoop 428.2",
	"heldout62/fail-job-reduces-node-slowdown-x4-reduce-phase-0.7-0.95-exponential-lengths-containers-fifo": "the " +
		"node of a job's reduces slows late in the reduce phase: grass leads at seed 1; auto 52.97 s against 47.73 " +
		"(+11.0%), ahead of hadoop (58.08); 5 seeds 49.42 against grass's 47.61 (+3.8%, in)",
	"heldout63/swim-map-only-compressed-day-0.012-uniform-noise-0.6-1.4-containers-fair": "map-only SWIM jobs of " +
		"a compressed day with uniform noise on fair containers: sda leads at seed 1; auto 124.7 s against 110.0 " +
		"(+13.4%), ahead of hadoop (138.3); 5 seeds 112.8 against sca's 104.2 (+8.3%); under rule v65 at seed 1 " +
		"119.8 s against sda's 110.0 (+8.9%), 5 seeds 108.4 (+4.1%, in)",
	// Rules v62-v64 moved rows that stay within 5% over 5 seeds out at seed 1 (5 seeds: docs/auto-history.md).
	"heldout9/speed-continuum": "a continuum of node speeds: rule v62 runs late where records show few slow " +
		"nodes once; grass leads at seed 1; auto 60.22 s against 56.91 (+5.8%), ahead of hadoop (74.61); 5 " +
		"seeds 58.23 against gs's 57.0 (in)",
	"heldout8/big-small-machines": "big and small machines: gs leads at seed 1; auto 59.80 s against 56.28 " +
		"(+6.3%), ahead of hadoop (69.39); 5 seeds 58.0 against gs's 55.54 (+4.4%, in)",
	// The sixty-fourth and sixty-fifth sets, written before rule v65 and run once under rule v64 (5 seeds:
	// docs/auto-history.md).
	// heldout65/hetero-slots-two-generations-new-uniform-0.6-0.9-six-map-slots-old-lognormal-2-three-map-slots-fifo:
	// fixed by rule v66 (a slow generation of trackers runs gs; seed 1: 29.18 s, grass 28.86, hadoop 46.23; 5 seeds
	// 31.14 -> 28.36 against gs's 27.48). Under v64 at seed 1 32.60 (+13.0%).
	"heldout65/load-staircase-down-1.5-0.8-0.5-0.25-backlog-carries-over-slots-fifo": "a load stepping down from " +
		"past capacity on FIFO slot pools: sda leads at seed 1; auto 41.42 s against 38.75 (+6.9%), ahead of " +
		"hadoop (41.78); 5 seeds 46.04 under rule v66 against ese's 43.13 (+6.7%)",
	// The sixty-sixth and sixty-seventh sets, written before rule v67 and run once under rule v66 (5 seeds:
	// docs/auto-history.md).
	"heldout66/swim-reduces-kept-sort-heavy-phases-0.2-0.6-0.2-six-map-slot-trackers-slots-fifo": "SWIM jobs " +
		"with sort-heavy reduces on FIFO slot pools of 6 map slots: hadoop leads at seed 1; auto 575.8 s against " +
		"529.0 (+8.8%); 5 seeds 407.5 against sca's 423.5 and hadoop's 456.7 (in)",
	"heldout67/fail-job-reduces-tracker-crash-shuffle-slowstart-0.05-lognormal-down-straddles-expiry-60s-slots-fifo": "the " +
		"tracker of a job's reduces crashes in their shuffle, reduces early: gs leads at seed 1; auto 36.72 s " +
		"against 34.09 (+7.7%), ahead of hadoop (41.38); 5 seeds 40.86 against farms's 45.59 (in)",
	// The sixty-eighth and sixty-ninth sets, written before rule v67 and run once under rule v66 (5 seeds:
	// docs/auto-history.md).
	"heldout68/hetero-slots-three-tracker-sizes-8-4-1-map-slots-own-speed-laws-singles-triangular-1.6-3.2-fifo": "trackers " +
		"of 8, 4 and 1 map slots with their own speed laws on FIFO slot pools: gs leads at seed 1; auto 33.09 s " +
		"against 31.25 (+5.9%), ahead of hadoop (52.18); 5 seeds 33.78 against grass's 33.25 (in)",
	"heldout68/swim-reduces-kept-reduce-function-heavy-phases-0.1-0.1-0.8-lognormal-noise-0.45-three-reduce-slot-trackers-slots-fair": "SWIM " +
		"jobs whose reduces spend 80% in the reduce function on fair slot pools: gs leads at seed 1; auto 492 s " +
		"against 458 (+7.4%), ahead of hadoop (547.3); 5 seeds 419.9 against gs's 409.3 (in)",
	// The seventieth and seventy-first sets, written before rule v67 and run once under rule v69 (5 seeds:
	// docs/auto-history.md).
	"heldout70/fail-job-maps-node-slowdown-ladder-x1.5-x3-x8-three-way-choice-early-map-phase-lognormal-lengths-containers-fifo": "a " +
		"job's map node slowed x1.5, x3 or x8 early in its maps on FIFO containers: gs leads at seed 1; auto 31.58 s " +
		"against 29.84 (+5.8%), ahead of hadoop (38.64); 5 seeds 35.82 against ras's 36.19 (in)",
	"heldout70/swim-reduces-kept-exponential-noise-mean-1-memoryless-shape-1-gamma-slots-fair": "SWIM jobs with " +
		"an exponential task noise on fair slot pools: grass leads at seed 1; auto 353.5 s against 302.3 (+16.9%), " +
		"ahead of hadoop (539); 5 seeds 287.7 against grass's 279.5 (in)",
	// The seventy-second and seventy-third sets, written before rule v71 and run once under rule v70 (5 seeds:
	// docs/auto-history.md).
	"heldout72/fail-job-reduces-node-three-kinds-slow-x4-hang-crash-copy-sort-phase-expiry-90s-containers-fifo": "the " +
		"node of a job's reduces slowed x4, hung or crashed while they copy and sort, FIFO containers: ese leads at " +
		"seed 1; auto 70.35 s against 60.16 (+16.9%), ahead of hadoop (167.3); 5 seeds 55.15 against ese's 51.26 " +
		"(+7.6%, out)",
	"heldout73/error-packed-six-map-slot-trackers-lognormal-0.8-maps-bounds-0.1-0.2-slots-fair": "error bounds " +
		"under pack placement on fair slot pools of 6 map slots: sca leads at seed 1; auto 12.58 s to the bound " +
		"against 11.2 (+12.4%), ahead of hadoop (15.56); 5 seeds 12.58 against mantri's 11.67 (+7.8%, out)",
	// The seventy-fourth and seventy-fifth sets, written before rule v74 and run once under rule v73 (5 seeds:
	// docs/auto-history.md).
	"heldout74/hetero-slots-fast-majority-0.8-slow-fifth-3x-busy-0.89-large-multi-wave-jobs-fifo": "a fast " +
		"majority of trackers beside a fifth 3x slow at load 0.89, large multi-wave jobs, FIFO slot pools: grass " +
		"leads at seed 1; auto 34.89 s against 29.63 (+17.8%), ahead of hadoop (45.46); 5 seeds 35.94 against " +
		"grass's 32.30 (+11.3%, out)",
	"heldout74/swim-reduces-kept-ljf-flat-uniform-noise-0.5-1.5-day-0.03-slots-fair": "SWIM jobs with reduces, " +
		"longest first, a flat uniform noise, fair slot pools: sca leads at seed 1; auto 461.6 s against 430.2 " +
		"(+7.3%), ahead of hadoop (482.2); 5 seeds 363.9 against sca's 349.7 (+4.1%, in)",
}

// The held-out scenarios (scenarios/heldout*), each set written before a
// search for the next rule and never used to choose it, then run once under
// the rule in force when the search ended (which set ran under which rule:
// docs/auto-history.md): the same check against every shipped policy,
// reported apart, with the misses pinned (heldOutMisses).
func TestAutoOnHeldOutScenarios(t *testing.T) {
	// Every held-out folder (scenarios/heldout*), so that a new set is
	// checked without editing this test.
	held, _ := filepath.Glob("../scenarios/heldout*/*.yaml")
	if len(held) < 448 {
		t.Fatalf("%d held-out scenarios, want at least 448 (sets 1-75)", len(held))
	}
	var every []string
	for _, n := range registry(t).Names() {
		if n != "auto" {
			every = append(every, n)
		}
	}
	checkAuto(t, held, every, heldOutMisses, autoMinJobs)
}

func checkAuto(t *testing.T, paths, rivals []string, misses map[string]string, minJobs int) {
	reg := registry(t)
	for _, path := range paths {
		name, in, w, tasks := loadScenarioTasks(t, path)
		counted := 0
		for _, g := range in.Scenario.Workload.Jobs {
			counted += g.Count
		}
		// A SWIM-drawn workload (counted 0) is kept whole: its jobs are a
		// sample, not counts to cut.
		if tasks > autoMaxTasks && counted > 0 {
			keep := min(autoCutJobs, len(w.Jobs), max(minJobs, len(w.Jobs)*autoCutTasks/tasks))
			in = loadPrefix(t, path, keep)
		}
		t.Run(strings.ReplaceAll(name, "/", "-"), func(t *testing.T) {
			t.Parallel()
			pols := append(append([]string{}, rivals...), "auto")
			opts := Options{Speculators: pols, Seed: 1, Runs: 1, Registry: reg}
			res, err := Simulate(WorkloadOf(in, opts.Cluster), opts)
			if err != nil {
				t.Fatal(err)
			}
			auto := &res[len(res)-1]
			measure, av, higher := headline(auto)
			best, bv := "", 0.0
			var hv float64
			for i := range res[:len(res)-1] {
				_, v, _ := headline(&res[i])
				if res[i].Speculator == Baseline {
					hv = v
				}
				if best == "" || behind(v, bv, higher) < 0 {
					best, bv = res[i].Speculator, v
				}
			}
			gap := behind(av, bv, higher)
			t.Logf("%s: %s auto %.4g, best single %s %.4g (auto %+.1f%%), hadoop %.4g", name, measure, av, best, bv, 100*gap, hv)
			if why, pinned := misses[name]; pinned {
				if gap <= autoSlack && behind(av, hv, higher) <= 1e-9 {
					t.Errorf("%s: auto now within %.0f%% of %s and not behind hadoop; remove the pin (%s)", name, 100*autoSlack, best, why)
				}
				return
			}
			if gap > autoSlack {
				t.Errorf("%s: auto's %s %.4g is %.1f%% behind %s's %.4g, want within %.0f%%", name, measure, av, 100*gap, best, bv, 100*autoSlack)
			}
			if behind(av, hv, higher) > 1e-9 {
				t.Errorf("%s: auto's %s %.4g is behind hadoop's %.4g", name, measure, av, hv)
			}
		})
	}
}
