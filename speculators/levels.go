package speculators

import "cmp"

// MaxPriorityLevels bounds the levels PriorityLevels is asked to use, live
// and in replay: the ranks are spread over them, and more levels than jobs
// would only add writes to the ResourceManager.
const MaxPriorityLevels = 1000

// PriorityLevels maps job priorities ranked best first (the lowest Tier,
// then the lowest Key, first) onto the levels top down to 1, as YARN
// application priorities take them (the higher number first): rank i of n
// gets top-i when the jobs fit the levels, else the band top-⌊i·top/n⌋, so
// that with more jobs than levels the ranks share levels in equal bands.
// Jobs with equal priorities get the level of the first of them, so that
// the scheduler's submission order breaks the tie, as the simulator's
// submit order does. top < 1 gives nil. The live job order
// (yarnclient/rmorder) and the simulator's model of it (sim.JobOrderYARN)
// both use it, so that a replay orders jobs as the cluster will.
func PriorityLevels(ranked []Priority, top int) []int {
	if top < 1 {
		return nil
	}
	n := len(ranked)
	out := make([]int, n)
	for i := range ranked {
		if i > 0 && ranked[i] == ranked[i-1] {
			out[i] = out[i-1]
			continue
		}
		out[i] = top - i*top/max(n, top)
	}
	return out
}

// ComparePriority orders priorities best first: the lower Tier, then the
// lower Key (for slices.SortFunc).
func ComparePriority(a, b Priority) int {
	if c := cmp.Compare(a.Tier, b.Tier); c != 0 {
		return c
	}
	return cmp.Compare(a.Key, b.Key)
}
