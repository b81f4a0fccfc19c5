package sim

import (
	"fmt"
	"math"
	"time"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/detect"
)

// FaultConfig holds the failure model's settings (faults.go, analyzer.go).
// Start from DefaultFaultConfig; a zero FaultConfig turns the fault
// analyzer and NM expiry off and is valid as long as no node
// crashes.
type FaultConfig struct {
	// ShuffleReadTimeout is mapreduce.reduce.shuffle.read.timeout (180 s):
	// a reduce that needs a map output stored on a crashed node reports a
	// fetch failure for it this long after it started trying, and again
	// every ShuffleReadTimeout while it keeps trying. Must be > 0 when a
	// node crashes.
	ShuffleReadTimeout time.Duration
	// MaxFetchFailureNotifications (mapreduce.reduce.shuffle.
	// max-fetch-failures-notifications, 3) and MaxFetchFailuresFraction
	// (mapreduce.reduce.shuffle.max-fetch-failures-fraction, 0.5): the AM
	// declares a completed map's output lost, and runs the map again, once
	// it has had at least this many fetch-failure reports for it and
	// reports / (reduces in their shuffle phase) is at least the fraction,
	// as JobImpl.TaskAttemptFetchFailureTransition does.
	MaxFetchFailureNotifications int
	MaxFetchFailuresFraction     float64
	// NodeExpiry is yarn.nm.liveness-monitor.expiry-interval-ms (600 s): a
	// node hung this long is LOST; its running attempts are killed and,
	// in jobs whose reduces are not all done, its completed maps run again
	// (JobImpl.actOnUnusableNode). 0 = nodes never expire.
	NodeExpiry time.Duration
	// ContainerCleanupDelay, when > 0, is how long the AM keeps trying to
	// stop a container on an unreachable node (FARMS §2.3.1: about 30
	// minutes with the default ipc.client.connect.* retries): a job that
	// killed or failed an attempt on a hung node cannot finish until this
	// long after. 0 (default) = the paper's "modified YARN".
	ContainerCleanupDelay time.Duration
	// Analyzer configures the fault analyzer (faultanalyzer.go).
	Analyzer AnalyzerConfig
}

// AnalyzerConfig configures the centralized fault analyzer (cfa/analyzer)
// the simulator drives: see faultanalyzer.go.
type AnalyzerConfig struct {
	// Gather is how often node liveness is gathered (FARMS §3.1: every
	// 5 s). 0 turns the analyzer off: engines get no node events.
	Gather time.Duration
	// Detector is the run-wide detector ("tws", "mean" or "fixed"), used
	// for jobs whose policy has no "detector" parameter.
	Detector string
	// Detect holds the detectors' parameters (window, base, initial
	// threshold, floor).
	Detect detect.Config
	// SuspectFraction: a node silent for this fraction of its threshold
	// is reported NodeSuspected (0.5: halfway to NodeFailed).
	SuspectFraction float64
}

// DefaultFaultConfig returns Hadoop's and the FARMS paper's defaults: a
// 180 s shuffle read timeout, 3 notifications and a 0.5 fraction, a 600 s
// NM expiry, no cleanup delay, and a TWS analyzer gathering every 5 s that
// suspects a node at half its threshold.
func DefaultFaultConfig() FaultConfig {
	return FaultConfig{
		ShuffleReadTimeout:           180 * time.Second,
		MaxFetchFailureNotifications: 3,
		MaxFetchFailuresFraction:     0.5,
		NodeExpiry:                   600 * time.Second,
		Analyzer: AnalyzerConfig{Gather: 5 * time.Second, Detector: "tws", Detect: detect.DefaultConfig(),
			SuspectFraction: 0.5},
	}
}

