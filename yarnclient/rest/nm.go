package rest

import (
	"context"
	"net/http"
	"time"
)

// NodeManager is a client of one NM's REST API (/ws/v1/node).
type NodeManager struct{ Client }

// NewNodeManager returns a client for the NM web address base
// ("http://host:8042", or the RM's nodeHTTPAddress "host:8042").
func NewNodeManager(base string, timeout time.Duration, hc *http.Client) (*NodeManager, error) {
	return newAPI[NodeManager](base, timeout, hc)
}

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
	var out struct {
		NodeInfo NodeInfo `json:"nodeInfo"`
	}
	err := nm.get(ctx, "/ws/v1/node/info", &out)
	return out.NodeInfo, err
}
