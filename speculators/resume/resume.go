// Package resume is the Speculative-Resume mechanism shared by SRQuant and
// LASER (the SRQuant/LASER paper, "LASER: a deep learning approach for
// speculative execution and replication of deadline-critical jobs", §III,
// Fig. 2): at tau_est after a map's original attempt starts, its run time is
// estimated; if the attempt would end after the job's deadline it is
// killed and r+1 attempts resume from the byte offset it reached; at
// tau_kill the resumed attempt with the most progress is kept and the others
// are killed. What a policy adds is how to estimate an attempt's run time
// and how to choose r (the Chooser).
//
// Choices, where the paper is silent:
//   - only maps are watched: the paper evaluates map phases (§VI-A) and a
//     byte offset is a map's notion; reduces are left alone;
//   - jobs without a deadline are left alone (no deadline, no straggler);
//   - only a map's first attempt is estimated, once: a map already retried
//     after a failure, or already resumed, is not checked again;
//   - tau_est and tau_kill count from the original attempt's start, and the
//     deadline D the Chooser sees is the job's deadline minus that start;
//   - the kill at tau_kill waits until all r+1 resumed attempts have
//     started (on a busy cluster some wait for a container), so that a copy
//     placed late is not left running unchecked beside the kept one.
//
// Live, Hadoop cannot start an attempt at an offset: the copies start from
// zero. The job says which holds (speculators.JobInfo.Resume: on in a
// scenario run of the simulator, off live and in a history replay, which
// predicts live). Off, the mechanism is honest about it:
//   - the decision does not ask for a resume, and its reason says the r+1
//     attempts start from zero;
//   - the Chooser is told the straggler's offset is 0 (Offset), so that
//     R(r) and the cost count the whole task for every copy: what the
//     straggler processed is thrown away when it is killed.
//
// Choice (issue: the paper's mechanism assumes resume): with copies from
// zero we still kill the straggler at tau_est rather than let it run on
// beside the copies until tau_kill. Keeping it would make r+2 attempts
// race, which neither Theorem 1 (R(r)) nor Theorem 2 (E_r(T)) models, and
// the decisions would no longer be the ones the policy's analysis chose;
// with phi = 0 the analysis itself says when r+1 fresh copies beat the
// straggler (R(r) then needs D - tau_est > tmin), and chooses r = 0 when
// they cannot help. Like everything under speculators/ the package does no
// I/O and reads no clock.
package resume

import (
	"fmt"
	"math"

	"github.com/specbridge/specbridge/speculators"
)

// Chooser is what a Speculative-Resume policy decides.
type Chooser interface {
	// EstimateS estimates the total run time (s) of a map's original
	// attempt a at now (tau_est after its start).
	EstimateS(job *speculators.Job, task *speculators.Task, a *speculators.Attempt, now speculators.Time) float64
	// Choose returns r, the number of extra attempts beyond one, for the
	// straggler a, and words for the reason.
	Choose(job *speculators.Job, task *speculators.Task, a *speculators.Attempt, now speculators.Time) (r int, why string)
}

// Config holds the mechanism's times.
type Config struct {
	TauEst, TauKill speculators.Time // ms after the original attempt's start
}

// taskState is what the mechanism remembers of one map.
type taskState struct {
	checked   bool // its original was estimated at tau_est
	resumed   bool
	from      int32 // the straggler's attempt number
	copies    int   // r+1
	killAt    speculators.Time
	kept      bool
	estimated float64
}

// Resumer runs the mechanism for one job.
type Resumer struct {
	cfg   Config
	tasks []taskState
	// Stragglers counts the maps it resumed, Copies the attempts it asked for.
	Stragglers, Copies int
}

// New returns a Resumer; TauKill must not come before TauEst.
func New(cfg Config) (*Resumer, error) {
	if cfg.TauEst <= 0 || cfg.TauKill < cfg.TauEst {
		return nil, fmt.Errorf("tau_est %d ms must be positive and tau_kill %d ms at least tau_est", cfg.TauEst, cfg.TauKill)
	}
	return &Resumer{cfg: cfg}, nil
}

// NewSeconds is New with tau_est and tau_kill in seconds, as SRQuant's and
// LASER's parameters give them, rounded to the millisecond.
func NewSeconds(tauEstS, tauKillS float64) (*Resumer, error) {
	ms := func(s float64) speculators.Time { return speculators.Time(math.Round(s * 1000)) }
	return New(Config{TauEst: ms(tauEstS), TauKill: ms(tauKillS)})
}

