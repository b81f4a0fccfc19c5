package farms

import (
	"fmt"

	"github.com/specbridge/specbridge/speculators"
)

// rerunLostOutputs re-runs the completed maps whose output lived on the
// episode's failed node (§2.2.2, §3.2: "we continue to list the completed
// tasks in the speculation candidates ... that are associated with a failed
// node"), as Rerun decisions naming the succeeded attempt.
//
// Which outputs count as lost. A map's output is its succeeded attempt's map
// output file, on that attempt's node. It matters only while a reduce may
// still fetch it: a map-only job writes its output to HDFS, and once every
// reduce has succeeded nobody reads the file again, so neither case re-runs
// anything. Reduce outputs are in HDFS and are never re-run.
func (p *policy) rerunLostOutputs(job *speculators.Job, e *episode, now speculators.Time, out []speculators.Decision) []speculators.Decision {
	if !outputsNeeded(job) {
		return out
	}
	for _, t := range job.Tasks[speculators.Map] {
		if t.Succeeded == nil || t.Succeeded.Node != e.node || !p.canRerun(t) {
			continue
		}
		out = p.rerunOf(t, out, fmt.Sprintf("output lost with node %s, failed %ds ago", e.node, (now-e.failedAt)/1000))
	}
	return out
}

// rerunFetchFailed re-runs each completed map named by at least
// fetch-failures reports since its success (§3.2: "if a single fetch
// failure is notified by YARN, we speculate that particular completed
// task"): only that map, not the others on its node. The engine counts the
// reports per map (Task.FetchFailures, reset when the map succeeds again);
// Observe queued the maps reports named since the last Decide.
func (p *policy) rerunFetchFailed(job *speculators.Job, out []speculators.Decision) []speculators.Decision {
	for _, id := range p.fetchReported {
		t := job.Task(id)
		if t == nil || t.ID.Type != speculators.Map || t.FetchFailures < p.fetchFailures || !outputsNeeded(job) || !p.canRerun(t) {
			continue
		}
		out = p.rerunOf(t, out, fmt.Sprintf("%d fetch failure(s) reported against its output on %s", t.FetchFailures, t.Succeeded.Node))
	}
	p.fetchReported = p.fetchReported[:0]
	return out
}

// canRerun reports whether t's current output may be declared lost.
//
// §3.2: the re-runs triggered by a failed node and by fetch failures "are
// mutually excluded. When one task is speculated by either way, it will not
// be speculated again by another cause." We key a loss by the succeeded
// attempt whose output is gone: each is re-run at most once, whichever cause
// (or the base policy) came first, and whether or not the AM has yet applied
// the decision. When the re-run's own output is later lost (another node
// fails, or fetches from it fail) that is a new loss, and it is re-run once
// more. The engine's fetch-failure reports name maps, not map attempts, so a
// report that reaches the engine after the re-run succeeded counts against
// the new output.
func (p *policy) canRerun(t *speculators.Task) bool {
	return t.Succeeded != nil && !t.Dropped && p.rerun[t.ID.Index] != t.Succeeded.ID.N+1
}

func (p *policy) rerunOf(t *speculators.Task, out []speculators.Decision, reason string) []speculators.Decision {
	p.rerun[t.ID.Index] = t.Succeeded.ID.N + 1
	return append(out, speculators.Decision{Kind: speculators.Rerun, Task: t.ID, Attempt: t.Succeeded.ID, Reason: reason})
}

// outputsNeeded reports whether some reduce may still fetch map outputs.
func outputsNeeded(job *speculators.Job) bool {
	r := job.TotalTasks(speculators.Reduce)
	return r > 0 && job.Completed[speculators.Reduce] < r
}
