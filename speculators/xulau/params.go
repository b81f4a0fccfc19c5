package xulau

import "github.com/specbridge/specbridge/speculators"

// TailIndex is the valid range of a Pareto tail index parameter: alpha > 1,
// so that task times have a finite mean (the paper's analysis needs E[x]),
// and at most 1e6, beyond which the law is a point mass in all but name.
var TailIndex = speculators.Valid{
	OK:   func(a float64) bool { return a > 1 && a <= 1e6 },
	Want: "a tail index > 1 (a finite mean)",
}

// The parameters SCA, SDA and ESE share: one name, default, range and
// meaning each, declared here once.

// BindTailIndex declares tail-index, alpha of the Pareto law of task times
// when the job gives none (JobInfo.TailIndex); section is where the policy's
// part of the paper sets it to 2.
func BindTailIndex(b *speculators.Binder, dst *float64, section string) {
	b.Float(dst, "tail-index", 2.0, TailIndex,
		"Pareto tail index alpha of task times when the job does not give one (Xu & Lau "+section+", 2)")
}

// BindGamma declares gamma, the weight of resource against flowtime in the
// utility of §IV-C (0.01); in says where the policy uses it.
func BindGamma(b *speculators.Binder, dst *float64, in string) {
	b.Float(dst, "gamma", 0.01, speculators.NonNegativeFinite,
		"gamma: weight of resource against flowtime in "+in+" (Xu & Lau §IV-C, 0.01)")
}

// BindMaxCopies declares max-copies, r of §IV-A: the most copies of a task,
// from lo to 64 (8 by default, the Fig. 1 example); of says which tasks.
func BindMaxCopies(b *speculators.Binder, dst *int, lo int, of string) {
	b.Int(dst, "max-copies", 8, speculators.Span(lo, 64),
		"r: most copies of "+of+" (Xu & Lau §IV-A, Fig. 1 example r = 8)")
}
