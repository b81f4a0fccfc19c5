package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// usageError is a mistake in how a command was called: the message, then
// where to read how to call it.
func usageError(c *cli.Context, format string, args ...any) error {
	name := "specbridge"
	if c != nil && c.Command != nil && c.Command.Name != "" {
		name = "specbridge " + c.Command.FullName()
	}
	return fmt.Errorf("%s (see '%s --help')", fmt.Sprintf(format, args...), name)
}
