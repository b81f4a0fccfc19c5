package analyzer

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/specbridge/specbridge/speculators"
)

// Time is epoch milliseconds (speculators.Time).
type Time = speculators.Time

// Record kinds: every change to the analyzer's durable state is one Record,
// applied to State in order. The store's log holds them; a snapshot is a
// State with the Seq of the last record it includes.
const (
	KindJobStarted     = "job-started"     // Job, Time
	KindAttemptStarted = "attempt-started" // Job, Attempt, Node, Container, Speculative, Time
	KindAttemptEnded   = "attempt-ended"   // Job, Attempt, State, Time
	KindJobEnded       = "job-ended"       // Job, Time
	KindJobForgotten   = "job-forgotten"   // Job: dropped after the retention period
	KindEpisodeStarted = "episode-started" // Node, From (last heard)
	KindNodeSuspected  = "node-suspected"  // Node, Time, Threshold, Told
	KindNodeFailed     = "node-failed"     // Node, Time, Threshold, Told
	KindEpisodeEnded   = "episode-ended"   // Node, To (heard again), Restarted, Recorded
	// KindNodeTold: jobs told about the open episode after its declaration
	// (they connected, reconnected or got work on the node since).
	KindNodeTold = "node-told" // Node, Told
)

// Record is one durable change. Which fields matter depends on Kind.
type Record struct {
	Seq         uint64             `json:"seq"`
	Kind        string             `json:"kind"`
	Time        Time               `json:"time,omitempty"`
	Job         string             `json:"job,omitempty"`
	Attempt     string             `json:"attempt,omitempty"` // job-relative, "m_000003_0"
	Node        speculators.NodeID `json:"node,omitempty"`
	Container   string             `json:"container,omitempty"`
	Speculative bool               `json:"speculative,omitempty"`
	State       string             `json:"state,omitempty"` // SUCCEEDED, FAILED, KILLED
	From        Time               `json:"from,omitempty"`
	To          Time               `json:"to,omitempty"`
	Threshold   Time               `json:"threshold,omitempty"`
	Told        []string           `json:"told,omitempty"`
	Restarted   bool               `json:"restarted,omitempty"`
	Recorded    bool               `json:"recorded,omitempty"`
}

// State is everything the analyzer must not forget: the job-level and the
// system-level records of FARMS §3.1.
type State struct {
	Seq   uint64                             `json:"seq"`
	Jobs  map[string]*JobRecord              `json:"jobs"`
	Nodes map[speculators.NodeID]*NodeRecord `json:"nodes"`
}

// JobRecord is one job: its attempts, where they ran, which maps' outputs
// live where.
type JobRecord struct {
	ID       string                    `json:"id"`
	Started  Time                      `json:"started"`
	Ended    Time                      `json:"ended,omitempty"` // 0 while running
	Attempts map[string]*AttemptRecord `json:"attempts"`
}

// AttemptRecord is one attempt: node, container, lifetime.
type AttemptRecord struct {
	Node        speculators.NodeID `json:"node"`
	Container   string             `json:"container,omitempty"`
	Map         bool               `json:"map"`
	Speculative bool               `json:"speculative,omitempty"`
	Started     Time               `json:"started"`
	Ended       Time               `json:"ended,omitempty"`
	State       string             `json:"state"` // RUNNING, SUCCEEDED, FAILED, KILLED
}

// NodeRecord is one node's unresponsive episodes and its detector history.
type NodeRecord struct {
	Node     speculators.NodeID `json:"node"`
	Episodes []Episode          `json:"episodes"`       // closed, oldest first
	Open     *Episode           `json:"open,omitempty"` // the current episode
	// History is the detector's input: durations of the episodes that
	// joined it (the FAS feedback), oldest first, at most the window.
	History []Time `json:"history"`
}

// Episode is one stretch during which a node was not heard from.
type Episode struct {
	From      Time     `json:"from"`                // last heard before it
	To        Time     `json:"to,omitempty"`        // heard again; 0 while open
	Duration  Time     `json:"duration,omitempty"`  // To - From
	Suspected Time     `json:"suspected,omitempty"` // when declared suspected, 0 = never
	Failed    Time     `json:"failed,omitempty"`    // when declared failed, 0 = never
	Threshold Time     `json:"threshold,omitempty"` // the threshold in force when declared
	Told      []string `json:"told,omitempty"`      // jobs told about it
	Restarted bool     `json:"restarted,omitempty"` // the NodeManager restarted or was LOST meanwhile
	Recorded  bool     `json:"recorded,omitempty"`  // its duration joined the detector history
}

// NewState returns an empty state.
func NewState() *State {
	return &State{Jobs: map[string]*JobRecord{}, Nodes: map[speculators.NodeID]*NodeRecord{}}
}

func (s *State) node(n speculators.NodeID) *NodeRecord {
	nr := s.Nodes[n]
	if nr == nil {
		nr = &NodeRecord{Node: n}
		s.Nodes[n] = nr
	}
	return nr
}

// Limits bound what Apply keeps: the detector window (the history kept
// per node) and the number of closed episodes per node; 0 = unbounded.
type Limits struct {
	Window, Episodes int
}

// Limits returns the bounds c puts on the state (the store applies records
// with them too).
func (c Config) Limits() Limits {
	return Limits{Window: c.Detect.Window, Episodes: c.MaxEpisodes}
}

