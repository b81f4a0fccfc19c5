package grass

import (
	"math"
	"slices"
	"sort"

	"github.com/specbridge/specbridge/speculators"
)

// curveStep and curvePoints fix the resolution of a Sample's curve: every
// quarter wave up to 16 waves. Jobs with more remaining work than that are
// far from their final two waves (§3.2) and keep RAS.
const (
	curveStep   = 0.25
	curvePoints = 64
)

// learner is GRASS's switch from RAS to GS (§4).
//
// §4.1 leaves the estimator open: "it steps through all possible points in
// its remaining work at which it could switch and estimates the optimal point
// using job samples". Ours: a sample's curve gives, for every amount w of
// final work, what GS (G) or RAS (R) achieved over it (see Sample). Running
// RAS until w work is left and GS after is estimated as RAS's result over the
// first W - w plus GS's over the last w: R(W) - R(w) + G(w). With W the work
// left now, the best switching point maximises G(w) - R(w) (deadline: tasks
// done) or minimises it (error: time taken) over w in [0, W], where w = 0
// means never switching (difference 0). GRASS switches when that point is
// now (w = W) and the difference favours GS, and then stays with GS.
// G and R at w are each the mean over the neighbours nearest in (bound,
// utilisation, estimation accuracy), among the same bucket's samples of the
// same bound kind, whose curves reach w.
//
// Too few samples (fewer than min-samples of either algorithm in the
// bucket, as in every job of a fresh store and in most medium and large
// jobs of a 65-job replay, where xi = 15% yields under one sample of a
// large job a run): §4.1's GRASS then has nothing to compare and, read literally,
// keeps RAS. We apply Guideline 3 (§3.2) to the job as a whole instead:
// "for jobs that require fewer than two waves GS is near-optimal", RAS for
// more. At the job's first check with a wave width (the first Decide with
// an attempt running) the job's whole work is measured in waves: the
// deadline from the job's start in median map lengths, or the input tasks
// it needs over its width. At most gs-waves (1.5) switches to GS for the
// whole job; more keeps RAS. The threshold is 1.5, not 2, because the width
// at the first check is what the job got on arrival, usually more than its
// share once the cluster fills, which undercounts its waves; measured on
// the bundled grass scenarios (200 nodes, 5 seeds, xi 0, no learning),
// 1.5 against 2: time to error bound 69.5 s against 70.3 s, exact jobs
// 95.2 s against 95.7 s, deadline accuracy 0.850 against 0.849. Later
// checks then apply §4's two-wave strawman (switch once the remaining work
// is at most fallback-waves waves), off by default: in the same scenarios
// (xi 0, no learning, strawman alone) switching jobs to GS for their final
// waves lengthened medium jobs' time to error bound, 79.2 s under RAS
// throughout against 79.6 s with the strawman at 0.5 wave, 81.1 s at 1 and
// 83.9 s at 2. Before the job's first completion its median map length is
// the t_new earlier jobs give its largest map (estimate.go), so that a
// one-wave job can switch to GS while its first wave still runs; before
// this, no switch could happen until a map had finished.
//
// Utilisation: an engine sees one job, so "cluster utilisation" is the
// job's share in use, (running attempts + containers it waits for) / Slots,
// capped at 1; a sample records its mean over the job's Decides.
//
// Waves are measured in the job's own wave width, not the cluster's slots:
// §4 notes that "the wave-width of jobs does not stay constant but varies
// considerably depending on cluster utilization", and §6.3.2's strawman
// "uses the current wave-width of the job". A job sharing a cluster runs
// on its share, so dividing by JobInfo.Slots (the whole cluster) takes a
// job with ten waves left on its share for one with two and switches to GS
// far too early. The width is the mean number of attempts the job had
// running over its Decides so far (while it had any), at least 1; before
// any, Slots.
type learner struct {
	cfg          switchConfig
	fixed        bool // perturbed (§4.2): GS or RAS all through; yields a sample
	switched     bool
	lastCheck    speculators.Time
	sampled      bool
	wholeChecked bool

	utilSum    float64
	utilN      int
	maxRunning int
	// widthSum/widthN: running attempts summed over the Decides that had
	// any, for the wave width.
	widthSum float64
	widthN   int

	// big is the index of the job's first map of the largest input, as of
	// bigN maps, and bigBytes its input (priorMap).
	big, bigN int
	bigBytes  int64
	// last is the last full check's inputs and answer (shouldSwitch).
	// It and big are read at every check of a job waiting in the queue
	// (most checks), so they sit beside the sums step adds to, before the
	// state only a check that misses the memo reads.
	last switchMemo

	scratch []float64
	kept    [2]nearestKept // per algorithm, gs and ras (nearest)
	feats   sampleFeatures // the samples' features seen so far (nearest)
}

