package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/specbridge/specbridge/replay"
	"github.com/specbridge/specbridge/sweep"
	"github.com/specbridge/specbridge/yarnclient/hdfs"
	"github.com/urfave/cli/v2"
)

// sweepSharedFlags are replay's flags a sweep takes as they are: what every
// cell of the grid shares.
var sweepSharedFlags = []string{"format", "speculators", "seed", "runs", "nodes", "slots", "scheduler",
	"no-stragglers", "straggler-fraction", "straggler-shape", "straggler-min", "straggler-cap", "slow-node-fraction",
	"slow-node-factor", "max-jobs", "quiet", "memory-limit"}

func sweepCommand() *cli.Command {
	var flags []cli.Flag
	for _, f := range replayCommand().Flags {
		if slices.Contains(sweepSharedFlags, f.Names()[0]) {
			flags = append(flags, f)
		}
	}
	flags = append(flags,
		&cli.StringSliceFlag{Name: "param", Usage: "sweep a selected policy's parameter over `POLICY.NAME=V1,V2,...` (repeatable; every combination of a policy's values is a cell; a comma inside a value is written \\,)"},
		&cli.IntFlag{Name: "parallel", Usage: "run `N` cells at once (locally); the rows do not depend on it", DefaultText: "the number of CPUs"},
		&cli.StringFlag{Name: "output", Value: "table", Usage: "rows on stdout as `FORMAT`: table, csv or json"},
		&cli.StringFlag{Name: "csv", Usage: "also write the rows as CSV to `FILE`"},
		&cli.StringFlag{Name: "json", Usage: "also write the rows as JSON to `FILE`"},
		&cli.BoolFlag{Name: "cells", Usage: "print the grid's cells, one JSON line each, and run nothing"},
		&cli.StringFlag{Name: "cell", Usage: "run the one cell `LINE` (as --cells prints it; no INPUT or grid flags) and print its row as a JSON line: what a YARN mapper runs"},
		&cli.BoolFlag{Name: "on-yarn", Usage: "run the grid as a MapReduce job on the YARN cluster of --hadoop-conf (one cell per map); the rows are the local sweep's"},
		&cli.StringFlag{Name: "job-jar", Usage: "the sweep job `JAR` (mvn -f java-sweep/pom.xml package)", DefaultText: "specbridge-sweep.jar beside this binary, else java-sweep/target/specbridge-sweep.jar", EnvVars: []string{"SPECBRIDGE_SWEEP_JAR"}},
		&cli.StringFlag{Name: "hadoop-classpath", Usage: "submit with java and Hadoop's client `CLASSPATH` (`hadoop classpath`) instead of the hadoop command", DefaultText: "the hadoop command on PATH", EnvVars: []string{"SPECBRIDGE_HADOOP_CLASSPATH"}},
		&cli.StringFlag{Name: "binary", Usage: "the specbridge `FILE` the mappers run (same OS and architecture as the cluster's nodes)", DefaultText: "this binary"},
		&cli.StringFlag{Name: "yarn-dir", Usage: "the job's HDFS `DIR` (must not exist; relative: under your HDFS home); cells and rows stay there", DefaultText: "specbridge-sweep/TIME-PID"},
		&cli.StringSliceFlag{Name: "job-conf", Usage: "set `KEY=VALUE` in the job's configuration, e.g. mapreduce.job.queuename=research or mapreduce.map.memory.mb=4096 (repeatable)"},
		&cli.IntFlag{Name: "cells-per-task", Value: 1, Usage: "`N` cells per map task (NLineInputFormat lines per map)"},
	)
	return hadoopCommand(&cli.Command{
		Name:      "sweep",
		Usage:     "run a grid of replays (inputs x policies x parameter values x seeds), one result row per cell, locally or on YARN",
		ArgsUsage: "INPUT...",
		Description: "Each cell is one simulation: one input, one policy with one combination of its swept parameter\n" +
			"values, one seed (--seed, --runs); its row holds replay's figures for it. Rows come in cell order\n" +
			"(input, policy, parameter values, seed), the same serial, parallel or --on-yarn. docs/sweep.md.\n\n" +
			"Example: specbridge sweep --speculators late,hadoop --param late.speculative-cap=0.05,0.1,0.2 --runs 3 --csv rows.csv scenarios/late-ec2-stragglers.yaml",
		Flags:  flags,
		Action: runSweep,
	})
}

