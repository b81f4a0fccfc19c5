package main

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// usageErr is a mistake in how a command was called, found before anything
// ran. main prints it as one line and exits 2, the convention of getopt
// tools and Go's flag package, so a script can tell a wrong command line
// (2) from a run that failed (1).
type usageErr struct{ error }

func (e usageErr) Unwrap() error { return e.error }

// asUsage marks err, a check of the command line that already says what to
// do, as a usage error (nil stays nil).
func asUsage(err error) error {
	if err == nil {
		return nil
	}
	var u usageErr
	if errors.As(err, &u) {
		return err
	}
	return usageErr{err}
}

// exitCode is main's exit status for err: 2 for a usage error, else 1.
func exitCode(err error) int {
	var u usageErr
	if errors.As(err, &u) {
		return 2
	}
	return 1
}

// usageError is a mistake in how a command was called: the message, then
// where to read how to call it.
func usageError(c *cli.Context, format string, args ...any) error {
	return usageErr{fmt.Errorf("%s (see '%s --help')", fmt.Sprintf(format, args...), commandPath(c))}
}

// noArgs is the Before of a command that takes no arguments: it refuses
// any, naming the command ("docs man takes no arguments, got \"x\"").
func noArgs(c *cli.Context) error {
	if c.NArg() == 0 {
		return nil
	}
	return usageError(c, "%s takes no arguments, got %q", strings.TrimPrefix(commandPath(c), "specbridge "), c.Args().First())
}

// commandPath is the command line that names c's command, "specbridge
// train laser" for a subcommand (Command.FullName gives only "laser").
func commandPath(c *cli.Context) string {
	var names []string
	if c != nil {
		for _, ctx := range c.Lineage() {
			// The app's own root command is named like the app.
			if ctx.Command != nil && ctx.Command.Name != "" && (c.App == nil || ctx.Command.Name != c.App.Name) {
				names = append(names, ctx.Command.Name)
			}
		}
	}
	slices.Reverse(names)
	return strings.Join(append([]string{"specbridge"}, names...), " ")
}

var (
	undefinedFlag = regexp.MustCompile(`^flag provided but not defined: -+(.*)$`)
	invalidValue  = regexp.MustCompile(`^invalid value "(.*)" for flag -+([^:]*): (.*)$`)
	needsArgument = regexp.MustCompile(`^flag needs an argument: -+(.*)$`)
)

// onUsageError replaces urfave/cli's reaction to a flag it could not parse
// (the whole help on stdout, exit 1) with one line on stderr that says what
// is wrong, in the words of the checks that follow parsing, and exit 2.
func onUsageError(c *cli.Context, err error, _ bool) error {
	msg := err.Error()
	var flags []cli.Flag
	if c.Command != nil && c.Command.Name != "" && c.Command.Name != c.App.Name {
		flags = c.Command.Flags
	} else {
		flags = c.App.Flags
	}
	if m := undefinedFlag.FindStringSubmatch(msg); m != nil {
		var names []string
		for _, f := range flags {
			for _, n := range f.Names() {
				if len(n) > 1 {
					names = append(names, n)
				}
			}
		}
		hint := ""
		if s := didYouMean(m[1], names); s != "" {
			hint = strings.Replace(s, `"`, "--", 1)
			hint = strings.Replace(hint, `"`, "", 1)
		}
		return usageError(c, "unknown flag --%s%s", m[1], hint)
	}
	if m := invalidValue.FindStringSubmatch(msg); m != nil {
		return usageError(c, "--%s %q: %s", m[2], m[1], wantOf(flags, m[2]))
	}
	if m := needsArgument.FindStringSubmatch(msg); m != nil {
		return usageError(c, "--%s needs a value", m[1])
	}
	return usageError(c, "%s", msg)
}

// wantOf says what kind of value flag name takes.
func wantOf(flags []cli.Flag, name string) string {
	for _, f := range flags {
		if !slices.Contains(f.Names(), name) {
			continue
		}
		switch f.(type) {
		case *cli.IntFlag, *cli.Int64Flag:
			return "want a whole number"
		case *cli.UintFlag, *cli.Uint64Flag:
			return "want a whole number, 0 or more"
		case *cli.Float64Flag:
			return "want a number"
		case *cli.DurationFlag:
			return "want a duration such as 500ms, 5s or 2m"
		case *cli.BoolFlag:
			return "want true or false"
		}
	}
	return "not a valid value"
}

// withUsageErrors sets onUsageError on cmds and their subcommands.
func withUsageErrors(cmds []*cli.Command) {
	for _, c := range cmds {
		c.OnUsageError = onUsageError
		withUsageErrors(c.Subcommands)
	}
}
