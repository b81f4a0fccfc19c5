package replay

import (
	"testing"
)

// binOf returns a result's figures for one GRASS job bin.
func binOf(t *testing.T, r Result, bin string) BinResult {
	t.Helper()
	for _, b := range r.Bins {
		if b.Bin == bin {
			return b
		}
	}
	t.Fatalf("%s: no bin %q in %+v", r.Speculator, bin, r.Bins)
	return BinResult{}
}

// The bundled GRASS scenarios over five seeds, with GS, RAS and GRASS
// choosing per slot offer (speculators.SlotChooser), against LATE and
// Mantri. Issue 4's Done-when asks, against late and mantri: accuracy of
// deadline jobs >= 1.2x, time to error bound <= 0.85x, exact jobs faster;
// grass at least as good as the better of gs and ras; GS ahead on small
// jobs and RAS on large (§6.3.1).
//
// Asserted, all of which hold on these scenarios (§6.1's 200-node cluster,
// originals ordered by input size, progress noise of §5.1's accuracy,
// deadlines from a dry run of the workload, large jobs of up to 4000
// blocks, t_new counting long-running tasks): grass's deadline accuracy >=
// 1.2x late's and mantri's; its time to error bound <= 0.85x theirs; its
// exact jobs faster than theirs; grass at least as good as the better of gs
// and ras on all three; GS ahead of RAS on small jobs of all three; RAS
// ahead of GS on large jobs of all three; grass at least as accurate as
// late on large deadline jobs (the paper's largest gains are there).
// Logged only: GS against RAS on medium deadline jobs. Three scenarios x 5
// policies x 5 seeds (about a minute).
// Reference: GRASS §6.2.1-6.2.2, §6.3.1.
func TestGRASSScenariosDoneWhen(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates two scenarios x 5 policies x 5 seeds")
	}
	reg := registry(t)
	names := []string{"late", "mantri", "gs", "ras", "grass"}
	run := func(file string) map[string]Result {
		in := load(t, "../scenarios/"+file)
		opts := Options{Speculators: names, Seed: 1, Runs: 5, Registry: reg}
		res, err := Simulate(WorkloadOf(in, opts.Cluster), opts)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]Result{}
		for _, r := range res {
			if r.UnfinishedJobs != 0 {
				t.Errorf("%s %s: %v unfinished jobs", file, r.Speculator, r.UnfinishedJobs)
			}
			out[r.Speculator] = r
		}
		return out
	}

	// figures returns each policy's figure and a function giving a policy's
	// figure in a bin; a policy without the figure fails the test.
	figures := func(file, what string, figure func(*Result) *float64, binFigure func(*BinResult) *float64) (map[string]float64, func(n, bin string) float64) {
		res := run(file)
		out := map[string]float64{}
		for _, n := range names {
			r := res[n]
			if figure(&r) == nil {
				t.Fatalf("%s %s: no %s", file, n, what)
			}
			out[n] = *figure(&r)
		}
		return out, func(n, bin string) float64 {
			b := binOf(t, res[n], bin)
			return *binFigure(&b)
		}
	}

	acc, binAcc := figures("grass-deadline.yaml", "accuracy", func(r *Result) *float64 { return r.Accuracy },
		func(b *BinResult) *float64 { return b.Accuracy })
	t.Logf("grass-deadline accuracy: late %.3f, mantri %.3f, gs %.3f, ras %.3f, grass %.3f (grass/late %.2f, grass/mantri %.2f; target 1.2); by bin small/medium/large: gs %.3f/%.3f/%.3f ras %.3f/%.3f/%.3f grass %.3f/%.3f/%.3f late %.3f/%.3f/%.3f",
		acc["late"], acc["mantri"], acc["gs"], acc["ras"], acc["grass"], acc["grass"]/acc["late"], acc["grass"]/acc["mantri"],
		binAcc("gs", "small"), binAcc("gs", "medium"), binAcc("gs", "large"), binAcc("ras", "small"), binAcc("ras", "medium"), binAcc("ras", "large"),
		binAcc("grass", "small"), binAcc("grass", "medium"), binAcc("grass", "large"), binAcc("late", "small"), binAcc("late", "medium"), binAcc("late", "large"))
	for _, base := range []string{"late", "mantri"} {
		if acc["grass"] < 1.2*acc[base] {
			t.Errorf("grass deadline accuracy %.3f < 1.2 x %s's %.3f", acc["grass"], base, acc[base])
		}
	}
	if best := max(acc["gs"], acc["ras"]); acc["grass"] < best {
		t.Errorf("grass deadline accuracy %.3f behind the better of gs and ras, %.3f", acc["grass"], best)
	}
	if gs, ras := binAcc("gs", "small"), binAcc("ras", "small"); gs <= ras {
		t.Errorf("small deadline jobs: gs accuracy %.3f not ahead of ras %.3f", gs, ras)
	}
	if gs, ras := binAcc("gs", "large"), binAcc("ras", "large"); ras <= gs {
		t.Errorf("large deadline jobs: ras accuracy %.3f not ahead of gs %.3f", ras, gs)
	}
	if g, l := binAcc("grass", "large"), binAcc("late", "large"); g < l {
		t.Errorf("large deadline jobs: grass accuracy %.3f behind late's %.3f", g, l)
	}
	if gs, ras := binAcc("gs", "medium"), binAcc("ras", "medium"); ras <= gs {
		t.Logf("not asserted: medium deadline jobs: ras accuracy %.3f not ahead of gs %.3f", ras, gs)
	}

	ttb, binTTB := figures("grass-error.yaml", "time to bound", func(r *Result) *float64 { return r.MeanTimeToBoundS },
		func(b *BinResult) *float64 { return b.MeanTimeToBoundS })
	t.Logf("grass-error time to bound: late %.1fs, mantri %.1fs, gs %.1fs, ras %.1fs, grass %.1fs (grass/late %.2f, grass/mantri %.2f; small gs %.1f ras %.1f; large gs %.1f ras %.1f)",
		ttb["late"], ttb["mantri"], ttb["gs"], ttb["ras"], ttb["grass"], ttb["grass"]/ttb["late"], ttb["grass"]/ttb["mantri"],
		binTTB("gs", "small"), binTTB("ras", "small"), binTTB("gs", "large"), binTTB("ras", "large"))
	for _, base := range []string{"late", "mantri"} {
		if ttb["grass"] > 0.85*ttb[base] {
			t.Errorf("grass time to error bound %.1fs > 0.85 x %s's %.1fs", ttb["grass"], base, ttb[base])
		}
	}
	if gs, ras := binTTB("gs", "large"), binTTB("ras", "large"); ras >= gs {
		t.Errorf("large error-bound jobs: ras %.1fs not ahead of gs %.1fs", ras, gs)
	}
	if gs, ras := binTTB("gs", "small"), binTTB("ras", "small"); gs >= ras {
		t.Errorf("small error-bound jobs: gs %.1fs not ahead of ras %.1fs", gs, ras)
	}
	if best := min(ttb["gs"], ttb["ras"]); ttb["grass"] > best {
		t.Errorf("grass time to error bound %.1fs behind the better of gs and ras, %.1fs", ttb["grass"], best)
	}

	exact := run("grass-exact.yaml")
	mean := func(n, bin string) float64 { return binOf(t, exact[n], bin).MeanJobS }
	t.Logf("grass-exact mean job: late %.1fs, mantri %.1fs, gs %.1fs, ras %.1fs, grass %.1fs (small gs %.1f ras %.1f; large gs %.1f ras %.1f)",
		exact["late"].MeanJobS, exact["mantri"].MeanJobS, exact["gs"].MeanJobS, exact["ras"].MeanJobS, exact["grass"].MeanJobS,
		mean("gs", "small"), mean("ras", "small"), mean("gs", "large"), mean("ras", "large"))
	for _, base := range []string{"late", "mantri"} {
		if exact["grass"].MeanJobS >= exact[base].MeanJobS {
			t.Errorf("exact jobs: grass %.1fs not faster than %s %.1fs", exact["grass"].MeanJobS, base, exact[base].MeanJobS)
		}
	}
	if best := min(exact["gs"].MeanJobS, exact["ras"].MeanJobS); exact["grass"].MeanJobS > best {
		t.Errorf("exact jobs: grass %.1fs behind the better of gs and ras, %.1fs", exact["grass"].MeanJobS, best)
	}
	if gs, ras := mean("gs", "small"), mean("ras", "small"); gs >= ras {
		t.Errorf("small exact jobs: gs %.1fs not ahead of ras %.1fs", gs, ras)
	}
	if gs, ras := mean("gs", "large"), mean("ras", "large"); ras >= gs {
		t.Errorf("large exact jobs: ras %.1fs not ahead of gs %.1fs", ras, gs)
	}
	for _, n := range []string{"gs", "ras", "grass"} {
		if exact[n].SpeculativeAttempts == 0 || exact[n].SpeculativeWins == 0 {
			t.Errorf("exact %s: %.1f copies, %.1f wins; pull-based speculation did nothing", n, exact[n].SpeculativeAttempts, exact[n].SpeculativeWins)
		}
	}
}
