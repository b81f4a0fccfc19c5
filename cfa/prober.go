package cfa

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/specbridge/specbridge/cfa/analyzer"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/yarnclient/rest"
)

// NodeKey says how a node is named, in attempts' events and in probes; the
// shim's specbridge.node-key and the analyzer's must agree.
type NodeKey string

const (
	// NodeKeyHostPort names a node by its NodeManager's id, host:port (the
	// RM node list's "id", YARN's NodeId): right on every cluster, and the
	// only right one where several NMs share a host (a mini cluster,
	// containerised NMs), since one of them can fail alone.
	NodeKeyHostPort NodeKey = "host-port"
	// NodeKeyHost names a node by host: every NM on a host is one node,
	// heard only while all of them answer.
	NodeKeyHost NodeKey = "host"
)

// ParseNodeKey reads "host-port" or "host"; "" is host-port.
func ParseNodeKey(s string) (NodeKey, error) {
	switch NodeKey(s) {
	case "", NodeKeyHostPort:
		return NodeKeyHostPort, nil
	case NodeKeyHost:
		return NodeKeyHost, nil
	}
	return "", fmt.Errorf("node key %q: want %s or %s", s, NodeKeyHostPort, NodeKeyHost)
}

// RESTProber probes the cluster through the ResourceManager's node list
// (every state) and each listed NodeManager's /ws/v1/node/info, the NMs in
// parallel. An NM is OK when the RM lists it RUNNING and it answers
// healthy within the timeout.
type RESTProber struct {
	RM      *rest.ResourceManager
	Timeout time.Duration // per NM request
	HTTP    *http.Client
	// Key names the probed nodes as attempts name them ("" is host-port).
	Key NodeKey
}

// NewRESTProber probes the RM at rmURL ("http://rm:8088").
func NewRESTProber(rmURL string, timeout time.Duration) (*RESTProber, error) {
	rm, err := rest.NewResourceManager(rmURL, timeout, nil)
	if err != nil {
		return nil, err
	}
	return &RESTProber{RM: rm, Timeout: timeout}, nil
}

// Probe returns one NodeProbe per NodeManager the RM knows. Only a failure
// to reach the RM is an error; an NM that does not answer is a probe with
// OK false.
func (p *RESTProber) Probe(ctx context.Context) ([]analyzer.NodeProbe, error) {
	nodes, err := p.RM.Nodes(ctx, rest.AllNodeStates...)
	if err != nil {
		return nil, fmt.Errorf("cfa: probe: %w", err)
	}
	out := make([]analyzer.NodeProbe, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		node := n.ID // host:port
		if p.Key == NodeKeyHost || node == "" {
			node = n.Host
		}
		out[i] = analyzer.NodeProbe{Node: speculators.NodeID(node), NM: n.ID,
			Lost: n.State == "LOST" || n.State == "SHUTDOWN" || n.State == "DECOMMISSIONED"}
		if n.State != "RUNNING" || n.HTTPAddress == "" {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			nm, err := rest.NewNodeManager(n.HTTPAddress, p.Timeout, p.HTTP)
			if err != nil {
				return
			}
			info, err := nm.Info(ctx)
			if err != nil {
				return // unreachable: OK stays false
			}
			out[i].OK = info.Healthy
			out[i].StartedAt = info.StartedAt
		}()
	}
	wg.Wait()
	return out, nil
}
