package bridge

import (
	"fmt"
	"math"
	"sort"

	"github.com/specbridge/specbridge/speculators"
)

// eventKind maps a wire event kind to the engine's: the kind whose String
// it is (ten short strings, most events match within the first two).
func eventKind(s string) (speculators.EventKind, bool) {
	for k := speculators.AttemptStarted; k <= speculators.JobBounds; k++ {
		if k.String() == s {
			return k, true
		}
	}
	return 0, false
}

func parseTaskType(s string) (speculators.TaskType, error) {
	switch s {
	case "map", "MAP", "m":
		return speculators.Map, nil
	case "reduce", "REDUCE", "r":
		return speculators.Reduce, nil
	}
	return 0, fmt.Errorf("task type %q is not map or reduce", truncate(s, 16))
}

func parsePhase(s string, ty speculators.TaskType) (speculators.Phase, error) {
	if s == "" {
		if ty == speculators.Reduce {
			return speculators.PhaseShuffle, nil
		}
		return speculators.PhaseMap, nil
	}
	for p := speculators.PhaseMap; p <= speculators.PhaseReduce; p++ {
		if p.String() == s {
			return p, nil
		}
	}
	return 0, fmt.Errorf("phase %q is not MAP, SHUFFLE, SORT or REDUCE", truncate(s, 16))
}

func (c *Counters) toCounters() speculators.Counters {
	if c == nil {
		return speculators.Counters{}
	}
	return speculators.Counters{InputBytes: c.InputBytes, OutputBytes: c.OutputBytes, InputRecords: c.InputRecords,
		OutputRecords: c.OutputRecords, CPUMillis: c.CPUMillis, GCMillis: c.GCMillis, SpilledRecords: c.SpilledRecords}
}

// toEvent converts a wire event of job key into an engine event. It checks
// what the wire form can get wrong; the engine checks the rest.
func toEvent(key jobKey, w *WireEvent) (speculators.Event, error) {
	kind, ok := eventKind(w.Kind)
	if !ok {
		return speculators.Event{}, fmt.Errorf("unknown event kind %q", truncate(w.Kind, 32))
	}
	if w.Time == nil {
		return speculators.Event{}, fmt.Errorf("%s event without a time", w.Kind)
	}
	ev := speculators.Event{Kind: kind, Time: *w.Time}
	var err error
	switch kind {
	case speculators.AttemptStarted, speculators.AttemptStatus, speculators.AttemptSucceeded,
		speculators.AttemptFailed, speculators.AttemptKilled:
		if ev.Attempt, err = parseAttemptID(key, w.Attempt); err != nil {
			return ev, err
		}
	}
	switch kind {
	case speculators.AttemptStarted:
		ev.Node = speculators.NodeID(w.Node)
		ev.Container = w.Container
		ev.Speculative = w.Speculative
	case speculators.AttemptStatus:
		if math.IsNaN(w.Progress) || w.Progress < 0 || w.Progress > 1 {
			return ev, fmt.Errorf("progress %g of %s is outside [0,1]", w.Progress, w.Attempt)
		}
		ev.Progress = w.Progress
		if ev.Phase, err = parsePhase(w.Phase, ev.Attempt.Task.Type); err != nil {
			return ev, err
		}
		ev.Counters = w.Counters.toCounters()
		if len(w.FetchFailedMaps) > 0 {
			ev.FetchFailedMaps = make([]speculators.TaskID, len(w.FetchFailedMaps))
			for i, m := range w.FetchFailedMaps {
				if ev.FetchFailedMaps[i], err = parseTaskID(key, m); err != nil {
					return ev, fmt.Errorf("fetch_failed_maps[%d]: %w", i, err)
				}
			}
		}
	case speculators.ContainerNeeds:
		if ev.TaskType, err = parseTaskType(w.TaskType); err != nil {
			return ev, err
		}
		if w.Count < 0 {
			return ev, fmt.Errorf("container-needs count %d is negative", w.Count)
		}
		ev.Count = w.Count
	case speculators.NodeSuspected, speculators.NodeFailed, speculators.NodeResumed:
		if w.Node == "" {
			return ev, fmt.Errorf("%s event without a node", w.Kind)
		}
		ev.Node = speculators.NodeID(w.Node)
	case speculators.JobBounds:
		ev.Deadline, ev.ErrorBound = w.Deadline, w.ErrorBound
	}
	return ev, nil
}

