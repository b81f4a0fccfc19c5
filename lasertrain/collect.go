// Package lasertrain trains LASER's networks (SRQuant/LASER paper §V-B)
// from job histories and scenarios: it replays each input in the simulator,
// collects the Table II features of every map still running at tau_est with
// its run time (task network), and, running Speculative-Resume with each
// fixed r in 0..r_max, the straggler's features, r and the job's completion
// and machine time (job and machine networks, as §V-B1 collects them "with
// different r values"). It is a driver: it runs simulations and fits
// networks in memory; reading inputs and writing the model file is the
// CLI's job.
package lasertrain

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/specbridge/specbridge/replay"
	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/laser"
	"github.com/specbridge/specbridge/speculators/resume"
)

// taskRow is one map's features at tau_est; job and task locate its run
// time in the result.
type taskRow struct {
	x         []float64
	job, task int
	start     speculators.Time
}

// jobRow is one straggler's job features with r; job locates the targets.
type jobRow struct {
	x   []float64
	job int
}

// taskRecorder is a policy that never acts and records, at the first
// decision point tau_est or more after a map's original attempt started,
// the attempt's task features.
type taskRecorder struct {
	job    int
	book   counterBook
	tauEst speculators.Time
	tjvm   float64
	seen   []bool
	rows   *[]taskRow
}

func (p *taskRecorder) Decide(job *speculators.Job, now speculators.Time, out []speculators.Decision) []speculators.Decision {
	maps := job.Tasks[speculators.Map]
	if p.seen == nil {
		p.seen = make([]bool, len(maps))
	}
	for i, t := range maps {
		if p.seen[i] || t.Done() {
			continue
		}
		a := t.OnlyRunning()
		if a == nil || a.Speculative || now-a.Start < p.tauEst {
			continue
		}
		p.seen[i] = true
		live := p.book.withLiveCounters(job, p.job, a, now)
		*p.rows = append(*p.rows, taskRow{x: laser.TaskFeatures(nil, a, now, p.tjvm), job: p.job, task: i, start: a.Start},
			taskRow{x: laser.TaskFeatures(nil, live, now, p.tjvm), job: p.job, task: i, start: a.Start})
	}
	return out
}

// fixedR is Speculative-Resume with the task network as estimator and a
// fixed r, recording each straggler's job features.
type fixedR struct {
	job      int
	book     counterBook
	r        int
	net      *laser.Net
	tjvm     float64
	tauKillS float64
	rows     *[]jobRow
	resumer  *resume.Resumer
	buf      []float64
}

func (p *fixedR) Decide(job *speculators.Job, now speculators.Time, out []speculators.Decision) []speculators.Decision {
	return p.resumer.Decide(job, now, p, out)
}

func (p *fixedR) EstimateS(_ *speculators.Job, _ *speculators.Task, a *speculators.Attempt, now speculators.Time) float64 {
	var y float64
	y, p.buf = p.net.Predict(laser.TaskFeatures(nil, a, now, p.tjvm), p.buf)
	return y
}

func (p *fixedR) Choose(job *speculators.Job, _ *speculators.Task, a *speculators.Attempt, now speculators.Time) (int, string) {
	live := p.book.withLiveCounters(job, p.job, a, now)
	*p.rows = append(*p.rows, jobRow{x: laser.JobFeatures(nil, job, a, now, p.tjvm, p.tauKillS, p.r), job: p.job},
		jobRow{x: laser.JobFeatures(nil, job, live, now, p.tjvm, p.tauKillS, p.r), job: p.job})
	return p.r, "training"
}

// prepare readies a workload for training: jobs run to the end
// (enforce_bounds off, so that run times are whole), and a job without a
// deadline gets one, submit + f x its mean map work with f ~ U(1.2, 4) from
// a source seeded by seed, so that histories without deadlines still give
// stragglers to learn from. The factor range is our choice: it spans
// deadlines that most jobs meet to ones that many miss.
func prepare(w *replay.Workload, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0xdead11e))
	for i := range w.Jobs {
		j := &w.Jobs[i]
		j.EnforceBounds = false
		if j.Deadline > 0 || len(j.Maps) == 0 {
			continue
		}
		sum := 0.0
		for _, t := range j.Maps {
			sum += float64(t.Work)
		}
		f := 1.2 + 2.8*rng.Float64()
		j.Deadline = j.Submit + speculators.Time(math.Round(f*sum/float64(len(j.Maps))))
	}
}

// indexOf maps job ids to their index in w.
func indexOf(w *replay.Workload) map[string]int {
	m := make(map[string]int, len(w.Jobs))
	for i := range w.Jobs {
		m[w.Jobs[i].ID] = i
	}
	return m
}

// run simulates w with the policy policyFor builds for each job index.
func run(w *replay.Workload, policyFor func(job int) speculators.Speculator) (*sim.Result, error) {
	index := indexOf(w)
	res, err := sim.Run(w.Config, w.Jobs, func(info speculators.JobInfo) (*speculators.Engine, error) {
		i, ok := index[info.ID]
		if !ok {
			return nil, fmt.Errorf("job %s is not in the workload", info.ID)
		}
		return speculators.NewEngine(info, "laser-training", policyFor(i), speculators.Params{})
	})
	if err != nil {
		return nil, fmt.Errorf("simulate for training: %w", err)
	}
	return res, nil
}

// collectTasks returns task features and run times (s) of w's maps that
// ran past tau_est, with no speculation.
func collectTasks(w *replay.Workload, book counterBook, cfg Config) ([][]float64, []float64, error) {
	var rows []taskRow
	res, err := run(w, func(job int) speculators.Speculator {
		return &taskRecorder{job: job, book: book, tauEst: ms(cfg.TauEstS), tjvm: cfg.TJVMS, rows: &rows}
	})
	if err != nil {
		return nil, nil, err
	}
	var x [][]float64
	var y []float64
	for _, r := range rows {
		fin := res.Jobs[r.job].TaskFinish[speculators.Map][r.task]
		if fin < 0 {
			continue
		}
		x = append(x, r.x)
		y = append(y, float64(fin-r.start)/1000)
	}
	return x, y, nil
}

// collectJobs returns job features of w's stragglers under
// Speculative-Resume with r extra attempts, and their jobs' completion
// (from submit) and machine times (s).
func collectJobs(w *replay.Workload, book counterBook, cfg Config, task *laser.Net, r int) ([][]float64, []float64, []float64, error) {
	var rows []jobRow
	var ferr error
	res, err := run(w, func(job int) speculators.Speculator {
		rs, err := resume.New(resume.Config{TauEst: ms(cfg.TauEstS), TauKill: ms(cfg.TauKillS)})
		if err != nil {
			ferr = err
		}
		return &fixedR{job: job, book: book, r: r, net: task, tjvm: cfg.TJVMS, tauKillS: cfg.TauKillS, rows: &rows, resumer: rs}
	})
	if ferr != nil {
		return nil, nil, nil, ferr
	}
	if err != nil {
		return nil, nil, nil, err
	}
	var x [][]float64
	var jt, mt []float64
	for _, row := range rows {
		j := &res.Jobs[row.job]
		if j.Finish < 0 {
			continue
		}
		x = append(x, row.x)
		jt = append(jt, float64(j.Finish-j.Submit)/1000)
		mt = append(mt, float64(j.ContainerMs)/1000)
	}
	return x, jt, mt, nil
}

func ms(s float64) speculators.Time { return speculators.Time(math.Round(s * 1000)) }
