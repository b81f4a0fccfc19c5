package sim

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// resumeStep asks for copies of map i that resume from attempt n.
func resumeStep(at speculators.Time, i, n int32, copies int) step {
	id := speculators.TaskID{Type: speculators.Map, Index: i}
	return step{at: at, d: speculators.Decision{Kind: speculators.Speculate, Task: id, Copies: copies, Resume: true,
		From: speculators.AttemptID{Task: id, N: n}, Reason: "test"}}
}

// TestResumedCopiesSkipDoneWork: a 100 s map on a 4x slow node is killed
// at 40 s (10% done) and two copies resume on nominal nodes: they do the
// remaining 90 s of work, report progress from 0.1 up, and the task is
// done at 40 + 90 = 130 s instead of 40 + 100 = 140 s.
// Reference: SRQuant/LASER paper §III, Speculative-Resume (Fig. 2).
func TestResumedCopiesSkipDoneWork(t *testing.T) {
	ns := nodes(1, 1, 1)
	ns[0].Slowdown = 4
	p := &script{steps: []step{resumeStep(40000, 0, 0, 2), attemptDecision(40000, speculators.Kill, speculators.Map, 0, 0)}}
	cfg := cfgFor(ns)
	cfg.Resume = true
	res := runScript(t, cfg, []Job{{ID: "j", Maps: works(100000)}}, p)
	expectTime(t, "map finish", res.Jobs[0].TaskFinish[speculators.Map][0], 130000)
	expectInt(t, "attempts", res.Jobs[0].Attempts, 3)
	expectInt(t, "speculative launched", res.Jobs[0].SpeculativeLaunched, 2)
	for _, n := range []int32{1, 2} {
		reports := seenOf(p, speculators.AttemptStatus, speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map}, N: n})
		if len(reports) == 0 {
			t.Fatalf("attempt %d sent no status", n)
		}
		if first := reports[0].Progress; first <= 0.1 || first > 0.15 {
			t.Errorf("attempt %d first progress %.3f, want just above 0.1 (resumed at 10%%)", n, first)
		}
	}
	// Container time: 40 s of the original, then two copies of 90 s each
	// (the loser is killed when the winner ends).
	expectInt(t, "container ms", res.Jobs[0].ContainerMs, int64(40000+2*90000))
}

// TestResumeWithoutKnownAttemptStartsFromZero: a Resume naming an attempt
// of another task is read as a plain copy.
func TestResumeWithoutKnownAttemptStartsFromZero(t *testing.T) {
	ns := nodes(1, 1)
	st := resumeStep(40000, 0, 0, 1)
	st.d.From.Task.Index = 1
	p := &script{steps: []step{st, attemptDecision(40000, speculators.Kill, speculators.Map, 0, 0)}}
	res := runScript(t, cfgFor(ns), []Job{{ID: "j", Maps: works(100000, 10000)}}, p)
	expectTime(t, "map finish", res.Jobs[0].TaskFinish[speculators.Map][0], 140000)
}

// TestResumeOffCopiesStartFromZero: the same decisions without
// Config.Resume (a run that predicts live Hadoop, which cannot start an
// attempt at an offset): the copies redo the whole 100 s map from zero, so
// the task is done at 40 + 100 = 140 s, and the engine is told
// (JobInfo.Resume false) so that its policy can weigh it.
func TestResumeOffCopiesStartFromZero(t *testing.T) {
	ns := nodes(1, 1, 1)
	ns[0].Slowdown = 4
	p := &script{steps: []step{resumeStep(40000, 0, 0, 2), attemptDecision(40000, speculators.Kill, speculators.Map, 0, 0)}}
	res := runScript(t, cfgFor(ns), []Job{{ID: "j", Maps: works(100000)}}, p)
	expectTime(t, "map finish", res.Jobs[0].TaskFinish[speculators.Map][0], 140000)
	for _, n := range []int32{1, 2} {
		reports := seenOf(p, speculators.AttemptStatus, speculators.AttemptID{Task: speculators.TaskID{Type: speculators.Map}, N: n})
		if len(reports) == 0 {
			t.Fatalf("attempt %d sent no status", n)
		}
		if first := reports[0].Progress; first >= 0.1 {
			t.Errorf("attempt %d first progress %.3f, want from zero (no resume)", n, first)
		}
	}
	expectInt(t, "container ms", res.Jobs[0].ContainerMs, int64(40000+2*100000))
}
