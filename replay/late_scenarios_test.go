package replay

import (
	"testing"
)

// The bundled LATE scenarios, over five seeds, show late faster than the
// Hadoop 0.20 rule and than no speculation on mean job time.
// Reference: LATE §5.2.1 (27% faster than native, heterogeneous), §5.2.2
// (58% faster than native, 220% faster than none, stragglers), §5.4.
func TestLATEScenariosLateWins(t *testing.T) {
	reg := registry(t)
	for _, name := range []string{"late-sleep-sensitivity", "late-ec2-heterogeneous", "late-ec2-stragglers"} {
		in := load(t, "../scenarios/"+name+".yaml")
		opts := Options{Speculators: []string{"none", "hadoop-legacy", "late"}, Seed: 1, Runs: 5, Registry: reg}
		res, err := Simulate(WorkloadOf(in, opts.Cluster), opts)
		if err != nil {
			t.Fatal(err)
		}
		none, legacy, late := res[0], res[1], res[2]
		t.Logf("%s: none %.1fs, hadoop-legacy %.1fs, late %.1fs (late %.0f%% faster than legacy, %.0f%% than none)",
			name, none.MeanJobS, legacy.MeanJobS, late.MeanJobS,
			100*(legacy.MeanJobS/late.MeanJobS-1), 100*(none.MeanJobS/late.MeanJobS-1))
		if !(late.MeanJobS < legacy.MeanJobS && late.MeanJobS < none.MeanJobS) {
			t.Errorf("%s: late %.1fs is not faster than hadoop-legacy %.1fs and none %.1fs", name, late.MeanJobS, legacy.MeanJobS, none.MeanJobS)
		}
		if late.SpeculativeWins == 0 {
			t.Errorf("%s: late launched %.1f copies and none won", name, late.SpeculativeAttempts)
		}
	}
}

// LATE §5.4's waste claim on the sleep workload, as far as it holds here
// (docs/reproductions-fidelity.md gives the evidence): the Hadoop 0.20 rule
// reproduces the paper's native response time (247 s) within 15%, and LATE
// wastes less time per node than the paper measured for native speculation
// (35 s/node) while finishing faster. Against our own 0.20 rule LATE wastes
// more: under the paper's definition of waste, the killed originals its
// winning copies overtake are waste, and the 0.20 gap rule can only ever
// select the factor-10 node's reduce on this workload.
// Reference: LATE §5.4, §5.4.1 (native: 247 s, 35 s/node wasted; no
// speculation: 745 s).
func TestLATESleepWaste(t *testing.T) {
	const nodes = 40
	res := simulateScenario(t, "late-sleep-sensitivity", Options{Speculators: []string{"none", "hadoop-legacy", "late"}, Seed: 1, Runs: 5, Registry: registry(t)})
	none, legacy, late := res[0], res[1], res[2]
	t.Logf("none %.1fs; hadoop-legacy %.1fs, %.1f copies, %.1f s/node wasted; late %.1fs, %.1f copies, %.1f s/node wasted",
		none.MeanJobS, legacy.MeanJobS, legacy.SpeculativeAttempts, legacy.WastedContainerS/nodes,
		late.MeanJobS, late.SpeculativeAttempts, late.WastedContainerS/nodes)
	if d := legacy.MeanJobS/247 - 1; d > 0.15 || d < -0.15 {
		t.Errorf("hadoop-legacy %.1fs is %.0f%% off the paper's native 247 s", legacy.MeanJobS, 100*d)
	}
	if w := late.WastedContainerS / nodes; w >= 35 {
		t.Errorf("late wastes %.1f s/node, not below the paper's native 35 s/node", w)
	}
	if late.MeanJobS >= legacy.MeanJobS {
		t.Errorf("late %.1fs not faster than hadoop-legacy %.1fs", late.MeanJobS, legacy.MeanJobS)
	}
	if legacy.SpeculativeAttempts > 2 {
		t.Errorf("hadoop-legacy launched %.1f copies; the 0.20 gap rule should reach only the factor-10 node's reduce", legacy.SpeculativeAttempts)
	}
}
