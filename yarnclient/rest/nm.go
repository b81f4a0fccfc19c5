package rest

import "context"

// NodeInfo is /ws/v1/node/info.
type NodeInfo struct {
	ID             string `json:"id"`
	Host           string `json:"nodeHostName"`
	Healthy        bool   `json:"nodeHealthy"`
	HealthReport   string `json:"healthReport"`
	LastNodeUpdate int64  `json:"lastNodeUpdateTime"` // epoch ms of the last health check
	StartedAt      int64  `json:"nmStartupTime"`      // epoch ms; changes when the NM restarts
	Version        string `json:"nodeManagerVersion"`
}

// Info returns the node's information.
func (nm *NodeManager) Info(ctx context.Context) (NodeInfo, error) {
	return getObject[NodeInfo](ctx, nm.Client, "/ws/v1/node/info", "nodeInfo")
}
