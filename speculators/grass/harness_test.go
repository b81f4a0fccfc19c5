package grass

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/spectest"
)

// unit is the paper's "time unit" in ms, and the input bytes of one unit of
// work: every task reads input at 1 byte/ms, so a fresh copy's t_new (the
// mean normalised duration times its input) is its input in units.
const unit = 1000

// job describes a tiny job for the slot driver: each map's input (in units
// of work), how long its original attempt takes (in units) and which maps
// start at time 0. A copy of a map takes its input's worth of time, which is
// what t_new predicts.
type job struct {
	input    []float64
	original []float64
	first    []int
	copyDur  []float64 // units a copy of each map takes; nil: its input
	slots    int
	deadline float64 // units; 0 = none
	err      float64
	reduces  int
	seed     uint64 // the policy's seed; 0 = 1
	// pull: each free slot is first offered to the policy's ChooseForSlot
	// (the simulator's pull model) before an original fills it.
	pull bool
}

// driver plays the allocator of the paper's pull model (§3) on top of a
// spectest.Harness: whenever slots are free it asks the real Engine to
// decide, places the copies it asks for,
// then fills the remaining free slots with originals in SJF (deadline) or
// LJF (error) order of their input, as the paper assumes. Every attempt
// progresses at a constant rate and reports at every event, so t_rem is
// exact. It is deterministic and steps from event to event.
type driver struct {
	t      testing.TB
	h      *spectest.Harness
	engine *speculators.Engine
	policy *policy
	// known is what earlier jobs taught (the engine's Prior) and where the
	// driver keeps what this job learns, as sim and the bridge do; nil:
	// none.
	known    *MemoryStore
	job      job
	now      speculators.Time
	runs     []run
	started  []bool
	finished []speculators.Time // 0 = not done
	dropped  []bool
	next     []int32
	log      []string // decisions, "t=5 speculate m_000002"
	drops    int
	// earlyCopies counts copies launched while originals waited, and
	// earlyMax the most attempts of one task running then; lateCopies the
	// copies launched once every original had started (the final wave).
	earlyCopies, earlyMax, lateCopies int
	// afterDecide, when set, runs after every Decide is applied.
	afterDecide func(*driver)
	// skipIdle: leave out a Decide the engine says is idle
	// (Engine.SkipDecide), as the simulator does; idle counts those.
	skipIdle bool
	idle     int
}

type run struct {
	id         speculators.AttemptID
	start, end speculators.Time
}

func ms(units float64) speculators.Time { return speculators.Time(units * unit) }

func newDriver(t testing.TB, name string, j job, overrides map[string]string, known *MemoryStore) *driver {
	t.Helper()
	sizes := make([]int64, len(j.input))
	for i, in := range j.input {
		sizes[i] = int64(in * unit)
	}
	info := speculators.JobInfo{ID: "job_grass_0001", Maps: len(j.input), Reduces: j.reduces, MapInputBytes: sizes,
		Slots: j.slots, Deadline: ms(j.deadline), ErrorBound: j.err}
	var prior speculators.Prior
	if known != nil {
		prior = known
	}
	h := spectest.New(t, registry(t), spectest.Job{Policy: name, Info: info, Params: overrides, Seed: j.seed, Prior: prior})
	e := h.Engine
	p, ok := e.Policy.(*policy)
	if !ok {
		t.Fatalf("policy is %T", e.Policy)
	}
	n := len(j.input)
	d := &driver{t: t, h: h, engine: e, policy: p, known: known, job: j, started: make([]bool, n), finished: make([]speculators.Time, n),
		dropped: make([]bool, n), next: make([]int32, n)}
	for _, i := range j.first {
		d.launch(i, false)
	}
	return d
}

func registry(t testing.TB) *speculators.Registry {
	t.Helper()
	return spectest.Registry(t, PolicyGS(), PolicyRAS(), PolicyGRASS())
}

func (d *driver) observe(ev speculators.Event) {
	d.t.Helper()
	d.h.Observe(ev)
	d.keep()
}

// keep keeps what the engine handed out since the last call in known.
func (d *driver) keep() {
	d.t.Helper()
	l := d.h.Learned()
	if d.known == nil {
		return
	}
	if err := d.known.Keep(l); err != nil {
		d.t.Fatal(err)
	}
}

func (d *driver) launch(i int, copy bool) {
	id := speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map, Index: int32(i)}, N: d.next[i]}
	d.next[i]++
	dur := d.job.original[i]
	if copy {
		dur = d.job.input[i]
		if d.job.copyDur != nil {
			dur = d.job.copyDur[i]
		}
	}
	d.started[i] = true
	d.runs = append(d.runs, run{id: id, start: d.now, end: d.now + ms(dur)})
	d.observe(speculators.Event{Kind: speculators.AttemptStarted, Time: d.now, Attempt: id,
		Node: speculators.NodeID(fmt.Sprintf("n%d", len(d.runs))), Speculative: copy})
}

// run steps until every map is done or dropped, or until the time limit.
func (d *driver) run(limit float64) {
	d.t.Helper()
	for steps := 0; steps < 1000; steps++ {
		d.decide()
		if len(d.runs) == 0 {
			// Ask twice more: a policy must not drop a task again.
			for range 2 {
				d.now += unit
				d.decide()
			}
			return
		}
		next := d.runs[0].end
		for _, r := range d.runs {
			next = min(next, r.end)
		}
		if limit > 0 && next > ms(limit) {
			d.now = ms(limit)
			d.report()
			d.decide()
			d.now += unit
			d.report()
			d.decide()
			return
		}
		d.now = next
		d.report()
		var ended []speculators.AttemptID
		for _, r := range d.runs {
			if r.end == d.now {
				ended = append(ended, r.id)
			}
		}
		for _, id := range ended {
			i := int(id.Task.Index)
			if d.finished[i] != 0 || d.dropped[i] {
				continue
			}
			d.finished[i] = d.now
			d.remove(id)
			d.observe(speculators.Event{Kind: speculators.AttemptSucceeded, Time: d.now, Attempt: id})
			d.killOthers(i)
		}
	}
	d.t.Fatal("driver did not finish in 1000 steps")
}

