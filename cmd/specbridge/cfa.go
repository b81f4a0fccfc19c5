package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os/signal"
	"syscall"
	"time"

	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"

	"github.com/specbridge/specbridge/cfa"
	"github.com/specbridge/specbridge/cfa/analyzer"
	"github.com/specbridge/specbridge/speculators/detect"
)

// CFACommand is `specbridge cfa`: the centralized fault analyzer run
// standalone, with the JSON API sidecars connect to (cfa/api.go).
func CFACommand() *cli.Command {
	return &cli.Command{
		Name:  "cfa",
		Usage: "run the centralized fault analyzer standalone (node liveness across all jobs, TWS, records)",
		Description: "Keeps job-level and system-level records (FARMS §3.1), gathers node liveness every --gather-interval\n" +
			"from the heartbeats sidecars post and from ResourceManager / NodeManager probes, declares nodes\n" +
			"suspected / failed / resumed with Temporal Window Smoothing, and persists everything to --store\n" +
			"(a local directory or hdfs://namenode:port/path). API (JSON): POST /v1/jobs/{job}/events,\n" +
			"POST /v1/jobs/{job}/end, GET /v1/jobs/{job}/notices?after=N&wait=30s (long poll),\n" +
			"GET /v1/jobs/{job}, GET /v1/nodes, GET /healthz. Every flag can also be set from the\n" +
			"environment variable named beside it.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "listen", Value: "127.0.0.1:7421", Usage: "address of the JSON API (host:port; port 0 picks a free one)", EnvVars: []string{"SPECBRIDGE_CFA_LISTEN"}},
			&cli.StringFlag{Name: "store", Value: "specbridge-cfa", Usage: "where records persist: a local directory or hdfs://namenode:port/path", EnvVars: []string{"SPECBRIDGE_CFA_STORE"}},
		}, cfaFlags()...),
		Action: runCFA,
	}
}

// cfaFlags are the analyzer's settings, shared by `specbridge cfa` and
// `specbridge serve` (which embeds the analyzer): same names, same
// environment variables.
func cfaFlags() []cli.Flag {
	def := analyzer.DefaultConfig()
	return []cli.Flag{
		&cli.DurationFlag{Name: "gather-interval", Value: 5 * time.Second, Usage: "how often node liveness is gathered (FARMS §3.1: 5 s)", EnvVars: []string{"SPECBRIDGE_CFA_GATHER_INTERVAL"}},
		&cli.StringFlag{Name: "rm-url", Usage: "ResourceManager web address (http://rm:8088) to probe nodes through; empty: heartbeats only", EnvVars: []string{"SPECBRIDGE_CFA_RM_URL"}},
		&cli.StringFlag{Name: "detector", Value: def.Detector, Usage: "failure detector: tws, mean or fixed", EnvVars: []string{"SPECBRIDGE_CFA_DETECTOR"}},
		&cli.IntFlag{Name: "tws-window", Value: def.Detect.Window, Usage: "L, the episodes TWS weighs (eq. 1)", EnvVars: []string{"SPECBRIDGE_CFA_TWS_WINDOW"}},
		&cli.Float64Flag{Name: "tws-base", Value: def.Detect.Base, Usage: "b, TWS's weight base (eq. 1)", EnvVars: []string{"SPECBRIDGE_CFA_TWS_BASE"}},
		&cli.DurationFlag{Name: "initial-threshold", Value: time.Duration(def.Detect.Initial) * time.Millisecond, Usage: "threshold of a node with no recorded episode", EnvVars: []string{"SPECBRIDGE_CFA_INITIAL_THRESHOLD"}},
		&cli.DurationFlag{Name: "gap", Value: time.Duration(def.Gap) * time.Millisecond, Usage: "silence after which a node's unresponsive episode begins", EnvVars: []string{"SPECBRIDGE_CFA_GAP"}},
		&cli.StringFlag{Name: "node-key", Value: string(cfa.NodeKeyHostPort), Usage: "how attempts name nodes, as the shim's specbridge.node-key: host-port (the NodeManager id) or host", EnvVars: []string{"SPECBRIDGE_CFA_NODE_KEY"}},
		&cli.DurationFlag{Name: "probe-timeout", Value: 3 * time.Second, Usage: "timeout of each RM and NM request", EnvVars: []string{"SPECBRIDGE_CFA_PROBE_TIMEOUT"}},
	}
}

func cfaConfig(c *cli.Context) (cfa.ServiceConfig, error) {
	an := analyzer.DefaultConfig()
	an.Detector = c.String("detector")
	an.Detect = detect.Config{Window: c.Int("tws-window"), Base: c.Float64("tws-base"),
		Initial: c.Duration("initial-threshold").Milliseconds(), Floor: detect.DefaultConfig().Floor}
	an.Gap = c.Duration("gap").Milliseconds()
	if an.Gap <= 0 || c.Duration("gather-interval") <= 0 {
		return cfa.ServiceConfig{}, errors.New("cfa: --gap and --gather-interval must be positive")
	}
	cfg := cfa.ServiceConfig{Analyzer: an, Store: c.String("store"), Gather: c.Duration("gather-interval"),
		OnError: func(err error) { logrus.WithError(err).Warn("cfa") }}
	key, err := cfa.ParseNodeKey(c.String("node-key"))
	if err != nil {
		return cfa.ServiceConfig{}, fmt.Errorf("--node-key: %w", err)
	}
	if u := c.String("rm-url"); u != "" {
		p, err := cfa.NewRESTProber(u, c.Duration("probe-timeout"))
		if err != nil {
			return cfa.ServiceConfig{}, fmt.Errorf("--rm-url: %w", err)
		}
		p.Key = key
		cfg.Prober = p
	}
	return cfg, nil
}

func runCFA(c *cli.Context) error {
	cfg, err := cfaConfig(c)
	if err != nil {
		return err
	}
	svc, err := cfa.NewService(cfg)
	if err != nil {
		return err
	}
	logrus.WithFields(logrus.Fields{"store": cfg.Store, "snapshot_seq": svc.Loaded.SnapshotSeq,
		"records": svc.Loaded.Records, "torn": len(svc.Loaded.Torn)}).Info("cfa: state loaded")
	for _, torn := range svc.Loaded.Torn {
		logrus.WithField("where", torn).Warn("cfa: dropped a torn last record (a write a crash cut)")
	}
	ln, err := net.Listen("tcp", c.String("listen"))
	if err != nil {
		return errors.Join(fmt.Errorf("cfa: listen: %w", err), svc.Close())
	}
	srv := &http.Server{Handler: svc.Handler(), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	logrus.WithField("addr", ln.Addr().String()).Info("cfa: listening")

	ctx, stop := signal.NotifyContext(c.Context, syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	// The gathering loop outlives the HTTP server, so that events posted
	// until the server stops are in the final commit and snapshot.
	runCtx, stopRun := context.WithCancel(context.Background())
	defer stopRun()
	ran := make(chan error, 1)
	go func() { ran <- svc.Run(runCtx) }()
	var serveErr error
	select {
	case <-ctx.Done():
	case serveErr = <-served:
		serveErr = fmt.Errorf("cfa: serve: %w", serveErr)
	}
	svc.StopPolls()
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if serveErr == nil {
		if err := srv.Shutdown(shutdown); err != nil {
			serveErr = fmt.Errorf("cfa: shut down the API: %w", err)
		}
	}
	stopRun()
	if err := <-ran; err != nil { // commits and writes a final snapshot
		return errors.Join(err, serveErr)
	}
	logrus.Info("cfa: stopped, state saved")
	return serveErr
}
