// Package none is the policy that never speculates: the "no speculation"
// baseline LATE §5 compares against.
package none

import "github.com/specbridge/specbridge/speculators"

// Name is the policy's registry name.
const Name = "none"

type policy struct{}

// Policy registers the policy.
var Policy = speculators.Declare(Name, "never speculates (LATE §5's no-speculation baseline)",
	func(*speculators.Binder, *policy) {})

func (policy) Decide(_ *speculators.Job, _ speculators.Time, out []speculators.Decision) []speculators.Decision {
	return out
}

// IgnoresReports: what never speculates reads no status report
// (speculators.ReportBlind), so the simulator may leave them out.
func (policy) IgnoresReports() {}

// NeverReruns: it asks for nothing (speculators.NoReruns).
func (policy) NeverReruns() {}

// NeverDecides: it asks for nothing at all (speculators.Inert), so a driver
// may leave its events out.
func (policy) NeverDecides() {}
