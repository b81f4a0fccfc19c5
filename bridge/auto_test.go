package bridge

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/grass"
)

// TestAutoNamesItsMemberLive: a small job under auto on an idle cluster of
// 1000 slots is cloned by its small member (sca) as soon as a map runs;
// the decision's reason names auto→sca and the dashboard's session view
// shows the member, and the decision's member field names it for the
// shim's counters (issue 27).
func TestAutoNamesItsMemberLive(t *testing.T) {
	ts := startServer(t, nil)
	h := hello(testJob, "auto", 2, 0, nil)
	h.Slots, h.TaskMeanMS, h.TaskTailIndex = 1000, 2000, 2
	c, _ := open(t, ts, h)
	c.send(events(1, 0, started(0, "m_000000", 0, false)))
	d := c.expect(TypeDecisions)
	if len(d.Decisions) != 1 || d.Decisions[0].Kind != "speculate" || !strings.HasPrefix(d.Decisions[0].Reason, "auto→sca: ") {
		t.Fatalf("decisions %+v: want sca's clones with a reason naming auto→sca", d.Decisions)
	}
	// The wire names the member too: the shim counts it in the job's
	// "specbridge auto member" counters.
	if d.Decisions[0].Member != "sca" {
		t.Fatalf("decision %+v: member %q, want sca", d.Decisions[0], d.Decisions[0].Member)
	}
	waitUntil(t, "the session view naming the member", func() bool {
		for _, s := range ts.Live().Sessions {
			if s.Job == testJob {
				return s.Policy == "auto" && s.Member == "sca"
			}
		}
		return false
	})
}

// TestAutoSpreadRuleLiveIsOnContainers: live, a cluster is YARN's
// containers (the hello carries no slot pools and the bridge leaves
// JobInfo.SlotPools false), so auto's rule v6 reads the earlier jobs'
// slow-node shares the server kept (Config.Knowledge) as the simulator
// does on a cluster of containers: a job with reduces that would be
// cloned by the idle slots (sca) without them runs the spread member,
// grass, with them.
func TestAutoSpreadRuleLiveIsOnContainers(t *testing.T) {
	for _, c := range []struct {
		fits []speculators.TailFit
		want string
	}{
		{nil, "sca"},
		{[]speculators.TailFit{{Maps: 40, Sigma: 0.1, Slow: 0.3}, {Maps: 30, Sigma: 0.1, Slow: 0.2}}, "grass"},
	} {
		store := grass.NewMemoryStore()
		for _, f := range c.fits {
			store.AddTail(f)
		}
		ts := startServer(t, func(cfg *Config) { cfg.Knowledge = store })
		h := hello(testJob, "auto", 20, 4, nil)
		h.Slots, h.TaskMeanMS = 1000, 2000
		c2, _ := open(t, ts, h)
		c2.send(events(1, 0, started(0, "m_000000", 0, false)))
		waitUntil(t, "the session view naming the member", func() bool {
			for _, s := range ts.Live().Sessions {
				if s.Job == testJob {
					return s.Policy == "auto" && s.Member == c.want
				}
			}
			return false
		})
	}
}

// TestAutoMapOnlyJobTeachesItsSpreadLive: since rule v7 an exact map-only
// job fits its map-time spread too when its last map finishes, and live the
// fit reaches the server's knowledge (Config.Knowledge) as a job with
// reduces' does, so that a later busy map-only job reads it.
func TestAutoMapOnlyJobTeachesItsSpreadLive(t *testing.T) {
	store, c, done := autoMapsDone(t, 0)
	c.send(events(2, 30000, done...))
	waitUntil(t, "the map-only job's fit in the server's knowledge", func() bool {
		fits := store.TailFits()
		return len(fits) == 1 && fits[0].Maps == 10 && fits[0].Sigma > 0
	})
}

// TestAutoJobWithReducesTeachesItsReduceRecordLive: since rule v8 a job
// with reduces hands out a second record when its last reduce succeeds
// (the share of the nodes its reduces ran slow on), and live it reaches the
// server's knowledge after the job's map record.
func TestAutoJobWithReducesTeachesItsReduceRecordLive(t *testing.T) {
	store, c, evs := autoMapsDone(t, 6)
	for i := range 6 {
		evs = append(evs, started(30000, fmt.Sprintf("r_%06d", i), 0, false))
	}
	c.send(events(2, 30000, evs...))
	evs = evs[:0]
	for i := range 6 {
		d := int64(30000) // r_000005, on its own node, takes 2.5x
		if i == 5 {
			d = 75000
		}
		evs = append(evs, ended(30000+d, "attempt-succeeded", fmt.Sprintf("r_%06d", i), 0))
	}
	c.send(events(3, 105000, evs...))
	waitUntil(t, "the job's map and reduce records in the server's knowledge", func() bool {
		// The job's build left a mark too (rule v65's MarkReducesBuilt,
		// a record with a moment): the tail records are the others.
		fits := slices.DeleteFunc(slices.Clone(store.TailFits()), speculators.TailFit.IsDeadline)
		return len(fits) == 2 && fits[0].Maps == 10 && fits[1].IsReduce() && fits[1].Reduces == 6 &&
			fits[1].ReduceSlow > 0.16 && fits[1].ReduceSlow < 0.17
	})
}

// autoMapsDone opens an auto session of 10 maps and reduces reduces on a
// server that keeps what jobs teach in store, sends the maps' starts at 0,
// and returns the maps' successes (at 10 s + 2 s an index) for the caller
// to send.
func autoMapsDone(t *testing.T, reduces int) (*grass.MemoryStore, *client, []WireEvent) {
	t.Helper()
	store := grass.NewMemoryStore()
	ts := startServer(t, func(cfg *Config) { cfg.Knowledge = store })
	h := hello(testJob, "auto", 10, reduces, nil)
	h.Slots = 1000
	c, _ := open(t, ts, h)
	var evs []WireEvent
	for i := range 10 {
		evs = append(evs, started(0, fmt.Sprintf("m_%06d", i), 0, false))
	}
	c.send(events(1, 0, evs...))
	var done []WireEvent
	for i := range 10 {
		done = append(done, ended(int64(10000+2000*i), "attempt-succeeded", fmt.Sprintf("m_%06d", i), 0))
	}
	return store, c, done
}