// switchMemo is what a switch check's answer depends on once the job has
// a map length and work left (shouldSwitch), with the answer.
type switchMemo struct {
	valid            bool
	switched         bool
	whole            bool // Guideline 3 still to judge (widthN > 0, not wholeChecked)
	kind             string
	med              float64 // a deadline job's map length; 1 for an error-bound job
	w                float64
	bound, util, acc float64
	base             *Sample // the bucket's snapshot: its first sample and length
	n                int
}

type neighbour struct {
	dist float64
	s    *Sample
	f    *sampleFeature // its features (nearest)
}

// step runs at every Decide: it tracks utilisation, records the sample of a
// perturbed job once its bound is reached, and checks whether to switch.
func (l *learner) step(p *policy, job *speculators.Job, now speculators.Time) {
	running, needs := 0, 0
	for ty := range job.Tasks {
		running += job.RunningAttempts[ty]
		needs += job.ContainerNeeds[ty]
	}
	l.maxRunning = max(l.maxRunning, running)
	if running > 0 {
		l.widthSum += float64(running)
		l.widthN++
	}
	l.utilSum += math.Min(1, float64(running+needs)/float64(l.slots(job)))
	l.utilN++
	if l.fixed {
		l.maybeRecord(p, job, now)
		return
	}
	if l.switched || len(job.Tasks[speculators.Map]) == 0 {
		return
	}
	if l.lastCheck >= 0 && now-l.lastCheck < l.cfg.checkInterval {
		return
	}
	l.lastCheck = now
	if l.shouldSwitch(p, job, now) {
		l.switched = true
		p.useGS = true
	}
}

func (l *learner) slots(job *speculators.Job) int {
	if job.Info.Slots > 0 {
		return job.Info.Slots
	}
	return max(1, l.maxRunning)
}

// width is the job's wave width (see learner): its mean running attempts.
func (l *learner) width(job *speculators.Job) float64 {
	if l.widthN == 0 {
		return float64(l.slots(job))
	}
	return math.Max(1, l.widthSum/float64(l.widthN))
}

func (l *learner) utilisation(job *speculators.Job) float64 {
	if l.utilN == 0 {
		return 0
	}
	return l.utilSum / float64(l.utilN)
}

// medianMap is the median completed map run time in ms (0 when none).
func (l *learner) medianMap(job *speculators.Job) float64 {
	l.scratch = append(l.scratch[:0], job.CompletedRuntimes[speculators.Map]...)
	return speculators.Percentile(l.scratch, 50)
}

// features are the job's kind and its three factors (§4.1).
func (l *learner) features(p *policy, job *speculators.Job, med float64) (kind string, bound, util, acc float64) {
	kind, bound = KindError, job.ErrorBound
	if job.Deadline > 0 {
		kind = KindDeadline
		waves := math.Ceil(float64(len(job.Tasks[speculators.Map])) / l.width(job))
		if ideal := waves * med; ideal > 0 {
			bound = float64(job.Deadline-job.Info.Start)/ideal - 1
		}
	}
	return kind, bound, l.utilisation(job), p.est.accuracy()
}

// remaining is the work left now in waves: time to the deadline in median
// map lengths, or input tasks still needed over slots.
func (l *learner) remaining(job *speculators.Job, now speculators.Time, med float64) float64 {
	if job.Deadline > 0 {
		return float64(job.Deadline-now) / med
	}
	return float64(needed(job)-job.Completed[speculators.Map]) / l.width(job)
}

// total is the job's whole work in waves, measured as remaining is but from
// the job's start: the deadline in median map lengths, or all the input
// tasks it needs over its wave width.
func (l *learner) total(job *speculators.Job, med float64) float64 {
	if job.Deadline > 0 {
		return float64(job.Deadline-job.Info.Start) / med
	}
	return float64(needed(job)) / l.width(job)
}

