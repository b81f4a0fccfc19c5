package replay

import (
	"math"
	"slices"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/yarnclient/history"
)

// Node speeds (issue 25): how much slower or faster each recorded
// NodeManager ran the same work, measured from the history itself, so that
// a copy the replay places on a node takes that node's time and not the
// time its task's draw was recorded at.
//
// The measure, and why:
//
//   - A sample is one succeeded attempt's run time over the median run time
//     of its job's succeeded attempts of the same type, for jobs with at
//     least minSpeedPeers of them (with fewer the median says little: a
//     job of two maps has a "median" that is the mean of a straggler and
//     its peer). Succeeded attempts only: a failed or killed attempt's time
//     is cut short. The ratio takes out each job's own task size.
//   - A node's raw factor is the median of its samples and one prior sample
//     of 1, so that a node seen once with a heavy-tailed task (a 40 s
//     straggler among 5 s maps) counts half of it, and a node seen many
//     times is its median: robust to its own stragglers, which a mean is
//     not. A node with no sample has factor 1.
//   - Factors are taken relative to the median node (the median of the raw
//     factors of the nodes with samples), so a typical node is nominal and
//     a job's median is not itself biased by its slow nodes.
//   - A factor within speedTolerance of 1 is 1, and factors are clamped to
//     [1/maxSpeedRatio, maxSpeedRatio]: on a cluster of like nodes the
//     ratios scatter with the tasks, and that scatter is the tasks', not the
//     nodes'. So a history of uniform nodes replays exactly as it did
//     before node speeds (every factor 1).
//
// How the replay uses a factor f of the node an attempt ran on (sim.Task's
// Slowdown, sim.ScriptedAttempt): recorded attempts replay their recorded
// time wherever the simulator places them (that time already holds their
// node's speed, and the simulator does not pin them to it); a task's base
// time is its recorded time over f, and every attempt past the record (a
// copy, a retry: sim.Resample draws a task's base time) runs that base time
// times the factor of the node it lands on. The recorded cluster's nodes
// get their factors as slowdowns; a cluster given by --nodes/--slots is
// nominal. Container allocation (calibrate.go) is in a task's work and is
// scaled with it: the small error of scaling a second or two.
const (
	minSpeedPeers  = 3
	speedTolerance = 0.15
	maxSpeedRatio  = 4.0
)

// speedSamples gathers the samples of one job's attempts into per, by the
// attempt's host and port.
func speedSamples(j *history.Job, per map[hostPort][]float32) {
	var d [2][]int64
	var at [2][]*history.Attempt
	for ti := range j.Tasks {
		t := &j.Tasks[ti]
		k := typeIndex(t.Type)
		for ai := range t.Attempts {
			a := &t.Attempts[ai]
			if a.Status != history.Succeeded || a.Host == "" || a.Start <= 0 || a.Finish <= a.Start {
				continue
			}
			d[k] = append(d[k], a.Finish-a.Start)
			at[k] = append(at[k], a)
		}
	}
	for k := range d {
		if len(d[k]) < minSpeedPeers {
			continue
		}
		m := median(d[k])
		if m <= 0 {
			continue
		}
		for i, a := range at[k] {
			hp := hostPort{a.Host, a.Port}
			per[hp] = append(per[hp], float32(float64(d[k][i])/m))
		}
	}
}

// median is the median of xs (the mean of the middle two for an even
// count), by the project's one percentile; xs is not changed.
func median[T int64 | float32](xs []T) float64 {
	s := make([]float64, len(xs))
	for i, x := range xs {
		s[i] = float64(x)
	}
	return speculators.Percentile(s, 50)
}

// nodeFactors turns each node's samples (by node name) into its factor
// (see the notes above); names without samples are left out (factor 1).
func nodeFactors(samples map[string][]float32) map[string]float64 {
	raw := make(map[string]float64, len(samples))
	var all []float32
	for name, s := range samples {
		if len(s) == 0 {
			continue
		}
		f := median(append(slices.Clone(s), 1))
		raw[name] = f
		all = append(all, float32(f))
	}
	if len(all) == 0 {
		return nil
	}
	typical := median(all)
	out := make(map[string]float64, len(raw))
	for name, f := range raw {
		f /= typical
		if math.Abs(f-1) <= speedTolerance || !(f > 0) {
			continue
		}
		out[name] = min(max(f, 1/maxSpeedRatio), maxSpeedRatio)
	}
	return out
}

