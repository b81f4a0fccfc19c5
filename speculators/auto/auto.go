// Package auto holds auto, a policy that picks, per job and over the job's
// life, which shipped policy's rule to apply, from what it can know live and
// in replay alike. No system in the papers picks for the user; the papers
// themselves switch within their own family (GRASS between GS and RAS by
// learned samples, §4; Xu and Lau between cloning and detection at the
// cutoff load lambda_U, §III and §VI; FARMS adds failure awareness on top of
// a base, §3.2). auto applies those switches across families.
//
// The rule (docs/policies/auto.md has the evidence from the scenarios):
//
//  1. A job with a deadline or an error bound (JobInfo or a JobBounds event)
//     runs the bounded member (default gs: GRASS's GS, which led on every
//     bundled deadline, error-bound and PoCD scenario; grass was within
//     3% but behind on each).
//  2. An exact map-only job whose task times follow an a-priori Pareto law
//     (JobInfo.TailIndex > 1: Xu and Lau's setting) runs the Xu and Lau
//     family. Which member is decided when the job's first task is placed
//     (the simulator's ClusterView; live, the first Decide's
//     xulau.LiveView, which reads the ResourceManager's capacity): the busy
//     fraction of the cluster, 1 - Idle/Slots, stands for the offered load
//     omega (in a stable cluster the busy fraction is the load); below the
//     cutoff load omega_U of the job's tail index (xulau.CutoffOmega) the
//     low-load member clones (default sca), at or above it the high-load
//     member detects (default ese). Choice: the busy fraction, because a
//     policy sees no arrival rate of its own; a job's own lambda is the
//     cluster's, which only the driver knows.
//  3. Every other job runs the exact member (default late). Heterogeneity
//     (a spread of progress rates across nodes) is LATE's own signal: it
//     speculates by estimated time left and never places a copy on a node
//     below its SlowNodeThreshold, and on the bundled scenarios it was at
//     least as fast as hadoop where nodes are alike (choice: no separate
//     detector of heterogeneity switching between hadoop and late, since
//     late lost nothing where hadoop's rule would have been chosen).
//
// Failure awareness is always on: a FARMS layer (farms with base none:
// its node-failure copies, retrospective re-runs and fetch-failure re-runs,
// nothing else) sees every event of every job and its decisions go out
// beside the chosen member's; copies never go to a node the fault analyzer
// reports suspect or down. Without node events the layer only re-runs maps
// whose output a reducer could not fetch.
//
// Every member of the job's family is built when the engine is built
// (ForJob) and sees every event from the start, so that switching to one
// finds its state current; only the chosen member decides. Each decision's
// reason names the member ("auto→late: ..."); Member() names it for the
// driver (the replay report's per-group members, the shim's counter).
package auto

import (
	"fmt"
	"math"
	"strings"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/xulau"
)

// Name is the registry name.
const Name = "auto"

// Parameter names.
const (
	ParamBounded    = "bounded-member"
	ParamExact      = "exact-member"
	ParamLowLoad    = "low-load-member"
	ParamHighLoad   = "high-load-member"
	ParamFailure    = "failure-layer"
	ParamDetector   = "detector"
	ParamMinTail    = "max-tail-index"
	ParamCutoffLoad = "cutoff-load"
)

// Arrow joins auto and the member in reasons: "auto→late".
const Arrow = "→"

// policy is auto before it knows its job: its parameters and what it
// needs to build members.
type policy struct {
	bounded, exact, lowLoad, highLoad string
	failure                           bool
	detector                          string
	maxTail                           float64
	cutoffLoad                        float64
	env                               speculators.Env
	seeds                             [8]uint64
}

