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
