package main

import (
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/specbridge/specbridge/speculators"
	"github.com/urfave/cli/v2"
)

func speculatorsCommand() *cli.Command {
	return &cli.Command{
		Name:  "speculators",
		Usage: "list the registered policies with their parameters and defaults",
		Action: func(c *cli.Context) error {
			reg, err := policyRegistry(nil)
			if err != nil {
				return err
			}
			return listSpeculators(reg)
		},
	}
}

func listSpeculators(reg *speculators.Registry) error {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	for _, name := range reg.Names() {
		p, _ := reg.Lookup(name)
		fmt.Fprintf(tw, "%s\t%s\n", p.Name, p.Doc)
		for _, s := range p.Params {
			alias := ""
			if s.HadoopKey != "" {
				alias = " (" + s.HadoopKey + ")"
			}
			fmt.Fprintf(tw, "  %s.%s=%s\t%s %s%s\n", p.Name, s.Name, speculators.FormatParam(s.Default), s.Kind, s.Doc, alias)
		}
	}
	return tw.Flush()
}
