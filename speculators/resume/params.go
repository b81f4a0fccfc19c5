package resume

import "github.com/specbridge/specbridge/speculators"

// Params are the parameters of Speculative-Resume that SRQuant and LASER
// share, with the SRQuant/LASER paper's values (§VI-C), each declared here
// once. A policy embeds them and declares them with the Bind methods, in
// the order of its parameter list.
type Params struct {
	TauEstS, TauKillS float64
	RMax              int
	ThetaC            float64
	TJVMS             float64
}

// BindTimes declares tau-est-s and tau-kill-s.
func (p *Params) BindTimes(b *speculators.Binder) {
	b.Float(&p.TauEstS, "tau-est-s", 120.0, speculators.PositiveFinite,
		"seconds after a map starts at which its run time is estimated (SRQuant/LASER paper §VI-C: tau_est = 120 s)")
	b.Float(&p.TauKillS, "tau-kill-s", 200.0, speculators.PositiveFinite,
		"seconds after a map starts at which the best resumed attempt is kept and the others killed (§VI-C: tau_kill = 200 s)")
}

// MaxRMax bounds r-max, as the other policies' copy caps are bounded:
// every decision (and LASER's training) weighs each r in 0..r_max, and a
// typo of billions would stall the policy.
const MaxRMax = 64

// BindRMax declares r-max, r_max of the policy's algorithm.
func (p *Params) BindRMax(b *speculators.Binder, algorithm string) {
	b.Int(&p.RMax, "r-max", 4, speculators.Span(0, MaxRMax),
		"most extra attempts per straggler, r_max of "+algorithm+" (the paper gives no value; 4 keeps a 10-task job within 5x its tasks)")
}

// BindThetaC declares theta-c.
func (p *Params) BindThetaC(b *speculators.Binder) {
	b.Float(&p.ThetaC, "theta-c", 0.0001, speculators.NonNegative,
		"theta x C, the price of a machine-second in U(r) (§VI-C: 0.0001)")
}

// BindTJVM declares tjvm-s.
func (p *Params) BindTJVM(b *speculators.Binder) {
	b.Float(&p.TJVMS, "tjvm-s", 0.0, speculators.NonNegativeFinite,
		"t_jvm, seconds from launch to the first processed record (§V-A: part of SRQuant's estimate t_jvm + (tau_est - t_jvm)/phi, a feature of LASER's task network in Table II; the simulator has no JVM start-up, so 0)")
}

// Resumer builds the mechanism from the times, once every value has been
// read and found in range (nil otherwise; an error is recorded with b).
func (p *Params) Resumer(b *speculators.Binder) *Resumer {
	if !b.Ready() {
		return nil
	}
	r, err := NewSeconds(p.TauEstS, p.TauKillS)
	b.Fail(err)
	return r
}
