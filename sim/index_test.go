package sim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/all/alltest"
)

// indexWorkload is a random day of a few dozen jobs on a small cluster with
// slow nodes, a hang and a crash: retries, copies, preempted reduces, slow
// start (the cluster's and jobs' own) and pull-based jobs all come and go.
func indexWorkload(seed uint64) (Config, []Job) {
	rng := rand.New(rand.NewPCG(seed, 7))
	ns := make([]Node, 12)
	for i := range ns {
		ns[i] = Node{Name: fmt.Sprintf("n%02d", i), Slots: 1 + rng.IntN(4)}
		if i%5 == 1 {
			ns[i].Slowdown = 3
		}
	}
	if seed%2 == 0 {
		ns[3].Episodes = []Episode{{Start: 20_000, End: 700_000, Factor: posInf()}}
		ns[7].Episodes = []Episode{{Start: 40_000, End: 300_000, Crash: true}}
	} else {
		ns[2] = Node{Name: "n02", MapSlots: 2, ReduceSlots: 1}
	}
	cfg := DefaultConfig(ns)
	cfg.Seed = seed
	jobs := make([]Job, 30)
	at := speculators.Time(0)
	for i := range jobs {
		at += speculators.Time(rng.IntN(8_000))
		maps := make([]speculators.Time, 1+rng.IntN(25))
		for k := range maps {
			maps[k] = speculators.Time(2_000 + rng.IntN(40_000))
		}
		reduces := make([]speculators.Time, rng.IntN(6))
		for k := range reduces {
			reduces[k] = speculators.Time(5_000 + rng.IntN(30_000))
		}
		jobs[i] = Job{ID: fmt.Sprintf("job_%02d", i), Submit: at, Maps: works(maps...), Reduces: works(reduces...), CopyWork: Resample}
		if i%4 == 1 {
			// The job's own slow start (its configuration, issue 30).
			own := []float64{0, 0.5, 1}[rng.IntN(3)]
			jobs[i].ReduceSlowstart = &own
		}
	}
	return cfg, jobs
}

// TestIndexMatchesPass replays random days under policies of every kind
// (push, pull-based, job-ordering, cloning, report-blind) and checks after
// every event that the active-job index holds exactly what a pass over the
// running jobs finds (verifyIndex).
func TestIndexMatchesPass(t *testing.T) {
	reg := alltest.Registry(t)
	for _, name := range []string{"hadoop", "late", "none", "grass", "mantri", "sda", "dolly"} {
		for seed := uint64(1); seed <= 2; seed++ {
			t.Run(fmt.Sprintf("%s/%d", name, seed), func(t *testing.T) {
				cfg, jobs := indexWorkload(seed)
				if name == "hadoop" {
					cfg.Scheduler = SchedulerFair
				}
				s, err := newSim(cfg, jobs, func(info speculators.JobInfo) (*speculators.Engine, error) {
					return reg.NewEngine(info, name, nil, seed)
				})
				if err != nil {
					t.Fatal(err)
				}
				s.checkIndex = true
				if err := s.loop(); err != nil {
					t.Fatal(err)
				}
				r := s.finish()
				if r.Unfinished != 0 {
					t.Fatalf("%d jobs unfinished", r.Unfinished)
				}
				if s.index.placeable.n+s.index.waiting.n+s.index.starving.n+s.index.copyJobs+s.index.pullRunning != 0 {
					t.Errorf("index not empty at the end: %+v", s.index)
				}
			})
		}
	}
}

// TestJobSetNext checks the two-level bit set against a plain set.
func TestJobSetNext(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var b jobSet
	in := map[int32]bool{}
	for range 20_000 {
		r := int32(rng.IntN(9_000))
		on := rng.IntN(3) != 0
		b.put(r, on)
		in[r] = on
		from := int32(rng.IntN(9_100))
		want := int32(-1)
		for k := from; k < 9_000; k++ {
			if in[k] {
				want = k
				break
			}
		}
		if got := b.next(from); got != want {
			t.Fatalf("next(%d) = %d, want %d", from, got, want)
		}
	}
	n := 0
	for _, on := range in {
		if on {
			n++
		}
	}
	if b.n != n {
		t.Errorf("n = %d, want %d", b.n, n)
	}
}

// TestJobSetCopy checks a scheduling round's copy of a set (copyFrom,
// reset): a copy over a set that held other members, and sets of other
// lengths, holds the source's members and no other, in order; drops from
// the copy leave the source as it was; the copy's summary stays exact
// (next skips words by it).
func TestJobSetCopy(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	var dst jobSet
	for range 400 {
		var src jobSet
		span := 1 + rng.IntN(20_000)
		want := map[int32]bool{}
		for range rng.IntN(200) {
			r := int32(rng.IntN(span))
			on := rng.IntN(4) != 0
			src.put(r, on)
			want[r] = on
		}
		if rng.IntN(5) == 0 {
			dst.reset()
			if dst.n != 0 || dst.next(0) != -1 {
				t.Fatalf("reset left %d members, next %d", dst.n, dst.next(0))
			}
		}
		dst.copyFrom(&src)
		if got, exp := members(&dst), members(&src); !slices.Equal(got, exp) || dst.n != src.n {
			t.Fatalf("copy holds %v (n %d), source %v (n %d)", got, dst.n, exp, src.n)
		}
		exp := members(&src)
		for _, r := range exp {
			if !want[r] {
				t.Fatalf("source holds %d, never put", r)
			}
			if rng.IntN(2) == 0 {
				dst.put(r, false)
			}
		}
		if !slices.Equal(members(&src), exp) {
			t.Fatalf("drops from the copy changed the source")
		}
		// Every word the copy's summary leaves out is empty.
		for w, x := range dst.words {
			if on := dst.summary[w>>6]&(1<<(w&63)) != 0; on != (x != 0) {
				t.Fatalf("word %d = %x, summary bit %v", w, x, on)
			}
		}
	}
}

// members lists b's members by next.
func members(b *jobSet) []int32 {
	var out []int32
	for r := b.next(0); r >= 0; r = b.next(r + 1) {
		out = append(out, r)
	}
	return out
}
