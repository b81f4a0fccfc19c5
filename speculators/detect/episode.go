package detect

import "github.com/specbridge/specbridge/speculators"

// The episode rule of the fault analyzer (cfa/analyzer, which the live
// sidecar and the simulator both run): a node is judged by how long it has
// been silent, with these boundaries.

// Unresponsive reports whether a node silent this long is in an
// unresponsive episode: silent longer than gap (cfa's Gap; the heartbeat
// interval in the simulator). At or under the gap an open episode ends.
func Unresponsive(silent, gap speculators.Time) bool { return silent > gap }

// Verdict is what has been declared about a node in its current episode.
type Verdict struct{ Suspected, Failed bool }

// Judge returns the declarations due for a node silent this long in an
// open episode, given its threshold: suspected once the silence reaches
// suspectFraction of the threshold, failed once it exceeds the threshold;
// each is due once per episode (v says what was declared already).
func (v Verdict) Judge(silent, threshold speculators.Time, suspectFraction float64) (suspect, fail bool) {
	suspect = !v.Suspected && float64(silent) >= suspectFraction*float64(threshold)
	fail = !v.Failed && silent > threshold
	return suspect, fail
}
