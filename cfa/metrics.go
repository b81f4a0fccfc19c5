package cfa

import "github.com/prometheus/client_golang/prometheus"

// serviceMetrics are the live analyzer's store metrics. `specbridge cfa`
// serves them at /metrics; `serve` registers them beside the bridge's.
type serviceMetrics struct {
	degraded      prometheus.Gauge
	pending       prometheus.Gauge
	blocked       prometheus.Gauge
	writeFailures prometheus.Counter
}

func newServiceMetrics() *serviceMetrics {
	return &serviceMetrics{
		degraded: prometheus.NewGauge(prometheus.GaugeOpts{Name: "specbridge_cfa_store_degraded",
			Help: "1 while the analyzer's store cannot be written (a full disk, a read-only or lost directory)."}),
		pending: prometheus.NewGauge(prometheus.GaugeOpts{Name: "specbridge_cfa_store_pending_records",
			Help: "Records waiting to be written to the store."}),
		blocked: prometheus.NewGauge(prometheus.GaugeOpts{Name: "specbridge_cfa_blocked_senders",
			Help: "Event senders held back because the pending queue is full."}),
		writeFailures: prometheus.NewCounter(prometheus.CounterOpts{Name: "specbridge_cfa_store_write_failures_total",
			Help: "Store commits that failed."}),
	}
}

// Collectors returns the service's metrics, for a Prometheus registry.
func (s *Service) Collectors() []prometheus.Collector {
	m := s.metrics
	return []prometheus.Collector{m.degraded, m.pending, m.blocked, m.writeFailures}
}
