package grass

import (
	"fmt"

	"github.com/specbridge/specbridge/speculators"
)

// boundReached reports whether the job's approximation bound is met at now
// and why, in words: a deadline-bound job at its deadline, an error-bound job
// once ceil((1-epsilon) x maps) input tasks are done (an exact job: all of
// them).
func boundReached(job *speculators.Job, now speculators.Time) (bool, string) {
	maps := len(job.Tasks[speculators.Map])
	if job.Deadline > 0 && now >= job.Deadline {
		return true, fmt.Sprintf("deadline %.1fs passed with %d of %d input tasks done",
			float64(job.Deadline-job.Info.Start)/1000, job.Completed[speculators.Map], maps)
	}
	if need := needed(job); job.Completed[speculators.Map] >= need {
		return true, fmt.Sprintf("error bound %g%% met: %d of %d input tasks done (%d needed)",
			job.ErrorBound*100, job.Completed[speculators.Map], maps, need)
	}
	return false, ""
}

// endApproximation drops the input tasks an approximation job no longer
// needs once its bound is reached: when the deadline passes, or when
// (1-epsilon) of the maps are done. Each unfinished map gets one Drop, ever
// (dropped remembers it; a map whose output is lost after the end is dropped
// then). Reduces are never dropped: they run on the maps' outputs there are
// (§5.2). A job with both bounds ends at whichever comes first. Exact jobs
// (no deadline, error 0) never drop.
func (p *policy) endApproximation(job *speculators.Job, now speculators.Time, out []speculators.Decision) []speculators.Decision {
	if job.Deadline <= 0 && job.ErrorBound <= 0 {
		return out
	}
	if !p.ended {
		ok, why := boundReached(job, now)
		if !ok {
			return out
		}
		p.ended, p.endWhy = true, why
	}
	for i, t := range job.Tasks[speculators.Map] {
		if t.Done() || t.Dropped || p.dropped[i] {
			continue
		}
		p.dropped[i] = true
		out = append(out, speculators.Decision{Kind: speculators.Drop, Task: t.ID,
			Reason: "approximation job: " + p.endWhy + "; this input task is not needed"})
	}
	return out
}
