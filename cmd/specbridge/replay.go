package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sirupsen/logrus"
	"github.com/specbridge/specbridge/replay"
	"github.com/specbridge/specbridge/replay/report"
	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/store/grassamples"
	"github.com/specbridge/specbridge/yarnclient/hdfs"
	"github.com/specbridge/specbridge/yarnclient/history"
	"github.com/specbridge/specbridge/yarnclient/rmorder"
	"github.com/urfave/cli/v2"
)

func replayCommand() *cli.Command {
	return hadoopCommand(&cli.Command{
		Name:      "replay",
		Usage:     "compare speculation policies on job histories (.jhist, Rumen, SWIM) or scenario files",
		ArgsUsage: "INPUT...",
		Description: "Each INPUT (a file, a directory of .jhist/.json histories replayed as one workload, or an\n" +
			"hdfs://namenode:port/path) gives one report. simulate mode re-executes the workload once per policy\n" +
			"and seed; decisions mode feeds the recorded timeline to each policy and lists what it would have\n" +
			"decided beside what Hadoop did. Flags may come before or after the inputs.\n\n" +
			"Example: specbridge replay --runs 5 --report report.html --jobs jobs.csv data/swim/FB-2009_samples_24_times_1hr_0.tsv",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Usage: "input `FORMAT`: jhist, rumen, swim or scenario", DefaultText: "detected from content"},
			&cli.StringFlag{Name: "speculators", Usage: "comma-separated `POLICIES` to compare (specbridge speculators lists them)", DefaultText: "every registered policy"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "first random `SEED`"},
			&cli.IntFlag{Name: "runs", Value: 1, Usage: "`N` runs with seeds seed..seed+N-1; figures are means over runs"},
			&cli.IntFlag{Name: "parallel", Usage: "run `N` simulations (policy x seed) at once; the output does not depend on it", DefaultText: "the number of CPUs"},
			&cli.StringFlag{Name: "mode", Value: "simulate", Usage: "`MODE`: simulate or decisions"},
			&cli.StringSliceFlag{Name: "param", Usage: "override a selected policy's parameter, `POLICY.NAME=VALUE`, e.g. late.speculative-cap=0.2 (repeatable)"},
			&cli.StringFlag{Name: "output", Value: "table", Usage: "report `FORMAT` on stdout: table, json or csv (several inputs: one JSON array, one CSV)"},
			&cli.IntFlag{Name: "nodes", Usage: "re-execute histories on `N` nodes instead of the recorded hosts (not for scenarios, which describe their cluster)", DefaultText: replay.NodesDefaultText()},
			&cli.IntFlag{Name: "slots", Usage: "`N` containers per node of --nodes (not for scenarios)", DefaultText: "8"},
			&cli.StringFlag{Name: "scheduler", Usage: "`NAME`: fifo or fair", DefaultText: "the scenario's, else fifo"},
			&cli.StringFlag{Name: "job-order", Usage: "`ORDER` of jobs on free slots for the policies that order jobs (sca, sda, ese, auto): exact (every scheduling pass, as their papers' systems), yarn (as serve --rm-job-order applies it live: YARN priority levels read every --job-order-interval) or none (YARN's scheduler alone, as live without --rm-job-order)", DefaultText: "exact for a scenario, none for a history"},
			&cli.IntFlag{Name: "job-order-levels", Value: 10, Usage: "under --job-order yarn: the cluster's `LEVELS` (yarn.cluster.max-application-priority)"},
			&cli.DurationFlag{Name: "job-order-interval", Value: rmorder.DefaultInterval, Usage: "under --job-order yarn: how often (`DURATION`) the order is read (serve --rm-job-order-interval)"},
			&cli.BoolFlag{Name: "no-copy-cost", Usage: "copies take their draws' times: leave out the copy cost, the extra start-up of copies over originals that the histories with copies show (the inputs and --node-speeds-from; docs/replay.md)"},
			&cli.IntFlag{Name: "node-slots", Usage: "give each recorded NodeManager of a history `N` containers (its capacity, which a history does not record), keeping its name, speed and crash (not with --nodes/--slots)", DefaultText: "the most it ran at once"},
			&cli.StringSliceFlag{Name: "node-speeds-from", Usage: "measure the recorded NodeManagers' speeds from the histories at `PATH` too (a .jhist, Rumen trace or directory of jobs of the same cluster; repeatable), and replay on every NodeManager they name but those they show crashed before; they are not replayed", DefaultText: "the input's own attempts"},
			&cli.BoolFlag{Name: "no-stragglers", Usage: "no straggler model for inputs without attempt times of their own (SWIM): tasks run their trace times on a uniform cluster"},
			&cli.Float64Flag{Name: "straggler-fraction", Value: dsm.TailFraction, Usage: "straggler model: `FRACTION` of tasks that straggle (inputs without attempt times)"},
			&cli.Float64Flag{Name: "straggler-shape", Value: dsm.TailShape, Usage: "straggler model: Pareto `SHAPE` of a straggler's slowdown (GRASS §3.2: 1.259)"},
			&cli.Float64Flag{Name: "straggler-min", Value: dsm.TailMin, Usage: "straggler model: least `FACTOR` a straggling task is slowed by"},
			&cli.Float64Flag{Name: "straggler-cap", Value: dsm.TailCap, Usage: "straggler model: most `FACTOR` a straggling task is slowed by"},
			&cli.Float64Flag{Name: "slow-node-fraction", Value: dsm.SlowNodeFraction, Usage: "straggler model: `FRACTION` of nodes that run slower (LATE §5.2.2: 8%)"},
			&cli.Float64Flag{Name: "slow-node-factor", Value: dsm.SlowNodeFactor, Usage: "straggler model: `FACTOR` a slow node runs slower by"},
			&cli.BoolFlag{Name: "task-mean-from-prior", Usage: "give a job without an a-priori mean task time (histories, SWIM jobs) the run time earlier jobs' tasks of its input size took, as serve --task-mean-from-prior does live"},
			&cli.StringFlag{Name: "data-dir", Usage: "keep policies' cross-job state (GRASS samples, earlier tasks' run times) in `DIR`, shared with serve; every simulation starts from what it held when the replay began, and what it learns is added", DefaultText: "fresh per run, so replays are independent", EnvVars: []string{"SPECBRIDGE_DATA_DIR"}},
			&cli.StringFlag{Name: "report", Usage: "write a self-contained HTML report (verdict, table, charts) to `FILE` (simulate mode, one INPUT)"},
			&cli.StringFlag{Name: "plot", Usage: "write the job-time CDF per policy to `FILE`, .svg or .png (simulate mode, one INPUT)"},
			&cli.StringFlag{Name: "jobs", Usage: "write one row per job, policy and run to `FILE`: .csv, or .jsonl for JSON Lines (simulate mode)"},
			&cli.IntFlag{Name: "max-jobs", Usage: "replay only the `N` earliest-submitted jobs of each input: a quick preview of a large input, on the same cluster", DefaultText: "every job"},
			&cli.BoolFlag{Name: "no-date", Usage: "leave the date out of the provenance (the command line, version, seeds and date the report opens with), for output that is byte-identical on any day; SOURCE_DATE_EPOCH sets the date instead"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress on stderr"},
			&cli.DurationFlag{Name: "progress-interval", Value: 5 * time.Second, Hidden: true, Usage: "how often progress is printed when stderr is not a terminal"},
			memoryLimitFlag(),
			&cli.StringFlag{Name: "cpuprofile", Hidden: true, Usage: "write a pprof CPU profile of the replay to `FILE` (docs/scale.md)"},
			&cli.StringFlag{Name: "memprofile", Hidden: true, Usage: "write a pprof heap profile to `FILE` when the replay ends (docs/scale.md)"},
		},
		Action: runReplay,
	})
}