// Policy registers auto.
var Policy = speculators.Declare(Name, "auto: per job, the member policy its bounds, task-time law and the cluster's load call for, failure-aware always (GRASS §4, Xu & Lau §III/§VI, FARMS §3.2 as switches)", func(b *speculators.Binder, p *policy) {
	b.String(&p.bounded, ParamBounded, "gs",
		"member for jobs with a deadline or an error bound (GRASS §3-4: gs led on every bundled deadline, error-bound and PoCD scenario)")
	b.String(&p.exact, ParamExact, "late",
		"member for exact jobs outside Xu and Lau's setting (LATE §4: at least as fast as hadoop on every bundled scenario of that kind, far faster with slow nodes)")
	b.String(&p.lowLoad, ParamLowLoad, "sca",
		"member for exact jobs with an a-priori Pareto law when the cluster's busy fraction is below the cutoff load omega_U (Xu & Lau §III, §IV: cloning)")
	b.String(&p.highLoad, ParamHighLoad, "ese",
		"member for the same jobs at or above the cutoff load (Xu & Lau §VI: detection, cloning only small jobs)")
	b.Bool(&p.failure, ParamFailure, true,
		"run the FARMS failure layer (farms with base none) beside the chosen member: copies of a failed node's tasks, re-runs of lost map outputs (FARMS §3.2)")
	b.String(&p.detector, ParamDetector, "tws",
		"failure detector the fault analyzer uses for this job (tws, mean or fixed; FARMS §3.3.1), as farms' detector")
	b.Float(&p.maxTail, ParamMinTail, 4, speculators.In(1, 100, "a tail index"),
		"largest a-priori Pareto tail index alpha (JobInfo.TailIndex) for which the Xu and Lau family is used; a lighter tail is not their heavy-tailed setting (§III: alpha in (1, 4] in the paper's figures)")
	b.Float(&p.cutoffLoad, ParamCutoffLoad, 0, speculators.In(0, 1, "a load"),
		"cutoff busy fraction between the low- and high-load members; 0 computes omega_U from the job's tail index (Xu & Lau §III, Theorem 1, eq. (4))")
	if !b.Ready() {
		return
	}
	p.env = b.Env()
	for i := range p.seeds {
		if p.env.Rand != nil {
			p.seeds[i] = p.env.Rand.Uint64()
		}
	}
	// Build every member once so that a bad name fails at construction,
	// with the parameter named, not at the first job.
	for _, m := range []struct{ param, name string }{{ParamBounded, p.bounded}, {ParamExact, p.exact}, {ParamLowLoad, p.lowLoad}, {ParamHighLoad, p.highLoad}} {
		if m.name == Name {
			b.Fail(fmt.Errorf("%s %q: auto cannot be its own member", m.param, m.name))
			continue
		}
		if _, err := p.build(m.name, nil, 0); err != nil {
			b.Fail(fmt.Errorf("%s: %w", m.param, err))
		}
	}
})

// build builds one member from the registry.
func (p *policy) build(name string, overrides map[string]string, seed uint64) (speculators.Speculator, error) {
	if p.env.Registry == nil {
		return nil, fmt.Errorf("%q: no registry to build it from", name)
	}
	s, _, err := p.env.Registry.NewWith(name, overrides, seed, p.env.Prior)
	return s, err
}

// Decide is never called on the unfitted policy through an engine (ForJob
// replaces it); a driver that calls it directly gets nothing.
func (p *policy) Decide(_ *speculators.Job, _ speculators.Time, out []speculators.Decision) []speculators.Decision {
	return out
}

// Detector names the failure detector for the job (see farms.Detector).
func (p *policy) Detector() string { return p.detector }

// Family is which group of members a job runs.
type Family uint8

const (
	// Exact: the exact member (late by default).
	Exact Family = iota
	// Bounded: the bounded member (gs by default).
	Bounded
	// XuLau: the low- or high-load member (sca or ese by default).
	XuLau
)

func (f Family) String() string { return [...]string{"exact", "bounded", "xu-lau"}[f] }

// FamilyOf is the family the rule puts a job in from what is known before
// it runs.
func FamilyOf(info speculators.JobInfo, maxTail float64) Family {
	switch {
	case info.Deadline > 0 || info.ErrorBound > 0:
		return Bounded
	case info.Reduces == 0 && info.TailIndex > 1 && info.TailIndex <= maxTail:
		return XuLau
	}
	return Exact
}

// ForJob builds the job's members and returns auto fitted to the job: with
// the slot-choosing or job-ordering interfaces when its family's members
// have them.
func (p *policy) ForJob(info speculators.JobInfo) speculators.Speculator {
	fam := FamilyOf(info, p.maxTail)
	a := &fitted{policy: p, family: fam, chosen: -1}
	add := func(name string, seed uint64) {
		for _, m := range a.members {
			if m.name == name {
				return
			}
		}
		s, err := p.build(name, nil, seed)
		if err != nil {
			// The constructor built every member once already; a member that
			// fails now is a bug. Keep going without it.
			return
		}
		a.members = append(a.members, newMember(name, s))
	}
	switch fam {
	case Bounded:
		add(p.bounded, p.seeds[0])
		// A job whose bounds are lifted runs the exact member.
		add(p.exact, p.seeds[1])
		a.choose(0, "the job has a deadline or an error bound")
	case XuLau:
		add(p.lowLoad, p.seeds[2])
		add(p.highLoad, p.seeds[3])
	default:
		add(p.exact, p.seeds[1])
		// Bounds may come later live (a JobBounds event).
		add(p.bounded, p.seeds[0])
		a.choose(0, "an exact job outside Xu and Lau's setting")
	}
	if p.failure {
		if s, err := p.build("farms", map[string]string{"base": "none", "detector": p.detector}, p.seeds[4]); err == nil {
			l := newMember("farms", s)
			a.layer = &l
		}
	}
	switch {
	case a.anyChooser():
		return &pullFitted{fitted: a}
	case a.anyPrioritizer() || a.anyCloner():
		return &xlFitted{fitted: a}
	}
	return a
}

