package cfa

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/specbridge/specbridge/cfa/analyzer"
	"github.com/specbridge/specbridge/speculators"
)

// serviceMetrics are the live analyzer's store metrics. `specbridge cfa`
// serves them at /metrics; `serve` registers them beside the bridge's.
type serviceMetrics struct {
	degraded      prometheus.Gauge
	pending       prometheus.Gauge
	blocked       prometheus.Gauge
	writeFailures prometheus.Counter
	writes        prometheus.Counter
	written       prometheus.Counter
	detection     *prometheus.HistogramVec
	// declared is the (suspected, failed) times last seen per node, so that
	// each declaration's latency is observed once; since is when the service
	// started: declarations loaded from the store are not observed again.
	declared map[speculators.NodeID][2]analyzer.Time
	since    analyzer.Time
}

func newServiceMetrics() *serviceMetrics {
	const ns = "specbridge_cfa_"
	gauge := func(name, help string) prometheus.Gauge {
		return prometheus.NewGauge(prometheus.GaugeOpts{Name: ns + name, Help: help})
	}
	counter := func(name, help string) prometheus.Counter {
		return prometheus.NewCounter(prometheus.CounterOpts{Name: ns + name, Help: help})
	}
	return &serviceMetrics{
		degraded:      gauge("store_degraded", "1 while the analyzer's store cannot be written (a full disk, a read-only or lost directory)."),
		pending:       gauge("store_pending_records", "Records waiting to be written to the store."),
		blocked:       gauge("blocked_senders", "Event senders held back because the pending queue is full."),
		writeFailures: counter("store_write_failures_total", "Store commits that failed."),
		writes:        counter("store_writes_total", "Store commits that succeeded."),
		written:       counter("store_records_written_total", "Records made durable in the store."),
		detection: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: ns + "detection_seconds",
			Help:    "From a node's last heartbeat to its declaration as suspected or failed (the detector's latency).",
			Buckets: prometheus.ExponentialBuckets(1, 2, 10)}, []string{"verdict"}),
		declared: map[speculators.NodeID][2]analyzer.Time{},
	}
}

// observeDeclarations records the detection latency of every node newly
// declared suspected or failed since the last call. Called under s.mu.
func (m *serviceMetrics) observeDeclarations(st *analyzer.State) {
	for n, nr := range st.Nodes {
		if nr.Open == nil {
			delete(m.declared, n)
			continue
		}
		ep, seen := nr.Open, m.declared[n]
		if ep.Suspected != 0 && ep.Suspected != seen[0] && ep.Suspected >= m.since {
			m.detection.WithLabelValues("suspected").Observe(float64(ep.Suspected-ep.From) / 1000)
		}
		if ep.Failed != 0 && ep.Failed != seen[1] && ep.Failed >= m.since {
			m.detection.WithLabelValues("failed").Observe(float64(ep.Failed-ep.From) / 1000)
		}
		m.declared[n] = [2]analyzer.Time{ep.Suspected, ep.Failed}
	}
}

// stateCollector reports the analyzer's node view at each scrape: nodes by
// state, episodes, thresholds, jobs. Computed from the state under the
// service's lock (a walk over the nodes; clusters have thousands at most).
type stateCollector struct {
	s                                   *Service
	nodes, episodes, threshold, running *prometheus.Desc
}

func newStateCollector(s *Service) *stateCollector {
	return &stateCollector{s: s,
		nodes: prometheus.NewDesc("specbridge_cfa_nodes", "Nodes the analyzer knows, by state (healthy, suspected, failed).", []string{"state"}, nil),
		episodes: prometheus.NewDesc("specbridge_cfa_episodes", "Unresponsive episodes kept in the records: closed, or open (a node not heard from now).",
			[]string{"status"}, nil),
		threshold: prometheus.NewDesc("specbridge_cfa_threshold_seconds", "The detector's current threshold over the known nodes (min, max, mean; 0 with no node).",
			[]string{"stat"}, nil),
		running: prometheus.NewDesc("specbridge_cfa_jobs_running", "Jobs the analyzer holds as running.", nil, nil),
	}
}

func (c *stateCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.nodes
	ch <- c.episodes
	ch <- c.threshold
	ch <- c.running
}

func (c *stateCollector) Collect(ch chan<- prometheus.Metric) {
	var healthy, suspected, failed, closed, open, jobs float64
	var tmin, tmax, tsum float64
	c.s.View(func(st *analyzer.State, threshold func(speculators.NodeID) analyzer.Time) {
		for n, nr := range st.Nodes {
			switch NodeState(nr) {
			case "failed":
				failed++
			case "suspected":
				suspected++
			default:
				healthy++
			}
			closed += float64(len(nr.Episodes))
			if nr.Open != nil {
				open++
			}
			t := float64(threshold(n)) / 1000
			if tmin == 0 || t < tmin {
				tmin = t
			}
			tmax = max(tmax, t)
			tsum += t
		}
		for _, j := range st.Jobs {
			if j.Ended == 0 {
				jobs++
			}
		}
	})
	mean := 0.0
	if k := healthy + suspected + failed; k > 0 {
		mean = tsum / k
	}
	ch <- prometheus.MustNewConstMetric(c.nodes, prometheus.GaugeValue, healthy, "healthy")
	ch <- prometheus.MustNewConstMetric(c.nodes, prometheus.GaugeValue, suspected, "suspected")
	ch <- prometheus.MustNewConstMetric(c.nodes, prometheus.GaugeValue, failed, "failed")
	ch <- prometheus.MustNewConstMetric(c.episodes, prometheus.GaugeValue, closed, "closed")
	ch <- prometheus.MustNewConstMetric(c.episodes, prometheus.GaugeValue, open, "open")
	ch <- prometheus.MustNewConstMetric(c.threshold, prometheus.GaugeValue, tmin, "min")
	ch <- prometheus.MustNewConstMetric(c.threshold, prometheus.GaugeValue, tmax, "max")
	ch <- prometheus.MustNewConstMetric(c.threshold, prometheus.GaugeValue, mean, "mean")
	ch <- prometheus.MustNewConstMetric(c.running, prometheus.GaugeValue, jobs)
}

// NodeState names a node's state from its record: failed or suspected
// while its open episode was declared so, else healthy.
func NodeState(nr *analyzer.NodeRecord) string {
	switch {
	case nr.Open != nil && nr.Open.Failed != 0:
		return "failed"
	case nr.Open != nil && nr.Open.Suspected != 0:
		return "suspected"
	}
	return "healthy"
}

// Collectors returns the service's metrics, for a Prometheus registry.
func (s *Service) Collectors() []prometheus.Collector {
	m := s.metrics
	m.detection.WithLabelValues("suspected")
	m.detection.WithLabelValues("failed")
	return []prometheus.Collector{m.degraded, m.pending, m.blocked, m.writeFailures, m.writes, m.written, m.detection, newStateCollector(s)}
}
