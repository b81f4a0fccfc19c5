package replay

import (
	"maps"
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
//     its peer). The ratio takes out each job's own task size. A failed
//     attempt's time is cut short and says nothing; an attempt killed
//     because its task succeeded elsewhere (a lost race) ran at least its
//     recorded time, and counts as that lower bound (nodeFactors).
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

// speedObs is one attempt's run time (its natural log, of ms) and the
// NodeManager it ran on (an index into speedData.keys), and whether that
// time is a lower bound only (censored: an attempt killed by its task's
// success elsewhere): 12 bytes an attempt.
type speedObs struct {
	node     int32
	logD     float32
	censored bool
}

// speedData holds the speed samples of the jobs added: one group per job
// and task type with at least minSpeedPeers succeeded attempts, each the
// attempts' run times by node.
type speedData struct {
	keys   []hostPort
	ids    map[hostPort]int32
	groups [][]speedObs
}

// add adds j's groups.
func (d *speedData) add(j *history.Job) {
	type sample struct {
		hp       hostPort
		logD     float32
		censored bool
	}
	var by [2][]sample
	var done [2]int
	for ti := range j.Tasks {
		t := &j.Tasks[ti]
		k := typeIndex(t.Type)
		won := false
		for ai := range t.Attempts {
			won = won || t.Attempts[ai].Status == history.Succeeded
		}
		for ai := range t.Attempts {
			a := &t.Attempts[ai]
			lost := won && a.Status == history.Killed
			if a.Status != history.Succeeded && !lost || a.Host == "" || a.Start <= 0 || a.Finish <= a.Start {
				continue
			}
			if !lost {
				done[k]++
			}
			by[k] = append(by[k], sample{hostPort{a.Host, a.Port}, float32(math.Log(float64(a.Finish - a.Start))), lost})
		}
	}
	for k := range by {
		if done[k] < minSpeedPeers {
			continue
		}
		g := make([]speedObs, len(by[k]))
		for i, x := range by[k] {
			id, ok := d.ids[x.hp]
			if !ok {
				if d.ids == nil {
					d.ids = map[hostPort]int32{}
				}
				id = int32(len(d.keys))
				d.ids[x.hp] = id
				d.keys = append(d.keys, x.hp)
			}
			g[i] = speedObs{id, x.logD, x.censored}
		}
		d.groups = append(d.groups, g)
	}
}

// with is d and extra's samples; d is not changed.
func (d *speedData) with(extra []*history.Job) speedData {
	out := speedData{keys: slices.Clip(d.keys), ids: maps.Clone(d.ids), groups: slices.Clip(d.groups)}
	for _, j := range extra {
		out.add(j)
	}
	return out
}

// median is the median of xs (the mean of the middle two for an even
// count), by the project's one percentile; xs is not changed.
func median[T int64 | float32 | float64](xs []T) float64 {
	s := make([]float64, len(xs))
	for i, x := range xs {
		s[i] = float64(x)
	}
	return speculators.Percentile(s, 50)
}

// speedFitRounds is how many times nodeFactors alternates between the
// groups' typical times and the nodes' factors. The medians settle in a
// few rounds; a fixed count keeps the fit deterministic and cheap.
const speedFitRounds = 10

// nodeFactors fits each node's factor (by the name name gives its host and
// port), in rounds rounds, jointly with each group's typical time, from the groups' run times
// (see the notes above): in logs, a run time is its group's typical time
// plus its node's factor plus noise, and the two are fitted in turn by
// medians (Tukey's median polish), each node's with one prior sample of 0
// (factor 1). The first round is the per-job ratio to the job's median; the
// later ones take the nodes' factors out of each job's median first. Names
// without samples are left out (factor 1).
//
// Why jointly (issue 25): the live benchmark's jobs have four maps on a
// cluster a third of whose NodeManagers are 3x slow, so a job often has two
// of its four maps on slow nodes and one straggler, and its median is then
// a slow map's time: the slow maps' ratios came out near 1 and the fast
// ones' near 0.5, and the slow nodes replayed at 1.0-1.3 where the joint fit
// sees them at 2-3 (a fast node seen in many jobs anchors each job's
// typical time).
//
// Lost races (censored samples, since session 18): on a cluster that
// speculates, the attempts a copy beats are the slowest ones, and they are
// killed, so the succeeded attempts of a slow node are its fast draws: the
// live benchmark's slow NodeManagers, whose attempts ran 1.8-2.7x as long,
// fitted at 1.2-1.75x. A lost race's time is a lower bound of the time the
// attempt would have taken. Choice: a job's typical time is fitted from its
// succeeded attempts alone (a straggler's lower bound would raise it and
// lower every node's factor: tried, it found fewer slow nodes), and a node's
// factor counts a lost race where its bound lies above the node's factor of
// the round before (then the attempt ran at least that much slower than
// the fit says) and leaves it out where it does not (it says nothing the fit
// does not; counted at the fit instead, such samples hold the factor where
// it started: tried, it stayed at the survivors' value). Left out or counted
// at its bound, a lost race counts no more than its true time would, so
// the fit may stay short of a node's factor but never passes it on account
// of the bounds. TestNodeSpeedsCensoredByRaces.
func nodeFactors(d *speedData, name func(hostPort) string, rounds int) map[string]float64 {
	// Nodes by name: on a host of one NodeManager its ports are one node.
	idx := map[string]int32{}
	var names []string
	nodeOf := make([]int32, len(d.keys))
	for k, hp := range d.keys {
		n := name(hp)
		i, ok := idx[n]
		if !ok {
			i = int32(len(names))
			idx[n] = i
			names = append(names, n)
		}
		nodeOf[k] = i
	}
	groups := d.groups
	if len(names) == 0 {
		return nil
	}
	nu := make([]float64, len(names))
	mu := make([]float64, len(groups))
	per := make([][]float64, len(names))
	var xs []float64
	for r := range rounds {
		for g, obs := range groups {
			xs = xs[:0]
			for _, o := range obs {
				if !o.censored {
					xs = append(xs, float64(o.logD)-nu[nodeOf[o.node]])
				}
			}
			mu[g] = median(xs)
		}
		for i := range per {
			per[i] = append(per[i][:0], 0) // the prior
		}
		for g, obs := range groups {
			for _, o := range obs {
				i := nodeOf[o.node]
				x := float64(o.logD) - mu[g]
				if o.censored && (r == 0 || x <= nu[i]) {
					continue // no more than the fit says already
				}
				per[i] = append(per[i], x)
			}
		}
		for i := range nu {
			nu[i] = median(per[i])
		}
		typical := median(nu) // relative to the median node
		for i := range nu {
			nu[i] -= typical
		}
	}
	out := make(map[string]float64, len(names))
	for i, n := range names {
		f := math.Exp(nu[i])
		if math.Abs(f-1) <= speedTolerance || !(f > 0) {
			continue
		}
		out[n] = min(max(f, 1/maxSpeedRatio), maxSpeedRatio)
	}
	return out
}

// nodeSpeeds are the recorded NodeManagers' factors, by node name as the
// replay's cluster names them (history.Attempt.NodeKey).
type nodeSpeeds struct {
	shared map[string]bool
	factor map[string]float64
}

// factorOf is the factor of the node named name, 1 when unknown.
func (n *nodeSpeeds) factorOf(name string) float64 {
	if f, ok := n.factor[name]; ok {
		return f
	}
	return 1
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
	ports, d := p.ports, &p.speed
	if len(extra) > 0 {
		ports = p.ports.Clone()
		for _, j := range extra {
			ports.Add(j)
		}
		all := p.speed.with(extra)
		d = &all
	}
	shared := ports.Shared()
	name := func(k hostPort) string { return (&history.Attempt{Host: k.host, Port: k.port}).NodeKey(shared) }
	return &nodeSpeeds{shared: shared, factor: nodeFactors(d, name, speedFitRounds)}
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

// typicalStartup is the median start-up of j's original maps that record
// one, 0 when none does, and whether any map attempt of j records a
// start-up. A killed original records no start-up (no progress splits):
// its task's copies are then measured against this (launchOf).
func typicalStartup(j *history.Job) (int64, bool) {
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
	if len(origs) == 0 {
		return 0, known
	}
	return int64(median(origs)), known
}

// add adds j's succeeded maps' start-ups, if j records them.
func (s *startups) add(j *history.Job) {
	typical, known := typicalStartup(j)
	if !known {
		return
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
// (launchOf, against the start-up the copy cost measures it by,
// typicalStartup): its originals' recorded times then hold their burst's
// cost.
func startedWithClones(j *history.Job) bool {
	s, _ := typicalStartup(j)
	for ti := range j.Tasks {
		if j.Tasks[ti].Type != history.Map {
			continue
		}
		if _, _, cloned := launchOf(&j.Tasks[ti], s); cloned {
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