// Decide appends the mechanism's decisions at now.
func (r *Resumer) Decide(job *speculators.Job, now speculators.Time, c Chooser, out []speculators.Decision) []speculators.Decision {
	if job.Deadline <= 0 {
		return out
	}
	maps := job.Tasks[speculators.Map]
	if r.tasks == nil {
		r.tasks = make([]taskState, len(maps))
	}
	for i, t := range maps {
		st := &r.tasks[i]
		if t.Done() || t.Dropped {
			continue
		}
		if st.resumed {
			if !st.kept && now >= st.killAt {
				out = r.keepBest(t, st, out)
			}
			continue
		}
		if st.checked {
			continue
		}
		a := original(t)
		if a == nil || now-a.Start < r.cfg.TauEst {
			continue
		}
		st.checked = true
		est := c.EstimateS(job, t, a, now)
		if !(float64(a.Start)+est*1000 > float64(job.Deadline)) {
			continue
		}
		k, why := c.Choose(job, t, a, now)
		k = max(k, 0)
		st.resumed, st.from, st.copies, st.estimated = true, a.ID.N, k+1, est
		st.killAt = a.Start + r.cfg.TauKill
		r.Stragglers++
		r.Copies += k + 1
		var reason string
		if job.Info.Resume {
			reason = fmt.Sprintf("estimated %.0f s > deadline %.0f s at tau_est; r=%d (%s): %d attempts resume from offset %.0f%%",
				est, float64(job.Deadline-a.Start)/1000, k, why, k+1, 100*a.Progress)
		} else {
			reason = fmt.Sprintf("estimated %.0f s > deadline %.0f s at tau_est; r=%d (%s): %d attempts start from zero "+
				"(no resume here: the straggler's %.0f%% is redone, and r was chosen for offset 0)",
				est, float64(job.Deadline-a.Start)/1000, k, why, k+1, 100*a.Progress)
		}
		spec := speculators.Decision{Kind: speculators.Speculate, Task: t.ID, Copies: k + 1, Reason: reason}
		replaced := "straggler replaced by fresh attempts: "
		if job.Info.Resume {
			spec.Resume, spec.From = true, a.ID
			replaced = "straggler replaced by resumed attempts: "
		}
		out = append(out, spec,
			speculators.Decision{Kind: speculators.Kill, Task: t.ID, Attempt: a.ID, Reason: replaced + reason})
	}
	return out
}

// Offset is where the copies of straggler a start, as a fraction of its
// task: its progress where the job's copies resume (JobInfo.Resume), else
// 0. A Chooser weighs R(r) and the cost at this offset.
func Offset(job *speculators.Job, a *speculators.Attempt) float64 {
	if job.Info.Resume {
		return a.Progress
	}
	return 0
}

// original returns the task's only running attempt if it is not a copy.
func original(t *speculators.Task) *speculators.Attempt {
	a := t.OnlyRunning()
	if a == nil || a.Speculative || len(t.Attempts) != 1 {
		return nil
	}
	return a
}

// keepBest kills every resumed attempt but the one with the most progress,
// once all of them have started.
func (r *Resumer) keepBest(t *speculators.Task, st *taskState, out []speculators.Decision) []speculators.Decision {
	started := 0
	var best *speculators.Attempt
	for _, a := range t.Attempts {
		if a.ID.N <= st.from {
			continue
		}
		started++
		if a.Running() && (best == nil || a.Progress > best.Progress) {
			best = a
		}
	}
	if started < st.copies {
		return out
	}
	st.kept = true
	if best == nil {
		return out
	}
	for _, a := range t.Attempts {
		if a.ID.N > st.from && a.Running() && a != best {
			out = append(out, speculators.Decision{Kind: speculators.Kill, Task: t.ID, Attempt: a.ID,
				Reason: fmt.Sprintf("tau_kill: keeping %s (progress %.2f), this one has %.2f", best.ID, best.Progress, a.Progress)})
		}
	}
	return out
}

// Observed lists, for the job's maps, the run times (s) of completed
// original attempts and, as right-censored observations, the elapsed time
// of running originals and the run time of killed ones (a straggler killed
// at tau_est would have taken longer), in task order.
func Observed(job *speculators.Job, now speculators.Time) (done, running []float64) {
	for _, t := range job.Tasks[speculators.Map] {
		for _, a := range t.Attempts {
			if a.Speculative {
				continue
			}
			switch a.State {
			case speculators.StateSucceeded:
				done = append(done, float64(a.Finish-a.Start)/1000)
			case speculators.StateRunning:
				running = append(running, float64(now-a.Start)/1000)
			case speculators.StateKilled:
				running = append(running, float64(a.Finish-a.Start)/1000)
			}
		}
	}
	return done, running
}

// LinearEstimateS is the paper's run-time estimate at tau_est (§V-A):
// t_jvm + (elapsed - t_jvm)/phi seconds, +Inf before any progress.
func LinearEstimateS(a *speculators.Attempt, now speculators.Time, tjvmS float64) float64 {
	elapsed := float64(now-a.Start) / 1000
	if !(a.Progress > 0) {
		return elapsed * 1e6
	}
	return tjvmS + (elapsed-tjvmS)/a.Progress
}

// TauKillMs is tau_kill in ms after an original's start.
func (r *Resumer) TauKillMs() speculators.Time { return r.cfg.TauKill }
