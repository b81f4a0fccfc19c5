// Command specbridge is the speculative-execution sidecar for Hadoop
// MapReduce: it replays job histories and scenarios to compare speculation
// policies, and serves the policies to MapReduce ApplicationMasters. This
// package only parses flags, wires packages and prints.
package main

import (
	"fmt"
	"os"

	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	app := newApp()
	if err := app.Run(interspersed(app, os.Args)); err != nil {
		fmt.Fprintln(os.Stderr, "specbridge:", err)
		os.Exit(1)
	}
}

func newApp() *cli.App {
	return &cli.App{
		Name:    "specbridge",
		Usage:   "speculative execution for Hadoop MapReduce: replay histories, serve policies",
		Version: buildVersion(),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "log-level", Value: "info", Usage: "panic, fatal, error, warn, info, debug or trace", EnvVars: []string{"SPECBRIDGE_LOG_LEVEL"}},
			&cli.StringFlag{Name: "log-format", Value: "text", Usage: "text or json", EnvVars: []string{"SPECBRIDGE_LOG_FORMAT"}},
		},
		Before:   setupLogging,
		Commands: commands(),
		// `specbridge help [command]` prints the same help as --help;
		// an unknown command or flag gets urfave/cli's did-you-mean.
		Suggest: true,
		// Errors are printed once, by main, as one line.
		ExitErrHandler: func(*cli.Context, error) {},
		// A repeatable flag's value is taken whole: a --param value may
		// hold commas (farms.base-params=a=1,b=2; sweep's value lists).
		DisableSliceFlagSeparator: true,
	}
}

func setupLogging(c *cli.Context) error {
	level, err := logrus.ParseLevel(c.String("log-level"))
	if err != nil {
		return fmt.Errorf("--log-level: %w", err)
	}
	logrus.SetLevel(level)
	logrus.SetOutput(os.Stderr)
	switch c.String("log-format") {
	case "text":
		logrus.SetFormatter(&logrus.TextFormatter{FullTimestamp: true})
	case "json":
		logrus.SetFormatter(&logrus.JSONFormatter{})
	default:
		return fmt.Errorf("--log-format %q: want text or json", c.String("log-format"))
	}
	return nil
}

func commands() []*cli.Command {
	cmds := []*cli.Command{
		replayCommand(),
		sweepCommand(),
		ServeCommand(),
		CFACommand(),
		speculatorsCommand(),
		trainCommand(),
		docsCommand(),
	}
	for _, c := range cmds {
		// `specbridge help replay` is the app's; a command of its own has
		// no subcommand "help" to list.
		c.HideHelpCommand = len(c.Subcommands) == 0
	}
	return cmds
}