// priorMap is t_new in ms of the job's map with the largest input, from
// earlier jobs (0 when there is none).
// The map is found once per map count (tasks' sizes are fixed when the
// job is made): a job waiting for its first completion asks at every
// check. With no map completed (every check of a job waiting in a loaded
// cluster's queue, 99% of grass's checks on xulau/ese), tnew's answer is
// the prior's for the map's input (the estimators' sums, synced at this
// Decide, hold no map), so the prior is asked for it directly: tnew reads
// the task and the estimators, two places in memory a check touches for
// nothing else (8% of grass on xulau/ese, issue 31).
func (l *learner) priorMap(p *policy, job *speculators.Job) float64 {
	maps := job.Tasks[speculators.Map]
	if l.bigN != len(maps) {
		l.bigN, l.big, l.bigBytes = len(maps), 0, 0
		for i, t := range maps {
			if t.InputBytes > maps[l.big].InputBytes {
				l.big = i
			}
		}
		if len(maps) > 0 {
			l.bigBytes = maps[l.big].InputBytes
		}
	}
	if len(maps) == 0 {
		return 0
	}
	if len(job.CompletedRuntimes[speculators.Map]) == 0 {
		if p.est.prior == nil {
			return 0
		}
		ms, _ := p.est.prior.PriorRuntime(speculators.Map, l.bigBytes)
		return ms
	}
	ms, _ := p.est.tnew(maps[l.big])
	return ms
}

func (l *learner) shouldSwitch(p *policy, job *speculators.Job, now speculators.Time) bool {
	med := l.medianMap(job)
	if med <= 0 {
		// No map has finished: measure waves in the t_new that earlier
		// jobs give a map of the job's largest input (estimate.go).
		med = l.priorMap(p, job)
	}
	if med <= 0 {
		return false // no estimate of a map's length: no waves to measure
	}
	if done, _ := boundReached(job, now); done {
		return false
	}
	w := l.remaining(job, now, med)
	if w <= 0 {
		return false
	}
	tasks := len(job.Tasks[speculators.Map]) + len(job.Tasks[speculators.Reduce])
	var samples []Sample
	if p.prior != nil {
		samples = p.prior.Samples(Bucket(tasks, l.cfg.smallMax, l.cfg.mediumMax))
	}
	kind, bound, util, acc := l.features(p, job, med)
	// The rest reads the map length only through the bound and the work
	// left, and an error-bound job's neither; so a check whose inputs are
	// the last check's, bit for bit, over the same snapshot of the bucket
	// gives the last check's answer (a job waiting in the queue checks
	// every second with the same features while the prior's map length
	// moves: 69% of grass's checks on xulau/ese, issue 31).
	m := switchMemo{valid: true, whole: l.widthN > 0 && !l.wholeChecked, kind: kind, med: 1,
		w: w, bound: bound, util: util, acc: acc, n: len(samples)}
	if kind == KindDeadline {
		m.med = med
	}
	if len(samples) > 0 {
		m.base = &samples[0]
	}
	hit := m.same(&l.last) || (!noCarryMemo && l.carriesMemo(&m))
	if testSwitchCheck != nil {
		testSwitchCheck(p, l, job, samples, m, hit)
	}
	if hit {
		return l.last.switched
	}
	m.switched = l.decide(job, samples, kind, bound, util, acc, w, med)
	l.last = m
	return m.switched
}

// testSwitchCheck, when set (tests), sees every switch check that reaches
// the memo, with its inputs and whether they were the last check's.
var testSwitchCheck func(p *policy, l *learner, job *speculators.Job, samples []Sample, m switchMemo, hit bool)

// noCarryMemo makes every check whose utilisation moved since the last
// full check run in full (tests: TestCarriedMemoChangesNothing).
var noCarryMemo bool

// carriesMemo is whether a check with inputs m gives the last full check's
// answer although its utilisation differs: every other input is the last
// check's, bit for bit, over the same snapshot of the bucket, and both
// algorithms' kept selections provably stay the k nearest in the same
// order at the new utilisation (carry's test, without its Hypot: the
// selection unchanged, its distances left where they were), so nearest
// would return the lists decide last read, which reads nothing else of
// them but the samples' curves. A job waiting in the queue meets this at
// most checks: its utilisation is a mean of one value repeated, moved by
// the running sum's rounding (527,000 of grass's checks on xulau/ese
// missed the memo on that alone; issue 31). Nothing is changed: the kept
// selections stay at the features they were made or carried for, which
// carry measures from, and the memo at the last full check.
func (l *learner) carriesMemo(m *switchMemo) bool {
	if !m.sameButUtil(&l.last) {
		return false
	}
	for a := range l.kept {
		k := &l.kept[a]
		if !k.valid || k.gen != l.feats.gen {
			return false
		}
		if _, _, ok := k.holds(m.bound, m.util, m.acc); !ok {
			return false
		}
	}
	return true
}

