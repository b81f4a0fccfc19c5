package main

import (
	"encoding/json"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/specbridge/specbridge/conformance"
)

// conformanceTraceCommand prints a conformance scenario simulated under a
// policy as JSON (conformance.Trace): the shim's MRApp harness
// (java-shim, ConformanceMRAppTest) plays it through Hadoop's AM to a real
// `serve`. A test tool, hidden from the help.
func conformanceTraceCommand() *cli.Command {
	return &cli.Command{
		Name:      "conformance-trace",
		Usage:     "print a conformance scenario (sim/testdata/conformance) simulated under a policy, as JSON",
		ArgsUsage: "SCENARIO POLICY",
		Hidden:    true,
		Action: func(c *cli.Context) error {
			if c.NArg() != 2 {
				return usageError(c, "conformance-trace takes SCENARIO POLICY, got %d arguments", c.NArg())
			}
			s, err := conformance.Read(c.Args().Get(0))
			if err != nil {
				return err
			}
			reg, err := policyRegistry(nil)
			if err != nil {
				return err
			}
			tr, err := conformance.Simulate(reg, s, c.Args().Get(1))
			if err != nil {
				return err
			}
			enc := json.NewEncoder(os.Stdout)
			return enc.Encode(tr)
		},
	}
}
