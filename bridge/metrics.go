package bridge

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// metrics are the bridge's Prometheus metrics, registered on a registry of
// their own so that several servers (tests) can live in one process.
type metrics struct {
	registry        *prometheus.Registry
	sessions        prometheus.Gauge
	sessionsOpened  *prometheus.CounterVec
	frames          *prometheus.CounterVec
	events          prometheus.Counter
	eventsRejected  prometheus.Counter
	decisions       *prometheus.CounterVec
	acks            *prometheus.CounterVec
	errorsSent      *prometheus.CounterVec
	decideSeconds   prometheus.Histogram
	batchToDecision prometheus.Histogram
	fallbacks       *prometheus.CounterVec
	rejectedParams  *prometheus.CounterVec
	turnWait        prometheus.Histogram
	throttled       prometheus.Counter
	turnShare       prometheus.Gauge
}

// decisionKinds are the kinds a decision frame carries (PROTOCOL.md).
var decisionKinds = []string{"speculate", "kill", "rerun", "drop"}

// fallbackCodes are the hello refusals after which the job runs under
// Hadoop's own speculator (the shim falls back): the job asked for
// something the sidecar cannot give it, as opposed to a wrong token or
// version (an operator's mistake, counted in sessions_opened_total).
var fallbackCodes = []string{CodeUnknownSpeculator, CodeBadParameter, CodeBadJob, CodeInternal}

// newMetrics registers every metric with a zero-valued series for each label
// value known at start (every policy of the registry, every decision kind,
// every ack result, every fallback reason), so that /metrics lists them all
// before the first AM connects and dashboards have a baseline.
func newMetrics(policies []string) *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		sessions: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "specbridge_bridge_sessions", Help: "Open AM sessions."}),
		sessionsOpened: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "specbridge_bridge_sessions_opened_total", Help: "Session handshakes by result (accepted or the error code)."}, []string{"result"}),
		frames: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "specbridge_bridge_frames_received_total", Help: "Frames received by type (other for unknown types)."}, []string{"type"}),
		events: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "specbridge_bridge_events_total", Help: "Events folded into engines."}),
		eventsRejected: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "specbridge_bridge_events_rejected_total", Help: "Events the engine or the decoder refused."}),
		decisions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "specbridge_bridge_decisions_total", Help: "Decisions sent by policy and kind."}, []string{"policy", "kind"}),
		acks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "specbridge_bridge_acks_total", Help: "Decision acks by result (applied, refused)."}, []string{"result"}),
		errorsSent: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "specbridge_bridge_errors_sent_total", Help: "Error frames sent by code."}, []string{"code"}),
		decideSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "specbridge_bridge_decide_seconds", Help: "Time spent in Engine.Decide.",
			Buckets: prometheus.ExponentialBuckets(1e-6, 4, 10)}),
		batchToDecision: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "specbridge_bridge_batch_to_decision_seconds", Help: "From reading an event batch to writing the decisions it caused.",
			Buckets: prometheus.ExponentialBuckets(1e-5, 4, 10)}),
		fallbacks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "specbridge_bridge_policy_fallbacks_total", Help: "Jobs refused an engine, so run under Hadoop's own speculator, by reason (the error code)."}, []string{"reason"}),
		rejectedParams: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "specbridge_bridge_rejected_parameters_total", Help: "Hellos whose policy parameters were unknown or invalid, by policy."}, []string{"policy"}),
		turnWait: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "specbridge_bridge_turn_wait_seconds", Help: "How long a session's frame waited for a turn of the fair queue.",
			Buckets: prometheus.ExponentialBuckets(1e-6, 4, 10)}),
		throttled: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "specbridge_bridge_throttled_seconds_total", Help: "Time sessions were held back (not read) for being over their event budget."}),
		turnShare: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "specbridge_bridge_turn_share", Help: "Share of the fair queue's slot time granted (1: all; less while the Go scheduler's p99 latency is over its target)."}),
	}
	m.registry.MustRegister(m.sessions, m.sessionsOpened, m.frames, m.events, m.eventsRejected, m.decisions,
		m.acks, m.errorsSent, m.decideSeconds, m.batchToDecision, m.fallbacks, m.rejectedParams, m.turnWait, m.throttled, m.turnShare,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for _, p := range policies {
		for _, k := range decisionKinds {
			m.decisions.WithLabelValues(p, k)
		}
		m.rejectedParams.WithLabelValues(p)
	}
	for _, r := range []string{"applied", "refused"} {
		m.acks.WithLabelValues(r)
	}
	for _, c := range fallbackCodes {
		m.fallbacks.WithLabelValues(c)
	}
	m.turnShare.Set(1)
	m.sessionsOpened.WithLabelValues("accepted")
	for _, t := range []string{TypeHello, TypeEvents, TypeAck, TypePing, TypeResync} {
		m.frames.WithLabelValues(t)
	}
	return m
}

// frameLabel bounds the type label to the types the protocol knows.
func frameLabel(t string) string {
	switch t {
	case TypeHello, TypeEvents, TypeAck, TypePing, TypePong, TypeResync, TypeError,
		TypeWelcome, TypeDecisions, TypeResynced:
		return t
	}
	return "other"
}
