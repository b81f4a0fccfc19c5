package farms

import (
	"fmt"

	"github.com/specbridge/specbridge/speculators"
)

// TWSPolicy registers tws: the FARMS failure layer reduced to what the
// Temporal Window Smoothing detector (§3.3.1) gives alone. When the fault
// analyzer, using TWS, declares a node failed, every task with a stalled
// running attempt there is copied once, all at the first check (no
// multiplicative batches); completed maps are never re-run, neither for a
// failed node nor for fetch failures (Hadoop's own mechanisms handle lost
// outputs); the FAS feedback of Fig. 7 (kill the copies when the node resumes
// early) is kept, because it belongs to the TWS/FAS loop rather than to
// FARMS. Its detector is always tws: the parameter "detector" exists so that
// the fault analyzer finds it the way it finds farms's, and refuses any other
// value; comparing detectors is farms's detector parameter.
func TWSPolicy() speculators.Policy {
	return speculators.Policy{
		Name: TWSName,
		Doc:  "TWS: copy every task of a node declared failed by Temporal Window Smoothing, once, on a straggler policy (FARMS paper §3.3)",
		Params: append(baseParams(), speculators.StringParam(ParamDetector, "tws",
			"failure detector the fault analyzer uses for this job: always tws (Temporal Window Smoothing, §3.3.1 eq. 1); "+
				"declared so the analyzer finds it as it does farms's (compare detectors with farms.detector)")),
		New: NewTWS,
	}
}

// NewTWS builds tws from its parameters.
func NewTWS(params speculators.Params, env speculators.Env) (speculators.Speculator, error) {
	o := options{
		name:     TWSName,
		detector: "tws",
		// A check with no growth: any candidate found is copied; later
		// checks only find tasks whose copy ended without success.
		initialTasks:  0,
		growth:        1,
		checkInterval: 5000,
		retrospective: false,
		keepLead:      params.Float(ParamResumeKeepLead),
	}
	var errs speculators.ParamErrors
	if d := params.String(ParamDetector); d != "tws" {
		errs = append(errs, fmt.Errorf("%s %q: tws uses the tws detector only (farms.%s compares detectors)", ParamDetector, d, ParamDetector))
	}
	return build(o, params, env, errs)
}
