package main

import (
	"fmt"
	"os"

	"github.com/specbridge/specbridge/internal/policydoc"
	"github.com/urfave/cli/v2"
)

func docsCommand() *cli.Command {
	return &cli.Command{
		Name:  "docs",
		Usage: "generate documentation pages from the code",
		Subcommands: []*cli.Command{{
			Name:   "man",
			Usage:  "print the specbridge(1) manual page, in roff: specbridge docs man > specbridge.1; man ./specbridge.1",
			Before: noArgs,
			Action: func(c *cli.Context) error {
				page, err := c.App.ToManWithSection(1)
				if err != nil {
					return err
				}
				_, err = fmt.Fprint(c.App.Writer, page)
				return err
			},
		}, {
			Name:  "policies",
			Usage: "print docs/policies.md: the registry's policies and parameters with the fragments in docs/policies/",
			Description: "Run from the repository's root:\n" +
				"  " + policydoc.Command,
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "fragments", Value: "docs/policies", Usage: "directory of the hand-written `DIR`/<policy>.md fragments and _guide.md"},
			},
			Before: noArgs,
			Action: func(c *cli.Context) error {
				reg, err := policyRegistry(nil)
				if err != nil {
					return err
				}
				page, err := policydoc.Generate(reg, c.String("fragments"))
				if err != nil {
					return err
				}
				_, err = os.Stdout.Write(page)
				return err
			},
		}},
	}
}
