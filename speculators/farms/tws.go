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
var TWSPolicy = speculators.Declare(TWSName, "TWS: copy every task of a node declared failed by Temporal Window Smoothing, once, on a straggler policy (FARMS paper §3.3)", func(b *speculators.Binder, p *policy) {
	// A check with no growth: any candidate found is copied; later
	// checks only find tasks whose copy ended without success.
	p.name, p.initialTasks, p.growth, p.checkInterval, p.retrospective = TWSName, 0, 1, 5000, false
	p.bindShared(b)
	b.String(&p.detector, ParamDetector, "tws",
		"failure detector the fault analyzer uses for this job: always tws (Temporal Window Smoothing, §3.3.1 eq. 1); "+
			"declared so the analyzer finds it as it does farms's (compare detectors with farms.detector)")
	if p.detector != "tws" {
		b.Fail(fmt.Errorf("%s %q: tws uses the tws detector only (farms.%s compares detectors)", ParamDetector, p.detector, ParamDetector))
	}
	p.buildBase(b)
})