func (d *driver) report() {
	for _, r := range d.runs {
		p := float64(d.now-r.start) / float64(r.end-r.start)
		d.observe(speculators.Event{Kind: speculators.AttemptStatus, Time: d.now, Attempt: r.id, Progress: p})
	}
}

func (d *driver) remove(id speculators.AttemptID) {
	d.runs = slices.DeleteFunc(d.runs, func(r run) bool { return r.id == id })
}

func (d *driver) killOthers(i int) {
	for _, r := range slices.Clone(d.runs) {
		if int(r.id.Task.Index) == i {
			d.remove(r.id)
			d.observe(speculators.Event{Kind: speculators.AttemptKilled, Time: d.now, Attempt: r.id})
		}
	}
}

// decide asks the engine, applies copies and drops, then fills free slots
// with originals.
func (d *driver) decide() {
	d.t.Helper()
	var ds []speculators.Decision
	idle := d.engine.SkipDecide(d.now)
	if idle {
		d.idle++
	}
	if !idle || !d.skipIdle {
		ds = d.h.Decide(d.now)
		if idle && len(ds) > 0 {
			d.t.Fatalf("t=%g: Decide said idle returned %v", float64(d.now)/unit, ds)
		}
	}
	d.keep()
	for _, dec := range ds {
		i := int(dec.Task.Index)
		d.log = append(d.log, fmt.Sprintf("t=%g %s %s", float64(d.now)/unit, dec.Kind, dec.Task))
		switch dec.Kind {
		case speculators.Speculate:
			if len(d.runs) >= d.job.slots {
				d.t.Fatalf("t=%g: %v with no free slot", float64(d.now)/unit, dec)
			}
			d.copyLaunched(i)
		case speculators.Drop:
			if d.dropped[i] {
				d.t.Fatalf("t=%g: second drop of %s", float64(d.now)/unit, dec.Task)
			}
			d.dropped[i] = true
			d.drops++
			d.killOthers(i)
		default:
			d.t.Fatalf("unexpected decision %v", dec)
		}
	}
	for len(d.runs) < d.job.slots {
		if d.job.pull {
			d.engine.OfferSlots() // from the first slot offered, as the simulator
			if id, isCopy, ok := d.engine.ChooseForSlot("free", d.now); ok && isCopy {
				d.log = append(d.log, fmt.Sprintf("t=%g speculate %s", float64(d.now)/unit, id))
				d.copyLaunched(int(id.Index))
				continue
			}
		}
		i := d.nextOriginal()
		if i < 0 {
			break
		}
		d.launch(i, false)
	}
	if d.afterDecide != nil {
		d.afterDecide(d)
	}
}

// copyLaunched launches a copy of map i and counts it as early or late.
func (d *driver) copyLaunched(i int) {
	d.launch(i, true)
	if d.nextOriginal() >= 0 {
		d.earlyCopies++
		d.earlyMax = max(d.earlyMax, d.runningOf(i))
	} else {
		d.lateCopies++
	}
}

func (d *driver) nextOriginal() int {
	best := -1
	for i := range d.job.input {
		if d.started[i] || d.dropped[i] {
			continue
		}
		if best < 0 {
			best = i
			continue
		}
		shorter := d.job.input[i] < d.job.input[best]
		if d.job.deadline > 0 && shorter || d.job.deadline == 0 && d.job.input[i] > d.job.input[best] {
			best = i
		}
	}
	return best
}

func (d *driver) runningOf(i int) int {
	n := 0
	for _, r := range d.runs {
		if int(r.id.Task.Index) == i {
			n++
		}
	}
	return n
}

// paretoJob is a synthetic exact job whose attempts take their input (1)
// times a Pareto factor with the shape §3.2 measured in the Facebook and Bing
// traces (beta = 1.259, scale 1), rounded to quarter units; each task's
// copies draw their own factor. Seeded, so every run is the same.
func paretoJob(seed uint64, tasks, slots int) job {
	r := rand.New(rand.NewPCG(seed, 7))
	j := job{slots: slots}
	draw := func() float64 { return math.Round(4/math.Pow(1-r.Float64(), 1/1.259)) / 4 }
	for i := 0; i < tasks; i++ {
		j.input = append(j.input, 1)
		j.original = append(j.original, draw())
		j.copyDur = append(j.copyDur, draw())
	}
	for i := 0; i < slots && i < tasks; i++ {
		j.first = append(j.first, i)
	}
	return j
}

// doneBy counts maps finished by at (units).
func (d *driver) doneBy(at float64) int {
	n := 0
	for _, f := range d.finished {
		if f != 0 && f <= ms(at) {
			n++
		}
	}
	return n
}

// timeTo is when the k-th map finished (units), or -1.
func (d *driver) timeTo(k int) float64 {
	var fs []speculators.Time
	for _, f := range d.finished {
		if f != 0 {
			fs = append(fs, f)
		}
	}
	slices.Sort(fs)
	if k > len(fs) {
		return -1
	}
	return float64(fs[k-1]) / unit
}
