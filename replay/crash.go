package replay

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/yarnclient/history"
)

// Node crashes inferred from a history (issue 25). A history does not record
// that a NodeManager died: it records its attempts timing out
// (mapreduce.task.timeout: "task timeout set: 30s, taskTimedOut: true"),
// the AM's view of a node that stopped answering. Replayed as such, the
// attempts fail again at their recorded times and nothing in the replay is
// a failed node: the fault analyzer has no silent node to suspect, so FARMS
// and TWS replay as their base policies.
//
// A node is taken to have crashed at time c when:
//
//   - some of its attempts FAILED by the task timeout (of tasks that timed
//     out once: a task that timed out again elsewhere carried its hang with
//     it, as a hung sleep job's map does), and c is the earliest
//     of (finish - timeout) over its last group of them (those that failed
//     within one timeout of its last timeout): the last report they sent,
//     give or take the AM's check interval;
//   - no attempt started on it after c + crashSlack, and none that
//     succeeded there finished after c + crashSlack: it ran nothing after
//     the timeouts, so it was the node, not its tasks, that stopped.
//     crashSlack covers the AM's timeout check interval (Hadoop's default
//     30 s), by which c may precede the last report;
//   - an attempt started on another node after its last timeout: the
//     history goes on without it. A history that ends with the timeouts
//     (a job failed by a task that hung by itself) says nothing of the
//     node, and is replayed as recorded.
//
// The replay then stops the node at c for good (a sim.Episode of factor
// +Inf: it hangs, its attempts go silent, it gets no container), sets the
// simulator's
// task timeout to the timeout the attempts recorded (the largest, if they
// differ), so that whatever runs there when it crashes times out as the
// recorded attempts did, and no longer scripts those attempts to fail (the
// crash fails them, or whatever the simulator placed there in their stead:
// originals go to their recorded nodes when those have room, sim.Task.Node,
// and an original the crash hung keeps its recorded life as its work,
// calibrate.go's script; retries and copies are placed by the simulator).
// Nothing is inferred on a
// cluster given by --nodes (its nodes are not the recorded ones).
//
// A hang, not a crash (sim.Episode.Crash, which also loses the map outputs
// stored there): the history shows no output lost on the node (no map that
// completed there ran again), so an output the replay would lose is only one
// the simulator happened to place there, and its recovery would run on the
// simulator's NodeManager expiry (Hadoop's 600 s; a history does not record
// the cluster's), not the cluster's: in live-bench run 3 a crash made the
// stock failure job replay at 672 s against 141 s recorded.
//
// What cannot be told apart: a task that hangs by itself on a node that then
// happens to run nothing more while others do reads as a crash.
type nodeCrash struct {
	node      string // as the replay names it (history.Attempt.NodeKey)
	at        int64  // epoch ms
	timeoutMs int64
}

const crashSlack = 30_000 // ms

// crashWatch gathers, node by node, what the inference needs: two times a
// node and its timed-out attempts (a few), not the jobs.
type crashWatch struct {
	per map[hostPort]*nodeWatch
}

type nodeWatch struct {
	lastStart, lastOK int64
	timeouts          []timedOut
}

type timedOut struct{ finish, timeoutMs int64 }

// add adds j's attempts.
func (w *crashWatch) add(j *history.Job) {
	for ti := range j.Tasks {
		hangs := 0
		for ai := range j.Tasks[ti].Attempts {
			if a := &j.Tasks[ti].Attempts[ai]; a.Status == history.Failed {
				if _, ok := timedOutSecs(a.Error); ok {
					hangs++
				}
			}
		}
		for ai := range j.Tasks[ti].Attempts {
			a := &j.Tasks[ti].Attempts[ai]
			if a.Host == "" || a.Start <= 0 {
				continue
			}
			if w.per == nil {
				w.per = map[hostPort]*nodeWatch{}
			}
			k := hostPort{a.Host, a.Port}
			n := w.per[k]
			if n == nil {
				n = &nodeWatch{}
				w.per[k] = n
			}
			n.lastStart = max(n.lastStart, a.Start)
			switch a.Status {
			case history.Succeeded:
				n.lastOK = max(n.lastOK, a.Finish)
			case history.Failed:
				if secs, ok := timedOutSecs(a.Error); ok && hangs == 1 && a.Finish > a.Start {
					n.timeouts = append(n.timeouts, timedOut{a.Finish, secs * 1000})
				}
			}
		}
	}
}

// crashes returns the nodes inferred to have crashed, by name, in name order.
func (w *crashWatch) crashes(shared map[string]bool) []nodeCrash {
	perName := map[string]*nodeWatch{}
	for k, n := range w.per {
		name := (&history.Attempt{Host: k.host, Port: k.port}).NodeKey(shared)
		m := perName[name]
		if m == nil {
			m = &nodeWatch{}
			perName[name] = m
		}
		m.lastStart, m.lastOK = max(m.lastStart, n.lastStart), max(m.lastOK, n.lastOK)
		m.timeouts = append(m.timeouts, n.timeouts...)
	}
	// The two latest starts, on different nodes: the latest start on
	// another node than a given one is one of them.
	var top [2]struct {
		name string
		at   int64
	}
	for name, n := range perName {
		switch {
		case n.lastStart > top[0].at || (n.lastStart == top[0].at && name < top[0].name):
			top[1], top[0].name, top[0].at = top[0], name, n.lastStart
		case n.lastStart > top[1].at || (n.lastStart == top[1].at && name < top[1].name):
			top[1].name, top[1].at = name, n.lastStart
		}
	}
	var out []nodeCrash
	for name, n := range perName {
		if len(n.timeouts) == 0 {
			continue
		}
		elsewhere := top[0].at
		if top[0].name == name {
			elsewhere = top[1].at
		}
		ts := slices.Clone(n.timeouts)
		sort.Slice(ts, func(a, b int) bool { return ts[a].finish < ts[b].finish })
		last := ts[len(ts)-1]
		c := nodeCrash{node: name, at: last.finish - last.timeoutMs, timeoutMs: last.timeoutMs}
		for _, t := range ts {
			if t.finish >= last.finish-last.timeoutMs {
				c.at = min(c.at, t.finish-t.timeoutMs)
				c.timeoutMs = max(c.timeoutMs, t.timeoutMs)
			}
		}
		if n.lastStart > c.at+crashSlack || n.lastOK > c.at+crashSlack || elsewhere < last.finish {
			continue
		}
		out = append(out, c)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].node < out[b].node })
	return out
}