// member is one policy auto may apply, with its optional interfaces.
type member struct {
	name    string
	s       speculators.Speculator
	obs     speculators.Observer
	gate    speculators.NodeGate
	chooser speculators.SlotChooser
	prio    speculators.JobPrioritizer
	cloner  speculators.Cloner
	teacher speculators.Teacher
	prefix  string
}

func newMember(name string, s speculators.Speculator) member {
	m := member{name: name, s: s, prefix: Name + Arrow + name + ": "}
	m.obs, _ = s.(speculators.Observer)
	m.gate, _ = s.(speculators.NodeGate)
	m.chooser, _ = s.(speculators.SlotChooser)
	m.prio, _ = s.(speculators.JobPrioritizer)
	m.cloner, _ = s.(speculators.Cloner)
	m.teacher, _ = s.(speculators.Teacher)
	return m
}

// fitted is auto for one job.
type fitted struct {
	*policy
	family  Family
	members []member
	layer   *member
	chosen  int
	why     string
	// switches counts member changes after the first choice.
	switches int
	offered  bool
}

// Member names the member whose decisions go out now ("" before the first
// choice).
func (a *fitted) Member() string {
	if a.chosen < 0 {
		return ""
	}
	return a.members[a.chosen].name
}

// Why says why the member was chosen.
func (a *fitted) Why() string { return a.why }

// Family is the job's family.
func (a *fitted) Family() Family { return a.family }

func (a *fitted) choose(i int, why string) {
	if a.chosen >= 0 && a.chosen != i {
		a.switches++
	}
	a.chosen, a.why = i, why
}

func (a *fitted) index(name string) int {
	for i, m := range a.members {
		if m.name == name {
			return i
		}
	}
	return -1
}

func (a *fitted) anyChooser() bool {
	for _, m := range a.members {
		if m.chooser != nil {
			return true
		}
	}
	return false
}

func (a *fitted) anyPrioritizer() bool {
	for _, m := range a.members {
		if m.prio != nil {
			return true
		}
	}
	return false
}

func (a *fitted) anyCloner() bool {
	for _, m := range a.members {
		if m.cloner != nil {
			return true
		}
	}
	return false
}

// Observe lets every member, and the failure layer, see the event; a
// JobBounds event that sets bounds moves an exact job to the bounded
// member.
func (a *fitted) Observe(job *speculators.Job, ev *speculators.Event) {
	for i := range a.members {
		if o := a.members[i].obs; o != nil {
			o.Observe(job, ev)
		}
	}
	if a.layer != nil && a.layer.obs != nil {
		a.layer.obs.Observe(job, ev)
	}
	if ev.Kind == speculators.JobBounds && a.family == Exact && (job.Deadline > 0 || job.ErrorBound > 0) {
		if i := a.index(a.bounded); i >= 0 {
			a.choose(i, "the job was given a deadline or an error bound")
		}
	}
}

// chooseByLoad picks the Xu and Lau member from the cluster's busy
// fraction against the cutoff load.
func (a *fitted) chooseByLoad(job *speculators.Job, view speculators.ClusterView) {
	if a.chosen >= 0 || a.family != XuLau {
		return
	}
	busy := 0.0
	if view.Slots > 0 {
		busy = 1 - float64(view.Idle)/float64(view.Slots)
	}
	busy = math.Max(0, math.Min(1, busy))
	cut := a.cutoffLoad
	if cut == 0 {
		cut = xulau.CutoffOmega(job.Info.TailIndex)
	}
	if busy < cut {
		a.choose(a.index(a.lowLoad), fmt.Sprintf("busy fraction %.2f below the cutoff load %.2f (tail index %.2f)", busy, cut, job.Info.TailIndex))
	} else {
		a.choose(a.index(a.highLoad), fmt.Sprintf("busy fraction %.2f at or above the cutoff load %.2f (tail index %.2f)", busy, cut, job.Info.TailIndex))
	}
}

