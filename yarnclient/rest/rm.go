package rest

import (
	"context"
	"net/http"
	"net/url"
	"strings"
)

// ClusterInfo is /ws/v1/cluster/info.
type ClusterInfo struct {
	ID            int64  `json:"id"`
	StartedOn     int64  `json:"startedOn"` // epoch ms
	State         string `json:"state"`     // NOTINITED, INITED, STARTED, STOPPED
	HAState       string `json:"haState"`   // ACTIVE, STANDBY, ...
	RMVersion     string `json:"resourceManagerVersion"`
	HadoopVersion string `json:"hadoopVersion"`
}

// ClusterInfo returns the cluster's information.
func (rm *ResourceManager) ClusterInfo(ctx context.Context) (ClusterInfo, error) {
	return getObject[ClusterInfo](ctx, rm.Client, "/ws/v1/cluster/info", "clusterInfo")
}

// Node is one NodeManager as the RM sees it (/ws/v1/cluster/nodes).
type Node struct {
	ID               string `json:"id"` // host:port of the NM's RPC server
	Rack             string `json:"rack"`
	State            string `json:"state"` // NEW, RUNNING, UNHEALTHY, DECOMMISSIONING, DECOMMISSIONED, LOST, REBOOTED, SHUTDOWN
	Host             string `json:"nodeHostName"`
	HTTPAddress      string `json:"nodeHTTPAddress"`  // host:port of the NM's web server
	LastHealthUpdate int64  `json:"lastHealthUpdate"` // epoch ms of the NM's last health report
	HealthReport     string `json:"healthReport"`
	Version          string `json:"version"`
	NumContainers    int    `json:"numContainers"`
	UsedMemoryMB     int64  `json:"usedMemoryMB"`
	AvailMemoryMB    int64  `json:"availMemoryMB"`
	UsedVCores       int    `json:"usedVirtualCores"`
	AvailVCores      int    `json:"availableVirtualCores"`
}

// Usable reports whether the RM would place containers on the node.
func (n Node) Usable() bool { return n.State == "RUNNING" }

// AllNodeStates lists every NodeManager state the RM's node list filters on.
var AllNodeStates = []string{"NEW", "RUNNING", "UNHEALTHY", "DECOMMISSIONING", "DECOMMISSIONED", "LOST", "REBOOTED", "SHUTDOWN"}

// Nodes returns the cluster's nodes in the given states (the RM's default
// selection when none are given; AllNodeStates for every node it knows).
func (rm *ResourceManager) Nodes(ctx context.Context, states ...string) ([]Node, error) {
	p := "/ws/v1/cluster/nodes"
	if len(states) > 0 {
		p += "?states=" + url.QueryEscape(strings.Join(states, ","))
	}
	return getList[Node](ctx, rm.Client, p, "nodes", "node")
}

// ClusterMetrics is /ws/v1/cluster/metrics: the scheduler's view of the
// whole cluster's resources (the fields the capacity watcher uses).
type ClusterMetrics struct {
	AvailableMB     int64 `json:"availableMB"`
	AllocatedMB     int64 `json:"allocatedMB"`
	TotalMB         int64 `json:"totalMB"`
	AvailableVCores int64 `json:"availableVirtualCores"`
	AllocatedVCores int64 `json:"allocatedVirtualCores"`
	TotalVCores     int64 `json:"totalVirtualCores"`
	Allocated       int64 `json:"containersAllocated"`
	Pending         int64 `json:"containersPending"`
	ActiveNodes     int64 `json:"activeNodes"`
}

// ClusterMetrics returns the cluster's resource totals as the RM's
// scheduler counts them.
func (rm *ResourceManager) ClusterMetrics(ctx context.Context) (ClusterMetrics, error) {
	return getObject[ClusterMetrics](ctx, rm.Client, "/ws/v1/cluster/metrics", "clusterMetrics")
}

// appPriority is the body of /ws/v1/cluster/apps/{id}/priority, both ways.
type appPriority struct {
	Priority int `json:"priority"`
}

// appPath is the path of one application's resource under the RM's API.
func appPath(app, sub, user string) string {
	p := "/ws/v1/cluster/apps/" + pathEscape(app) + sub
	if user != "" {
		p += "?user.name=" + url.QueryEscape(user)
	}
	return p
}

// AppPriority returns an application's priority (YARN: the higher number
// first within its queue).
func (rm *ResourceManager) AppPriority(ctx context.Context, app string) (int, error) {
	var out appPriority
	err := rm.get(ctx, appPath(app, "/priority", ""), &out)
	return out.Priority, err
}

// SetAppPriority asks the RM to change an application's priority
// (PUT /ws/v1/cluster/apps/{id}/priority, the client's
// updateApplicationPriority) and returns the priority it now has: the RM
// caps it at yarn.cluster.max-application-priority (and the queue's
// priority ACL), so it may be lower than asked. user, if set, is sent as
// user.name, the caller under simple authentication; the RM allows the
// change to the application's owner and to YARN's admins (with ACLs on) or
// to anyone (yarn.acl.enable false, the default).
func (rm *ResourceManager) SetAppPriority(ctx context.Context, app string, priority int, user string) (int, error) {
	var out appPriority
	err := rm.do(ctx, http.MethodPut, appPath(app, "/priority", user), appPriority{Priority: priority}, &out)
	return out.Priority, err
}
