package cfa

import (
	"slices"

	"github.com/specbridge/specbridge/cfa/analyzer"
)

// NodeView is one node as an operator sees it (the dashboard): its state,
// the detector's current threshold, the open episode and the latest closed
// ones, newest first.
type NodeView struct {
	Node        string             `json:"node"`
	State       string             `json:"state"`
	ThresholdMS int64              `json:"threshold_ms"`
	Open        *analyzer.Episode  `json:"open,omitempty"`
	Recent      []analyzer.Episode `json:"recent"`
	Episodes    int                `json:"episodes"`
	// LastHeard is when this process last heard from the node (0: not
	// since it started; the node is known from the records).
	LastHeard int64 `json:"last_heard,omitempty"`
}

// NodeViews returns every node the analyzer knows, by name, with at most
// recent closed episodes each.
func (s *Service) NodeViews(recent int) []NodeView {
	var out []NodeView
	s.mu.Lock()
	defer s.mu.Unlock()
	st, heard := s.an.State(), s.an.Heard()
	for n, at := range heard {
		if st.Nodes[n] == nil {
			out = append(out, NodeView{Node: string(n), State: "healthy", ThresholdMS: s.an.Threshold(n), LastHeard: at, Recent: []analyzer.Episode{}})
		}
	}
	{
		threshold := s.an.Threshold
		for n, nr := range st.Nodes {
			v := NodeView{Node: string(n), State: NodeState(nr), ThresholdMS: threshold(n), Episodes: len(nr.Episodes), LastHeard: heard[n], Recent: []analyzer.Episode{}}
			if nr.Open != nil {
				o := *nr.Open
				o.Told = nil
				v.Open = &o
			}
			for i := len(nr.Episodes) - 1; i >= 0 && len(v.Recent) < recent; i-- {
				e := nr.Episodes[i]
				e.Told = nil
				v.Recent = append(v.Recent, e)
			}
			out = append(out, v)
		}
	}
	slices.SortFunc(out, func(a, b NodeView) int {
		if a.Node < b.Node {
			return -1
		}
		if a.Node > b.Node {
			return 1
		}
		return 0
	})
	return out
}
