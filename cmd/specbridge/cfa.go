package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"

	"github.com/specbridge/specbridge/cfa"
	"github.com/specbridge/specbridge/cfa/analyzer"
	"github.com/specbridge/specbridge/internal/authguard"
	"github.com/specbridge/specbridge/internal/dashboard"
	"github.com/specbridge/specbridge/speculators/detect"
	"github.com/specbridge/specbridge/yarnclient/hdfs"
)

// CFACommand is `specbridge cfa`: the centralized fault analyzer run
// standalone, with the JSON API sidecars connect to (cfa/api.go).
func CFACommand() *cli.Command {
	return serverCommand(&cli.Command{
		Name:  "cfa",
		Usage: "run the centralized fault analyzer standalone (node liveness across all jobs, TWS, records)",
		Description: "Keeps job-level and system-level records (FARMS §3.1), gathers node liveness every --gather-interval\n" +
			"from the heartbeats sidecars post and from ResourceManager / NodeManager probes, declares nodes\n" +
			"suspected / failed / resumed with Temporal Window Smoothing, and persists everything to --store\n" +
			"(a local directory or hdfs://namenode:port/path). API (JSON): POST /v1/jobs/{job}/events,\n" +
			"POST /v1/jobs/{job}/end, GET /v1/jobs/{job}/notices?after=N&wait=30s (long poll),\n" +
			"GET /v1/jobs/{job}, GET /v1/nodes, GET /healthz, GET /metrics. Every request but /healthz and\n" +
			"/metrics needs \"Authorization: Bearer TOKEN\" with a token of --token-file (else 401).\n" +
			"`specbridge cfa fsck STORE` checks and repairs a store. Every flag can also be set from the\n" +
			"environment variable named beside it.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "store", Value: "specbridge-cfa", Usage: "where records persist: a local directory or hdfs://namenode:port/path", EnvVars: []string{"SPECBRIDGE_CFA_STORE"}},
		},
		Action:      runCFA,
		Subcommands: []*cli.Command{fsckCommand()},
	}, server{env: "SPECBRIDGE_CFA_", listen: "127.0.0.1:7421", listenUsage: "address of the JSON API (host:port; port 0 picks a free one)",
		tokenUsage: "file with the API's bearer token(s), one per line (required; serve --cfa-token-file sends one)", tlsServes: "serve the API over https"})
}

func fsckCommand() *cli.Command {
	return &cli.Command{
		Name:      "fsck",
		Usage:     "check (and with --repair, repair) a fault analyzer store: a directory or hdfs://namenode:port/path",
		ArgsUsage: "STORE",
		Description: "Reads the snapshot and every log segment, checking each frame's length and CRC-32C. Reports the\n" +
			"valid records, the damaged frames (skipped at load; later frames still load) and the bytes of torn\n" +
			"tails (a write a crash cut). --repair rewrites damaged segments with their valid frames only.\n" +
			"Takes the store's lock: it refuses a store a running analyzer owns. Exit status 1 when damage was\n" +
			"found and not repaired.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "repair", Usage: "remove damaged frames and torn tails"},
			&cli.StringFlag{Name: "output", Value: "text", Usage: "text or json ({\"records\": N, \"damaged_frames\": K, \"torn_bytes\": B})"},
		},
		Action: runFsck,
	}
}

