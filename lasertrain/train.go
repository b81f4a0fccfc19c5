package lasertrain

import (
	"fmt"
	"math"

	"github.com/specbridge/specbridge/replay"
	"github.com/specbridge/specbridge/speculators/laser"
	"github.com/specbridge/specbridge/speculators/resume"
	"github.com/specbridge/specbridge/yarnclient/history"
)

// Config sets a training run. Zero values take the defaults of
// DefaultConfig.
type Config struct {
	// Seed seeds the workloads (seeds Seed..Seed+Runs-1) and the networks.
	Seed uint64
	Runs int
	// TauEstS, TauKillS, RMax and TJVMS must match the policy's
	// parameters the model will run with (LASER's defaults).
	TauEstS, TauKillS float64
	RMax              int
	TJVMS             float64
	// Epochs of the task network and of the job and machine networks.
	TaskEpochs, JobEpochs int
}

// DefaultConfig is the configuration the bundled model is trained with:
// the paper's tau_est, tau_kill (§VI-C) and LASER's r_max; 3 hidden
// layers of 32 units for the task network and one of 32 for the job and
// machine networks (Table I's choice of depths; the widths are ours).
func DefaultConfig() Config {
	return Config{Seed: 1, Runs: 2, TauEstS: 120, TauKillS: 200, RMax: 4, TaskEpochs: 60, JobEpochs: 120}
}

// Source is one training input: a name for the record and its workload
// builder.
type Source struct {
	Name  string
	Build replay.WorkloadFunc
	// Jobs are the input's recorded jobs, whose map attempts' counters the
	// rows take (nil for a scenario: counters are drawn).
	Jobs []*history.Job
}

// Train collects rows from every source for each seed and fits the three
// networks. The same sources and config give the same model, byte for byte.
func Train(sources []Source, cfg Config) (*laser.Model, error) {
	def := DefaultConfig()
	if cfg.Runs < 1 {
		cfg.Runs = def.Runs
	}
	if cfg.TaskEpochs < 1 {
		cfg.TaskEpochs = def.TaskEpochs
	}
	if cfg.JobEpochs < 1 {
		cfg.JobEpochs = def.JobEpochs
	}
	if !(cfg.TauEstS > 0) || !(cfg.TauKillS >= cfg.TauEstS) || math.IsInf(cfg.TauKillS, 0) || cfg.RMax < 0 || cfg.RMax > resume.MaxRMax {
		return nil, fmt.Errorf("train laser: tau_est %g s must be positive, tau_kill %g s finite and at least tau_est, r_max %d in 0..%d", cfg.TauEstS, cfg.TauKillS, cfg.RMax, resume.MaxRMax)
	}
	var pool []rates
	for _, src := range sources {
		for _, j := range src.Jobs {
			pool = append(pool, countersOf([]*history.Job{j})[j.ID]...)
		}
	}
	var workloads []*replay.Workload
	var books []counterBook
	var names []string
	for _, src := range sources {
		names = append(names, src.Name)
		real := countersOf(src.Jobs)
		for k := 0; k < cfg.Runs; k++ {
			w, err := src.Build(cfg.Seed + uint64(k))
			if err != nil {
				return nil, fmt.Errorf("train laser: %s: %w", src.Name, err)
			}
			prepare(w, cfg.Seed+uint64(k))
			workloads = append(workloads, w)
			books = append(books, counterBook{real: real, pool: pool, seed: cfg.Seed + uint64(k) + uint64(len(books))<<20})
		}
	}
	var tx [][]float64
	var ty []float64
	for i, w := range workloads {
		x, y, err := collectTasks(w, books[i], cfg)
		if err != nil {
			return nil, fmt.Errorf("train laser: %s: %w", names[i/cfg.Runs], err)
		}
		tx, ty = append(tx, x...), append(ty, y...)
	}
	if len(tx) < 50 {
		return nil, fmt.Errorf("train laser: only %d maps ran past tau_est = %g s in the inputs; need at least 50 (inputs with longer tasks, or a smaller tau-est)", len(tx), cfg.TauEstS)
	}
	// The task net learns a correction to SRQuant's linear estimate, the
	// last task feature (laser.Net.OffsetInput).
	task := fit(tx, ty, fitConfig{Hidden: []int{32, 32, 32}, Offset: len(laser.TaskFeatureNames), Epochs: cfg.TaskEpochs, Batch: 64, Rate: 2e-3, Seed: cfg.Seed})
	var jx [][]float64
	var jt, mt []float64
	for i, w := range workloads {
		for r := 0; r <= cfg.RMax; r++ {
			x, t, m, err := collectJobs(w, books[i], cfg, &task.Net, r)
			if err != nil {
				return nil, fmt.Errorf("train laser: %s: %w", names[i/cfg.Runs], err)
			}
			jx, jt, mt = append(jx, x...), append(jt, t...), append(mt, m...)
		}
	}
	if len(jx) < 50 {
		return nil, fmt.Errorf("train laser: only %d stragglers in the inputs; need at least 50", len(jx))
	}
	job := fit(jx, jt, fitConfig{Hidden: []int{32}, Epochs: cfg.JobEpochs, Batch: 64, Rate: 2e-3, Seed: cfg.Seed + 1})
	machine := fit(jx, mt, fitConfig{Hidden: []int{32}, Epochs: cfg.JobEpochs, Batch: 64, Rate: 2e-3, Seed: cfg.Seed + 2})
	m := &laser.Model{Version: laser.ModelVersion, TaskFeatures: laser.TaskFeatureNames, JobFeatures: laser.JobFeatureNames,
		Task: task.Net, Job: job.Net, Machine: machine.Net,
		Training: laser.TrainingInfo{Inputs: names, Seed: cfg.Seed, TaskRows: len(tx), JobRows: len(jx),
			TaskL1S: task.L1S, TaskMeanS: task.MeanTrueS, JobL1S: job.L1S, JobMeanS: job.MeanTrueS,
			MachineL1S: machine.L1S, MachineMeanS: machine.MeanTrueS}}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("train laser: %w", err)
	}
	return m, nil
}
