package replay

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/specbridge/specbridge/workload/scenario"
)

// The FARMS scenarios parse and materialize; in fas-delays every job gets
// exactly one fault (a crash or a delay), on a node drawn per job.
func TestFarmsScenariosMaterialize(t *testing.T) {
	for _, f := range []string{"farms-1gb", "farms-1gb-nofail", "farms-10gb", "fas-delays", "farms-overall", "farms-overall-nofail"} {
		s, err := scenario.Read("../scenarios/" + f + ".yaml")
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if _, err := FromScenario(s, 1, ClusterOptions{}); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if f == "farms-overall" {
			checkOverallFaults(t, s)
		}
		if f != "fas-delays" {
			continue
		}
		m := s.Materialize(1)
		perJob := map[string]int{}
		crashes := 0
		for _, x := range m.Faults {
			perJob[x.Job]++
			if x.Kind == "crash" {
				crashes++
			}
		}
		for _, j := range m.Jobs {
			if perJob[j.Name] > 1 {
				t.Errorf("job %s has %d faults, want at most 1", j.Name, perJob[j.Name])
			}
		}
		if crashes < 30 || crashes > 66 {
			t.Errorf("%d crashes in 120 jobs, want about 0.4 x 120", crashes)
		}
	}
}

// checkOverallFaults: in farms-overall every fault targets the node of one
// job (job-maps) at a map progress drawn per job in [0, 0.9], a job has at
// most one, and over 5 seeds the crashes fall where k (the nodes a job's
// maps fill) makes them likely: 10 GB and larger jobs get most of them.
func checkOverallFaults(t *testing.T, s *scenario.Scenario) {
	t.Helper()
	points := map[float64]bool{}
	crashes := map[string]int{}
	for seed := uint64(1); seed <= 5; seed++ {
		m := s.Materialize(seed)
		group := map[string]string{}
		for _, j := range m.Jobs {
			group[j.Name] = j.Group
		}
		perJob := map[string]int{}
		for _, x := range m.Faults {
			perJob[x.Job]++
			if x.Node != "" || x.AtMapProgress == nil || *x.AtMapProgress < 0 || *x.AtMapProgress > 0.9 || group[x.Job] == "" {
				t.Fatalf("seed %d: fault %+v, want job-maps on a job at a progress in [0, 0.9]", seed, x)
			}
			points[*x.AtMapProgress] = true
			if x.Kind == "crash" {
				crashes[group[x.Job]]++
			}
		}
		for job, n := range perJob {
			if n > 1 {
				t.Errorf("seed %d: job %s has %d faults, want at most 1", seed, job, n)
			}
		}
	}
	if len(points) < 10 {
		t.Errorf("only %d distinct map-progress points: not drawn per job", len(points))
	}
	// Expected over 5 seeds: 1gb 8.5, 10gb 7.3, 50gb 8.3, 100gb 3.3.
	t.Logf("crashes over 5 seeds by group: %v", crashes)
	if big := crashes["10gb"] + crashes["50gb"] + crashes["100gb"]; big <= crashes["1gb"] {
		t.Errorf("crashes by group %v: want most on the larger jobs", crashes)
	}
}

// farms-1gb under hadoop: a crash at 0% of map progress stalls every map
// until mapreduce.task.timeout, so the job takes over 600 s; the report
// carries wrong_speculations and is the same on every run.
func TestFarms1GBHadoopWaitsForTimeout(t *testing.T) {
	s, err := scenario.Read("../scenarios/farms-1gb.yaml")
	if err != nil {
		t.Fatal(err)
	}
	reg := registry(t)
	run := func() []byte {
		in := &Input{Scenario: s}
		res, err := Simulate(WorkloadOf(in, ClusterOptions{}), Options{Speculators: []string{"hadoop"}, Seed: 1, Runs: 1, Registry: reg})
		if err != nil {
			t.Fatal(err)
		}
		if res[0].Groups[0].Group != "spot-00" || res[0].Groups[0].MeanJobS < 600 || res[0].UnfinishedJobs != 0 {
			t.Errorf("hadoop at spot 0: %+v, want > 600 s and every job done", res[0].Groups[0])
		}
		out, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(out, []byte(`"wrong_speculations"`)) {
			t.Error("no wrong_speculations in the JSON")
		}
		return out
	}
	if a, b := run(), run(); !bytes.Equal(a, b) {
		t.Error("two runs differ")
	}
}

// farms-reduce-failure: the node running most of a job's reduces crashes in
// the reduce phase (at_reduce_progress 0.7-0.9). Its reduces and the map
// outputs stored there are lost; Hadoop's speculator waits for the 600 s
// timeouts, a failure-aware policy does not. Issue 13, item 5.
func TestFarmsReduceFailureScenario(t *testing.T) {
	res := simulateScenario(t, "farms-reduce-failure", Options{Speculators: []string{"none", "hadoop", "farms"}, Seed: 1, Runs: 1, Registry: registry(t)})
	none, hadoop, farms := res[0], res[1], res[2]
	t.Logf("none %.1fs, hadoop %.1fs, farms %.1fs (expiry reruns %.0f, timed out %.0f under none)",
		none.MeanJobS, hadoop.MeanJobS, farms.MeanJobS, none.ExpiryReruns, none.FailedAttempts)
	if none.FailedAttempts == 0 {
		t.Errorf("no attempt timed out without speculation: the crash did not hit a running reduce")
	}
	if none.MeanJobS < 600 {
		t.Errorf("none %.1fs: a reduce-phase crash should hold the jobs past the 600 s timeouts", none.MeanJobS)
	}
	if farms.MeanJobS*3 > hadoop.MeanJobS {
		t.Errorf("farms %.1fs is not 3x faster than hadoop %.1fs", farms.MeanJobS, hadoop.MeanJobS)
	}
}