// toWireDecision converts an engine decision of job key.
func toWireDecision(key jobKey, id uint64, d speculators.Decision) WireDecision {
	w := WireDecision{ID: id, Kind: d.Kind.String(), Task: formatTaskID(key, d.Task), Reason: d.ReasonText(), Member: d.Member}
	switch d.Kind {
	case speculators.Speculate:
		w.Copies = max(d.Copies, 1)
	case speculators.Kill, speculators.Rerun:
		w.Attempt = formatAttemptID(key, d.Attempt)
		// A decision naming only the attempt still names its task.
		w.Task = formatTaskID(key, d.Attempt.Task)
	}
	return w
}

var endKinds = map[string]speculators.EventKind{
	"SUCCEEDED": speculators.AttemptSucceeded,
	"FAILED":    speculators.AttemptFailed,
	"KILLED":    speculators.AttemptKilled,
}

// snapshotEvents turns a resync snapshot into the events that rebuild it,
// in time order (ties: starts, then statuses, then ends, each in snapshot
// order). Attempts that cannot be converted are returned as errors, one per
// attempt, with the attempt's index in the snapshot.
func snapshotEvents(key jobKey, r *Resync) ([]speculators.Event, []indexedError) {
	type timed struct {
		ev    speculators.Event
		stage int
		order int
	}
	var out []timed
	var errs []indexedError
	for i := range r.Attempts {
		a := &r.Attempts[i]
		id, err := parseAttemptID(key, a.Attempt)
		if err != nil {
			errs = append(errs, indexedError{i, err})
			continue
		}
		var endKind speculators.EventKind
		ended := false
		if a.State != "RUNNING" {
			k, ok := endKinds[a.State]
			if !ok {
				errs = append(errs, indexedError{i, fmt.Errorf("%s: state %q is not RUNNING, SUCCEEDED, FAILED or KILLED", a.Attempt, truncate(a.State, 16))})
				continue
			}
			if a.Finish < a.Start {
				errs = append(errs, indexedError{i, fmt.Errorf("%s: %s attempt finishes at %d, before its start %d", a.Attempt, a.State, a.Finish, a.Start)})
				continue
			}
			endKind, ended = k, true
		}
		phase, err := parsePhase(a.Phase, id.Task.Type)
		if err != nil {
			errs = append(errs, indexedError{i, fmt.Errorf("%s: %w", a.Attempt, err)})
			continue
		}
		if math.IsNaN(a.Progress) || a.Progress < 0 || a.Progress > 1 {
			errs = append(errs, indexedError{i, fmt.Errorf("%s: progress %g is outside [0,1]", a.Attempt, a.Progress)})
			continue
		}
		out = append(out, timed{ev: speculators.Event{Kind: speculators.AttemptStarted, Time: a.Start, Attempt: id,
			Node: speculators.NodeID(a.Node), Container: a.Container, Speculative: a.Speculative}, stage: 0, order: i})
		report := a.LastReport
		if report == 0 && ended {
			report = a.Finish
		}
		if report >= a.Start && (a.Progress > 0 || a.LastReport > 0) {
			out = append(out, timed{ev: speculators.Event{Kind: speculators.AttemptStatus, Time: report, Attempt: id,
				Progress: a.Progress, Phase: phase, Counters: a.Counters.toCounters()}, stage: 1, order: i})
		}
		if ended {
			out = append(out, timed{ev: speculators.Event{Kind: endKind, Time: a.Finish, Attempt: id}, stage: 2, order: i})
		}
	}
	sort.SliceStable(out, func(x, y int) bool {
		if out[x].ev.Time != out[y].ev.Time {
			return out[x].ev.Time < out[y].ev.Time
		}
		if out[x].stage != out[y].stage {
			return out[x].stage < out[y].stage
		}
		return out[x].order < out[y].order
	})
	evs := make([]speculators.Event, 0, len(out)+len(r.ContainerNeeds))
	for _, t := range out {
		evs = append(evs, t.ev)
	}
	now := r.Now
	if len(evs) > 0 && evs[len(evs)-1].Time > now {
		now = evs[len(evs)-1].Time
	}
	for i, c := range r.ContainerNeeds {
		ty, err := parseTaskType(c.TaskType)
		if err != nil || c.Count < 0 {
			errs = append(errs, indexedError{len(r.Attempts) + i, fmt.Errorf("container_needs[%d]: %q x %d", i, truncate(c.TaskType, 16), c.Count)})
			continue
		}
		evs = append(evs, speculators.Event{Kind: speculators.ContainerNeeds, Time: now, TaskType: ty, Count: c.Count})
	}
	return evs, errs
}

// indexedError is an error about the index-th element of a batch.
type indexedError struct {
	index int
	err   error
}