// Trigger is a fault that starts when a job reaches a point of its map
// phase rather than at a fixed time (FARMS §4.2: "crash a node that hosts
// the MapTasks at 10 different spots during the job's map phase"). It is
// checked at every Decide tick.
type Trigger struct {
	// Job is the ID of the job whose map progress is watched.
	Job string
	// MapProgress is the job's map progress (the mean over its maps of the
	// best attempt's progress, done maps counting 1, as Hadoop's job map
	// progress) at which the fault starts, in [0, 1]. The fault waits for
	// the job's first map attempt in any case.
	MapProgress float64
	// Reduces makes the trigger watch the job's reduce progress instead
	// (the mean over its reduces of the best attempt's progress score, a
	// third per phase, done reduces counting 1, as Hadoop's job reduce
	// progress): the fault starts at ReduceProgress, once a reduce attempt
	// has started; an empty Node then means the node running most of the
	// job's reduces (triggers.go).
	Reduces        bool
	ReduceProgress float64
	// Node is the node hit; empty means the node holding most of the job's
	// maps (running attempts plus stored outputs; ties: first node).
	Node string
	// Episode is the fault; its Start and End are relative to the moment
	// the trigger fires (Start is ignored; End 0 = for good).
	Episode Episode
}

// validate checks the fault settings against the nodes, triggers and jobs.
func (c *FaultConfig) validate(nodes []Node, triggers []Trigger) error {
	crash := false
	for i := range nodes {
		for _, e := range nodes[i].Episodes {
			crash = crash || e.Crash
		}
	}
	for _, t := range triggers {
		crash = crash || t.Episode.Crash
	}
	if c.ShuffleReadTimeout < 0 || c.NodeExpiry < 0 || c.ContainerCleanupDelay < 0 || c.Analyzer.Gather < 0 {
		return fmt.Errorf("sim: negative fault timeout")
	}
	if crash && (c.ShuffleReadTimeout < time.Millisecond || c.MaxFetchFailureNotifications < 1 ||
		!(c.MaxFetchFailuresFraction >= 0 && c.MaxFetchFailuresFraction <= 1)) {
		return fmt.Errorf("sim: a node crashes, so the shuffle read timeout (%v) must be >= 1 ms, fetch-failure notifications (%d) >= 1 and the fraction (%g) in [0,1]",
			c.ShuffleReadTimeout, c.MaxFetchFailureNotifications, c.MaxFetchFailuresFraction)
	}
	if c.Analyzer.Gather > 0 {
		if _, err := detect.New(c.Analyzer.Detector, c.Analyzer.Detect); err != nil {
			return fmt.Errorf("sim: fault analyzer: %w", err)
		}
		if !(c.Analyzer.SuspectFraction > 0 && c.Analyzer.SuspectFraction <= 1) {
			return fmt.Errorf("sim: fault analyzer suspect fraction %g is not in (0,1]", c.Analyzer.SuspectFraction)
		}
	}
	for k, t := range triggers {
		if !(t.ReduceProgress >= 0 && t.ReduceProgress <= 1) {
			return fmt.Errorf("sim: trigger %d: reduce progress %g is not in [0,1]", k, t.ReduceProgress)
		}
		if !(t.MapProgress >= 0 && t.MapProgress <= 1) {
			return fmt.Errorf("sim: trigger %d: map progress %g is not in [0,1]", k, t.MapProgress)
		}
		if t.Job == "" {
			return fmt.Errorf("sim: trigger %d names no job", k)
		}
		e := t.Episode
		if e.End < 0 || (!e.Crash && !(e.Factor > 0)) {
			return fmt.Errorf("sim: trigger %d: bad episode (factor %g, end %d)", k, e.Factor, e.End)
		}
		if t.Node != "" && nodeIndex(nodes, t.Node) < 0 {
			return fmt.Errorf("sim: trigger %d names unknown node %q", k, t.Node)
		}
	}
	return nil
}

func nodeIndex(nodes []Node, name string) int {
	for i := range nodes {
		if nodes[i].Name == name {
			return i
		}
	}
	return -1
}

// durMs converts a duration to virtual ms (0 stays 0).
func durMs(d time.Duration) speculators.Time { return d.Milliseconds() }

// crashFactor is the duration multiplier of a crashed node: it is hung.
var crashFactor = math.Inf(1)
