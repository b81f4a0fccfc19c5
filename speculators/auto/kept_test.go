package auto

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// keptProbe keeps a mapsKept as fitted.Observe does.
type keptProbe struct{ a fitted }

func (p *keptProbe) Decide(_ *speculators.Job, _ speculators.Time, out []speculators.Decision) []speculators.Decision {
	return out
}

func (p *keptProbe) Observe(job *speculators.Job, ev *speculators.Event) {
	if p.a.maps != nil && ev.Attempt.Task.Type == speculators.Map {
		p.a.maps.update(job, int(ev.Attempt.Task.Index))
	}
	p.a.keptMaps(job)
}

// TestKeptMapsMatchScan replays random map jobs (originals and copies that
// start, report, succeed, fail, are killed, and succeeded originals killed
// afterwards when their output is lost) and checks after every event that
// rules v57 and v59's kept reading (mapsKept) is what a scan of every map
// reads: the same settled logs, successes and doneCopyWins counts, and at
// the event's time the same worst pace and median as originalLogs sorted.
func TestKeptMapsMatchScan(t *testing.T) {
	const maps = 40
	compared, lost, copiesWon := 0, 0, 0
	for seed := range uint64(30) {
		rng := rand.New(rand.NewPCG(seed, 7))
		probe := &keptProbe{}
		e, err := speculators.NewEngine(speculators.JobInfo{ID: "j", Maps: maps}, "probe", probe, speculators.Params{})
		if err != nil {
			t.Fatal(err)
		}
		next := make([]int32, maps)
		now := speculators.Time(0)
		for step := range 600 {
			now += speculators.Time(rng.IntN(400))
			i := rng.IntN(maps)
			task := e.Job.Tasks[speculators.Map][i]
			ev := speculators.Event{Time: now, Attempt: speculators.AttemptID{Task: task.ID}}
			var running []*speculators.Attempt
			for _, at := range task.Attempts {
				if at.Running() {
					running = append(running, at)
				}
			}
			switch r := rng.IntN(10); {
			case len(task.Attempts) == 0 || (r == 0 && len(running) < 2 && !task.Done()):
				ev.Kind, ev.Attempt.N, ev.Speculative = speculators.AttemptStarted, next[i], len(task.Attempts) > 0
				ev.Node = "n1"
				next[i]++
			case len(running) > 0 && r < 6:
				at := running[rng.IntN(len(running))]
				ev.Kind, ev.Attempt.N = speculators.AttemptStatus, at.ID.N
				ev.Progress, ev.Phase = min(1, at.Progress+rng.Float64()*0.3), speculators.PhaseMap
			case len(running) > 0:
				at := running[rng.IntN(len(running))]
				ev.Attempt.N = at.ID.N
				ev.Kind = []speculators.EventKind{speculators.AttemptSucceeded, speculators.AttemptFailed, speculators.AttemptKilled}[rng.IntN(3)]
			case task.Succeeded != nil && r == 9:
				ev.Kind, ev.Attempt.N = speculators.AttemptKilled, task.Succeeded.ID.N // output lost
				lost++
			default:
				continue
			}
			if err := e.Observe(&ev); err != nil {
				t.Fatalf("seed %d step %d: %v", seed, step, err)
			}
			if checkKeptMaps(t, e.Job, probe.a.maps, now) {
				compared++
			}
			if probe.a.maps.won > 0 && probe.a.maps.copied > probe.a.maps.won {
				copiesWon++
			}
			if t.Failed() {
				t.Fatalf("seed %d step %d (%v of map %d)", seed, step, ev.Kind, i)
			}
		}
	}
	if compared < 1000 || lost < 100 || copiesWon < 1000 {
		t.Errorf("the medians were compared %d times, %d outputs lost, copies both won and lost at %d events: the jobs are too tame to test the reading", compared, lost, copiesWon)
	}
}

// checkKeptMaps reports whether the medians were compared (at least
// futileMinCopies originals done and one running read at its pace).
func checkKeptMaps(t *testing.T, job *speculators.Job, r *mapsKept, now speculators.Time) bool {
	t.Helper()
	fresh := (&fitted{}).keptMaps(job)
	if !slices.Equal(r.settled, fresh.settled) || r.done != fresh.done {
		t.Errorf("kept reading %v (%d done), a scan reads %v (%d done)", r.settled, r.done, fresh.settled, fresh.done)
	}
	if copied, won := doneCopyWins(job, speculators.Map); r.copied != copied || r.won != won {
		t.Errorf("kept copies: %d copied, %d won; doneCopyWins: %d, %d", r.copied, r.won, copied, won)
	}
	// The reading before it was kept: every map visited, the logs sorted.
	done, worst := 0, 0.0
	for _, task := range job.Tasks[speculators.Map] {
		if len(task.Attempts) == 0 || task.Attempts[0].Speculative {
			continue
		}
		at := task.Attempts[0]
		switch at.State {
		case speculators.StateSucceeded:
			done++
		case speculators.StateRunning:
			if end, ok := finishAtPace(at); ok {
				worst = max(worst, end-float64(at.Start))
			}
		}
	}
	gotWorst, gotMedian, gotN := r.limping(job, now)
	if done < futileMinCopies || worst <= 0 {
		if gotWorst != 0 {
			t.Errorf("read worst %v with %d done and worst %v by a scan", gotWorst, done, worst)
		}
		return false
	}
	logs := originalLogs(job, speculators.Map, now, true)
	sort.Float64s(logs)
	if median := math.Exp(logs[len(logs)/2]); gotWorst != worst || gotMedian != median || gotN != len(logs) {
		t.Errorf("read worst %v, median %v of %d; a scan reads %v, %v of %d", gotWorst, gotMedian, gotN, worst, median, len(logs))
	}
	return true
}