// Decide asks the chosen member and the failure layer, naming the member
// in each reason.
func (a *fitted) Decide(job *speculators.Job, now speculators.Time, out []speculators.Decision) []speculators.Decision {
	if a.chosen < 0 {
		a.chooseByLoad(job, xulau.LiveView(job, 2))
	}
	if a.chosen < 0 {
		return out
	}
	m := &a.members[a.chosen]
	start := len(out)
	out = m.s.Decide(job, now, out)
	for i := start; i < len(out); i++ {
		out[i].Reason, out[i].Why = m.prefix+out[i].ReasonText(), speculators.Why{}
	}
	if a.layer != nil {
		start = len(out)
		out = a.layer.s.Decide(job, now, out)
		for i := start; i < len(out); i++ {
			out[i].Reason, out[i].Why = a.layer.prefix+out[i].ReasonText(), speculators.Why{}
		}
	}
	return out
}

// AllowSpeculativeOn refuses nodes the fault analyzer reports suspect or
// down, then asks the chosen member.
func (a *fitted) AllowSpeculativeOn(job *speculators.Job, node speculators.NodeID, now speculators.Time) bool {
	if n := job.Node(node); n != nil && (n.Health == speculators.NodeSuspect || n.Health == speculators.NodeDown) {
		return false
	}
	if a.chosen >= 0 {
		if g := a.members[a.chosen].gate; g != nil {
			return g.AllowSpeculativeOn(job, node, now)
		}
	}
	return true
}

// TakeLearned hands out what every member learned (GRASS's samples come
// from the bounded member).
func (a *fitted) TakeLearned(l *speculators.Learned) {
	for i := range a.members {
		if t := a.members[i].teacher; t != nil {
			t.TakeLearned(l)
		}
	}
}

// pullFitted is auto for a job whose family has a slot chooser (GRASS).
type pullFitted struct{ *fitted }

// OfferSlots puts every slot-choosing member in pull mode.
func (a *pullFitted) OfferSlots(job *speculators.Job) {
	a.offered = true
	for i := range a.members {
		if c := a.members[i].chooser; c != nil {
			c.OfferSlots(job)
		}
	}
}

// WantsSlot asks the chosen member, if it chooses slots.
func (a *pullFitted) WantsSlot(job *speculators.Job, now speculators.Time) bool {
	if a.chosen < 0 {
		return false
	}
	if c := a.members[a.chosen].chooser; c != nil {
		return c.WantsSlot(job, now)
	}
	return false
}

// ChooseForSlot asks the chosen member, if it chooses slots.
func (a *pullFitted) ChooseForSlot(job *speculators.Job, node speculators.NodeID, now speculators.Time) (speculators.TaskID, bool, bool) {
	if a.chosen < 0 {
		return speculators.TaskID{}, false, false
	}
	if c := a.members[a.chosen].chooser; c != nil {
		return c.ChooseForSlot(job, node, now)
	}
	return speculators.TaskID{}, false, false
}

// xlFitted is auto for a job of the Xu and Lau family: it orders jobs and
// clones at launch as its member does.
type xlFitted struct{ *fitted }

// JobPriority is the chosen member's; before the choice, the high-load
// member's (the order does not clone, so it is the safe one).
func (a *xlFitted) JobPriority(job *speculators.Job, now speculators.Time) speculators.Priority {
	i := a.chosen
	if i < 0 {
		i = a.index(a.highLoad)
	}
	if i >= 0 {
		if p := a.members[i].prio; p != nil {
			return p.JobPriority(job, now)
		}
	}
	return speculators.Priority{Tier: xulau.TierWaiting, Key: math.MaxFloat64}
}

// LaunchCopies chooses the member from the simulator's view of the cluster
// and asks it.
func (a *xlFitted) LaunchCopies(job *speculators.Job, view speculators.ClusterView, now speculators.Time) int {
	a.chooseByLoad(job, view)
	if a.chosen >= 0 {
		if c := a.members[a.chosen].cloner; c != nil {
			return c.LaunchCopies(job, view, now)
		}
	}
	return 1
}

// Members lists the member names of a fitted auto, for tests and reports.
func (a *fitted) Members() string {
	names := make([]string, len(a.members))
	for i, m := range a.members {
		names[i] = m.name
	}
	return strings.Join(names, ",")
}