// same is whether m and o are the same inputs, floats bit for bit.
func (m *switchMemo) same(o *switchMemo) bool {
	return m.sameButUtil(o) && math.Float64bits(m.util) == math.Float64bits(o.util)
}

// sameButUtil is whether m and o are the same inputs but the utilisation
// (carriesMemo), floats bit for bit.
func (m *switchMemo) sameButUtil(o *switchMemo) bool {
	bitsEq := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
	return o.valid && m.whole == o.whole && m.kind == o.kind && m.base == o.base && m.n == o.n &&
		bitsEq(m.med, o.med) && bitsEq(m.w, o.w) && bitsEq(m.bound, o.bound) && bitsEq(m.acc, o.acc)
}

// decide is the switch check proper (shouldSwitch) on the bucket's samples
// and the job's features, its work left w and its map length med.
func (l *learner) decide(job *speculators.Job, samples []Sample, kind string, bound, util, acc, w, med float64) bool {
	gs := l.nearest(samples, kind, AlgoGS, bound, util, acc)
	nGS := len(gs)
	ras := l.nearest(samples, kind, AlgoRAS, bound, util, acc)
	if nGS < l.cfg.minSamples || len(ras) < l.cfg.minSamples {
		// Too few samples: Guideline 3 for the whole job, judged once at
		// its first check with a wave width; then, if set, §4's strawman.
		if l.widthN > 0 && !l.wholeChecked {
			l.wholeChecked = true
			if l.total(job, med) <= l.cfg.gsWaves {
				return true
			}
		}
		return w <= l.cfg.fallbackWaves
	}
	sign := 1.0 // deadline: more tasks done is better
	if kind == KindError {
		sign = -1 // error: less time is better
	}
	now1, ok := diff(gs[:nGS:nGS], ras, w)
	if !ok || sign*now1 <= 0 {
		return false
	}
	for i := 0; i < curvePoints && float64(i+1)*curveStep < w; i++ {
		if d, ok := diff(gs[:nGS:nGS], ras, float64(i+1)*curveStep); ok && sign*d > sign*now1 {
			return false // a later switch looks better
		}
	}
	return true
}

// nearest returns copies of the k samples of kind and algo nearest to the
// features, nearest first, ties in the samples' order (the first k of a
// stable sort by distance); the returned slice is the learner's, kept per
// algorithm until its next call for that algorithm.
//
// The k are selected as the samples are met, into a list kept sorted, with
// no sort of them all: a job checks at every check interval against every
// sample of its bucket, and the store keeps every sample a perturbed job
// gave, so sorting them at each check was 40% of grass's replay of
// xulau/ese (issue 31). A sample is passed over without its distance
// (two calls of math.Hypot, which avoids overflow and is slow) where the
// sum of the squared differences exceeds the k-th distance squared by more
// than rounding can account for: the sum and the squares are each within
// a few units in the last place, as is Hypot, so a margin of 1e-12 leaves
// the sample's distance above the k-th. A square that overflows makes the
// sum +Inf, and rightly (that difference alone is above any finite
// distance); one that underflows only lowers the sum. A NaN difference
// fails the comparison and is computed. A NaN distance orders with nothing
// (the comparison is not a strict weak order), so the selection gives way
// to the stable sort the answer is defined by (nearestSorted).
//
// A check repeats the last one's selection where it can: most checks of a
// job (78% of grass's on xulau/ese-overload) meet the same features as its
// last check (a job waiting in the queue, or one whose utilisation and
// accuracy have settled), and the store has only grown since. The
// selection is a fold over the samples in order, so the kept list of the
// last check, the state after the samples it met, is carried on over the
// samples added since (nearestKept); any other check starts afresh.
func (l *learner) nearest(samples []Sample, kind, algo string, bound, util, acc float64) []neighbour {
	a := 0
	switch algo {
	case AlgoGS:
	case AlgoRAS:
		a = 1
	default:
		return nil
	}
	fs := l.feats.of(samples, kind, algo)
	m := &l.kept[a]
	fresh := !m.valid || m.gen != l.feats.gen || len(fs) < m.n
	if !fresh && (math.Float64bits(m.bound) != math.Float64bits(bound) ||
		math.Float64bits(m.util) != math.Float64bits(util) ||
		math.Float64bits(m.acc) != math.Float64bits(acc)) {
		fresh = !l.carry(m, bound, util, acc)
	}
	if fresh {
		*m = nearestKept{valid: true, gen: l.feats.gen, bound: bound, util: util, acc: acc,
			anchor: [3]float64{bound, util, acc}, lb: math.Inf(1), near: m.near[:0]}
	}
	grew := len(fs) > m.n
	if grew && m.at != [3]float64{bound, util, acc} && m.passOver(fs[m.n:], l.cfg.neighbours, bound, util, acc) {
		m.n = len(fs)
		return m.near
	}
	if grew && m.at != [3]float64{bound, util, acc} && !m.exact(bound, util, acc, math.Inf(1)) {
		// The kept distances are from earlier features, and one is now
		// infinite or NaN: the stable sort.
		m.valid = false
		m.near = l.nearestSorted(m.near[:0], samples, kind, algo, bound, util, acc)
		return m.near
	}
	near, lb, ok := l.selectNearest(m.near, samples, fs[m.n:], bound, util, acc)
	if !ok {
		m.valid = false
		m.near = l.nearestSorted(near[:0], samples, kind, algo, bound, util, acc)
		return m.near
	}
	m.leaveOut(lb)
	m.near, m.n = near, len(fs)
	if fresh || grew {
		m.setAt(bound, util, acc)
	}
	return near
}