// nodeFacts is what the replay measured of the recorded nodes: their speeds
// and crashes.
type nodeFacts struct {
	speeds  *nodeSpeeds
	crashes *crashSet
	crashed []nodeCrash
	// copyCost is what a copy and a clone cost beyond their draws
	// (nodespeed.go).
	copyCost copyCosts
	// shared names the nodes (history.Attempt.NodeKey); other: the
	// replay's cluster is not the recorded one, so no original is placed
	// on its recorded node (recordedNode).
	shared map[string]bool
	other  bool
}

// forCluster is f for a replay on co's cluster: without crashes when co
// gives its size (its nodes are not the recorded ones).
func (f *nodeFacts) forCluster(co ClusterOptions) *nodeFacts {
	if f != nil && co.NoCopyCost && f.copyCost != (copyCosts{}) {
		g := *f
		g.copyCost = copyCosts{}
		f = &g
	}
	if f == nil || (co.Nodes <= 0 && co.Slots <= 0) {
		return f
	}
	g := *f
	g.crashes, g.crashed, g.other = nil, nil, true
	return &g
}

// recordedNode is the node t's original (its first recorded attempt, crashed
// or not) ran on, as the replay's cluster names it, for sim.Task.Node: ""
// when unknown or when the cluster is not the recorded one. The first
// attempt even when the script leaves it out (explains): the attempt a
// crash hung is the one that must land on the crashed node.
func (f *nodeFacts) recordedNode(t *history.Task) string {
	if f == nil || f.other {
		return ""
	}
	var first *history.Attempt
	for i := range t.Attempts {
		if a := &t.Attempts[i]; a.Start > 0 && a.Host != "" && (first == nil || a.Start < first.Start) {
			first = a
		}
	}
	if first == nil {
		return ""
	}
	return first.NodeKey(f.shared)
}

// applyCopyCost gives j's copies and clones their copy costs
// (nodespeed.go): a copy starts up slower than the originals its work is
// drawn from, and reports nothing while it does.
func (f *nodeFacts) applyCopyCost(j *sim.Job) {
	base := j.CopyStartup
	j.CloneStartup = base
	if f == nil {
		return
	}
	j.CopyExtra, j.CopyStartup = f.copyCost.copy, base+f.copyCost.copy
	j.CloneExtra, j.CloneStartup = f.copyCost.clone, base+f.copyCost.clone
}

func (f *nodeFacts) speed(a *history.Attempt) float64 {
	if f == nil {
		return 1
	}
	return f.speeds.of(a)
}

func (f *nodeFacts) explains(a *history.Attempt) bool {
	return f != nil && f.crashes.explains(a)
}

// crashSet tells the attempts an inferred crash explains: those that timed
// out on a crashed node at or after its crash.
type crashSet struct {
	shared map[string]bool
	at     map[string]int64
}

func newCrashSet(cs []nodeCrash, shared map[string]bool) *crashSet {
	if len(cs) == 0 {
		return nil
	}
	s := &crashSet{shared: shared, at: map[string]int64{}}
	for _, c := range cs {
		s.at[c.node] = c.at
	}
	return s
}

// explains reports whether a's failure is the crash of its node.
func (s *crashSet) explains(a *history.Attempt) bool {
	if s == nil || a.Status != history.Failed || a.Host == "" {
		return false
	}
	at, ok := s.at[a.NodeKey(s.shared)]
	if !ok || a.Finish < at {
		return false
	}
	_, timed := timedOutSecs(a.Error)
	return timed
}

// applyCrashes crashes the inferred nodes of the recorded cluster at their
// times after origin, sets the task timeout, and says so in w.Cluster (a
// cluster of other nodes, --nodes, has none of them: nodeFacts.forCluster).
func (w *Workload) applyCrashes(cs []nodeCrash, origin int64) {
	if len(cs) == 0 {
		return
	}
	index := map[string]int{}
	for i, n := range w.Config.Nodes {
		index[n.Name] = i
	}
	var timeout int64
	var names []string
	for _, c := range cs {
		i, ok := index[c.node]
		if !ok {
			continue
		}
		n := &w.Config.Nodes[i]
		n.Episodes = append(slices.Clone(n.Episodes), sim.Episode{Start: max(c.at-origin, 0), Factor: math.Inf(1)})
		timeout = max(timeout, c.timeoutMs)
		names = append(names, fmt.Sprintf("%s at %.1f s", c.node, float64(max(c.at-origin, 0))/1000))
	}
	if len(names) == 0 {
		return
	}
	w.Config.TaskTimeout = time.Duration(timeout) * time.Millisecond
	w.Cluster += fmt.Sprintf("; node crashes inferred from their attempts' timeouts: %s (task timeout %d s)", strings.Join(names, ", "), timeout/1000)
}
