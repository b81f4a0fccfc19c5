package sim

import (
	"reflect"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// streamed returns headers of jobs whose Load gives the jobs' tasks back.
func streamed(jobs []Job) []Job {
	out := make([]Job, len(jobs))
	for i := range jobs {
		src := &jobs[i]
		h := *src
		h.Maps, h.Reduces = nil, nil
		h.NumTasks = [speculators.NumTaskTypes]int{len(src.Maps), len(src.Reduces)}
		for _, ts := range [][]Task{src.Maps, src.Reduces} {
			for _, t := range ts {
				h.LongestWork = max(h.LongestWork, t.Work)
			}
		}
		h.Load = func(j *Job) error {
			j.Maps = append([]Task(nil), src.Maps...)
			j.Reduces = append([]Task(nil), src.Reduces...)
			return nil
		}
		out[i] = h
	}
	return out
}

// A streamed run (Job.Load) gives the eager run's results, without the
// per-task finish times, and where nothing reads an ended job's attempts
// it reuses their slots: it holds fewer attempts than it launched. With
// hung nodes (a fault analyzer) it keeps them, and still gives the same.
func TestStreamedRunIsTheEagerOne(t *testing.T) {
	plain := make([]Node, 12)
	for i := range plain {
		plain[i] = Node{Name: "node" + itoa(i), Slots: 4, Slowdown: 1 + 2*float64(i%5/4)}
	}
	for _, tc := range []struct {
		name    string
		nodes   []Node
		recycle bool
	}{{"slow nodes", plain, true}, {"hung nodes", clusterNodes(12, 4), false}} {
		for _, sched := range []string{SchedulerFIFO, SchedulerFair} {
			cfg := DefaultConfig(tc.nodes)
			cfg.Seed, cfg.Scheduler, cfg.RecordDecisions = 5, sched, true
			jobs := workload(3, 30, 5, 120, 7000, Resample)
			eager, err := Run(cfg, jobs, stragglerFactory)
			if err != nil {
				t.Fatal(err)
			}
			s, err := newSim(cfg, streamed(jobs), stragglerFactory)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.loop(); err != nil {
				t.Fatal(err)
			}
			lazy := s.finish()
			launched, copies := 0, 0
			for i := range eager.Jobs {
				launched += eager.Jobs[i].Attempts
				copies += eager.Jobs[i].SpeculativeLaunched
				eager.Jobs[i].TaskFinish = [speculators.NumTaskTypes][]speculators.Time{}
			}
			if copies == 0 {
				t.Fatalf("%s %s: no speculative copy; the test proves nothing", tc.name, sched)
			}
			if !reflect.DeepEqual(eager, lazy) {
				t.Errorf("%s %s: the streamed run differs from the eager one", tc.name, sched)
			}
			if s.recycle != tc.recycle {
				t.Errorf("%s %s: recycle %v, want %v", tc.name, sched, s.recycle, tc.recycle)
			}
			if held := int(s.attempts.len()); tc.recycle && held >= launched {
				t.Errorf("%s %s: %d attempt slots held for %d launched; want them reused", tc.name, sched, held, launched)
			}
		}
	}
}

// A streamed job whose Load gives other tasks than it announced fails the
// run with an error naming the job.
func TestStreamedLoadMismatch(t *testing.T) {
	jobs := streamed(workload(3, 2, 5, 10, 1000, SameWork))
	jobs[1].NumTasks[speculators.Map]++
	_, err := Run(DefaultConfig(clusterNodes(4, 2)), jobs, noneFactory)
	if err == nil || !strings.Contains(err.Error(), jobs[1].ID) || !strings.Contains(err.Error(), "announced") {
		t.Fatalf("err = %v; want one naming %s and the announced count", err, jobs[1].ID)
	}
}

// forgetful is the straggler policy declaring that it asks for no Rerun
// (speculators.NoReruns); it asks for Kills, which name attempts.
type forgetful struct{ *straggler }

func (forgetful) NeverReruns() {}

func forgetfulFactory(info speculators.JobInfo) (*speculators.Engine, error) {
	return speculators.NewEngine(info, "straggler", forgetful{&straggler{copied: map[speculators.TaskID]speculators.Time{}}}, speculators.Params{})
}

// Where the policy asks for no Rerun, a streamed run that recycles lets a
// done task's attempt slots go at once (forgetDone): the results, the
// decisions applied or refused (Kills of copies among them) and the wrong
// speculations are the eager run's, and it holds fewer slots than a run
// that keeps them to the job's end.
func TestDoneTasksLetTheirSlotsGo(t *testing.T) {
	nodes := make([]Node, 12)
	for i := range nodes {
		nodes[i] = Node{Name: "node" + itoa(i), Slots: 4, Slowdown: 1 + 2*float64(i%5/4)}
	}
	for _, sched := range []string{SchedulerFIFO, SchedulerFair} {
		cfg := DefaultConfig(nodes)
		cfg.Seed, cfg.Scheduler, cfg.RecordDecisions = 5, sched, true
		jobs := workload(3, 30, 5, 120, 7000, Resample)
		eager, err := Run(cfg, jobs, stragglerFactory)
		if err != nil {
			t.Fatal(err)
		}
		wrong, kills := 0, 0
		for i := range eager.Jobs {
			eager.Jobs[i].TaskFinish = [speculators.NumTaskTypes][]speculators.Time{}
			wrong += eager.Jobs[i].WrongSpeculations
		}
		for _, d := range eager.Decisions {
			if d.Decision.Kind == speculators.Kill {
				kills++
			}
		}
		if wrong == 0 || kills == 0 {
			t.Fatalf("%s: %d wrong speculations, %d kills; the test proves nothing", sched, wrong, kills)
		}
		held := map[string]int32{}
		for name, f := range map[string]EngineFactory{"keeps": stragglerFactory, "forgets": forgetfulFactory} {
			s, err := newSim(cfg, streamed(jobs), f)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.loop(); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(eager, s.finish()) {
				t.Errorf("%s, policy that %s done tasks' slots: the run differs from the eager one", sched, name)
			}
			held[name] = s.attempts.len()
		}
		if held["forgets"] >= held["keeps"] {
			t.Errorf("%s: %d attempt slots held letting done tasks' go, %d keeping them; want fewer", sched, held["forgets"], held["keeps"])
		}
	}
}