func runSweep(c *cli.Context) error {
	if line := c.String("cell"); line != "" {
		return runOneCell(c, line)
	}
	cells, err := planSweep(c)
	if err != nil {
		return err
	}
	if err := applyMemoryLimit(c); err != nil {
		return err
	}
	if c.Bool("cells") {
		for _, cell := range cells {
			line, err := cell.Line()
			if err != nil {
				return err
			}
			fmt.Println(line)
		}
		return nil
	}
	log := io.Writer(os.Stderr)
	if c.Bool("quiet") {
		log = io.Discard
	}
	if c.Bool("on-yarn") {
		rows, err := sweepOnYARN(c, cells, log)
		if err != nil {
			return err
		}
		for _, f := range []struct{ flag, format string }{{"csv", "csv"}, {"json", "json"}} {
			if path := c.String(f.flag); path != "" {
				if err := writeRowsFile(path, f.format, rows); err != nil {
					return fmt.Errorf("--%s: %w", f.flag, err)
				}
			}
		}
		return sweep.Write(os.Stdout, c.String("output"), rows)
	}
	// Every finished cell's row reaches the files (and a CSV or JSON
	// stdout) as it finishes: a sweep that fails part-way keeps them.
	out, err := newRowStreams(c)
	if err != nil {
		return err
	}
	fmt.Fprintf(log, "sweep: %d cells\n", len(cells))
	start, last, done := time.Now(), time.Now(), 0
	runErr := sweep.Run(cells, c.Int("parallel"), sweep.Runner{Registry: policyRegistry, HDFS: hdfsConf(c)}, func(r sweep.Row) error {
		done++
		if time.Since(last) >= 5*time.Second {
			last = time.Now()
			fmt.Fprintf(log, "sweep: %d of %d cells done (%s)\n", done, len(cells), time.Since(start).Round(time.Second))
		}
		return out.write(r)
	})
	if err := out.close(); err != nil && runErr == nil {
		runErr = err
	}
	if runErr != nil {
		return runErr
	}
	for _, f := range out.files {
		fmt.Fprintf(log, "sweep: wrote %d rows to %s\n", done, f.path)
	}
	return nil
}

// rowStreams are a sweep's outputs: stdout and the --csv and --json files.
type rowStreams struct {
	stdout *sweep.Stream
	files  []rowFile
}

type rowFile struct {
	flag, path string
	f          *os.File
	s          *sweep.Stream
}

func newRowStreams(c *cli.Context) (*rowStreams, error) {
	std, err := sweep.NewStream(os.Stdout, c.String("output"))
	if err != nil {
		return nil, err
	}
	out := &rowStreams{stdout: std}
	for _, flag := range []string{"csv", "json"} {
		path := c.String(flag)
		if path == "" {
			continue
		}
		f, err := os.Create(path)
		if err != nil {
			out.close()
			return nil, fmt.Errorf("--%s: %w", flag, err)
		}
		s, err := sweep.NewStream(f, flag)
		if err != nil {
			f.Close()
			out.close()
			return nil, fmt.Errorf("--%s %s: %w", flag, path, err)
		}
		out.files = append(out.files, rowFile{flag: flag, path: path, f: f, s: s})
	}
	return out, nil
}

func (o *rowStreams) write(r sweep.Row) error {
	for _, f := range o.files {
		if err := f.s.Write(r); err != nil {
			return fmt.Errorf("--%s %s: %w", f.flag, f.path, err)
		}
	}
	return o.stdout.Write(r)
}

