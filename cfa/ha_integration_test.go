//go:build integration

package cfa

import (
	"fmt"
	"testing"
	"time"

	"github.com/specbridge/specbridge/internal/itest"
	"github.com/specbridge/specbridge/yarnclient/hdfs"
)

// The analyzer's store on an HA HDFS addressed as hdfs:///path
// (scripts/hdfs-ha-test.sh): the active NameNode fails over, and goes
// down, in the middle of the run; every commit after it succeeds, and the
// store reloads whole.
func TestIntegrationHAStoreAcrossFailover(t *testing.T) {
	confDir, failover := itest.HA(t)
	if err := hdfs.UseConf(confDir); err != nil {
		t.Fatal(err)
	}
	clock := &fakeClock{}
	clock.set(0)
	cfg := ServiceConfig{Analyzer: testConfig(), Store: fmt.Sprintf("hdfs:///specbridge-ha/cfa-%d", time.Now().UnixNano()), Now: clock.Now}
	s := mustService(t, cfg)
	s.store.SnapshotEvery = 4
	scenario(t, s, clock, 0, 60)
	failover(true)
	scenario(t, s, clock, 61, 130)
	if err := s.Health(); err != nil {
		t.Errorf("store degraded after the failover: %v", err)
	}
	again := reopenAtEnd(t, s, cfg, "reloaded after the failover,")
	defer again.Close()
}
