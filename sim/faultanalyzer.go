package sim

import (
	"fmt"

	"github.com/specbridge/specbridge/cfa/analyzer"
	"github.com/specbridge/specbridge/speculators"
)

// faultAnalyzer drives the centralized fault analyzer of FARMS §3.1 and the
// FAS loop of Fig. 7 — the same pure analyzer (cfa/analyzer) that the live
// service in cfa runs — with the simulator's virtual time:
//
//   - every event an engine observes is fed to it at the moment it happens
//     (attempt starts and ends, and status reports, its heartbeats), as the
//     bridge feeds the live one;
//   - a job's session opens (Attach) when the job is submitted and closes
//     (EndJob, Detach) when it finishes: in a replay every job is alive;
//   - every AnalyzerConfig.Gather (at the Decide tick at or after the due
//     time) it gets one NodeManager probe per node — healthy unless the
//     node is hung, LOST while declared so, and with a new start time after
//     every restart (a crash that ended, a LOST node that came back), as
//     the RM's node list and the NMs' /ws/v1/node/info say live — and runs
//     its gathering round; the round's notices (NodeSuspected, NodeFailed,
//     NodeResumed) go to the engines they name at once.
//
// Choices where live and simulated clusters differ:
//
//   - the gap (how long a node may be unheard before an episode opens) is
//     the heartbeat interval, where cfa's default adds 1 s of slack for the
//     shim's batching and the network, neither of which the simulator has;
//   - a job's policy may ask for its own detector (its "detector"
//     parameter, e.g. farms.detector=mean): each detector in use gets an
//     analyzer of its own (a view) fed every job's events, and a job hears
//     only its view's notices. The live sidecar runs one analyzer with one
//     detector (`specbridge serve --detector`). A view first asked for in
//     mid-run learns the attempts then running as a restarted analyzer
//     does, from restated starts (analyzer.Analyzer.Observe).
type faultAnalyzer struct {
	gather, next speculators.Time
	cfg          analyzer.Config
	views        []analyzerView
	byID         map[string]int32 // job ID -> index, to deliver notices
	probes       []analyzer.NodeProbe
}

// analyzerView is the analyzer for one detector.
type analyzerView struct {
	name string
	an   *analyzer.Analyzer
}

func newFaultAnalyzer(c *AnalyzerConfig, heartbeat speculators.Time, jobs []Job) (*faultAnalyzer, error) {
	cfg := analyzer.DefaultConfig()
	cfg.Detector, cfg.Detect, cfg.SuspectFraction, cfg.Gap = c.Detector, c.Detect, c.SuspectFraction, heartbeat
	// A replay forgets a job at the first gathering round after it ends
	// (cfa keeps it a day, for operators reading its store). Nothing in a
	// run reads an ended job's records: notices go to running jobs only and
	// jobsWithWork skips ended ones. Keeping them for a day held every
	// attempt of a day-long trace in memory, and the analyzer scanned all of
	// them at every round (docs/scale.md).
	cfg.Retention = 1
	fa := &faultAnalyzer{gather: durMs(c.Gather), cfg: cfg, byID: make(map[string]int32, len(jobs))}
	for i := range jobs {
		fa.byID[jobs[i].ID] = int32(i)
	}
	if _, err := fa.view(c.Detector, nil); err != nil {
		return nil, err
	}
	return fa, nil
}

// view returns the index of the view for detector name ("" = the run-wide
// one), adding it on first use at s.now.
func (fa *faultAnalyzer) view(name string, s *sim) (int, error) {
	if name == "" {
		return 0, nil
	}
	for k := range fa.views {
		if fa.views[k].name == name {
			return k, nil
		}
	}
	cfg := fa.cfg
	cfg.Detector = name
	var now speculators.Time
	if s != nil {
		now = s.now
	}
	an, err := analyzer.New(cfg, nil, now)
	if err != nil {
		return 0, fmt.Errorf("sim: fault analyzer: %w", err)
	}
	fa.views = append(fa.views, analyzerView{name: name, an: an})
	if s != nil {
		s.restate(an)
	}
	return len(fa.views) - 1, nil
}

// restate tells an analyzer that joins mid-run of the submitted jobs and
// their running attempts.
func (s *sim) restate(an *analyzer.Analyzer) {
	for _, ji := range s.active {
		j := &s.jobs[ji]
		an.Attach(j.spec.ID, s.now)
	}
	for ai := range s.attempts.len() {
		a := s.attempts.at(ai)
		if a.state != speculators.StateRunning || s.jobs[a.job].finished {
			continue
		}
		ev := speculators.Event{Kind: speculators.AttemptStarted, Time: a.start, Restated: true,
			Attempt: speculators.AttemptID{Task: speculators.TaskID{Type: a.ty, Index: a.task}, N: a.n},
			Node:    s.nodes[a.node].id, Speculative: a.speculative}
		an.Observe(s.jobs[a.job].spec.ID, &ev, s.now)
	}
}

// attachJob opens a newly submitted job's session with the analyzer view
// its policy asks for (and every other view, which hears its heartbeats).
func (s *sim) attachJob(j *jobState) error {
	fa := s.faults.an
	if fa == nil {
		return nil
	}
	v, err := fa.view(j.engine.Params.String("detector"), s)
	if err != nil {
		return fmt.Errorf("job %s: %w", j.spec.ID, err)
	}
	j.fault.view = v
	for k := range fa.views {
		fa.views[k].an.Attach(j.spec.ID, s.now)
	}
	return nil
}

// detachJob ends a finished job's session.
func (s *sim) detachJob(j *jobState) {
	fa := s.faults.an
	if fa == nil {
		return
	}
	for k := range fa.views {
		fa.views[k].an.EndJob(j.spec.ID, s.now)
		fa.views[k].an.Detach(j.spec.ID, s.now, 0)
	}
}

// feedAnalyzer passes the event in s.ev, which job j's engine has just
// observed, to every view: attempt events are the analyzer's input, node
// events its output.
func (s *sim) feedAnalyzer(j *jobState) {
	fa := s.faults.an
	if fa == nil || s.ev.Kind > speculators.AttemptKilled {
		return
	}
	for k := range fa.views {
		fa.views[k].an.Observe(j.spec.ID, &s.ev, s.now)
	}
}

// gather is one gathering round of every view: the NodeManager probes,
// then the round itself, whose notices go to the jobs of the view.
func (s *sim) gather() error {
	fa := s.faults.an
	fa.probes = fa.probes[:0]
	for i := range s.nodes {
		n := &s.nodes[i]
		fa.probes = append(fa.probes, analyzer.NodeProbe{Node: n.id, NM: string(n.id), OK: !n.hung, Lost: n.fault.lost,
			StartedAt: int64(n.fault.restarts) + 1})
	}
	for v := range fa.views {
		an := fa.views[v].an
		an.Probe(s.now, fa.probes)
		for _, nt := range an.Tick(s.now) {
			ji, ok := fa.byID[nt.Job]
			if !ok {
				return fmt.Errorf("sim: fault analyzer: notice for unknown job %q", nt.Job)
			}
			j := &s.jobs[ji]
			if j.finished || j.fault.view != v {
				continue
			}
			s.setEvent(nt.Event)
			if err := s.observe(j); err != nil {
				return err
			}
		}
		if err := an.Err(); err != nil {
			return fmt.Errorf("sim: %w", err)
		}
		an.Drain() // the simulator keeps no store
	}
	return nil
}
