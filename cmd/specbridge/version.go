package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/urfave/cli/v2"
)

// buildVersion is what `specbridge --version`, the servers' start line and
// their specbridge_build_info metric report: main.version when the build
// set it (-ldflags "-X main.version=...", as the Dockerfile does), and for a
// plain `go build` in a checkout, "dev+" and the commit the go command
// stamped into the binary (12 hex digits, "-modified" when the tree had
// uncommitted changes). Choice: the commit rather than a date, since an
// operator comparing two sidecars, or a sidecar with the repository, wants
// to know whether they run the same code.
func buildVersion() string {
	info, ok := debug.ReadBuildInfo()
	if version != "dev" || !ok {
		return version
	}
	return devVersion(info.Settings)
}

// devVersion is "dev" with the VCS revision among settings, if any.
func devVersion(settings []debug.BuildSetting) string {
	rev, modified := "", false
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return "dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	v := "dev+" + rev
	if modified {
		v += "-modified"
	}
	return v
}

// buildInfo is the conventional build-information gauge: constant 1, with
// the version and the Go release as labels, so that a dashboard can show
// which sidecars run which build and an alert can spot a mixed fleet.
func buildInfo() prometheus.Collector {
	g := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "specbridge_build_info",
		Help:        "The running binary's version and Go release (constant 1).",
		ConstLabels: prometheus.Labels{"version": buildVersion(), "goversion": runtime.Version()},
	})
	g.Set(1)
	return g
}

// versionCommand is `specbridge version`: what --version prints, as the
// ecosystem's tools (go, kubectl, docker) also answer it.
func versionCommand() *cli.Command {
	return &cli.Command{
		Name:   "version",
		Usage:  "print the version (as --version does)",
		Before: noArgs,
		Action: func(c *cli.Context) error {
			_, err := fmt.Fprintf(c.App.Writer, "%s version %s\n", c.App.Name, c.App.Version)
			return err
		},
	}
}