// nodeSpeeds are the recorded NodeManagers' factors, by node name as the
// replay's cluster names them (history.Attempt.NodeKey).
type nodeSpeeds struct {
	shared map[string]bool
	factor map[string]float64
}

// of is the factor of the node a ran on, 1 when unknown.
func (n *nodeSpeeds) of(a *history.Attempt) float64 {
	if n == nil || len(n.factor) == 0 || a == nil || a.Host == "" {
		return 1
	}
	if f, ok := n.factor[a.NodeKey(n.shared)]; ok {
		return f
	}
	return 1
}

// speeds measures the nodes' factors from the jobs added to p and extra,
// which take part in the naming of nodes too (a host is split by port when
// any of them ran several NodeManagers on it). p is not changed.
func (p *hostPeaks) speeds(extra []*history.Job) *nodeSpeeds {
	ports, per := p.ports, p.speed
	if len(extra) > 0 {
		ports = p.ports.Clone()
		per = make(map[hostPort][]float32, len(p.speed))
		for k, s := range p.speed {
			per[k] = slices.Clone(s)
		}
		for _, j := range extra {
			ports.Add(j)
			speedSamples(j, per)
		}
	}
	shared := ports.Shared()
	samples := map[string][]float32{}
	for k, s := range per {
		name := (&history.Attempt{Host: k.host, Port: k.port}).NodeKey(shared)
		samples[name] = append(samples[name], s...)
	}
	return &nodeSpeeds{shared: shared, factor: nodeFactors(samples)}
}

// A copy's cost (issue 25): a copy's work is a draw of the job's recorded
// attempts, and its JVM's start-up is in it. Live, a copy starts while the
// job's other attempts run, and where the NodeManagers share CPUs (a mini
// cluster on one machine: every live copy is one more JVM on the same
// cores) it may start slower than the originals did. A history with copies
// shows how much: each attempt's start-up is in its progress splits
// (history.Attempt.Startup). How much depends on how many JVMs start at
// once, so the copies are measured in two kinds:
//
//   - clones: copies started while their original was still starting (its
//     start-up not over; the job's median original start-up when the
//     original records none, as a killed one does), in the burst of containers the job's launch
//     starts: SCA's and Dolly's extra attempts. On the live bench's mini
//     cluster they took 13-27 s to start against 4-12 s for originals.
//     The original of a cloned task started in the same burst and counts
//     with them: there the cloned tasks' originals started up in a median
//     20 s, as slowly as their clones, against 6-8 s for originals started
//     without clones.
//   - later copies: every other copy, started alone once the originals run
//     (LATE's, Hadoop's, FARMS'): 0-7 s there, no slower than originals.
//
// Choice: one pooled figure, as before, was the clones' (they are most of
// the copies), and it made every later copy 15 s slower in replay than live
// (docs/live-bench.md: the straggler job's copy took 18 s live and 42 s in
// replay). Each kind's cost is its median start-up of succeeded maps less
// that of the succeeded original maps started without clones, over the
// replayed jobs and the other histories of the cluster (--node-speeds-from),
// when that kind has at least minCopySamples attempts and there are as many
// such originals; else, and when negative, 0. A start-up of 0 is left out
// as unseen: it says the first twelfth of progress took no longer than a
// typical twelfth, which a JVM start-up of several seconds rules out (the
// splits hid it). About a quarter of the live bench's succeeded original
// maps showed 0; counted, they pulled the originals' median down by 2-4 s
// and every cost up as much. The replay adds a later copy's cost to the work of
// every copy past the record (sim.Job.CopyExtra) and a clone's to every
// clone's (sim.Job.CloneExtra); each reports nothing for it either
// (CopyStartup, CloneStartup). An original that starts with clones pays the
// clones' cost too (sim.Job.WaveOriginals), unless its history shows clones
// of its own (startedWithClones: its recorded times already hold the
// burst). Charging the clones alone, the replay of the live bench's stock
// runs predicted sca 16% short over six rounds; charging the burst's
// originals too, within 10% in each of them. A history of a cluster that speculated on no
// job (a stock run alone) has no copies, and no cost. Only histories whose
// maps record start-ups take part (jhist with progress splits); Rumen and
// SWIM inputs never do.
const minCopySamples = 3

