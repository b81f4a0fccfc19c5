package main

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/specbridge/specbridge/lasertrain"
	"github.com/specbridge/specbridge/replay"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/all"
	"github.com/specbridge/specbridge/speculators/laser"
)

// laserModelParam is the --param key that names a LASER model file.
const laserModelParam = laser.Name + "." + laser.ParamModel

// policyRegistry builds the registry with LASER's model: the file named by
// --param laser.model=FILE, else (nil) the model embedded in the binary. It
// is the commands' one way to the registry (serve, replay, sweep,
// speculators, docs, conformance-trace), so that each sees the same
// policies.
func policyRegistry(params []string) (*speculators.Registry, error) {
	model, err := laserModel(params)
	if err != nil {
		return nil, err
	}
	return all.RegistryWith(all.Options{LaserModel: model})
}

func laserModel(params []string) (*laser.Model, error) {
	path := ""
	for _, p := range params {
		if v, ok := strings.CutPrefix(p, laserModelParam+"="); ok {
			path = strings.TrimSpace(v)
		}
	}
	if path == "" || path == "embedded" {
		return nil, nil // all.RegistryWith takes the embedded model
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--param %s: %w", laserModelParam, err)
	}
	m, err := laser.ParseModel(data)
	if err != nil {
		return nil, fmt.Errorf("--param %s: %s: %w", laserModelParam, path, err)
	}
	return m, nil
}

func trainCommand() *cli.Command {
	return &cli.Command{
		Name:  "train",
		Usage: "train a learning policy's model from job histories and scenarios",
		Subcommands: []*cli.Command{hadoopCommand(&cli.Command{
			Name:      "laser",
			Usage:     "train LASER's task, job and machine networks and write one model file",
			ArgsUsage: "INPUT...",
			Description: "Each INPUT is a scenario, a history file or a directory of histories (local or hdfs://, as the\n" +
				"JobHistory server's done directory), replayed in the simulator\n" +
				"(seeds --seed..--seed+--runs-1): maps still running at tau_est give the task network's rows, and\n" +
				"Speculative-Resume with each r in 0..r-max gives the job and machine networks' rows. Jobs without a\n" +
				"deadline get one for training. Every row is also given with the counters a live attempt reports:\n" +
				"the histories' recorded counters per byte read and CPU second, drawn ones where an input has none.\n" +
				"Each network keeps its inputs' training ranges; outside them LASER decides as srquant.\n" +
				"Prints the validation error (mean absolute, seconds) of each network.\n" +
				"Use the model with --param laser.model=FILE in replay and serve.",
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "out", Required: true, Usage: "model file to write"},
				&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the workloads and the networks (same seed, same model)"},
				&cli.IntFlag{Name: "runs", Value: 2, Usage: "seeds per input"},
				&cli.Float64Flag{Name: "tau-est-s", Value: 120, Usage: "LASER's tau-est-s the model will run with"},
				&cli.Float64Flag{Name: "tau-kill-s", Value: 200, Usage: "LASER's tau-kill-s the model will run with"},
				&cli.IntFlag{Name: "r-max", Value: 4, Usage: "LASER's r-max the model will run with"},
				&cli.Float64Flag{Name: "tjvm-s", Value: 0, Usage: "LASER's tjvm-s the model will run with"},
				&cli.IntFlag{Name: "task-epochs", Value: 60, Usage: "training epochs of the task network"},
				&cli.IntFlag{Name: "job-epochs", Value: 120, Usage: "training epochs of the job and machine networks"},
			},
			Action: trainLaser,
		})},
	}
}

// maxEpochs bounds train laser's --task-epochs and --job-epochs.
const maxEpochs = 100_000

func trainLaser(c *cli.Context) error {
	if c.NArg() == 0 {
		return fmt.Errorf("train laser: no INPUT given (scenarios or job histories)")
	}
	// Zero or less was silently the default; billions never ended.
	for _, f := range []struct {
		name string
		max  int
	}{{"runs", maxRuns}, {"task-epochs", maxEpochs}, {"job-epochs", maxEpochs}} {
		if v := c.Int(f.name); v < 1 || v > f.max {
			return usageError(c, "--%s %d: want 1..%d", f.name, v, f.max)
		}
	}
	var sources []lasertrain.Source
	for _, path := range c.Args().Slice() {
		in, err := replay.Load(path, replay.LoadOptions{HDFS: hdfsConf(c)})
		if err != nil {
			return fmt.Errorf("train laser: %w", err)
		}
		sources = append(sources, lasertrain.Source{Name: path, Build: replay.WorkloadOf(in, replay.ClusterOptions{}), Jobs: in.Jobs})
	}
	cfg := lasertrain.Config{Seed: c.Uint64("seed"), Runs: c.Int("runs"), TauEstS: c.Float64("tau-est-s"), TauKillS: c.Float64("tau-kill-s"),
		RMax: c.Int("r-max"), TJVMS: c.Float64("tjvm-s"), TaskEpochs: c.Int("task-epochs"), JobEpochs: c.Int("job-epochs")}
	start := time.Now()
	m, err := lasertrain.Train(sources, cfg)
	if err != nil {
		return err
	}
	data, err := m.Encode()
	if err != nil {
		return fmt.Errorf("train laser: encode: %w", err)
	}
	if err := os.WriteFile(c.String("out"), append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("train laser: %w", err)
	}
	t := m.Training
	w := c.App.Writer
	fmt.Fprintf(w, "trained on %d task rows and %d straggler rows in %.1f s; wrote %s\n", t.TaskRows, t.JobRows, time.Since(start).Seconds(), c.String("out"))
	fmt.Fprintf(w, "validation (mean absolute error / mean true value):\n")
	fmt.Fprintf(w, "  task time     %7.1f s / %7.1f s (%.1f%%)\n", t.TaskL1S, t.TaskMeanS, 100*t.TaskL1S/t.TaskMeanS)
	fmt.Fprintf(w, "  job time      %7.1f s / %7.1f s (%.1f%%)\n", t.JobL1S, t.JobMeanS, 100*t.JobL1S/t.JobMeanS)
	fmt.Fprintf(w, "  machine time  %7.1f s / %7.1f s (%.1f%%)\n", t.MachineL1S, t.MachineMeanS, 100*t.MachineL1S/t.MachineMeanS)
	return nil
}