// distMargin is a relative margin that covers rounding in a distance
// computed two ways (math.Hypot, or the root of the squares' sum) and in
// the bounds made from it: each is within a few units in the last place.
const distMargin = 1e-12

// nearestKept is one algorithm's selection at a learner's last check: the
// features and the samples' index (gen) it was made for, how many of the
// index's samples it has met, and the k nearest of them (nearest). lb is
// a lower bound on the distance from anchor, the features of the last
// selection made afresh, of every sample met and not kept; moved is an
// upper bound on the distance of the last check's features from the
// anchor. The kept distances are from at, where they were last computed
// (carry leaves them there while the order they give still holds), and
// gap is the least difference of two neighbours' distances there.
type nearestKept struct {
	valid            bool
	gen              int // the index's; a new kind is a new index
	bound, util, acc float64
	n                int
	near             []neighbour
	anchor, at       [3]float64
	lb, moved, gap   float64
}

// carry brings the kept selection to new features when it provably stays
// the k nearest, and says whether it did. A job waiting in the queue
// meets, at most of its checks, features a few units in the last place
// from its last check's (its utilisation is a mean of the same value, and
// the sum's rounding moves it): 1.41 million of grass's 2 million checks
// over new features on xulau/ese, each a scan of every sample. A sample
// not kept was at least lb from the anchor, so it is now at least lb less
// the features' distance from the anchor; while every kept sample is
// nearer than that, with a margin for rounding, the kept ones are the k
// nearest, strictly. Their order (distance, then place) stands too while
// the features moved by less than half the least gap between two kept
// distances, and then their distances are left where they were computed
// (an upper bound on the move, the sum of the differences, costs no
// math.Hypot); else they are computed again and sorted.
func (l *learner) carry(m *nearestKept, bound, util, acc float64) bool {
	moved, lim, ok := m.holds(bound, util, acc)
	if !ok && !m.exact(bound, util, acc, lim) {
		return false
	}
	m.bound, m.util, m.acc, m.moved = bound, util, acc, moved
	return true
}

// holds is carry's test without Hypot: whether the kept selection
// provably stays the k nearest, in the same order, at the features with
// its distances left where they were computed; with the features' move
// from the anchor and lim, the least distance a sample left out may now
// have.
func (m *nearestKept) holds(bound, util, acc float64) (moved, lim float64, ok bool) {
	moved = l1(m.anchor, bound, util, acc)
	lim = m.lb*(1-distMargin) - moved
	if len(m.near) == 0 {
		return moved, lim, true
	}
	delta, kth := l1(m.at, bound, util, acc), m.near[len(m.near)-1].dist
	return moved, lim, (kth+delta)*(1+distMargin) < lim && m.gap > 2*delta+distMargin*kth
}

