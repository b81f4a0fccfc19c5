package replay

import (
	"fmt"

	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/none"
	"github.com/specbridge/specbridge/workload/scenario"
)

// dryRunDeadlines sets the deadline of every job of m whose group has
// deadline_from: dry-run (scenario.DeadlineFromDryRun), and of its
// simulator job w.Jobs[i], from one simulation of the whole workload in
// which every task of a job takes the job's median work (maps and reduces
// each their own median), as GRASS §6.1 calibrates deadlines: "the ideal
// duration of a job ... by substituting the duration of each of its task by
// the median task duration in the job". The dry run keeps what decides a
// job's share of the cluster, which is what makes its ideal duration one
// wave or several: the same nodes, arrivals, scheduler, heartbeats and
// original order. It drops what is not the job's ideal: speculation (every
// job runs the "none" policy), approximation bounds (every job runs to the
// end) and fault episodes. Progress noise does not change run times and is
// dropped too. Each job's ideal duration is its dry-run duration, submit to
// finish; for a map-only job that is its input phase, to which the deadline
// applies. Nothing in the dry run is random beyond cfg.Seed, so deadlines
// are a function of scenario and seed, and the same for every policy.
func dryRunDeadlines(w *Workload, m *scenario.Materialized) error {
	need := false
	for i := range m.Jobs {
		need = need || m.Jobs[i].DeadlineFrom == scenario.DeadlineFromDryRun
	}
	if !need {
		return nil
	}
	cfg := w.Config
	cfg.Triggers = nil
	cfg.Horizon = 0
	jobs := make([]sim.Job, len(w.Jobs))
	for i := range w.Jobs {
		src := &w.Jobs[i]
		j := sim.Job{ID: src.ID, Submit: src.Submit, Order: src.Order, OrderKey: src.OrderKey}
		j.Maps = medianTasks(src.Maps, m.Jobs[i].Maps)
		j.Reduces = medianTasks(src.Reduces, m.Jobs[i].Reduces)
		jobs[i] = j
	}
	res, err := sim.Run(cfg, jobs, noSpeculation)
	if err != nil {
		return fmt.Errorf("dry run for deadline_from %s: %w", scenario.DeadlineFromDryRun, err)
	}
	for i := range m.Jobs {
		j := &m.Jobs[i]
		if j.DeadlineFrom != scenario.DeadlineFromDryRun {
			continue
		}
		d := res.Jobs[i].Duration()
		if d < 0 {
			return fmt.Errorf("dry run for deadline_from %s: job %s did not finish", scenario.DeadlineFromDryRun, j.Name)
		}
		j.SetIdeal(ms(d))
		w.Jobs[i].Deadline = w.Jobs[i].Submit + seconds(j.DeadlineS)
	}
	return nil
}

// medianTasks copies tasks with every task's work set to the median of the
// scenario tasks' work (scenario.MedianWorkS), in ms as FromScenario rounds
// it.
func medianTasks(tasks []sim.Task, from []scenario.Task) []sim.Task {
	if len(tasks) == 0 {
		return nil
	}
	work := max(seconds(scenario.MedianWorkS(from)), 1)
	out := make([]sim.Task, len(tasks))
	for i, t := range tasks {
		out[i] = sim.Task{InputBytes: t.InputBytes, Work: work, Phases: t.Phases}
	}
	return out
}

// noSpeculation builds every job's engine with the "none" policy.
func noSpeculation(info speculators.JobInfo) (*speculators.Engine, error) {
	pol := none.Policy()
	p, err := pol.New(speculators.Params{}, speculators.Env{})
	if err != nil {
		return nil, err
	}
	return speculators.NewEngine(info, pol.Name, p, speculators.Params{})
}
