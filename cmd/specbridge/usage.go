package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// usageError is a mistake in how a command was called: the message, then
// where to read how to call it.
func usageError(c *cli.Context, format string, args ...any) error {
	return fmt.Errorf("%s (see '%s --help')", fmt.Sprintf(format, args...), commandPath(c))
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