// close ends every document; the first error is returned.
func (o *rowStreams) close() error {
	var first error
	for _, f := range o.files {
		err := f.s.Close()
		if cerr := f.f.Close(); err == nil {
			err = cerr
		}
		if err != nil && first == nil {
			first = fmt.Errorf("--%s %s: %w", f.flag, f.path, err)
		}
	}
	if err := o.stdout.Close(); err != nil && first == nil {
		first = err
	}
	return first
}

// runOneCell is --cell: one cell, its row as a JSON line.
func runOneCell(c *cli.Context, line string) error {
	if c.NArg() > 0 {
		return usageError(c, "--cell runs the cell it is given, which names its input: drop the INPUT arguments (%s)", strings.Join(c.Args().Slice(), " "))
	}
	if c.Bool("cells") || c.Bool("on-yarn") {
		return usageError(c, "--cell runs one cell: not with --cells or --on-yarn")
	}
	cell, err := sweep.ParseCell(line)
	if err != nil {
		return err
	}
	row, err := sweep.RunCell(cell, sweep.Runner{Registry: policyRegistry, HDFS: hdfsConf(c)})
	if err != nil {
		return err
	}
	out, err := row.Line()
	if err != nil {
		return err
	}
	_, err = fmt.Println(out)
	return err
}

