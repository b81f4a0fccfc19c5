package replay

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Spread is a figure's spread over runs (seeds): the lowest and highest
// run and the sample standard deviation.
type Spread struct {
	Runs int     `json:"runs"`
	Min  float64 `json:"min_mean_job_s"`
	Max  float64 `json:"max_mean_job_s"`
	SD   float64 `json:"sd_mean_job_s"`
}

// spreadOver is mean job time's spread over the runs rs; nil for one run.
func spreadOver(rs []Result) *Spread {
	if len(rs) < 2 {
		return nil
	}
	s := &Spread{Runs: len(rs), Min: math.Inf(1), Max: math.Inf(-1)}
	mean := 0.0
	for _, r := range rs {
		s.Min, s.Max = math.Min(s.Min, r.MeanJobS), math.Max(s.Max, r.MeanJobS)
		mean += r.MeanJobS / float64(len(rs))
	}
	v := 0.0
	for _, r := range rs {
		v += (r.MeanJobS - mean) * (r.MeanJobS - mean)
	}
	f := func(x float64) float64 { return math.Round(x*1000) / 1000 }
	s.Min, s.Max, s.SD = f(s.Min), f(s.Max), f(math.Sqrt(v/float64(len(rs)-1)))
	return s
}

// Baseline is the policy a verdict measures the others against: Hadoop's
// own speculator, what a cluster runs without specbridge.
const Baseline = "hadoop"

// Verdict helps choose a policy on one input, on time against cost: the
// best on mean job time, the best among those that use no more container
// time than Baseline, and the policies between them that no other policy
// beats on both (the front: faster only at a higher cost). The JSON names
// are a public interface.
type Verdict struct {
	BestOnTime Choice `json:"best_on_time"`
	// BestAtBaselineCost is the fastest policy using at most Baseline's
	// container time; nil when Baseline was not replayed.
	BestAtBaselineCost *Choice `json:"best_at_baseline_cost,omitempty"`
	Baseline           *Choice `json:"baseline,omitempty"`
	// Front lists the non-dominated policies on (mean job time,
	// container-hours), fastest first.
	Front []Choice `json:"front"`
	// Summary says the above in sentences, with the spread over seeds.
	Summary []string `json:"summary"`
	// AutoVsBestPct is how much slower auto's mean job time is than the
	// best single policy's, in percent (negative: auto is faster), when
	// auto and another policy were replayed; BestSingle names that policy.
	AutoVsBestPct *float64 `json:"auto_vs_best_pct,omitempty"`
	BestSingle    string   `json:"best_single,omitempty"`
}

// AutoPolicy is the policy that picks a member per job (speculators/auto);
// the verdict compares it with the best single policy.
const AutoPolicy = "auto"

// autoVsBest says how auto compares with the best single policy on mean
// job time, so that a user sees whether hand-picking a policy is still
// worth it.
func (v *Verdict) autoVsBest(res []Result, ok []int) {
	a, best := -1, -1
	for _, i := range ok {
		if res[i].Speculator == AutoPolicy {
			a = i
		} else if best < 0 || res[i].MeanJobS < res[best].MeanJobS {
			best = i
		}
	}
	if a < 0 || best < 0 {
		return
	}
	pct := math.Round(1000*(res[a].MeanJobS-res[best].MeanJobS)/res[best].MeanJobS) / 10
	v.AutoVsBestPct, v.BestSingle = &pct, res[best].Speculator
	switch {
	case pct <= 0:
		v.Summary = append(v.Summary, fmt.Sprintf("auto (%s) is at least as fast as the best single policy, %s (%s): no hand-picked policy beats it here.",
			secs(res[a].MeanJobS, nil), res[best].Speculator, secs(res[best].MeanJobS, nil)))
	case pct <= 5:
		v.Summary = append(v.Summary, fmt.Sprintf("auto (%s) is within %.1f%% of the best single policy, %s (%s): hand-picking gains little.",
			secs(res[a].MeanJobS, nil), pct, res[best].Speculator, secs(res[best].MeanJobS, nil)))
	default:
		v.Summary = append(v.Summary, fmt.Sprintf("auto (%s) is %.1f%% slower than the best single policy, %s (%s): on this input, hand-pick %s.",
			secs(res[a].MeanJobS, nil), pct, res[best].Speculator, secs(res[best].MeanJobS, nil), res[best].Speculator))
	}
}

// Choice is one policy's place in the verdict.
type Choice struct {
	Policy     string  `json:"policy"`
	MeanJobS   float64 `json:"mean_job_s"`
	ContainerH float64 `json:"container_h"`
	// Spread is mean job time over seeds (nil with one run).
	Spread *Spread `json:"spread,omitempty"`
}