// l1 is an upper bound on the distance between features a and (bound,
// util, acc): the sum of the differences, with a margin for its rounding.
func l1(a [3]float64, bound, util, acc float64) float64 {
	return (math.Abs(bound-a[0]) + math.Abs(util-a[1]) + math.Abs(acc-a[2])) * (1 + distMargin)
}

// exact computes the kept neighbours' distances at the features and
// sorts them, and says whether each is below lim (with a margin for
// rounding); false leaves them unusable.
func (m *nearestKept) exact(bound, util, acc, lim float64) bool {
	for i := range m.near {
		nb := &m.near[i]
		f := nb.f
		d := math.Hypot(math.Hypot(f.bound-bound, f.util-util), f.acc-acc)
		if !(d*(1+distMargin) < lim) { // a NaN too
			return false
		}
		nb.dist = d
	}
	for i := 1; i < len(m.near); i++ { // insertion sort: the k are few and mostly in order
		for j := i; j > 0 && nearer(&m.near[j], &m.near[j-1]); j-- {
			m.near[j], m.near[j-1] = m.near[j-1], m.near[j]
		}
	}
	m.setAt(bound, util, acc)
	return true
}

// leaveOut notes lb, a lower bound on the distance from the last check's
// features of samples left out, in the bound from the anchor: they are at
// least lb less the features' distance from it (the triangle inequality).
func (m *nearestKept) leaveOut(lb float64) {
	if lb < m.lb {
		m.lb = min(m.lb, lb*(1-distMargin)-m.moved*(1+distMargin))
	}
}

// passOver is whether every sample of fs, met after the kept ones, is
// farther from the features than the kept k-th, whose distance is kept
// from earlier features; then the selection stands as a scan of them
// would leave it, and their bound is noted (leaveOut). The k-th is now at
// most its kept distance plus the move since; a sample whose squares'
// sum is above that squared (with a margin) is farther, as the scan finds
// it. A job waiting in the queue meets each sample a perturbed job adds,
// and carry left its distances where they were: this spares computing
// them again at each.
func (m *nearestKept) passOver(fs []sampleFeature, k int, bound, util, acc float64) bool {
	if len(m.near) < k {
		return false
	}
	kth := (m.near[len(m.near)-1].dist + l1(m.at, bound, util, acc)) * (1 + distMargin)
	minSq := math.Inf(1)
	for fi := range fs {
		f := &fs[fi]
		db, du, da := f.bound-bound, f.util-util, f.acc-acc
		sq := db*db + du*du + da*da
		if !(sq*(1-distMargin) > kth*kth) { // a NaN too
			return false
		}
		minSq = min(minSq, sq)
	}
	m.leaveOut(sqLowerBound(minSq))
	return true
}

// sqLowerBound is a lower bound on the distance of samples whose least
// squares' sum is minSq (+Inf: none, or each overflowed).
func sqLowerBound(minSq float64) float64 {
	switch {
	case minSq == math.Inf(1):
		return math.Sqrt(math.MaxFloat64) * (1 - distMargin)
	case minSq >= 0x1p-1000: // no square lost to underflow counts much
		return math.Sqrt(minSq) * (1 - distMargin)
	}
	return 0
}

// setAt notes that the kept distances are from these features, and the
// least gap between them.
func (m *nearestKept) setAt(bound, util, acc float64) {
	m.at, m.gap = [3]float64{bound, util, acc}, math.Inf(1)
	for i := 1; i < len(m.near); i++ {
		m.gap = min(m.gap, m.near[i].dist-m.near[i-1].dist)
	}
}

// nearer orders neighbours by distance, then by their place among the
// samples (a stable sort's order).
func nearer(a, b *neighbour) bool {
	return a.dist < b.dist || a.dist == b.dist && a.f.i < b.f.i
}

