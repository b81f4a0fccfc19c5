package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/sirupsen/logrus"
	"github.com/specbridge/specbridge/replay"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/store/grassamples"
	"github.com/specbridge/specbridge/yarnclient/history"
	"github.com/urfave/cli/v2"
)

func replayCommand() *cli.Command {
	return &cli.Command{
		Name:      "replay",
		Usage:     "compare speculation policies on job histories (.jhist, Rumen, SWIM) or scenario files",
		ArgsUsage: "INPUT...",
		Description: "Each INPUT (a file, or a directory of .jhist/.json histories replayed as one workload) gives one report.\n" +
			"simulate mode re-executes the workload once per policy and seed; decisions mode feeds the recorded\n" +
			"timeline to each policy and lists what it would have decided beside what Hadoop did.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Usage: "input format: jhist, rumen, swim or scenario (default: detected from content)"},
			&cli.StringFlag{Name: "speculators", Usage: "comma-separated policies to compare (default: every registered policy)"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "first random seed"},
			&cli.IntFlag{Name: "runs", Value: 1, Usage: "runs with seeds seed..seed+runs-1; figures are means over runs"},
			&cli.StringFlag{Name: "mode", Value: "simulate", Usage: "simulate or decisions"},
			&cli.StringSliceFlag{Name: "param", Usage: "policy parameter override POLICY.NAME=VALUE, e.g. late.speculative-cap=0.2 (repeatable)"},
			&cli.StringFlag{Name: "output", Value: "table", Usage: "table, json or csv"},
			&cli.IntFlag{Name: "nodes", Usage: "re-execute histories on this many nodes instead of the recorded hosts (SWIM default 100)"},
			&cli.IntFlag{Name: "slots", Usage: "containers per node with --nodes (default 8)"},
			&cli.StringFlag{Name: "scheduler", Usage: "fifo or fair (default: the scenario's, else fifo)"},
			&cli.StringFlag{Name: "data-dir", Usage: "keep policies' cross-job state (GRASS samples) here, shared with serve; default: fresh per run, so replays are independent", EnvVars: []string{"SPECBRIDGE_DATA_DIR"}},
		},
		Action: runReplay,
	}
}

func runReplay(c *cli.Context) (err error) {
	if c.NArg() == 0 {
		return fmt.Errorf("replay: no INPUT given (a .jhist, Rumen or SWIM file, a scenario, or a directory of histories)")
	}
	reg, err := policyRegistry(c.StringSlice("param"))
	if err != nil {
		return err
	}
	opts := replay.Options{Seed: c.Uint64("seed"), Runs: c.Int("runs"), Registry: reg,
		Cluster: replay.ClusterOptions{Nodes: c.Int("nodes"), Slots: c.Int("slots"), Scheduler: c.String("scheduler")}}
	if opts.Runs < 1 {
		return fmt.Errorf("--runs %d: must be at least 1", opts.Runs)
	}
	if opts.Speculators, err = speculatorList(reg, c.String("speculators")); err != nil {
		return err
	}
	if opts.Params, err = parseParams(reg, opts.Speculators, c.StringSlice("param")); err != nil {
		return err
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
		opts.Store = st
	}
	switch c.String("scheduler") {
	case "", "fifo", "fair":
	default:
		return fmt.Errorf("--scheduler %q: want fifo or fair", c.String("scheduler"))
	}
	mode, output := c.String("mode"), c.String("output")
	if mode != "simulate" && mode != "decisions" {
		return fmt.Errorf("--mode %q: want simulate or decisions", mode)
	}
	if output != "table" && output != "json" && output != "csv" {
		return fmt.Errorf("--output %q: want table, json or csv", output)
	}
	format := history.Format(c.String("format"))
	for i, path := range c.Args().Slice() {
		in, err := replay.Load(path, format, history.DefaultSWIMModel())
		if err != nil {
			return err
		}
		logrus.WithFields(logrus.Fields{"input": path, "format": in.Format, "jobs": len(in.Jobs)}).Debug("loaded input")
		rep := &replay.Report{Input: path, Format: string(in.Format), Mode: mode, Seed: opts.Seed, Runs: opts.Runs}
		if mode == "simulate" {
			res, err := replay.Simulate(replay.WorkloadOf(in, opts.Cluster), opts)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			rep.Results = res
		} else {
			res, actual, err := replay.Decide(in, opts)
			if err != nil {
				return err
			}
			rep.Results, rep.Actual = res, actual
		}
		if i > 0 && output == "table" {
			fmt.Println()
		}
		if err := rep.Write(os.Stdout, output); err != nil {
			return err
		}
	}
	return nil
}

func speculatorList(reg *speculators.Registry, flag string) ([]string, error) {
	if strings.TrimSpace(flag) == "" {
		return reg.Names(), nil
	}
	var out []string
	for _, name := range strings.Split(flag, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if _, ok := reg.Lookup(name); !ok {
			return nil, fmt.Errorf("--speculators: unknown speculator %q (known: %s)", name, strings.Join(reg.Names(), ", "))
		}
		out = append(out, name)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--speculators %q names no policy", flag)
	}
	return out, nil
}

// parseParams reads POLICY.NAME=VALUE overrides and checks each against the
// policy's declared parameters.
func parseParams(reg *speculators.Registry, chosen []string, flags []string) (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	for _, f := range flags {
		key, value, ok := strings.Cut(f, "=")
		policy, name, ok2 := strings.Cut(key, ".")
		if !ok || !ok2 || policy == "" || name == "" {
			return nil, fmt.Errorf("--param %q: want POLICY.NAME=VALUE, e.g. late.speculative-cap=0.2", f)
		}
		if out[policy] == nil {
			out[policy] = map[string]string{}
		}
		out[policy][name] = value
	}
	for policy, kv := range out {
		if _, err := reg.Params(policy, kv); err != nil {
			return nil, fmt.Errorf("--param: %w", err)
		}
	}
	return out, nil
}