func runFsck(c *cli.Context) error {
	if c.NArg() != 1 {
		return errors.New("cfa fsck: want one STORE (a directory or hdfs://namenode:port/path)")
	}
	if o := c.String("output"); o != "text" && o != "json" {
		return fmt.Errorf("cfa fsck: --output %q: want text or json", o)
	}
	loc := c.Args().First()
	if !hdfs.IsURL(loc) {
		if _, err := os.Stat(loc); err != nil {
			return fmt.Errorf("cfa fsck: %w", err)
		}
	}
	dir, err := cfa.OpenDir(loc, hdfsConf(c))
	if err != nil {
		return fmt.Errorf("cfa fsck: %w", err)
	}
	if cl, ok := dir.(io.Closer); ok {
		defer cl.Close()
	}
	if l, ok := dir.(interface{ Lock() (func() error, error) }); ok {
		release, err := l.Lock()
		if err != nil {
			return fmt.Errorf("cfa fsck: %w", err)
		}
		defer release()
	}
	rep, err := cfa.Fsck(dir, c.Bool("repair"))
	if err != nil {
		return fmt.Errorf("cfa fsck: %w", err)
	}
	if c.String("output") == "json" {
		b, _ := json.Marshal(rep)
		fmt.Fprintln(c.App.Writer, string(b))
	} else {
		fmt.Fprint(c.App.Writer, rep.String())
	}
	if !rep.Repaired && rep.Damage() {
		return cli.Exit("", 1)
	}
	return nil
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
		&cli.IntFlag{Name: "max-pending", Value: cfa.DefaultMaxPending, Usage: "records kept in memory while the store cannot be written (a full disk); then event senders wait", EnvVars: []string{"SPECBRIDGE_CFA_MAX_PENDING"}},
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
	if c.Int("max-pending") <= 0 {
		return cfa.ServiceConfig{}, errors.New("cfa: --max-pending must be positive")
	}
	cfg := cfa.ServiceConfig{Analyzer: an, Store: c.String("store"), HDFS: hdfsConf(c), Gather: c.Duration("gather-interval"),
		OnError: func(err error) { logrus.WithError(err).Warn("cfa") }, MaxPending: c.Int("max-pending")}
	key, err := cfa.ParseNodeKey(c.String("node-key"))
	if err != nil {
		return cfa.ServiceConfig{}, fmt.Errorf("--node-key: %w", err)
	}
	if c.Duration("probe-timeout") <= 0 {
		return cfa.ServiceConfig{}, fmt.Errorf("cfa: --probe-timeout %s must be positive", c.Duration("probe-timeout"))
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

// logLoaded logs what the store held at start, and every problem found.
func logLoaded(what, store string, l cfa.LoadReport) {
	logrus.WithFields(logrus.Fields{"store": store, "snapshot": l.Snapshot, "snapshot_seq": l.SnapshotSeq, "records": l.Records,
		"torn": len(l.Torn), "torn_bytes": l.TornBytes, "damaged_frames": len(l.Damaged), "unapplied": len(l.Unapplied), "missing": len(l.Missing)}).Info(what + ": state loaded")
	for _, torn := range l.Torn {
		logrus.WithField("where", torn).Warn(what + ": dropped a torn last record (a write a crash cut)")
	}
	for _, d := range l.Damaged {
		logrus.WithField("where", d).Error(what + ": skipped a damaged frame or snapshot; later records loaded (specbridge cfa fsck reports and repairs)")
	}
	for _, u := range l.Unapplied {
		logrus.WithField("where", u).Error(what + ": a record did not apply (one it depends on was damaged)")
	}
	for _, m := range l.Missing {
		logrus.WithField("where", m).Error(what + ": acknowledged records are missing from the store")
	}
}

func runCFA(c *cli.Context) error {
	ctx, stop, sec, err := startServer(c, "cfa", "sidecars authenticate with a bearer token", logrus.StandardLogger())
	if err != nil {
		return err
	}
	defer stop()
	cfg, err := cfaConfig(c)
	if err != nil {
		return err
	}
	cfg.Collectors = []prometheus.Collector{buildInfo()}
	svc, err := cfa.NewService(cfg)
	if err != nil {
		return err
	}
	logLoaded("cfa", cfg.Store, svc.Loaded)
	handler, err := cfa.RequireToken(svc.Handler(), sec.api, authguard.New(logrus.StandardLogger(), "analyzer API"))
	if err != nil {
		return errors.Join(err, svc.Close())
	}
	api, err := listenHTTP(c, "cfa", sec.tls, "http", handler, dashboard.Config{Title: "specbridge cfa", Version: buildVersion(), Tokens: sec.dashboardTokens(),
		Nodes: svc.NodeViews, Analyzer: "this process, records in " + cfg.Store})
	if err != nil {
		return errors.Join(err, svc.Close())
	}
	served := api.serve()
	logrus.WithFields(logrus.Fields{"url": api.url, "version": buildVersion()}).Info("cfa: listening")

	// The gathering loop outlives the HTTP server, so that events posted
	// until the server stops are in the final commit and snapshot.
	runCtx, stopRun := context.WithCancel(context.Background())
	defer stopRun()
	ran := make(chan error, 1)
	go func() { ran <- svc.Run(runCtx) }()
	serveErr := api.wait(ctx, served)
	if serveErr != nil {
		serveErr = fmt.Errorf("cfa: serve: %w", serveErr)
	}
	svc.StopPolls()
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if serveErr == nil {
		if err := api.srv.Shutdown(shutdown); err != nil {
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