// planSweep checks the command line and lists the grid's cells; every
// cell's parameters are checked against the registry before anything runs.
func planSweep(c *cli.Context) ([]sweep.Cell, error) {
	if c.NArg() == 0 {
		return nil, usageError(c, "sweep: no INPUT given (a .jhist, Rumen or SWIM file, a scenario, a directory of histories, or hdfs://...)")
	}
	for _, f := range []string{"nodes", "slots", "max-jobs", "runs", "cells-per-task"} {
		if c.IsSet(f) && c.Int(f) < 1 {
			return nil, usageError(c, "--%s %d: must be at least 1", f, c.Int(f))
		}
	}
	if c.IsSet("parallel") && c.Int("parallel") < 1 {
		return nil, usageError(c, "--parallel %d: must be at least 1", c.Int("parallel"))
	}
	if err := checkSizeFlags(c); err != nil {
		return nil, err
	}
	if err := checkOutputFiles(c, "csv", "json"); err != nil {
		return nil, err
	}
	if o := c.String("output"); o != "table" && o != "csv" && o != "json" {
		return nil, usageError(c, "--output %q: want table, csv or json", o)
	}
	switch c.String("format") {
	case "", "jhist", "rumen", "swim", "scenario":
	default:
		return nil, usageError(c, "--format %q: want jhist, rumen, swim or scenario", c.String("format"))
	}
	switch c.String("scheduler") {
	case "", "fifo", "fair":
	default:
		return nil, usageError(c, "--scheduler %q: want fifo or fair", c.String("scheduler"))
	}
	sm, err := checkedStragglerModel(c)
	if err != nil {
		return nil, err
	}
	var missing []string
	for _, in := range c.Args().Slice() {
		if _, err := os.Stat(in); err != nil && !hdfs.IsURL(in) {
			missing = append(missing, in)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("sweep: %d of %d inputs not found, nothing run: %s", len(missing), c.NArg(), strings.Join(missing, ", "))
	}
	axes, err := sweep.ParseAxes(c.StringSlice("param"))
	if err != nil {
		return nil, asUsage(err)
	}
	reg, err := policyRegistry(nil)
	if err != nil {
		return nil, err
	}
	policies, err := speculatorList(reg, c.String("speculators"))
	if err != nil {
		return nil, asUsage(err)
	}
	for policy, list := range axes {
		for _, a := range list {
			for _, v := range a.Values {
				if _, err := parseParams(reg, policies, []string{policy + "." + a.Name + "=" + v}); err != nil {
					return nil, asUsage(fmt.Errorf("%w; nothing run", err))
				}
			}
		}
	}
	g := sweep.Grid{Inputs: c.Args().Slice(), Policies: policies, Axes: axes,
		Setup: sweep.Setup{Format: c.String("format"), Nodes: c.Int("nodes"), Slots: c.Int("slots"),
			Scheduler: c.String("scheduler"), MaxJobs: c.Int("max-jobs"), Stragglers: sweep.StragglersOf(sm)}}
	for r := range max(c.Int("runs"), 1) {
		g.Seeds = append(g.Seeds, c.Uint64("seed")+uint64(r))
	}
	cells := g.Cells()
	checked := map[string]bool{}
	for _, cell := range cells {
		key := cell.Policy + "\x00" + cell.ParamsText()
		if checked[key] {
			continue
		}
		checked[key] = true
		if _, err := parseParams(reg, policies, cell.ParamFlags()); err != nil {
			return nil, asUsage(fmt.Errorf("%w (the combination %s of %s); nothing run", err, cell.ParamsText(), cell.Policy))
		}
	}
	return cells, nil
}

// maxRuns bounds --runs: past it a run would exhaust memory before it
// simulated anything (as --nodes and --slots past replay's bounds would).
const maxRuns = 100_000

// checkSizeFlags refuses --runs, --nodes and --slots over their bounds.
func checkSizeFlags(c *cli.Context) error {
	for _, f := range []struct {
		name string
		max  int
	}{{"runs", maxRuns}, {"nodes", replay.MaxNodes}, {"slots", replay.MaxSlotsPerNode}} {
		if v := c.Int(f.name); v > f.max {
			return usageError(c, "--%s %d: at most %d", f.name, v, f.max)
		}
	}
	return nil
}

// checkedStragglerModel is stragglerModelOf, checked: values in range, and
// no model flag beside --no-stragglers, which would ignore it.
func checkedStragglerModel(c *cli.Context) (replay.StragglerModel, error) {
	sm := stragglerModelOf(c)
	if sm.Off {
		for _, f := range []string{"straggler-fraction", "straggler-shape", "straggler-min", "straggler-cap", "slow-node-fraction", "slow-node-factor"} {
			if c.IsSet(f) {
				return sm, usageError(c, "--%s with --no-stragglers: the model is off, so it would change nothing; drop one", f)
			}
		}
	}
	if err := sm.Validate(); err != nil {
		return sm, usageError(c, "--straggler-*: %v", err)
	}
	return sm, nil
}

// stragglerModelOf reads the straggler model flags replay and sweep share.
func stragglerModelOf(c *cli.Context) replay.StragglerModel {
	return replay.StragglerModel{Off: c.Bool("no-stragglers"), TailFraction: c.Float64("straggler-fraction"),
		TailShape: c.Float64("straggler-shape"), TailMin: c.Float64("straggler-min"), TailCap: c.Float64("straggler-cap"),
		SlowNodeFraction: c.Float64("slow-node-fraction"), SlowNodeFactor: c.Float64("slow-node-factor")}
}

// sweepOnYARN runs the cells as a MapReduce job and returns the merged
// rows; what a flag leaves empty, sweep.YARN fills in (Run).
func sweepOnYARN(c *cli.Context, cells []sweep.Cell, log io.Writer) ([]sweep.Row, error) {
	y := sweep.YARN{JobJar: c.String("job-jar"), Binary: c.String("binary"), Classpath: c.String("hadoop-classpath"),
		HadoopConf: c.String("hadoop-conf"), Dir: c.String("yarn-dir"), JobConf: c.StringSlice("job-conf"),
		CellsPerTask: c.Int("cells-per-task"), Log: log}
	return y.Run(cells)
}

func writeRowsFile(path, format string, rows []sweep.Row) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := sweep.Write(f, format, rows); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

// checkOutputFiles refuses, before anything runs, an output file flag
// whose FILE could not be written afterwards (a directory, or in a
// directory that does not exist): the run's figures would be lost.
func checkOutputFiles(c *cli.Context, flags ...string) error {
	for _, f := range flags {
		path := c.String(f)
		if path == "" {
			continue
		}
		if fi, err := os.Stat(path); err == nil && fi.IsDir() {
			return usageError(c, "--%s %s: is a directory", f, path)
		}
		if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
			return usageError(c, "--%s %s: no directory %s to write it in", f, path, filepath.Dir(path))
		}
	}
	return nil
}
