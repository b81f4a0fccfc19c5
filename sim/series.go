package sim

import (
	"sort"

	"github.com/specbridge/specbridge/speculators"
)

// RunningSample is the mean number of containers in use over
// [Start, End) of virtual time, split into speculative copies and the rest.
type RunningSample struct {
	Start, End  speculators.Time
	Containers  float64
	Speculative float64
}

// runningSeries integrates every attempt's run time over n equal stretches
// of [0, End]: each sample is a time average, not a point reading, so short
// bursts between two sample times still count.
func (s *sim) runningSeries(n int) []RunningSample {
	end := s.now
	if end <= 0 || n <= 0 {
		return nil
	}
	width := float64(end) / float64(n)
	out := make([]RunningSample, n)
	for i := range out {
		out[i].Start = speculators.Time(float64(i) * width)
		out[i].End = speculators.Time(float64(i+1) * width)
	}
	out[n-1].End = end
	type edge struct {
		t    speculators.Time
		d    int
		spec bool
	}
	edges := make([]edge, 0, 2*s.attempts.len())
	for i := range s.attempts.len() {
		a := s.attempts.at(i)
		stop := a.end
		if a.state == speculators.StateRunning || stop < a.start {
			stop = end
		}
		if stop <= a.start {
			continue
		}
		edges = append(edges, edge{a.start, 1, a.speculative}, edge{stop, -1, a.speculative})
	}
	sort.Slice(edges, func(i, j int) bool { return edges[i].t < edges[j].t })
	var level, spec float64
	prev := speculators.Time(0)
	add := func(from, to speculators.Time) {
		for from < to {
			b := min(int(float64(from)/width), n-1)
			for b < n-1 && from >= out[b].End { // End is rounded down
				b++
			}
			stop := min(to, out[b].End)
			if b == n-1 {
				stop = to
			}
			d := float64(stop - from)
			out[b].Containers += level * d
			out[b].Speculative += spec * d
			from = stop
		}
	}
	for _, e := range edges {
		add(prev, min(e.t, end))
		prev = min(e.t, end)
		if e.spec {
			spec += float64(e.d)
		}
		level += float64(e.d)
	}
	for i := range out {
		if w := float64(out[i].End - out[i].Start); w > 0 {
			out[i].Containers /= w
			out[i].Speculative /= w
		}
	}
	return out
}
