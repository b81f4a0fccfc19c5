package scenario

import (
	"math/rand/v2"

	"gopkg.in/yaml.v3"
)

// Special values of Fault.Node.
const (
	// NodeRandom draws the node uniformly from the cluster, per run (or
	// per job when the fault names a job group).
	NodeRandom = "random"
	// NodeJobMaps is the node holding most of the job's maps when the
	// fault starts (FARMS §4.2: "crash a node that hosts the MapTasks").
	// A materialized fault leaves Node empty for it.
	NodeJobMaps = "job-maps"
	// NodeJobReduces is the node running most of the job's reduces when
	// the fault starts (a node failing in the reduce phase); it needs
	// at_reduce_progress. A materialized fault leaves Node empty for it.
	NodeJobReduces = "job-reduces"
)

// FaultModel sets the simulator's failure model; every field left out keeps
// the simulator's default (given in brackets), which is Hadoop's.
type FaultModel struct {
	// ShuffleReadTimeoutS is mapreduce.reduce.shuffle.read.timeout [180].
	ShuffleReadTimeoutS *float64 `yaml:"shuffle_read_timeout_s"`
	// MaxFetchFailuresNotifications and MaxFetchFailuresFraction are
	// mapreduce.reduce.shuffle.max-fetch-failures-notifications [3] and
	// -fraction [0.5].
	MaxFetchFailuresNotifications int      `yaml:"max_fetch_failures_notifications"`
	MaxFetchFailuresFraction      *float64 `yaml:"max_fetch_failures_fraction"`
	// NMExpiryS is yarn.nm.liveness-monitor.expiry-interval-ms in seconds
	// [600]; 0 = nodes never expire.
	NMExpiryS *float64 `yaml:"nm_expiry_s"`
	// ContainerCleanupS is how long the AM tries to stop a container on an
	// unreachable node before the job may finish [0].
	ContainerCleanupS float64 `yaml:"container_cleanup_s"`
	// AnalyzerGatherS is how often the fault analyzer gathers
	// node liveness [5]; 0 turns it off.
	AnalyzerGatherS *float64 `yaml:"analyzer_gather_s"`
	// Detector is the run-wide failure detector: tws, mean or fixed [tws].
	Detector string `yaml:"detector"`
	// DetectorWindow (L) [5], DetectorBase (b) [2], DetectorInitialS [10]
	// and DetectorFloorS [3] are the detectors' parameters (speculators/
	// detect).
	DetectorWindow   int     `yaml:"detector_window"`
	DetectorBase     float64 `yaml:"detector_base"`
	DetectorInitialS float64 `yaml:"detector_initial_s"`
	DetectorFloorS   float64 `yaml:"detector_floor_s"`
	// SuspectFraction of a node's threshold makes it suspected [0.5].
	SuspectFraction float64 `yaml:"suspect_fraction"`
	Line            int     `yaml:"-"`
}

// UnmarshalYAML records the line and refuses unknown keys.
func (f *FaultModel) UnmarshalYAML(n *yaml.Node) error {
	return decodeLined(n, (*rawFaultModel)(f), &f.Line)
}

func (c *Cluster) validateFaultModel() error {
	switch c.Placement {
	case "", "spread", "pack":
	default:
		return lineErr(c.Line, "placement %q is not spread or pack", c.Placement)
	}
	f := c.FaultModel
	if f == nil {
		return nil
	}
	for _, p := range []*float64{f.ShuffleReadTimeoutS, f.NMExpiryS, f.AnalyzerGatherS} {
		if p != nil && *p < 0 {
			return lineErr(f.Line, "fault_model timeouts must be >= 0")
		}
	}
	if f.ShuffleReadTimeoutS != nil && *f.ShuffleReadTimeoutS == 0 {
		return lineErr(f.Line, "fault_model shuffle_read_timeout_s must be > 0")
	}
	if f.ContainerCleanupS < 0 || f.MaxFetchFailuresNotifications < 0 || f.DetectorWindow < 0 || f.DetectorBase < 0 ||
		f.DetectorInitialS < 0 || f.DetectorFloorS < 0 {
		return lineErr(f.Line, "fault_model values must be >= 0")
	}
	if p := f.MaxFetchFailuresFraction; p != nil && !(*p >= 0 && *p <= 1) {
		return lineErr(f.Line, "fault_model max_fetch_failures_fraction %g is not in [0,1]", *p)
	}
	if !(f.SuspectFraction >= 0 && f.SuspectFraction <= 1) {
		return lineErr(f.Line, "fault_model suspect_fraction %g is not in [0,1]", f.SuspectFraction)
	}
	switch f.Detector {
	case "", "tws", "mean", "fixed":
	default:
		return lineErr(f.Line, "fault_model detector %q is not tws, mean or fixed", f.Detector)
	}
	return nil
}

// progressPoint checks a progress point a fault starts at, given as a value
// (the key name) or as a distribution (name_dist): at most one of them, the
// value in [0,1], the distribution valid.
func progressPoint(line int, name string, p *float64, d *Dist) error {
	if p != nil && !(*p >= 0 && *p <= 1) {
		return lineErr(line, "%s %g is not in [0,1]", name, *p)
	}
	if d == nil {
		return nil
	}
	if p != nil {
		return lineErr(line, "give %s or %s_dist, not both", name, name)
	}
	return d.validate()
}

