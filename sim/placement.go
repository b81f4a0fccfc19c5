package sim

// Placement names accepted in Config.Placement.
const (
	// PlacementSpread (the default) places one container per node per
	// sweep of the scheduler, round robin, as YARN spreads allocations over
	// NodeManager heartbeats when many nodes have room.
	PlacementSpread = "spread"
	// PlacementPack fills a node's free containers before moving to the
	// next: YARN's capacity scheduler handing an AM several containers from
	// the one NodeManager that heartbeats, which makes a small job's maps
	// converge on one node (FARMS §2.2.1, "converged task stragglers").
	PlacementPack = "pack"
)