func choiceOf(r *Result) Choice {
	return Choice{Policy: r.Speculator, MeanJobS: r.MeanJobS, ContainerH: math.Round(r.ContainerS/3.6) / 1000, Spread: r.Spread}
}

// Dominated reports whether some other result is at least as good as
// res[i] on both mean job time and container time and better on one.
// Results with no finished job take no part.
func Dominated(res []Result, i int) bool {
	a := &res[i]
	for j := range res {
		b := &res[j]
		if j == i || b.Jobs == 0 || b.MeanJobS == 0 {
			continue
		}
		if b.MeanJobS <= a.MeanJobS && b.ContainerS <= a.ContainerS && (b.MeanJobS < a.MeanJobS || b.ContainerS < a.ContainerS) {
			return true
		}
	}
	return false
}

// NewVerdict judges simulate-mode results; nil when no policy finished a
// job.
func NewVerdict(res []Result) *Verdict {
	var ok []int
	for i := range res {
		if res[i].Jobs > 0 && res[i].MeanJobS > 0 {
			ok = append(ok, i)
		}
	}
	if len(ok) == 0 {
		return nil
	}
	v := &Verdict{}
	best := ok[0]
	for _, i := range ok {
		if res[i].MeanJobS < res[best].MeanJobS {
			best = i
		}
	}
	v.BestOnTime = choiceOf(&res[best])
	for _, i := range ok {
		if !Dominated(res, i) {
			v.Front = append(v.Front, choiceOf(&res[i]))
		}
	}
	sort.SliceStable(v.Front, func(a, b int) bool { return v.Front[a].MeanJobS < v.Front[b].MeanJobS })
	base := -1
	for _, i := range ok {
		if res[i].Speculator == Baseline {
			base = i
		}
	}
	v.Summary = append(v.Summary, fmt.Sprintf("Best on mean job time: %s, %s at %s container-hours per run.",
		v.BestOnTime.Policy, secs(v.BestOnTime.MeanJobS, v.BestOnTime.Spread), num1(v.BestOnTime.ContainerH)))
	if base >= 0 {
		b := choiceOf(&res[base])
		v.Baseline = &b
		cheap := -1
		for _, i := range ok {
			if res[i].ContainerS <= res[base].ContainerS && (cheap < 0 || res[i].MeanJobS < res[cheap].MeanJobS) {
				cheap = i
			}
		}
		c := choiceOf(&res[cheap])
		v.BestAtBaselineCost = &c
		v.Summary = append(v.Summary, fmt.Sprintf("Best at no more than %s's container time: %s, %s at %s container-hours (%s: %s at %s).",
			Baseline, c.Policy, secs(c.MeanJobS, c.Spread), num1(c.ContainerH), Baseline, secs(b.MeanJobS, b.Spread), num1(b.ContainerH)))
		var between []string
		for _, f := range v.Front {
			if f.MeanJobS < c.MeanJobS && f.Policy != v.BestOnTime.Policy {
				between = append(between, fmt.Sprintf("%s (%s, %s container-hours, %.1fx %s's)", f.Policy, secs(f.MeanJobS, nil), num1(f.ContainerH), f.ContainerH/math.Max(b.ContainerH, 1e-9), Baseline))
			}
		}
		switch {
		case c.Policy == v.BestOnTime.Policy:
			v.Summary = append(v.Summary, fmt.Sprintf("%s is both: the fastest, at no more than %s's cost.", c.Policy, Baseline))
		case len(between) == 0:
			v.Summary = append(v.Summary, fmt.Sprintf("Between them nothing: %s buys its time with %.1fx %s's container time.",
				v.BestOnTime.Policy, v.BestOnTime.ContainerH/math.Max(b.ContainerH, 1e-9), Baseline))
		default:
			v.Summary = append(v.Summary, "Between them, faster only at a higher cost: "+strings.Join(between, "; ")+".")
		}
	} else {
		v.Summary = append(v.Summary, fmt.Sprintf("%s was not replayed, so there is no cost to hold to; add it to --speculators.", Baseline))
	}
	v.autoVsBest(res, ok)
	var front []string
	for _, f := range v.Front {
		front = append(front, f.Policy)
	}
	v.Summary = append(v.Summary, "Not beaten on both time and cost by any other policy: "+strings.Join(front, ", ")+".")
	return v
}

// secs is a mean job time with its spread over seeds, when there is one.
func secs(x float64, s *Spread) string {
	if s == nil {
		return num1(x) + " s"
	}
	return fmt.Sprintf("%s s (%s to %s over %d seeds)", num1(x), num1(s.Min), num1(s.Max), s.Runs)
}

func num1(x float64) string { return fmt.Sprintf("%.1f", x) }
