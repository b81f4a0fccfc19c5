// Package dolly is Dolly's proactive cloning (Ananthanarayanan et al.,
// "Effective Straggler Mitigation: Attack of the Clones", NSDI'13), as the
// FARMS paper (§5, related work) and Xu and Lau (§II, ref. [2]) describe
// it: every task of a small job is cloned at launch, the first copy to
// finish wins and the others are killed, and cloning stays within a
// cluster-wide budget so that it cannot crowd out other work. Nothing is
// monitored: small jobs finish too quickly for straggler detection to help.
//
// The policy reads the job state the engine folds and keeps its own record
// of which tasks it cloned. It must not start goroutines, perform I/O, read
// the wall clock, use randomness or depend on Go map iteration order.
//
// Choices where the sources are vague:
//
//   - "Small": at most small-job-tasks tasks (10). The related work gives no
//     number; Dolly's own paper clones jobs of a few tasks, and 10 is the
//     issue's default.
//   - Budget: the extra attempts of all clones running at once stay within
//     budget x the cluster's slots (5%, Dolly's default budget). A job that
//     does not fit with its full copies gets as many as fit for all its
//     tasks, or none: a job cloned for some tasks only still waits for its
//     uncloned ones.
//   - At launch (simulator, speculators.Cloner): the copies start with the
//     original on other free slots. Live, the AM launches the original and
//     the policy asks for the copies the moment it runs (Decide); the budget
//     is then the job's own share, budget x JobInfo.Slots, since a job sees
//     only its own copies.
package dolly

import (
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/xulau"
)

// Name is the policy's registry name.
const Name = "dolly"

// Policy registers Dolly with its defaults.
var Policy = speculators.Declare(Name, "Dolly: clone every task of a small job at launch within a cluster-wide clone budget; first copy wins (Ananthanarayanan et al. NSDI'13, as in FARMS §5 and Xu & Lau §II)", func(b *speculators.Binder, p *policy) {
	b.Int(&p.small, "small-job-tasks", 10, speculators.AtLeast(1),
		"a job with at most this many tasks is small and is cloned")
	b.Int(&p.copies, "copies", 2, speculators.Span(1, 64),
		"attempts each task of a small job starts with (the original included)")
	b.Float(&p.budget, "budget", 0.05, speculators.Fraction,
		"fraction of the cluster's slots that clones may hold at once (Dolly's 5% budget)")
})

type policy struct {
	small, copies int
	budget        float64

	// Copies is the record of copies asked for and tasks launched; its
	// Observe is the policy\'s.
	xulau.Copies
	// clones is the attempts each task starts with, 0 until decided;
	// atLaunch: the simulator started them (LaunchCopies was asked).
	clones   int
	atLaunch bool
}

// Clones is Dolly's rule: copies for a job of m tasks when m is small and the
// budget has room for copies-1 extra attempts of each task (fewer copies
// when only fewer fit), else 1. With slots unknown (0) the budget is not
// applied.
func Clones(m, small, copies int, budget float64, slots, cloning int) int {
	if m > small || copies <= 1 {
		return 1
	}
	if slots <= 0 {
		return copies
	}
	room := int(budget*float64(slots)) - cloning
	if room < m {
		return 1
	}
	return min(copies, 1+room/m)
}

// LaunchCopies is Dolly's decision when the job's first task is placed.
func (p *policy) LaunchCopies(job *speculators.Job, view speculators.ClusterView, _ speculators.Time) int {
	p.atLaunch = true
	p.clones = Clones(xulau.TaskCount(job), p.small, p.copies, p.budget, view.Slots, view.SpeculativeRunning)
	return p.clones
}

// Decide asks, live, for the clones of every task whose first attempt runs.
// In the simulator the clones started with their originals and it asks
// nothing.
func (p *policy) Decide(job *speculators.Job, _ speculators.Time, out []speculators.Decision) []speculators.Decision {
	if p.atLaunch {
		return out
	}
	if p.clones == 0 {
		v := xulau.LiveView(job, 1)
		p.clones = Clones(xulau.TaskCount(job), p.small, p.copies, p.budget, v.Slots, 0)
	}
	return xulau.CloneRequests(job, &p.Copies, p.clones, Name, out)
}
