package speculators

// Capacity reports the cluster's containers as the ResourceManager counts
// them at the moment of the call: total in the cluster and free now. ok is
// false when they are not known (no RM configured, or its last answer is
// too old to trust); the caller then keeps its behaviour without them.
//
// It is the live counterpart of the simulator's ClusterView.Slots and
// ClusterView.Idle: serve reads the RM's /ws/v1/cluster/metrics every few
// seconds (yarnclient/rmcapacity) and the bridge puts the reader in every
// live job's JobInfo; policies read it through xulau.LiveView. It must be
// cheap and safe to call from any goroutine.
type Capacity func() (total, free int, ok bool)
