// Package detect holds the failure detectors of the fault analyzer: given the
// durations of a node's past unresponsive episodes, how long may it now be
// unresponsive before it is declared failed. Temporal Window Smoothing (FARMS
// paper §3.3.1, eq. 1) is the one the paper proposes; a fixed threshold and a
// plain mean of recent episodes are the baselines it argues against.
//
// Detectors are pure state: no clock, no I/O. The fault analyzer
// (cfa/analyzer, live and in the simulator) feeds them episodes and reads
// thresholds; the state can be exported and restored so that a restarted
// analyzer carries on.
package detect

import (
	"fmt"
	"math"

	"github.com/specbridge/specbridge/speculators"
)

// Detector gives a node's unresponsiveness threshold from its history.
type Detector interface {
	// Name is "tws", "mean" or "fixed".
	Name() string
	// Threshold is how long node may go without a heartbeat before it is
	// declared failed.
	Threshold(node speculators.NodeID) speculators.Time
	// Record adds a finished unresponsive episode of the node (the node
	// resumed after being silent this long): the FAS feedback of Fig. 7.
	Record(node speculators.NodeID, episode speculators.Time)
	// History returns the node's recorded episodes, oldest first (at most
	// the window); Restore replaces it, for recovery from a store.
	History(node speculators.NodeID) []speculators.Time
	Restore(node speculators.NodeID, episodes []speculators.Time)
}

// Config holds every detector's parameters.
type Config struct {
	// Window is L, the number of recent episodes considered (eq. 1; the
	// paper's example uses 5).
	Window int
	// Base is the weight base b of eq. 1 (the paper uses 2; "a higher base
	// should be set if the next responsiveness is more temporally related to
	// the last few failures").
	Base float64
	// Initial is the threshold of a node with no recorded episode. The paper
	// does not give one; we default to 6 s: two consecutive missed 3 s
	// progress reports (one missed report is routine jitter, two are not),
	// two orders of magnitude below the 600 s task timeout and NM expiry it
	// replaces. A false positive costs copies that the FAS feedback kills
	// when the node resumes, and the node's next threshold then comes from
	// its real episode (eq. 1).
	Initial speculators.Time
	// Floor is the smallest threshold ever returned, so that a node whose
	// past pauses were a few ms is not declared failed by one late
	// heartbeat. Default 3 s (one progress-report interval).
	Floor speculators.Time
}

// DefaultConfig returns L = 5, b = 2, a 6 s initial threshold and a 3 s floor.
func DefaultConfig() Config {
	return Config{Window: 5, Base: 2, Initial: 6_000, Floor: 3_000}
}

func (c Config) validate() error {
	if c.Window < 1 {
		return fmt.Errorf("detector window %d: must be at least 1", c.Window)
	}
	if c.Base <= 0 || math.IsNaN(c.Base) || math.IsInf(c.Base, 0) {
		return fmt.Errorf("detector base %g: must be a positive number", c.Base)
	}
	if c.Initial <= 0 || c.Floor < 0 {
		return fmt.Errorf("detector initial threshold %d ms must be > 0 and floor %d ms >= 0", c.Initial, c.Floor)
	}
	return nil
}

// New builds the detector called name ("tws", "mean" or "fixed").
func New(name string, c Config) (Detector, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	h := history{cfg: c, episodes: map[speculators.NodeID][]speculators.Time{}}
	switch name {
	case "tws":
		return &tws{h}, nil
	case "mean":
		return &mean{h}, nil
	case "fixed":
		return &fixed{h}, nil
	}
	return nil, fmt.Errorf("unknown detector %q (tws, mean or fixed)", name)
}

// history keeps the last Window episodes per node.
type history struct {
	cfg      Config
	episodes map[speculators.NodeID][]speculators.Time
}

func (h *history) Record(node speculators.NodeID, episode speculators.Time) {
	if episode < 0 {
		return
	}
	e := append(h.episodes[node], episode)
	if len(e) > h.cfg.Window {
		e = append(e[:0:0], e[len(e)-h.cfg.Window:]...)
	}
	h.episodes[node] = e
}

func (h *history) History(node speculators.NodeID) []speculators.Time {
	return append([]speculators.Time(nil), h.episodes[node]...)
}

func (h *history) Restore(node speculators.NodeID, episodes []speculators.Time) {
	h.episodes[node] = nil
	for _, e := range episodes {
		h.Record(node, e)
	}
}

// weightedMean is the mean of the node's recorded episodes, the k-th most
// recent (k = 1, 2, ...) weighing weight(k), floored; the initial threshold
// before any episode. It sums the most recent first, as eq. (1) is written;
// with equal weights the sum of whole milliseconds is exact in any order.
func (h *history) weightedMean(node speculators.NodeID, weight func(k int) float64) speculators.Time {
	e := h.episodes[node]
	if len(e) == 0 {
		return h.cfg.Initial
	}
	num, den := 0.0, 0.0
	for k := 1; k <= len(e); k++ {
		w := weight(k)
		num += w * float64(e[len(e)-k])
		den += w
	}
	return h.floor(num / den)
}

func (h *history) floor(t float64) speculators.Time {
	return max(speculators.Time(math.Round(t)), h.cfg.Floor)
}

// tws is Temporal Window Smoothing, eq. (1):
//
//	P(n+1) = sum_{k=1..L} b^(L+1-k) R(n+1-k) / sum_{k=1..L} b^k
//
// the most recent episode R(n) weighs b^L, the oldest in the window b^1. With
// fewer than L episodes recorded we use the m there are, with the same
// weights b^L .. b^(L+1-m), normalised by their sum: eq. (1) is a weighted
// mean (its denominator is the sum of its weights), and dividing by all L
// weights when only m exist would shrink the threshold of a young node
// towards 0, the opposite of caution.
type tws struct{ history }

func (d *tws) Name() string { return "tws" }

func (d *tws) Threshold(node speculators.NodeID) speculators.Time {
	L := d.cfg.Window
	return d.weightedMean(node, func(k int) float64 { return math.Pow(d.cfg.Base, float64(L+1-k)) })
}

// mean is the plain average of the last L episodes, the approach the paper
// sets TWS against ([18] in its §3.3.1).
type mean struct{ history }

func (d *mean) Name() string { return "mean" }

func (d *mean) Threshold(node speculators.NodeID) speculators.Time {
	return d.weightedMean(node, func(int) float64 { return 1 })
}

// fixed always answers the initial threshold, whatever the history.
type fixed struct{ history }

func (d *fixed) Name() string { return "fixed" }

func (d *fixed) Threshold(speculators.NodeID) speculators.Time { return d.cfg.Initial }