// selectNearest carries near, the k nearest so far (sorted, ties in the
// samples' order), on over fs, later samples, and returns it with a lower
// bound on the distance of every sample of fs or near it leaves out
// (+Inf: none); false on a NaN distance, where the selection gives way to
// the stable sort.
func (l *learner) selectNearest(near []neighbour, samples []Sample, fs []sampleFeature, bound, util, acc float64) ([]neighbour, float64, bool) {
	k := l.cfg.neighbours
	lb, minSq := math.Inf(1), math.Inf(1)
	for fi := range fs {
		f := &fs[fi]
		db, du, da := f.bound-bound, f.util-util, f.acc-acc
		full := len(near) >= k
		if full {
			last := &near[len(near)-1]
			if kth, sq := last.dist, db*db+du*du+da*da; sq > kth*kth*(1+1e-12) {
				minSq = min(minSq, sq)
				continue
			}
			if g := last.f; f.bound == g.bound && f.util == g.util && f.acc == g.acc {
				lb = min(lb, last.dist)
				continue // the k-th's features: a tie, to the earlier
			}
		}
		d := math.Hypot(math.Hypot(db, du), da)
		if d != d {
			return near, lb, false
		}
		if full && !(d < near[len(near)-1].dist) {
			lb = min(lb, d)
			continue // a tie goes to the earlier sample
		}
		// After every kept one at most as far (stable).
		at := sort.Search(len(near), func(j int) bool { return near[j].dist > d })
		if !full {
			near = append(near, neighbour{})
		} else {
			lb = min(lb, near[len(near)-1].dist) // the k-th leaves
		}
		copy(near[at+1:], near[at:len(near)-1])
		near[at] = neighbour{dist: d, s: &samples[f.i], f: f}
	}
	return near, min(lb, sqLowerBound(minSq)), true
}

// sampleFeatures is a learner's copy of the features of the samples of
// one kind it has seen, per algorithm in the samples' order, so that each
// check reads a dense list instead of every sample of the bucket (its
// curve, strings and the other kind's). The prior's samples are kept in
// order and never changed (speculators.Prior), so a later snapshot that
// starts at the same place and is no shorter holds every sample indexed,
// and only the new ones are added; any other snapshot is indexed afresh.
type sampleFeatures struct {
	base *Sample // the first sample of the snapshot indexed
	n    int     // how many of its samples are indexed
	kind string
	algo [2][]sampleFeature // gs, ras
	gen  int                // counts the fresh starts (nearestKept)
}

// sampleFeature is one sample's features and its place in the snapshot.
type sampleFeature struct {
	bound, util, acc float64
	i                int
}

// of returns the features of the samples of kind and algo, in order.
func (f *sampleFeatures) of(samples []Sample, kind, algo string) []sampleFeature {
	if len(samples) == 0 {
		f.base, f.n = nil, 0
		f.gen++
		return nil
	}
	if &samples[0] != f.base || len(samples) < f.n || kind != f.kind {
		f.base, f.n, f.kind = &samples[0], 0, kind
		f.gen++
		f.algo[0], f.algo[1] = f.algo[0][:0], f.algo[1][:0]
	}
	for i := f.n; i < len(samples); i++ {
		s := &samples[i]
		if s.Kind != kind {
			continue
		}
		a := -1
		switch s.Algorithm {
		case AlgoGS:
			a = 0
		case AlgoRAS:
			a = 1
		}
		if a >= 0 {
			f.algo[a] = append(f.algo[a], sampleFeature{bound: s.Bound, util: s.Utilisation, acc: s.Accuracy, i: i})
		}
	}
	f.n = len(samples)
	switch algo {
	case AlgoGS:
		return f.algo[0]
	case AlgoRAS:
		return f.algo[1]
	}
	return nil
}

// nearestSorted is nearest by a stable sort of every sample's distance,
// what nearest's answer is defined by; it appends every sample's
// distance to dst and returns the first k of them.
func (l *learner) nearestSorted(dst []neighbour, samples []Sample, kind, algo string, bound, util, acc float64) []neighbour {
	start := len(dst)
	for i := range samples {
		s := &samples[i]
		if s.Kind != kind || s.Algorithm != algo {
			continue
		}
		d := math.Hypot(math.Hypot(s.Bound-bound, s.Utilisation-util), s.Accuracy-acc)
		dst = append(dst, neighbour{dist: d, s: s})
	}
	out := dst[start:]
	slices.SortStableFunc(out, func(a, b neighbour) int {
		switch {
		case a.dist < b.dist:
			return -1
		case a.dist > b.dist:
			return 1
		}
		return 0
	})
	return out[:min(len(out), l.cfg.neighbours)]
}

// diff is G(w) - R(w), and whether both are known at w.
func diff(gs, ras []neighbour, w float64) (float64, bool) {
	g, okG := meanAt(gs, w)
	r, okR := meanAt(ras, w)
	return g - r, okG && okR
}