// replayPlan is a checked replay command line: everything wrong with it is
// found before any input is read or simulated.
type replayPlan struct {
	opts                     replay.Options
	mode, output, format     string
	reportTo, plotTo, jobsTo string
	inputs                   []string
	provenance               *replay.Provenance
}

// dsm holds the straggler model's defaults for the flags.
var dsm = replay.DefaultStragglerModel()

// jobOrderFlag reads --job-order and its levels and interval.
func jobOrderFlag(c *cli.Context) (sim.JobOrder, error) {
	var o sim.JobOrder
	switch v := c.String("job-order"); v {
	case "":
	case "exact":
		o.Mode = sim.JobOrderExact
	case "none":
		o.Mode = sim.JobOrderNone
	case "yarn":
		levels, every := c.Int("job-order-levels"), c.Duration("job-order-interval")
		if levels < 1 || levels > sim.MaxJobOrderLevels {
			return o, usageError(c, "--job-order-levels %d: want 1 to %d", levels, sim.MaxJobOrderLevels)
		}
		if every < time.Millisecond {
			return o, usageError(c, "--job-order-interval %s: want 1ms or more", every)
		}
		o = sim.JobOrder{Mode: sim.JobOrderYARN, Levels: levels, Every: every.Milliseconds()}
	default:
		return o, usageError(c, "--job-order %q: want exact, yarn or none", v)
	}
	return o, nil
}