func (s *Scenario) validateFault(f *Fault) error {
	switch f.Kind {
	case "slowdown":
		if f.Factor <= 0 || f.Factor > maxSlowdown {
			return lineErr(f.Line, "slowdown fault needs a factor in (0, %g] (a hang fault stops the node)", float64(maxSlowdown))
		}
	case "hang", "crash":
	default:
		return lineErr(f.Line, "fault kind %q is not slowdown, hang or crash", f.Kind)
	}
	if f.AtS < 0 || f.ForS < 0 {
		return lineErr(f.Line, "at_s and for_s must be >= 0")
	}
	if f.ForDist != nil {
		if f.ForS > 0 {
			return lineErr(f.Line, "give for_s or for_dist, not both")
		}
		if err := f.ForDist.validate(); err != nil {
			return err
		}
	}
	if err := progressPoint(f.Line, "at_map_progress", f.AtMapProgress, f.AtMapProgressDist); err != nil {
		return err
	}
	if err := progressPoint(f.Line, "at_reduce_progress", f.AtReduceProgress, f.AtReduceProgressDist); err != nil {
		return err
	}
	atMap := f.AtMapProgress != nil || f.AtMapProgressDist != nil
	atReduce := f.AtReduceProgress != nil || f.AtReduceProgressDist != nil
	if atMap && atReduce {
		return lineErr(f.Line, "give a map progress or a reduce progress point, not both")
	}
	atProgress := atMap || atReduce
	if (f.Job == "") == atProgress {
		return lineErr(f.Line, "job and at_map_progress (or at_reduce_progress, or their _dist forms) go together")
	}
	if f.Job != "" && !s.hasJobOrGroup(f.Job) {
		return lineErr(f.Line, "fault names job %q, which the workload does not have (a job group name or <group>-<NN>)", f.Job)
	}
	if p := f.Probability; p != nil && !(*p >= 0 && *p <= 1) {
		return lineErr(f.Line, "probability %g is not in [0,1]", *p)
	}
	switch {
	case f.Node == NodeRandom:
	case f.Node == NodeJobMaps:
		if !atMap {
			return lineErr(f.Line, "node %s needs job and at_map_progress (or at_map_progress_dist)", NodeJobMaps)
		}
	case f.Node == NodeJobReduces:
		if !atReduce {
			return lineErr(f.Line, "node %s needs job and at_reduce_progress (or at_reduce_progress_dist)", NodeJobReduces)
		}
	case !s.hasNode(f.Node):
		return lineErr(f.Line, "fault names node %q, which the cluster does not have", f.Node)
	}
	if f.Choice != "" {
		sum := 0.0
		for i := range s.Faults {
			if g := &s.Faults[i]; g.Choice == f.Choice && g.Job == f.Job {
				sum += probability(g)
			}
		}
		if sum > 1+1e-9 {
			return lineErr(f.Line, "choice %q: probabilities sum to %g, more than 1", f.Choice, sum)
		}
	}
	return nil
}

func probability(f *Fault) float64 {
	if f.Probability == nil {
		return 1
	}
	return *f.Probability
}

// hasJobOrGroup reports whether name is a job group or one job of a group.
func (s *Scenario) hasJobOrGroup(name string) bool {
	for i := range s.Workload.Jobs {
		g := &s.Workload.Jobs[i]
		if g.Name == name || member(name, g.Name, g.Count) {
			return true
		}
	}
	return false
}

// materializeFaults makes the faults concrete for one seed: a fault naming
// a job group becomes one fault per job of the group, each drawn on its
// own; Probability and Choice decide whether it happens; random nodes,
// for_dist durations and at_map_progress_dist points are drawn. Draws come
// from a stream of their own, so scenarios without such faults materialize
// as before. A concrete fault has
// Job set to a job name (or empty), Node to a node name (or empty for
// NodeJobMaps), ForS and AtMapProgress drawn, and no ForDist,
// AtMapProgressDist, Probability or Choice.
func (s *Scenario) materializeFaults(seed uint64, nodes []Node, jobs []Job) []Fault {
	r := rand.New(rand.NewPCG(seed, 0xfa175))
	type draw struct{ u, cum float64 }
	draws := map[string]*draw{}
	var out []Fault
	for i := range s.Faults {
		f := &s.Faults[i]
		targets := []string{f.Job}
		if f.Job != "" {
			targets = targets[:0]
			for _, j := range jobs {
				if j.Group == f.Job || j.Name == f.Job {
					targets = append(targets, j.Name)
				}
			}
		}
		for _, job := range targets {
			p := probability(f)
			happens := true
			if f.Choice != "" {
				key := f.Choice + "\x00" + job
				d := draws[key]
				if d == nil {
					d = &draw{u: r.Float64()}
					draws[key] = d
				}
				happens = d.u >= d.cum && d.u < d.cum+p
				d.cum += p
			} else if p < 1 {
				happens = r.Float64() < p
			}
			if !happens {
				continue
			}
			c := *f
			c.Job, c.Probability, c.Choice, c.ForDist, c.AtMapProgressDist, c.AtReduceProgressDist = job, nil, "", nil, nil, nil
			switch f.Node {
			case NodeRandom:
				if len(nodes) > 0 {
					c.Node = nodes[r.IntN(len(nodes))].Name
				}
			case NodeJobMaps, NodeJobReduces:
				c.Node = ""
			}
			if f.ForDist != nil {
				// A draw of 0 is no fault at all, not one that lasts forever.
				if c.ForS = f.ForDist.Sample(r); c.ForS <= 0 {
					continue
				}
			}
			if f.AtMapProgressDist != nil {
				p := min(f.AtMapProgressDist.Sample(r), 1)
				c.AtMapProgress = &p
			}
			if f.AtReduceProgressDist != nil {
				p := min(f.AtReduceProgressDist.Sample(r), 1)
				c.AtReduceProgress = &p
			}
			out = append(out, c)
		}
	}
	return out
}