// meanAt is the mean over ns of their curves at w, over those that reach it.
func meanAt(ns []neighbour, w float64) (float64, bool) {
	sum, n := 0.0, 0
	for _, nb := range ns {
		if v, ok := curveAt(nb.s, w); ok {
			sum += v
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}

// curveAt interpolates a sample's curve at w (0 at w = 0).
func curveAt(s *Sample, w float64) (float64, bool) {
	x := w / s.CurveStep
	if x > float64(len(s.Curve)) || len(s.Curve) == 0 {
		return 0, false
	}
	i := int(x) // curve[i-1] is at i steps
	lo := 0.0
	if i > 0 {
		lo = s.Curve[i-1]
	}
	if i >= len(s.Curve) {
		return lo, true
	}
	return lo + (x-float64(i))*(s.Curve[i]-lo), true
}

// readsAccuracy reports whether the learner may still read the
// estimators' accuracy (features): at a switch check, until the job has
// switched to GS for good, or in a perturbed job's sample, until it is
// recorded. After that the t_rem estimates Decide records for the score
// (recordTrem) are read by nothing. What recordTrem's censor leaves
// behind (censor's sums and each task's own part) is read only after a
// censor at the same instant (candidates, gammaPartial) or, by
// gammaUpdate, at the instant of the full pass it updates, where each
// task without an event since has the part that pass gave it; so leaving
// the pass out changes no answer (TestQuietMatchesGamma,
// TestGammaUpdateMatchesFresh).
func (l *learner) readsAccuracy() bool {
	return !l.done()
}

// done reports whether the learner will read nothing more: a job switched
// to GS for good (step checks no more), or a perturbed one whose sample is
// recorded (maybeRecord records no more). Only those two read the
// utilisation, the width and the accuracy score; what step keeps after
// this is left unread, so a Decide may be left out (DecideIdle).
func (l *learner) done() bool {
	if l.fixed {
		return l.sampled
	}
	return l.switched
}

// maybeRecord hands out a perturbed job's sample (speculators.Learned) once
// its bound is reached (at a Decide or at the success that reaches it: a job
// may finish, and stop being asked to decide, right then).
func (l *learner) maybeRecord(p *policy, job *speculators.Job, now speculators.Time) {
	if l.sampled || !l.fixed || len(job.Tasks[speculators.Map]) == 0 {
		return
	}
	done, _ := boundReached(job, now)
	allDone := job.Completed[speculators.Map] == len(job.Tasks[speculators.Map])
	if !done && !allDone {
		return
	}
	med := l.medianMap(job)
	if med <= 0 {
		return
	}
	l.sampled = true
	kind, bound, util, acc := l.features(p, job, med)
	tasks := len(job.Tasks[speculators.Map]) + len(job.Tasks[speculators.Reduce])
	s := Sample{Bucket: Bucket(tasks, l.cfg.smallMax, l.cfg.mediumMax), Kind: kind, Algorithm: p.Algorithm(),
		Bound: bound, Utilisation: util, Accuracy: acc, Tasks: tasks, CurveStep: curveStep,
		Curve: l.curve(job, kind, med)}
	p.out.Samples = append(p.out.Samples, s)
}

// curve computes a finished job's Sample.Curve from its maps' finish times.
func (l *learner) curve(job *speculators.Job, kind string, med float64) []float64 {
	l.scratch = l.scratch[:0]
	for _, t := range job.Tasks[speculators.Map] {
		if t.Done() {
			l.scratch = append(l.scratch, float64(t.Finish))
		}
	}
	slices.Sort(l.scratch)
	slots := l.width(job)
	start := float64(job.Info.Start)
	var out []float64
	if kind == KindDeadline {
		end := float64(job.Deadline)
		for i := range curvePoints {
			from := end - float64(i+1)*curveStep*med
			if from < start {
				break
			}
			lo, _ := slices.BinarySearch(l.scratch, from)
			hi, _ := slices.BinarySearch(l.scratch, math.Nextafter(end, math.Inf(1)))
			out = append(out, float64(hi-lo)/slots)
		}
		return out
	}
	need := min(needed(job), len(l.scratch))
	if need == 0 {
		return nil
	}
	end := l.scratch[need-1]
	for i := range curvePoints {
		k := int(math.Round(float64(i+1) * curveStep * slots))
		if k > need {
			break
		}
		from := start
		if k < need && k > 0 {
			from = l.scratch[need-k-1]
		} else if k == 0 {
			from = end
		}
		out = append(out, (end-from)/med)
	}
	return out
}
