package sim

import (
	"fmt"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/detect"
)

// analyzer is the simulator's stand-in for the centralized fault analyzer
// (cfa/, FARMS §3.1 and the FAS loop of Fig. 7). The simulator does not
// import cfa; this plays its part offline:
//
//   - every AnalyzerConfig.Gather (checked at the Decide tick at or after
//     the due time) it hears from each node: the latest status report of
//     any attempt running there, across all jobs, or, for a node running
//     nothing, the NodeManager probe, which answers unless the node is hung;
//   - a node not heard from for more than one heartbeat interval is in an
//     unresponsive episode, which began when it was last heard;
//   - per detector in use (the run-wide AnalyzerConfig.Detector, plus any
//     a job's policy asks for through its "detector" parameter), once the
//     episode has lasted SuspectFraction of the node's threshold every
//     engine using that detector with work on the node (attempts running
//     there, or completed map outputs stored there) gets NodeSuspected, and
//     NodeFailed once it has lasted longer than the threshold;
//   - when the node is heard again, every engine told NodeSuspected or
//     NodeFailed during the episode gets NodeResumed, and the episode's
//     duration (from last heard before it to the moment the node came
//     back) is recorded into each detector: the feedback of Fig. 7. An
//     episode during which the node crashed or was declared LOST is a
//     failure, not unresponsiveness: the node came back as a restarted
//     NodeManager, and its duration is not recorded.
//
// Episodes shorter than a gather interval may go unnoticed, as they would
// live. The boundaries (open past the gap, suspected at the fraction,
// failed past the threshold) are speculators/detect's, which cfa uses too.
type analyzer struct {
	gather  speculators.Time
	next    speculators.Time
	suspect float64
	cfg     detect.Config
	views   []analyzerView
}

// analyzerView is one detector's verdicts on every node.
type analyzerView struct {
	name     string
	detector detect.Detector
	nodes    []viewNode
}

type viewNode struct {
	detect.Verdict         // what this view declared in the node's current episode
	told           []int32 // jobs told during the current episode
}

func newAnalyzer(c *AnalyzerConfig, nodes int) (*analyzer, error) {
	an := &analyzer{gather: durMs(c.Gather), suspect: c.SuspectFraction, cfg: c.Detect}
	if _, err := an.view(c.Detector, nodes); err != nil {
		return nil, err
	}
	return an, nil
}

// view returns the index of the view for detector name ("" = the run-wide
// one), adding it on first use.
func (an *analyzer) view(name string, nodes int) (int, error) {
	if name == "" {
		return 0, nil
	}
	for k := range an.views {
		if an.views[k].name == name {
			return k, nil
		}
	}
	d, err := detect.New(name, an.cfg)
	if err != nil {
		return 0, fmt.Errorf("sim: fault analyzer: %w", err)
	}
	an.views = append(an.views, analyzerView{name: name, detector: d, nodes: make([]viewNode, nodes)})
	return len(an.views) - 1, nil
}

// attachJob picks the analyzer view for a newly submitted job.
func (s *sim) attachJob(j *jobState) error {
	an := s.faults.an
	if an == nil {
		return nil
	}
	v, err := an.view(j.engine.Params.String("detector"), len(s.nodes))
	if err != nil {
		return fmt.Errorf("job %s: %w", j.spec.ID, err)
	}
	j.fault.view = v
	return nil
}

// gather is one round of the analyzer over every node.
func (s *sim) gather() error {
	an := s.faults.an
	for i := range s.nodes {
		ni := int32(i)
		n := &s.nodes[i]
		f := &n.fault
		heard := f.lastHeard
		for _, ai := range n.running {
			heard = max(heard, s.attempts[ai].lastReport)
		}
		if !n.hung && len(n.running) == 0 {
			heard = s.now // the NodeManager probe answers
		}
		f.lastHeard = heard
		silent := s.now - heard
		if f.episodeFrom == none {
			if detect.Unresponsive(silent, s.heartbeat) {
				f.episodeFrom = heard
			} else {
				continue
			}
		}
		if !detect.Unresponsive(silent, s.heartbeat) {
			if err := s.episodeEnded(ni); err != nil {
				return err
			}
			continue
		}
		for v := range an.views {
			view := &an.views[v]
			vn := &view.nodes[i]
			suspect, fail := vn.Judge(silent, view.detector.Threshold(n.id), an.suspect)
			if suspect {
				vn.Suspected = true
				if err := s.tellJobs(v, ni, speculators.NodeSuspected); err != nil {
					return err
				}
			}
			if fail {
				vn.Failed = true
				if err := s.tellJobs(v, ni, speculators.NodeFailed); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// episodeEnded closes node ni's unresponsive episode: engines told about it
// hear NodeResumed, and its duration joins the node's history unless the
// node failed meanwhile.
func (s *sim) episodeEnded(ni int32) error {
	n := &s.nodes[ni]
	f := &n.fault
	from := f.episodeFrom
	f.episodeFrom = none
	back := f.resumedAt
	if back < from {
		back = f.lastHeard
	}
	failed := false
	for _, t := range f.failures {
		failed = failed || t >= from
	}
	an := s.faults.an
	for v := range an.views {
		view := &an.views[v]
		vn := &view.nodes[ni]
		for _, ji := range vn.told {
			j := &s.jobs[ji]
			if j.finished {
				continue
			}
			s.ev = speculators.Event{Kind: speculators.NodeResumed, Time: s.now, Node: n.id}
			if err := s.observe(j); err != nil {
				return err
			}
		}
		vn.Verdict, vn.told = detect.Verdict{}, vn.told[:0]
		if !failed {
			view.detector.Record(n.id, back-from)
		}
	}
	return nil
}

// tellJobs sends kind about node ni to every running job using view v that
// has work on the node.
func (s *sim) tellJobs(v int, ni int32, kind speculators.EventKind) error {
	vn := &s.faults.an.views[v].nodes[ni]
	for _, ji := range s.active {
		j := &s.jobs[ji]
		if j.finished || j.fault.view != v || !s.hasWork(j, ni) {
			continue
		}
		s.ev = speculators.Event{Kind: kind, Time: s.now, Node: s.nodes[ni].id}
		if err := s.observe(j); err != nil {
			return err
		}
		known := false
		for _, x := range vn.told {
			known = known || x == ji
		}
		if !known {
			vn.told = append(vn.told, ji)
		}
	}
	return nil
}

// hasWork reports whether job j has an attempt running on node ni or, if it
// has reduces, a completed map whose output is stored there.
func (s *sim) hasWork(j *jobState, ni int32) bool {
	for _, ai := range s.nodes[ni].running {
		if s.attempts[ai].job == j.index {
			return true
		}
	}
	if len(j.tasks[speculators.Reduce]) == 0 {
		return false
	}
	maps := j.tasks[speculators.Map]
	for ti := range maps {
		if maps[ti].done() && s.attempts[maps[ti].winner].node == ni {
			return true
		}
	}
	return false
}