// Apply folds r into s. Records must come in Seq order; one at or below
// s.Seq is skipped (it is already in a snapshot), so replaying a log over a
// snapshot is safe.
func (s *State) Apply(r *Record, lim Limits) error {
	if r.Seq <= s.Seq {
		return nil
	}
	if r.Seq != s.Seq+1 {
		return fmt.Errorf("record %d (%s) after %d: a record is missing", r.Seq, r.Kind, s.Seq)
	}
	if err := s.apply(r, lim); err != nil {
		return err
	}
	s.Seq = r.Seq // only once applied: a refused record leaves s as it was
	return nil
}

func (s *State) apply(r *Record, lim Limits) error {
	switch r.Kind {
	case KindJobStarted:
		if s.Jobs[r.Job] == nil {
			s.Jobs[r.Job] = &JobRecord{ID: r.Job, Started: r.Time, Attempts: map[string]*AttemptRecord{}}
		}
	case KindAttemptStarted:
		j := s.Jobs[r.Job]
		if j == nil {
			return fmt.Errorf("record %d: attempt %s of unknown job %s", r.Seq, r.Attempt, r.Job)
		}
		j.Attempts[r.Attempt] = &AttemptRecord{Node: r.Node, Container: r.Container, Map: len(r.Attempt) > 0 && r.Attempt[0] == 'm',
			Speculative: r.Speculative, Started: r.Time, State: "RUNNING"}
	case KindAttemptEnded:
		j := s.Jobs[r.Job]
		if j == nil || j.Attempts[r.Attempt] == nil {
			return fmt.Errorf("record %d: end of unknown attempt %s of job %s", r.Seq, r.Attempt, r.Job)
		}
		a := j.Attempts[r.Attempt]
		a.State, a.Ended = r.State, r.Time
	case KindJobEnded:
		if j := s.Jobs[r.Job]; j != nil {
			j.Ended = r.Time
		}
	case KindJobForgotten:
		delete(s.Jobs, r.Job)
	case KindEpisodeStarted:
		nr := s.node(r.Node)
		nr.Open = &Episode{From: r.From}
	case KindNodeSuspected, KindNodeFailed:
		nr := s.node(r.Node)
		if nr.Open == nil {
			return fmt.Errorf("record %d: %s of node %s outside an episode", r.Seq, r.Kind, r.Node)
		}
		if r.Kind == KindNodeSuspected {
			nr.Open.Suspected = r.Time
		} else {
			nr.Open.Failed = r.Time
		}
		nr.Open.Threshold = r.Threshold
		nr.Open.Told = union(nr.Open.Told, r.Told)
	case KindNodeTold:
		nr := s.node(r.Node)
		if nr.Open == nil {
			return fmt.Errorf("record %d: %s of node %s outside an episode", r.Seq, r.Kind, r.Node)
		}
		nr.Open.Told = union(nr.Open.Told, r.Told)
	case KindEpisodeEnded:
		nr := s.node(r.Node)
		if nr.Open == nil {
			return fmt.Errorf("record %d: end of node %s's episode, none open", r.Seq, r.Node)
		}
		ep := *nr.Open
		ep.To, ep.Duration, ep.Restarted, ep.Recorded = r.To, r.To-ep.From, r.Restarted, r.Recorded
		nr.Open = nil
		nr.Episodes = append(nr.Episodes, ep)
		if lim.Episodes > 0 && len(nr.Episodes) > lim.Episodes {
			nr.Episodes = append([]Episode(nil), nr.Episodes[len(nr.Episodes)-lim.Episodes:]...)
		}
		if ep.Recorded {
			nr.History = append(nr.History, ep.Duration)
			if lim.Window > 0 && len(nr.History) > lim.Window {
				nr.History = append([]Time(nil), nr.History[len(nr.History)-lim.Window:]...)
			}
		}
	default:
		return fmt.Errorf("record %d: unknown kind %q", r.Seq, r.Kind)
	}
	return nil
}

// union returns a with b's elements not in it added, sorted.
func union(a, b []string) []string {
	out := append([]string(nil), a...)
	for _, x := range b {
		found := false
		for _, y := range out {
			found = found || x == y
		}
		if !found {
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}

// MapOutputs returns, for job, each completed map task's output node: the
// node of its SUCCEEDED attempt (task id "m_000003" -> node).
func (s *State) MapOutputs(job string) map[string]speculators.NodeID {
	j := s.Jobs[job]
	if j == nil {
		return nil
	}
	out := map[string]speculators.NodeID{}
	for id, a := range j.Attempts {
		if a.Map && a.State == "SUCCEEDED" {
			out[taskOf(id)] = a.Node
		}
	}
	return out
}

// taskOf strips the attempt number: "m_000003_0" -> "m_000003".
func taskOf(attempt string) string {
	for i := len(attempt) - 1; i >= 0; i-- {
		if attempt[i] == '_' {
			return attempt[:i]
		}
	}
	return attempt
}

// ParseAttempt reads a job-relative attempt id, "m_000003_0" (the form
// records and the HTTP API use; speculators.AttemptID.String writes it).
func ParseAttempt(s string) (speculators.AttemptID, error) {
	var a speculators.AttemptID
	parts := strings.Split(s, "_")
	if len(parts) != 3 || parts[0] != "m" && parts[0] != "r" {
		return a, fmt.Errorf("attempt %q: want m_000003_0 or r_000001_2", s)
	}
	task, err1 := strconv.ParseInt(parts[1], 10, 32)
	n, err2 := strconv.ParseInt(parts[2], 10, 32)
	if err1 != nil || err2 != nil || task < 0 || n < 0 {
		return a, fmt.Errorf("attempt %q: want m_000003_0 or r_000001_2", s)
	}
	a.Task.Index, a.N = int32(task), int32(n)
	if parts[0] == "r" {
		a.Task.Type = speculators.Reduce
	}
	return a, nil
}
