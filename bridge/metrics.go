package bridge

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promauto"
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
	jobsEnded       *prometheus.CounterVec
	jobMemory       prometheus.Gauge
	jobMemoryLimit  prometheus.Gauge
	feedQueued      prometheus.Gauge
	feedWaits       prometheus.Counter
	noticesDropped  prometheus.Counter
}

// finalJobStates are the job states a bye ends a job in (JobDone).
var finalJobStates = []string{"SUCCEEDED", "FAILED", "KILLED"}

// decisionKinds are the kinds a decision frame carries (PROTOCOL.md).
var decisionKinds = []string{"speculate", "kill", "rerun", "drop"}

// fallbackCodes are the hello refusals after which the job runs under
// Hadoop's own speculator (the shim falls back): the job asked for
// something the sidecar cannot give it, as opposed to a wrong token or
// version (an operator's mistake, counted in sessions_opened_total).
var fallbackCodes = []string{CodeUnknownSpeculator, CodeBadParameter, CodeBadJob, CodeMemoryBudget, CodeInternal}

// newMetrics registers every metric with a zero-valued series for each label
// value known at start (every policy of the registry, every decision kind,
// every ack result, every fallback reason), so that /metrics lists them all
// before the first AM connects and dashboards have a baseline.
func newMetrics(policies []string) *metrics {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	f := promauto.With(reg)
	const ns = "specbridge_bridge_"
	counters := func(name, help string, labels ...string) *prometheus.CounterVec {
		return f.NewCounterVec(prometheus.CounterOpts{Name: ns + name, Help: help}, labels)
	}
	counter := func(name, help string) prometheus.Counter {
		return f.NewCounter(prometheus.CounterOpts{Name: ns + name, Help: help})
	}
	histogram := func(name, help string, firstBucket float64) prometheus.Histogram {
		return f.NewHistogram(prometheus.HistogramOpts{Name: ns + name, Help: help, Buckets: prometheus.ExponentialBuckets(firstBucket, 4, 10)})
	}
	gauge := func(name, help string) prometheus.Gauge {
		return f.NewGauge(prometheus.GaugeOpts{Name: ns + name, Help: help})
	}
	m := &metrics{
		registry:        reg,
		sessions:        gauge("sessions", "Open AM sessions."),
		sessionsOpened:  counters("sessions_opened_total", "Session handshakes by result (accepted or the error code).", "result"),
		frames:          counters("frames_received_total", "Frames received by type (other for unknown types).", "type"),
		events:          counter("events_total", "Events folded into engines."),
		eventsRejected:  counter("events_rejected_total", "Events the engine or the decoder refused."),
		decisions:       counters("decisions_total", "Decisions sent by policy and kind.", "policy", "kind"),
		acks:            counters("acks_total", "Decision acks by result (applied, refused).", "result"),
		errorsSent:      counters("errors_sent_total", "Error frames sent by code.", "code"),
		decideSeconds:   histogram("decide_seconds", "Time spent in Engine.Decide.", 1e-6),
		batchToDecision: histogram("batch_to_decision_seconds", "From reading an event batch to writing the decisions it caused.", 1e-5),
		fallbacks:       counters("policy_fallbacks_total", "Jobs refused an engine, so run under Hadoop's own speculator, by reason (the error code).", "reason"),
		rejectedParams:  counters("rejected_parameters_total", "Hellos whose policy parameters were unknown or invalid, by policy.", "policy"),
		turnWait:        histogram("turn_wait_seconds", "How long a session's frame waited for a turn of the fair queue.", 1e-6),
		throttled:       counter("throttled_seconds_total", "Time sessions were held back (not read) for being over their event budget."),
		turnShare:       gauge("turn_share", "Share of the fair queue's slot time granted (1: all; less while the Go scheduler's p99 latency is over its target)."),
		jobsEnded:       counters("jobs_ended_total", "Jobs whose AM said goodbye with a final state (bye frame), by that state.", "state"),
		jobMemory:       gauge("job_memory_reserved_bytes", "Estimated memory of the open sessions' jobs (from their task counts), reserved against --max-job-memory."),
		feedQueued:      gauge("feed_queued_events", "Events accepted by engines waiting to be passed to the fault analyzer (its store I/O runs outside sessions' turns)."),
		feedWaits:       counter("feed_waits_total", "Event batches that waited for room in the fault analyzer's queue (--max-feed-queue full: the store is slow or failing)."),
		noticesDropped:  counter("notices_dropped_total", "Fault analyzer notices dropped because more than 4,096 waited for one session's loop."),
		jobMemoryLimit:  gauge("job_memory_limit_bytes", "The server's budget of estimated job memory (--max-job-memory); a hello past it is refused with memory-budget."),
	}
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
	for _, st := range finalJobStates {
		m.jobsEnded.WithLabelValues(st)
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
	case TypeHello, TypeEvents, TypeAck, TypePing, TypePong, TypeResync, TypeBye, TypeError,
		TypeWelcome, TypeDecisions, TypeResynced:
		return t
	}
	return "other"
}
