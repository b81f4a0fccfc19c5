// Command specbridge is the speculative-execution sidecar for Hadoop
// MapReduce: it replays job histories and scenarios to compare speculation
// policies, and serves the policies to MapReduce ApplicationMasters. This
// package only parses flags, wires packages and prints.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	app := newApp()
	if err := app.Run(interspersed(app, os.Args)); err != nil {
		// An exit with no message (cfa fsck finding damage) has said
		// everything on stdout: no bare "specbridge:" line.
		if msg := err.Error(); msg != "" {
			fmt.Fprintln(os.Stderr, "specbridge:", msg)
		}
		os.Exit(exitCode(err))
	}
}

func newApp() *cli.App {
	cmds := append(commands(), helpCommand())
	withUsageErrors(cmds)
	return &cli.App{
		Name:    "specbridge",
		Usage:   "speculative execution for Hadoop MapReduce: replay histories, serve policies",
		Version: buildVersion(),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "log-level", Value: "info", Usage: "panic, fatal, error, warn, info, debug or trace", EnvVars: []string{"SPECBRIDGE_LOG_LEVEL"}},
			&cli.StringFlag{Name: "log-format", Value: "text", Usage: "text or json", EnvVars: []string{"SPECBRIDGE_LOG_FORMAT"}},
			// urfave/cli adds --help only beside its own help command.
			cli.HelpFlag,
		},
		Before:   setupLogging,
		Commands: cmds,
		// `specbridge WORD` that names no command is a usage error with a
		// did-you-mean, not urfave/cli's "No help topic".
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cli.ShowAppHelp(c)
			}
			return usageError(c, "unknown command %q%s", c.Args().First(), didYouMean(c.Args().First(), commandNames(c.App.Commands)))
		},
		// A flag urfave/cli cannot parse is one line on stderr, exit 2.
		OnUsageError: onUsageError,
		// `specbridge completion bash|zsh|fish` prints the scripts that
		// ask the binary for completions with this flag.
		EnableBashCompletion: true,
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

// helpCommand is `specbridge help [COMMAND [SUBCOMMAND]]`: exactly what
// `specbridge COMMAND [SUBCOMMAND] --help` prints. urfave/cli's own help
// command prints a command that has subcommands (train, cfa, docs) without
// them, since it has not been set up yet, and `help train laser` as `help
// train`; --help has neither fault, so help hands the words to it. A word
// that names no command is a usage error with a did-you-mean.
func helpCommand() *cli.Command {
	return &cli.Command{
		Name:            "help",
		Aliases:         []string{"h"},
		Usage:           "Shows a list of commands or help for one command",
		ArgsUsage:       "[command [subcommand]]",
		HideHelpCommand: true,
		Action: func(c *cli.Context) error {
			args := c.Args().Slice()
			if len(args) == 0 {
				return cli.ShowAppHelp(c)
			}
			cmds := c.App.Commands
			for i, name := range args {
				var found *cli.Command
				for _, cmd := range cmds {
					if cmd.HasName(name) {
						found = cmd
					}
				}
				if found == nil && i == 0 {
					return usageErr{fmt.Errorf("no help topic %q: no such command%s (see 'specbridge --help')", name, didYouMean(name, commandNames(cmds)))}
				}
				if found == nil {
					var names []string
					for _, cmd := range cmds {
						if !cmd.Hidden && !cmd.HasName("help") {
							names = append(names, cmd.Name)
						}
					}
					parent := strings.Join(args[:i], " ")
					if len(names) == 0 {
						return fmt.Errorf("no help topic for '%s': '%s' has no subcommands (see 'specbridge %s --help')", strings.Join(args[:i+1], " "), parent, parent)
					}
					return fmt.Errorf("no help topic for '%s': '%s' has the subcommands %s (see 'specbridge %s --help')", strings.Join(args[:i+1], " "), parent, strings.Join(names, ", "), parent)
				}
				cmds = found.Subcommands
			}
			return c.App.RunContext(c.Context, append(append([]string{c.App.Name}, args...), "--help"))
		},
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
		// Colours only on a terminal (logrus's own check) and never under
		// NO_COLOR (no-color.org): any value but "" turns them off.
		logrus.SetFormatter(&logrus.TextFormatter{FullTimestamp: true, DisableColors: os.Getenv("NO_COLOR") != ""})
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
		versionCommand(),
		completionCommand(),
		conformanceTraceCommand(),
	}
	for _, c := range cmds {
		// `specbridge help replay` is the app's; a command of its own has
		// no subcommand "help" to list.
		c.HideHelpCommand = len(c.Subcommands) == 0
	}
	return cmds
}

// commandNames lists cmds' visible names, for a did-you-mean.
func commandNames(cmds []*cli.Command) []string {
	var names []string
	for _, c := range cmds {
		if !c.Hidden {
			names = append(names, c.Name)
		}
	}
	return names
}