// startups holds start-ups of succeeded maps: [0] originals, [1] later
// copies, [2] clones (see above).
type startups [3][]float32

// Kinds of startups.
const (
	startOriginal = iota
	startCopy
	startClone
)

// add adds j's succeeded maps' start-ups, if j records them.
func (s *startups) add(j *history.Job) {
	// A killed original records no start-up (no progress splits): its
	// task's copies are then measured against the job's median original.
	known := false
	var origs []float32
	for _, t := range j.Tasks {
		for _, a := range t.Attempts {
			if t.Type == history.Map && a.Startup > 0 {
				known = true
				if !a.Speculative {
					origs = append(origs, float32(a.Startup))
				}
			}
		}
	}
	if !known {
		return
	}
	typical := int64(0)
	if len(origs) > 0 {
		typical = int64(median(origs))
	}
	for ti := range j.Tasks {
		t := &j.Tasks[ti]
		if t.Type != history.Map {
			continue
		}
		orig, starting, cloned := launchOf(t, typical)
		for i := range t.Attempts {
			a := &t.Attempts[i]
			if a.Status != history.Succeeded {
				continue
			}
			k := startOriginal
			switch {
			case !a.Speculative && cloned: // started in its clones' burst
				k = startClone
			case !a.Speculative:
			case orig != nil && a.Start-orig.Start < starting:
				k = startClone
			default:
				k = startCopy
			}
			if a.Startup > 0 {
				s[k] = append(s[k], float32(a.Startup))
			}
		}
	}
}

// launchOf is task t's original (its first attempt not recorded as a copy;
// nil when none started), how long the original took to start up (typical,
// the job's median original, when it records none) and whether a copy
// started before that: a clone, started in the same burst of containers.
func launchOf(t *history.Task, typical int64) (orig *history.Attempt, starting int64, cloned bool) {
	for i := range t.Attempts {
		if a := &t.Attempts[i]; !a.Speculative && a.Start > 0 && (orig == nil || a.Start < orig.Start) {
			orig = a
		}
	}
	if orig == nil {
		return nil, typical, false
	}
	starting = typical
	if orig.Startup > 0 {
		starting = orig.Startup
	}
	for i := range t.Attempts {
		if a := &t.Attempts[i]; a.Speculative && a.Start > 0 && a.Start-orig.Start < starting {
			return orig, starting, true
		}
	}
	return orig, starting, false
}

// startedWithClones reports whether some map of j started with clones
// (launchOf): its originals' recorded times then hold their burst's cost.
func startedWithClones(j *history.Job) bool {
	s, _ := mapStartup(j)
	for ti := range j.Tasks {
		if j.Tasks[ti].Type != history.Map {
			continue
		}
		if _, _, cloned := launchOf(&j.Tasks[ti], int64(s)); cloned {
			return true
		}
	}
	return false
}

// copyCosts is what a later copy and a clone cost beyond their draws.
type copyCosts struct{ copy, clone speculators.Time }

// copyCost is the copy costs of the jobs added and extra (see above).
func (s *startups) copyCost(extra []*history.Job) copyCosts {
	all := *s
	if len(extra) > 0 {
		for k := range all {
			all[k] = slices.Clone(s[k])
		}
		for _, j := range extra {
			all.add(j)
		}
	}
	if len(all[startOriginal]) < minCopySamples {
		return copyCosts{}
	}
	cost := func(k int) speculators.Time {
		if len(all[k]) < minCopySamples {
			return 0
		}
		return max(speculators.Time(median(all[k])-median(all[startOriginal])), 0)
	}
	return copyCosts{copy: cost(startCopy), clone: cost(startClone)}
}