func planReplay(c *cli.Context) (*replayPlan, error) {
	if c.NArg() == 0 {
		return nil, usageError(c, "replay: no INPUT given (a .jhist, Rumen or SWIM file, a scenario, a directory of histories, or hdfs://...)")
	}
	if n := slices.Index(c.Args().Slice(), "-"); n >= 0 && slices.Index(c.Args().Slice()[n+1:], "-") >= 0 {
		return nil, usageError(c, "replay: INPUT - (stdin) given twice: it can be read once")
	}
	reg, err := policyRegistry(c.StringSlice("param"))
	if err != nil {
		return nil, err
	}
	p := &replayPlan{mode: c.String("mode"), output: c.String("output"), format: c.String("format"),
		reportTo: c.String("report"), plotTo: c.String("plot"), jobsTo: c.String("jobs"), inputs: c.Args().Slice()}
	sm, err := checkedStragglerModel(c)
	if err != nil {
		return nil, err
	}
	order, err := jobOrderFlag(c)
	if err != nil {
		return nil, err
	}
	p.opts = replay.Options{Seed: c.Uint64("seed"), Runs: c.Int("runs"), Registry: reg,
		Cluster: replay.ClusterOptions{Nodes: c.Int("nodes"), Slots: c.Int("slots"), NodeSlots: c.Int("node-slots"), NoCopyCost: c.Bool("no-copy-cost"), Scheduler: c.String("scheduler"), Stragglers: &sm, JobOrder: order}}
	p.opts.Parallel = c.Int("parallel")
	p.opts.TaskMeanFromPrior = c.Bool("task-mean-from-prior")
	if c.IsSet("parallel") && p.opts.Parallel < 1 {
		return nil, usageError(c, "--parallel %d: must be at least 1", p.opts.Parallel)
	}
	if p.opts.Runs < 1 {
		return nil, usageError(c, "--runs %d: must be at least 1", p.opts.Runs)
	}
	if c.IsSet("node-slots") && (c.IsSet("nodes") || c.IsSet("slots")) {
		return nil, usageError(c, "--node-slots sizes the recorded NodeManagers; --nodes/--slots replace them: give one or the other")
	}
	for _, f := range []string{"nodes", "slots", "max-jobs", "node-slots"} {
		if c.IsSet(f) && c.Int(f) < 1 {
			return nil, usageError(c, "--%s %d: must be at least 1", f, c.Int(f))
		}
	}
	if err := checkSizeFlags(c); err != nil {
		return nil, err
	}
	if err := checkOutputFiles(c, "report", "plot", "jobs"); err != nil {
		return nil, err
	}
	switch p.format {
	case "", "jhist", "rumen", "swim", "scenario":
	default:
		return nil, usageError(c, "--format %q: want jhist, rumen, swim or scenario%s", p.format, didYouMean(p.format, []string{"jhist", "rumen", "swim", "scenario"}))
	}
	switch c.String("scheduler") {
	case "", "fifo", "fair":
	default:
		return nil, usageError(c, "--scheduler %q: want fifo or fair", c.String("scheduler"))
	}
	if p.mode != "simulate" && p.mode != "decisions" {
		return nil, usageError(c, "--mode %q: want simulate or decisions%s", p.mode, didYouMean(p.mode, []string{"simulate", "decisions"}))
	}
	if p.output != "table" && p.output != "json" && p.output != "csv" {
		return nil, usageError(c, "--output %q: want table, json or csv", p.output)
	}
	if p.opts.Speculators, err = speculatorList(reg, c.String("speculators")); err != nil {
		return nil, asUsage(err)
	}
	if p.opts.Params, err = parseParams(reg, p.opts.Speculators, c.StringSlice("param")); err != nil {
		return nil, asUsage(err)
	}
	for _, f := range []struct{ name, value string }{{"report", p.reportTo}, {"plot", p.plotTo}, {"jobs", p.jobsTo}} {
		if f.value == "" {
			continue
		}
		if p.mode != "simulate" {
			return nil, usageError(c, "--%s: only in simulate mode (decisions mode re-executes nothing)", f.name)
		}
		if f.name != "jobs" && len(p.inputs) > 1 {
			return nil, usageError(c, "--%s describes one INPUT, got %d: replay them one at a time, or put histories in one directory to replay them as one workload", f.name, len(p.inputs))
		}
	}
	if ext := strings.ToLower(filepath.Ext(p.plotTo)); p.plotTo != "" && ext != ".svg" && ext != ".png" {
		return nil, usageError(c, "--plot %s: want a .svg or .png file", p.plotTo)
	}
	switch filepath.Ext(p.jobsTo) {
	case "", ".csv", ".jsonl", ".json":
	default: // it would get CSV under a name that says otherwise
		return nil, usageError(c, "--jobs %s: want a .csv or .jsonl file", p.jobsTo)
	}
	if p.provenance, err = provenanceOf(c); err != nil {
		return nil, err
	}
	var missing []string
	for _, in := range p.inputs {
		if hdfs.IsURL(in) || in == "-" {
			continue
		}
		if _, err := os.Stat(in); err != nil {
			missing = append(missing, in)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("replay: %d of %d inputs not found, nothing replayed: %s", len(missing), len(p.inputs), strings.Join(missing, ", "))
	}
	for _, path := range c.StringSlice("node-speeds-from") {
		in, err := replay.Load(path, replay.LoadOptions{})
		if err != nil {
			return nil, fmt.Errorf("--node-speeds-from %s: %w", path, err)
		}
		if in.Scenario != nil || len(in.Jobs) == 0 {
			return nil, usageError(c, "--node-speeds-from %s: not a history with jobs (a .jhist, Rumen trace or directory of them)", path)
		}
		p.opts.Cluster.SpeedHistories = append(p.opts.Cluster.SpeedHistories, in.Jobs...)
	}
	return p, nil
}

func runReplay(c *cli.Context) (err error) {
	p, err := planReplay(c)
	if err != nil {
		return err
	}
	if err := applyMemoryLimit(c); err != nil {
		return err
	}
	stop, err := startProfiles(c.String("cpuprofile"), c.String("memprofile"))
	if err != nil {
		return err
	}
	defer func() {
		if perr := stop(); perr != nil && err == nil {
			err = perr
		}
	}()
	prog := newProgress(c.Bool("quiet"), c.Duration("progress-interval"))
	defer prog.close()
	inputs := make([]*replay.Input, len(p.inputs))
	for i, path := range p.inputs {
		// "-", /dev/stdin or a pipe: read once, into a file.
		file, cleanup, err := spool(path)
		if err != nil {
			return err
		}
		defer cleanup()
		// Jobs' tasks are read or derived when a simulation or a timeline
		// needs them (docs/scale.md).
		in, err := replay.Load(file, replay.LoadOptions{Format: history.Format(p.format), Progress: prog.reading(path), Stream: true, HDFS: hdfsConf(c)})
		if err != nil {
			return renamed(formatHint(err, file, path, p.format), file, path)
		}
		if in.Scenario != nil && (c.IsSet("nodes") || c.IsSet("slots")) {
			return usageError(c, "--nodes/--slots: %s is a scenario, which describes its own cluster (its cluster: section); edit that instead, or leave the flags out", path)
		}
		logrus.WithFields(logrus.Fields{"input": path, "format": in.Format, "jobs": in.JobCount()}).Debug("loaded input")
		inputs[i] = in
	}
	if dir := c.String("data-dir"); dir != "" {
		st, oerr := grassamples.Open(dir)
		if oerr != nil {
			return oerr
		}
		defer func() { // the run times' last batch reaches the disk here
			if cerr := st.Close(); cerr != nil && err == nil {
				err = cerr
			}
		}()
		p.opts.Store = st
	}
	var jobs *replay.JobsWriter
	if p.jobsTo != "" {
		f, err := os.Create(p.jobsTo)
		if err != nil {
			return fmt.Errorf("--jobs: %w", err)
		}
		defer func() {
			if cerr := f.Close(); cerr != nil && err == nil {
				err = fmt.Errorf("--jobs: %w", cerr)
			}
		}()
		if jobs, err = replay.NewJobsWriter(f, replay.JobsFormat(p.jobsTo)); err != nil {
			return err
		}
	}
	var reports []*replay.Report
	for i, in := range inputs {
		path := p.inputs[i]
		rep := &replay.Report{Input: path, Format: string(in.Format), Mode: p.mode, Seed: p.opts.Seed, Runs: p.opts.Runs, Provenance: p.provenance}
		if p.mode == "simulate" {
			var col *report.Collector
			opts := p.opts
			if p.reportTo != "" || p.plotTo != "" {
				col = report.NewCollector(path, string(in.Format), opts.Speculators, opts.Seed, opts.Runs)
				opts.RunningSamples = 200
			}
			opts.Progress = prog.simulating(path)
			opts.Observe = func(r *replay.Run) error {
				if jobs != nil {
					if err := jobs.Write(replay.JobRows(path, r)); err != nil {
						return fmt.Errorf("--jobs: %w", err)
					}
				}
				if col != nil {
					return col.Observe(r)
				}
				return nil
			}
			started := time.Now()
			build := replay.LimitJobs(replay.WorkloadOf(in, opts.Cluster), c.Int("max-jobs"))
			if in.Scenario != nil {
				if w, werr := build(opts.Seed); werr == nil {
					rep.Regime = replay.RegimeOf(w)
				}
			}
			res, err := replay.Simulate(build, opts)
			prog.done()
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			jobsRun := 0
			if len(res) > 0 {
				jobsRun = res[0].Jobs
			}
			prog.say("replay: %s: %d jobs, %d policies x %d runs simulated in %s", inputName(path), jobsRun, len(res), opts.Runs, since(started))
			rep.Results = res
			rep.Verdict = replay.NewVerdict(res)
			if col != nil {
				col.Provenance = p.provenance
			}
			if err := writeFigures(col, res, p); err != nil {
				return err
			}
		} else {
			res, actual, err := replay.Decide(in, p.opts)
			if err != nil {
				return err
			}
			rep.Results, rep.Actual = res, actual
		}
		if p.output == "table" {
			if i > 0 {
				fmt.Println()
			}
			if err := rep.Write(os.Stdout, p.output); err != nil {
				return err
			}
			continue
		}
		reports = append(reports, rep)
	}
	if err := writeReports(reports, p.output); err != nil {
		return err
	}
	for _, f := range []struct{ what, path string }{{"report", p.reportTo}, {"plot", p.plotTo}, {"job rows", p.jobsTo}} {
		if f.path != "" {
			prog.say("replay: wrote the %s to %s", f.what, f.path)
		}
	}
	return nil
}

// writeFigures writes --report and --plot.
func writeFigures(col *report.Collector, res []replay.Result, p *replayPlan) error {
	if col == nil {
		return nil
	}
	if p.plotTo != "" {
		if err := col.SavePlot(p.plotTo); err != nil {
			return err
		}
	}
	if p.reportTo == "" {
		return nil
	}
	f, err := os.Create(p.reportTo)
	if err != nil {
		return fmt.Errorf("--report: %w", err)
	}
	if err := col.WriteHTML(f, res); err != nil {
		f.Close()
		return fmt.Errorf("--report %s: %w", p.reportTo, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("--report: %w", err)
	}
	return nil
}

// writeReports prints json or csv reports as one document: one input's JSON
// object, several inputs' JSON array; one CSV with one header.
func writeReports(reports []*replay.Report, output string) error {
	switch {
	case len(reports) == 0:
		return nil
	case output == "json" && len(reports) > 1:
		out, err := json.MarshalIndent(reports, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(os.Stdout, "%s\n", out)
		return err
	case output == "csv":
		for i, r := range reports {
			if err := r.WriteCSV(os.Stdout, i == 0); err != nil {
				return err
			}
		}
		return nil
	}
	return reports[0].Write(os.Stdout, output)
}
