package report

import (
	"fmt"
	"math"
	"sort"

	"github.com/specbridge/specbridge/replay"
)

// Baseline is the policy the verdict measures the best one against:
// Hadoop's own speculator, what a cluster runs without specbridge.
const Baseline = "hadoop"

// verdict says in plain words which policy is best on this input, by how
// much against the baseline, at what container time, and whether the
// ranking holds across seeds. The noise rule: a policy is "ahead beyond the
// noise" of another when it is ahead on every seed and the mean of the
// paired per-seed differences exceeds twice its standard error; otherwise
// the two are within the noise. Paired, because every policy runs the same
// workload on a seed, so the seed's own luck cancels.
func (c *Collector) verdict(results []replay.Result) []string {
	m := chooseMetric(results)
	type ranked struct {
		r *replay.Result
		v float64
	}
	var rs []ranked
	for i := range results {
		if v, ok := m.of(&results[i]); ok {
			rs = append(rs, ranked{&results[i], v})
		}
	}
	if len(rs) == 0 {
		return []string{"No job finished under any policy: nothing to compare."}
	}
	sort.SliceStable(rs, func(a, b int) bool { return m.better(rs[a].v, rs[b].v) })
	best := rs[0]
	out := []string{fmt.Sprintf("Best on this input by %s: %s (%s).", m.name, best.r.Speculator, m.format(best.v))}
	var base *ranked
	for i := range rs {
		if rs[i].r.Speculator == Baseline {
			base = &rs[i]
		}
	}
	switch {
	case base == nil:
		out = append(out, fmt.Sprintf("%s was not replayed, so there is no comparison with Hadoop's own speculator; add it to --speculators.", Baseline))
	case base.r == best.r:
		out = append(out, fmt.Sprintf("%s, Hadoop's own speculator, is already the best here: switching policy gains nothing on this input.", Baseline))
	default:
		out = append(out, fmt.Sprintf("Against %s (%s): %s, %s.", Baseline, m.format(base.v), m.gain(best.v, base.v),
			containerCost(best.r, base.r)))
	}
	if len(rs) > 1 {
		out = append(out, c.noise(m, best.r.Speculator, rs[1].r.Speculator))
		if base != nil && base.r != best.r && base.r != rs[1].r {
			out = append(out, c.noise(m, best.r.Speculator, Baseline))
		}
	}
	for _, r := range rs {
		if r.r.UnfinishedJobs > 0 {
			out = append(out, fmt.Sprintf("Warning: under %s, %.1f jobs per run did not finish; its figures cover finished jobs only.", r.r.Speculator, r.r.UnfinishedJobs))
		}
	}
	return out
}

func (m metric) format(v float64) string {
	if m.unit == "s" {
		return fmt.Sprintf("%.1f s", v)
	}
	return fmt.Sprintf("%.3f", v)
}

// gain says how much better v is than base.
func (m metric) gain(v, base float64) string {
	if base == 0 {
		return "no baseline figure to compare with"
	}
	if m.higher {
		return fmt.Sprintf("%+.1f%% %s", 100*(v/base-1), m.name)
	}
	return fmt.Sprintf("%.1f%% lower %s (%.2fx faster)", 100*(1-v/base), m.name, base/v)
}

// containerCost compares the container time two policies used.
func containerCost(r, base *replay.Result) string {
	if base.ContainerS == 0 {
		return "container time not comparable"
	}
	d := r.ContainerS - base.ContainerS
	word := "more"
	if d < 0 {
		word = "less"
	}
	return fmt.Sprintf("using %.1f%% %s container time than %s (%.1f container-hours per run against %.1f; %s speculative copies against %s, %.1f container-hours of them wasted against %.1f)",
		100*math.Abs(d)/base.ContainerS, word, base.Speculator, r.ContainerS/3600, base.ContainerS/3600,
		replay.Count(r.SpeculativeAttempts), replay.Count(base.SpeculativeAttempts), r.WastedContainerS/3600, base.WastedContainerS/3600)
}

// noise compares policy a with b seed by seed.
func (c *Collector) noise(m metric, a, b string) string {
	av, bv := c.perRun(a, m), c.perRun(b, m)
	n := min(len(av), len(bv))
	if n < 2 {
		return fmt.Sprintf("One seed only: whether %s stays ahead of %s across seeds is unknown; run with --runs 5 or more.", a, b)
	}
	wins := 0
	diffs := make([]float64, n)
	for i := 0; i < n; i++ {
		diffs[i] = av[i] - bv[i]
		if m.better(av[i], bv[i]) {
			wins++
		}
	}
	mean := 0.0
	for _, d := range diffs {
		mean += d / float64(n)
	}
	sd := spreadOf(diffs).SD
	se := sd / math.Sqrt(float64(n))
	diff := m.format(math.Abs(mean))
	if wins == n && math.Abs(mean) > 2*se {
		every := fmt.Sprintf("all %d seeds", n)
		if n == 2 {
			every = "both seeds"
		}
		return fmt.Sprintf("%s is ahead of %s on %s (by %s on average, standard deviation %s): beyond the noise between seeds.",
			a, b, every, diff, m.format(sd))
	}
	return fmt.Sprintf("%s is ahead of %s on %d of %d seeds (by %s on average, standard deviation %s between seeds): within the noise; treat them as equal on this input or add --runs.",
		a, b, wins, n, diff, m.format(sd))
}
