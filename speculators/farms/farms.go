// Package farms holds two failure-aware speculators from the FARMS paper
// ("FARMS: Efficient MapReduce Speculation for Failure Recovery in Short
// Jobs", Fu et al., Parallel Computing 2017, §2, §3.2, §3.3), each wrapped
// around an ordinary straggler policy (default late) whose decisions pass
// through:
//
//   - farms: Failure-Aware, Retrospective and Multiplicative Speculation.
//     When the fault analyzer declares a node failed (NodeFailed), every task
//     with a running attempt there is a candidate at once, however alike the
//     job's tasks look (§2.2.1's converged stragglers); completed maps whose
//     output lived there are re-run, and so is a map a reducer reports it
//     could not fetch (§2.2.2, retrospective); copies are launched 2, then 4,
//     then 8, ... per check while the node stays down and its tasks stall
//     (multiplicative); when the node resumes early its copies that are not
//     ahead of their originals are killed (FAS feedback, §3.3.2, Fig. 7).
//   - tws: the same failure layer with the Temporal Window Smoothing detector
//     used alone: every affected task is copied once when the node is
//     declared failed, with no multiplicative growth and no retrospective
//     re-runs, so a replay can show what each part of FARMS buys.
//
// The policies do not detect failures: the fault analyzer (cfa/analyzer, run
// live by cfa and offline by the simulator) does, with the detector the job asks for
// (Detector, the parameter "detector" of both), and tells the engine with
// NodeSuspected / NodeFailed / NodeResumed events. Without such events farms
// is its base policy plus the fetch-failure re-runs, and tws is its base
// policy: neither has a fallback detector of its own (in decisions-mode replay
// nothing sends node events). They do not choose nodes either; they only
// refuse copies on nodes the analyzer reports suspect or down
// (AllowSpeculativeOn).
//
// Like every policy they must not start goroutines, do I/O, read the wall
// clock, use randomness or depend on Go map iteration order. Where the paper
// is vague the choice and its reason are written beside the code that makes
// it: the candidates and their order (candidates), the check cadence and
// what "stay slow" means (Params, checkEpisode), which outputs count as lost
// (rerunLostOutputs), what counts as the same loss (canRerun), and which
// copies are killed on resume (killOnResume).
package farms

import (
	"fmt"
	"strings"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/detect"
)

// Registry names.
const (
	Name    = "farms"
	TWSName = "tws"
)

// Parameter names.
const (
	ParamBase            = "base"
	ParamBaseParams      = "base-params"
	ParamDetector        = "detector"
	ParamInitialTasks    = "initial-tasks"
	ParamGrowth          = "growth"
	ParamCheckIntervalMs = "check-interval-ms"
	ParamFetchFailures   = "fetch-failures"
	ParamResumeKeepLead  = "resume-keep-lead"
	ParamRerunAfterMs    = "rerun-after-ms"
)

// bindShared declares the parameters farms and tws share: the straggler
// policy underneath and the FAS kill rule.
func (p *policy) bindShared(b *speculators.Binder) {
	b.String(&p.baseName, ParamBase, "late",
		"straggler policy underneath, built from the registry; its decisions pass through (§3.2: FARMS improves the existing speculation, LATE in the paper's §2.1)")
	b.String(&p.baseParams, ParamBaseParams, "",
		"the base policy's parameters as NAME=VALUE,NAME=VALUE (its own defaults otherwise)")
	b.Float(&p.keepLead, ParamResumeKeepLead, 0.1, speculators.In(0, 1, "a progress lead"),
		"FAS feedback (§3.3.2, Fig. 7): when a failed node resumes, a copy launched because of it is killed unless its progress "+
			"leads its still-running original's by more than this (0-1); \"if the node resumed soon, we issue kill to the speculative tasks\"")
}

// Policy registers farms with the paper's defaults.
var Policy = speculators.Declare(Name, "FARMS: failure-aware, retrospective, multiplicative speculation on a straggler policy (FARMS paper §3.2, §3.3)", func(b *speculators.Binder, p *policy) {
	p.name, p.retrospective = Name, true
	p.bindShared(b)
	b.String(&p.detector, ParamDetector, "tws",
		"failure detector the fault analyzer uses for this job: tws (Temporal Window Smoothing, §3.3.1 eq. 1), "+
			"mean (average of recent episodes, the [18] baseline of §3.3.1) or fixed (one threshold); read by the analyzer, not by the policy")
	if _, err := detect.New(p.detector, detect.DefaultConfig()); err != nil {
		b.Fail(fmt.Errorf("%s: %w", ParamDetector, err))
	}
	b.Int(&p.initialTasks, ParamInitialTasks, 2, speculators.Span(1, 1<<20),
		"multiplicative speculation (§3.2): tasks of a failed node copied at the first check (\"we first speculate 2 tasks\")")
	b.Float(&p.growth, ParamGrowth, 2.0, speculators.In(1, 1000, "a factor"),
		"multiplicative speculation (§3.2): factor by which each further check's batch grows (\"another 4 tasks\"; \"increases in exponential order\")")
	b.Int64(&p.checkInterval, ParamCheckIntervalMs, 3000, speculators.NonNegative,
		"ms between multiplicative checks of a failed node's tasks (§3.2 \"we monitor the progress of the problematic tasks\"; "+
			"3 s is one progress-report interval, the soonest a stalled task can be seen to stay stalled; a live task wrongly "+
			"held stalled only grows the batch on a node already declared failed, and its copies are killed on resume)")
	b.Int(&p.fetchFailures, ParamFetchFailures, 1, speculators.Span(0, 1<<20),
		"fetch-failure reports against a completed map that re-run it (§3.2: \"if a single fetch failure is notified by YARN, "+
			"we speculate that particular completed task\"; Hadoop itself waits for 3); 0 disables")
	b.Int64(&p.rerunAfter, ParamRerunAfterMs, 0, speculators.NonNegative,
		"ms a node must have been declared failed before its completed maps are re-run (retrospective, §3.2; checked at each multiplicative check): 0 re-runs them at the first check, as the paper does; "+
			"a longer wait spares the outputs of a node that stops answering for a few seconds and comes back (auto's failure layer waits 40 s on containers, auto.failure-rerun-after-ms). Fetch-failure re-runs never wait")
	p.buildBase(b)
})

