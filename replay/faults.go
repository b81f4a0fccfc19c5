package replay

import (
	"fmt"
	"math"
	"time"

	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/workload/scenario"
)

// faultEpisodes turns a scenario's materialized faults into node episodes
// (faults at a time) and triggers (faults at a job's map progress). A hang
// or crash makes the node hung; a crash also loses the map outputs stored
// on it (sim.Episode.Crash).
func faultEpisodes(s *scenario.Scenario, faults []scenario.Fault, nodes []sim.Node, index map[string]int) ([]sim.Trigger, error) {
	var triggers []sim.Trigger
	for _, f := range faults {
		ep := sim.Episode{Factor: f.Factor, Crash: f.Kind == "crash"}
		if f.Kind == "hang" || f.Kind == "crash" {
			ep.Factor = math.Inf(1)
		}
		i, ok := index[f.Node]
		if !ok && !(f.Node == "" && (f.AtMapProgress != nil || f.AtReduceProgress != nil)) {
			return nil, fmt.Errorf("%s line %d: fault names unknown node %q", s.Source, f.Line, f.Node)
		}
		if f.AtMapProgress != nil || f.AtReduceProgress != nil {
			if f.ForS > 0 {
				ep.End = seconds(f.ForS)
			}
			tr := sim.Trigger{Job: f.Job, Node: f.Node, Episode: ep}
			if f.AtReduceProgress != nil {
				tr.Reduces, tr.ReduceProgress = true, *f.AtReduceProgress
			} else {
				tr.MapProgress = *f.AtMapProgress
			}
			triggers = append(triggers, tr)
			continue
		}
		ep.Start = seconds(f.AtS)
		if f.ForS > 0 {
			ep.End = seconds(f.AtS + f.ForS)
		}
		nodes[i].Episodes = append(nodes[i].Episodes, ep)
	}
	return triggers, nil
}

// applyFaultModel sets the simulator's failure model and placement from the
// scenario's cluster section; what it leaves out keeps the defaults.
func applyFaultModel(c *scenario.Cluster, cfg *sim.Config) {
	cfg.Placement = c.Placement
	f := c.FaultModel
	if f == nil {
		return
	}
	sec := func(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
	fc := &cfg.Faults
	if f.ShuffleReadTimeoutS != nil {
		fc.ShuffleReadTimeout = sec(*f.ShuffleReadTimeoutS)
	}
	if f.MaxFetchFailuresNotifications > 0 {
		fc.MaxFetchFailureNotifications = f.MaxFetchFailuresNotifications
	}
	if f.MaxFetchFailuresFraction != nil {
		fc.MaxFetchFailuresFraction = *f.MaxFetchFailuresFraction
	}
	if f.NMExpiryS != nil {
		fc.NodeExpiry = sec(*f.NMExpiryS)
	}
	fc.ContainerCleanupDelay = sec(f.ContainerCleanupS)
	if f.AnalyzerGatherS != nil {
		fc.Analyzer.Gather = sec(*f.AnalyzerGatherS)
	}
	if f.Detector != "" {
		fc.Analyzer.Detector = f.Detector
	}
	d := &fc.Analyzer.Detect
	if f.DetectorWindow > 0 {
		d.Window = f.DetectorWindow
	}
	if f.DetectorBase > 0 {
		d.Base = f.DetectorBase
	}
	if f.DetectorInitialS > 0 {
		d.Initial = seconds(f.DetectorInitialS)
	}
	if f.DetectorFloorS > 0 {
		d.Floor = seconds(f.DetectorFloorS)
	}
	if f.SuspectFraction > 0 {
		fc.Analyzer.SuspectFraction = f.SuspectFraction
	}
}