// options is what distinguishes farms from tws.
type options struct {
	name     string
	detector string
	// baseName and baseParams name the base policy and its overrides.
	baseName, baseParams string
	// initialTasks is the first batch of a failed node's tasks; 0 means every
	// affected task at once (tws).
	initialTasks  int
	growth        float64
	checkInterval speculators.Time
	// retrospective enables re-runs of completed maps (node failure and
	// fetch failure).
	retrospective bool
	fetchFailures int
	keepLead      float64
	// rerunAfter: a failed node's completed maps are re-run only once it
	// has been down this long (0: at the first check, the paper's).
	rerunAfter speculators.Time
}

// buildBase builds the base policy once every value is in range.
func (p *policy) buildBase(b *speculators.Binder) {
	if !b.Ready() {
		return
	}
	base, err := newBase(p.baseName, p.baseParams, b.Env())
	if err != nil {
		b.Fail(err)
		return
	}
	p.base = base
	p.baseObserver, _ = base.(speculators.Observer)
	p.baseGate, _ = base.(speculators.NodeGate)
	p.baseTeacher, _ = base.(speculators.Teacher)
}

// newBase builds the straggler policy named by the base parameter with the
// overrides of base-params, seeded from the policy's own source so that the
// same seed gives the same base.
func newBase(name, baseParams string, env speculators.Env) (speculators.Speculator, error) {
	if name == Name || name == TWSName {
		return nil, fmt.Errorf("%s %q: a failure layer cannot wrap another", ParamBase, name)
	}
	if env.Registry == nil {
		return nil, fmt.Errorf("%s %q: no registry to build it from", ParamBase, name)
	}
	overrides, err := parseOverrides(baseParams)
	if err != nil {
		return nil, err
	}
	var seed uint64
	if env.Rand != nil {
		seed = env.Rand.Uint64()
	}
	base, _, err := env.Registry.NewWith(name, overrides, seed, env.Prior)
	if err != nil && len(overrides) > 0 {
		return nil, fmt.Errorf("%s %q with %s %q: %w", ParamBase, name, ParamBaseParams, baseParams, err)
	}
	if err != nil {
		return nil, fmt.Errorf("%s %q: %w", ParamBase, name, err)
	}
	return base, nil
}

// parseOverrides reads "NAME=VALUE,NAME=VALUE".
func parseOverrides(s string) (map[string]string, error) {
	out := map[string]string{}
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		k, v, ok := strings.Cut(item, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("%s: %q is not NAME=VALUE", ParamBaseParams, item)
		}
		out[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return out, nil
}

// Detector names the failure detector the fault analyzer should use for this
// job: "tws", "mean" or "fixed" for farms, always "tws" for tws. It is the
// policy's parameter "detector", which the simulator reads as
// engine.Params.String("detector") (empty for policies without one: use the
// run-wide detector) to give the job an analyzer with that detector; the
// live sidecar runs one analyzer with one detector for every job (serve
// --detector). A driver may also ask with a type assertion on Engine.Policy:
//
//	if d, ok := engine.Policy.(interface{ Detector() string }); ok { ... }
func (p *policy) Detector() string { return p.detector }

// AllowSpeculativeOn refuses a copy on a node the fault analyzer reports
// suspect or down (a copy there would stall like the original), and
// otherwise asks the base policy, if it has an opinion.
func (p *policy) AllowSpeculativeOn(job *speculators.Job, node speculators.NodeID, now speculators.Time) bool {
	if n := job.Node(node); n != nil && (n.Health == speculators.NodeSuspect || n.Health == speculators.NodeDown) {
		return false
	}
	if p.baseGate != nil {
		return p.baseGate.AllowSpeculativeOn(job, node, now)
	}
	return true
}

// TakeLearned hands out what the base policy learned (speculators.Teacher):
// the failure layer learns nothing across jobs itself.
func (p *policy) TakeLearned(l *speculators.Learned) {
	if p.baseTeacher != nil {
		p.baseTeacher.TakeLearned(l)
	}
}
