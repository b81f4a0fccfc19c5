package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"

	"github.com/specbridge/specbridge/bridge"
	"github.com/specbridge/specbridge/cfa"
	"github.com/specbridge/specbridge/cfa/analyzer"
	"github.com/specbridge/specbridge/internal/dashboard"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/grass"
	"github.com/specbridge/specbridge/store/dirlock"
	"github.com/specbridge/specbridge/store/grassamples"
)

// shutdownGrace bounds how long serve waits for sessions to close on SIGTERM.
const shutdownGrace = 10 * time.Second

// ServeCommand is `specbridge serve`: the websocket sidecar MapReduce AMs
// connect to (bridge/PROTOCOL.md).
func ServeCommand() *cli.Command {
	return serverCommand(&cli.Command{
		Name:  "serve",
		Usage: "serve speculation decisions to MapReduce ApplicationMasters over websockets",
		Description: "Listens for the java-shim of each MapReduce AM at " + bridge.Path + ", runs one engine per job\n" +
			"and sends its decisions back. /healthz answers ok; /metrics serves Prometheus metrics.\n" +
			"The centralized fault analyzer (FARMS) runs embedded unless --cfa-url names a standalone\n" +
			"`specbridge cfa`; its flags are those of `specbridge cfa`. --data-dir keeps GRASS samples and the\n" +
			"analyzer's records across restarts. Every flag can also be set from the environment variable\n" +
			"named beside it.",
		Flags: append([]cli.Flag{
			&cli.Int64Flag{Name: "max-frame-bytes", Value: bridge.DefaultMaxFrameBytes, Usage: "largest frame read; larger ones get an error frame", EnvVars: []string{"SPECBRIDGE_MAX_FRAME_BYTES"}},
			&cli.IntFlag{Name: "max-sessions", Value: bridge.DefaultMaxSessions, Usage: "most AM sessions open at once (that said hello)", EnvVars: []string{"SPECBRIDGE_MAX_SESSIONS"}},
			&cli.IntFlag{Name: "max-pending-hellos", Value: bridge.DefaultMaxPendingHellos, Usage: "most connections waiting to say hello at once; past it an upgrade is refused with 503", EnvVars: []string{"SPECBRIDGE_MAX_PENDING_HELLOS"}},
			&cli.IntFlag{Name: "max-feed-queue", Value: bridge.DefaultMaxFeedQueue, Usage: "most accepted events waiting for the fault analyzer (its store); a session whose events find it full is held back, alone, until there is room", EnvVars: []string{"SPECBRIDGE_MAX_FEED_QUEUE"}},
			&cli.Int64Flag{Name: "max-job-memory", Value: bridge.DefaultMaxJobMemory, Usage: "`BYTES` of estimated job memory (256 bytes a task, 64 KiB a session) the open sessions may hold; a hello past it is refused with memory-budget and its job runs under Hadoop's speculator", EnvVars: []string{"SPECBRIDGE_MAX_JOB_MEMORY"}},
			&cli.Float64Flag{Name: "max-events-per-second", Value: bridge.DefaultMaxEventsPerSecond, Usage: "events per second per session before backpressure", EnvVars: []string{"SPECBRIDGE_MAX_EVENTS_PER_SECOND"}},
			&cli.Float64Flag{Name: "max-total-events-per-second", Value: bridge.DefaultMaxTotalEventsPerSecond, Usage: "events per second for the whole server, shared fairly by the sessions sending; keep it below what the host decodes (docs/operations-durability.md)", EnvVars: []string{"SPECBRIDGE_MAX_TOTAL_EVENTS_PER_SECOND"}},
			&cli.DurationFlag{Name: "pace-latency-target", Value: bridge.DefaultSchedLatencyTarget, Usage: "while the Go scheduler's p99 latency is over this, sessions' work is granted less of the time, flooding sessions first (docs/operations-durability.md); 0 turns pacing off", EnvVars: []string{"SPECBRIDGE_PACE_LATENCY_TARGET"}},
			&cli.DurationFlag{Name: "decide-interval", Value: bridge.DefaultDecideInterval, Usage: "how often each job's policy is asked for decisions", EnvVars: []string{"SPECBRIDGE_DECIDE_INTERVAL"}},
			&cli.BoolFlag{Name: "task-mean-from-prior", Usage: "give a job without specbridge.job.task-mean-ms the run time earlier jobs' tasks of its input size took (GRASS's prior, kept under --data-dir) as its mean task time, which sca, sda, ese and auto read; replay --task-mean-from-prior does the same, so that a replay shows what it does", EnvVars: []string{"SPECBRIDGE_TASK_MEAN_FROM_PRIOR"}},
			&cli.StringFlag{Name: "data-dir", Usage: "keep cross-job state here: GRASS samples (shared with replay --data-dir) and, unless --store says otherwise, the fault analyzer's records (DIR/cfa); default: in memory, lost at exit", EnvVars: []string{"SPECBRIDGE_DATA_DIR"}},
			&cli.StringFlag{Name: "cfa-url", Usage: "`URL` of a standalone fault analyzer (specbridge cfa) to use, http(s)://host:port; \"off\" runs none; default: embedded", EnvVars: []string{"SPECBRIDGE_CFA_URL"}},
			&cli.StringFlag{Name: "cfa-token-file", Usage: "`FILE` whose first token is sent to --cfa-url as \"Authorization: Bearer\" (required with --cfa-url)", EnvVars: []string{"SPECBRIDGE_CFA_TOKEN_FILE"}},
			&cli.StringFlag{Name: "cfa-ca-file", Usage: "`FILE` of PEM CA certificate(s) to verify an https --cfa-url with (default: the system's)", EnvVars: []string{"SPECBRIDGE_CFA_CA_FILE"}},
			&cli.StringFlag{Name: "store", Usage: "where the embedded analyzer's records persist: a local directory or hdfs://namenode:port/path (default: DATA-DIR/cfa, or memory without --data-dir)", EnvVars: []string{"SPECBRIDGE_CFA_STORE"}},
			&cli.StringFlag{Name: "laser-model", Usage: "LASER model `FILE` written by specbridge train laser (default: the model embedded in the binary); jobs choose laser as any policy", EnvVars: []string{"SPECBRIDGE_LASER_MODEL"}},
			&cli.DurationFlag{Name: "cfa-job-grace", Value: bridge.DefaultOrphanGrace, Usage: "a job whose AM left before it finished is ended in the analyzer after this long without a new session", EnvVars: []string{"SPECBRIDGE_CFA_JOB_GRACE"}},
		}, capacityFlags()...),
		Action: serve,
	}, server{env: "SPECBRIDGE_", listen: ":7420", listenUsage: "address to listen on (host:port; port 0 picks a free one)",
		tokenUsage: "file with the shared secret(s) AMs must present, one per line (required)", tlsServes: "serve wss://"})
}

func serve(c *cli.Context) error {
	log := logrus.StandardLogger()
	ctx, stop, sec, err := startServer(c, "serve", "AMs authenticate with a shared secret", log)
	if err != nil {
		return err
	}
	defer stop()
	if c.Int64("max-frame-bytes") <= 0 || c.Int("max-sessions") <= 0 || c.Int("max-pending-hellos") <= 0 || c.Int("max-feed-queue") <= 0 || c.Int64("max-job-memory") <= 0 || c.Float64("max-events-per-second") <= 0 || c.Float64("max-total-events-per-second") <= 0 || c.Duration("decide-interval") <= 0 {
		return errors.New("serve: --max-frame-bytes, --max-sessions, --max-pending-hellos, --max-feed-queue, --max-job-memory, --max-events-per-second, --max-total-events-per-second and --decide-interval must be positive")
	}
	if c.Duration("cfa-job-grace") <= 0 {
		return errors.New("serve: --cfa-job-grace must be positive")
	}
	reg, err := policyRegistry([]string{laserModelParam + "=" + c.String("laser-model")})
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	dataDir := c.String("data-dir")
	// What policies learn across jobs: kept here, read back as their Prior.
	var knowledge bridge.Knowledge = grass.NewMemoryStore() // this process's jobs only
	if dataDir != "" {
		// One owner per data directory: a second server exits here, naming
		// the owner's pid and host.
		lock, err := dirlock.Acquire(dataDir)
		if err != nil {
			return fmt.Errorf("serve: --data-dir: %w", err)
		}
		defer func() { _ = lock.Unlock() }()
		samples, err := grassamples.Open(dataDir)
		if err != nil {
			return fmt.Errorf("serve: --data-dir: %w", err)
		}
		defer func() {
			if err := samples.Close(); err != nil {
				log.WithError(err).Error("grass samples: close failed")
			}
		}()
		knowledge = samples
	}
	feed, err := startFeed(c, dataDir, log)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	defer func() {
		if err := feed.stop(); err != nil {
			log.WithError(err).Error("fault analyzer: final commit failed")
		}
	}()
	capacity, err := startCapacity(ctx, c, log)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	order, err := startJobOrder(ctx, c, capacity, log)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	var jobOrder bridge.JobOrder
	var describeOrder func() string
	if order != nil {
		jobOrder, describeOrder = order, order.Describe
		capacity.collectors = append(capacity.collectors, order.Collectors()...)
	}
	srv, err := bridge.NewServer(bridge.Config{
		Capacity:                capacity.fn,
		JobOrder:                jobOrder,
		Feed:                    feed.feed,
		OrphanGrace:             c.Duration("cfa-job-grace"),
		Registry:                reg,
		Knowledge:               knowledge,
		TaskMeanFromPrior:       c.Bool("task-mean-from-prior"),
		TokenSet:                sec.api,
		Health:                  feed.health,
		Collectors:              append(append(feed.collectors, buildInfo()), capacity.collectors...),
		MaxFrameBytes:           c.Int64("max-frame-bytes"),
		MaxSessions:             c.Int("max-sessions"),
		MaxPendingHellos:        c.Int("max-pending-hellos"),
		MaxJobMemory:            c.Int64("max-job-memory"),
		MaxFeedQueue:            c.Int("max-feed-queue"),
		MaxEventsPerSecond:      c.Float64("max-events-per-second"),
		MaxTotalEventsPerSecond: c.Float64("max-total-events-per-second"),
		SchedLatencyTarget:      paceTarget(c.Duration("pace-latency-target")),
		DecideInterval:          c.Duration("decide-interval"),
		Log:                     log,
	})
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	srv.ExpectJobs(feed.running)
	web, err := listenHTTP(c, "serve", sec.tls, "ws", srv.Handler(), dashboard.Config{Title: "specbridge serve", Version: buildVersion(), Tokens: sec.dashboardTokens(),
		Live: srv.Live, Nodes: feed.nodes, Analyzer: feed.where, Capacity: capacity.describe, JobOrder: describeOrder})
	if err != nil {
		return err
	}
	web.srv.TLSConfig = sec.tls
	log.WithFields(logrus.Fields{"url": web.url + bridge.Path, "version": buildVersion(), "policies": reg.Names(),
		"decide_interval": c.Duration("decide-interval"), "fault_analyzer": feed.where,
		"data_dir": dataDir, "dashboard": dashboardAt(c, web.url)}).Info("specbridge sidecar listening")

	if err := web.wait(ctx, web.serve()); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	log.Info("stopping: closing sessions")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	bridgeErr := srv.Shutdown(shutdownCtx)
	httpErr := web.srv.Shutdown(shutdownCtx)
	if err := errors.Join(bridgeErr, httpErr); err != nil {
		return fmt.Errorf("serve: shutdown: %w", err)
	}
	log.Info("stopped")
	return nil
}

// writeFileAtomic writes data to path through a temporary file so that a
// reader never sees half of it.
func writeFileAtomic(path, data string) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(data), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// serveFeed is the fault analyzer serve runs with: embedded (a cfa.Service
// and its gathering loop), remote (cfa.Remote) or none.
type serveFeed struct {
	feed       bridge.Feed
	where      string
	running    []string // jobs the embedded analyzer restored as running
	stop       func() error
	health     func() error
	collectors []prometheus.Collector
	nodes      func(recent int) []cfa.NodeView // the embedded analyzer's, for the dashboard
}

func startFeed(c *cli.Context, dataDir string, log *logrus.Logger) (serveFeed, error) {
	onError := throttledWarn(log, "fault analyzer")
	switch u := c.String("cfa-url"); u {
	case "off":
		return serveFeed{where: "off", stop: func() error { return nil }}, nil
	case "":
	default:
		opts, err := remoteOptions(c)
		if err != nil {
			return serveFeed{}, err
		}
		r, err := cfa.NewRemote(u, 100*time.Millisecond, onError, opts...)
		if err != nil {
			return serveFeed{}, fmt.Errorf("--cfa-url: %w", err)
		}
		return serveFeed{feed: r, where: u, stop: r.Close}, nil
	}
	cfg, err := cfaConfig(c)
	if err != nil {
		return serveFeed{}, err
	}
	cfg.OnError = onError
	if cfg.Store == "" && dataDir != "" {
		cfg.Store = filepath.Join(dataDir, "cfa")
	}
	svc, err := cfa.NewService(cfg)
	if err != nil {
		return serveFeed{}, err
	}
	where := "embedded, records in memory"
	if cfg.Store != "" {
		where = "embedded, records in " + cfg.Store
		logLoaded("fault analyzer", cfg.Store, svc.Loaded)
	}
	var running []string
	svc.View(func(st *analyzer.State, _ func(speculators.NodeID) analyzer.Time) {
		for id, j := range st.Jobs {
			if j.Ended == 0 {
				running = append(running, id)
			}
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- svc.Run(ctx) }() // Run commits and snapshots when ctx ends
	return serveFeed{feed: svc, where: where, running: running, stop: func() error {
		cancel()
		return <-ran
	}, health: svc.Health, collectors: svc.Collectors(), nodes: svc.NodeViews}, nil
}

// remoteOptions are the token (required) and TLS settings for --cfa-url.
func remoteOptions(c *cli.Context) ([]cfa.RemoteOption, error) {
	if c.String("cfa-token-file") == "" {
		return nil, errors.New("--cfa-url needs --cfa-token-file (the analyzer's API requires a bearer token)")
	}
	tokens, err := bridge.ReadTokenFile(c.String("cfa-token-file"))
	if err != nil {
		return nil, fmt.Errorf("--cfa-token-file: %w", err)
	}
	opts := []cfa.RemoteOption{cfa.WithToken(tokens[0])}
	if f := c.String("cfa-ca-file"); f != "" {
		pem, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("--cfa-ca-file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--cfa-ca-file %s: no PEM certificate in it", f)
		}
		opts = append(opts, cfa.WithTLS(&tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}))
	}
	return opts, nil
}

// throttledWarn logs errors of a background loop, repeating the same one at
// most every 30 s (an analyzer that is down fails every round).
func throttledWarn(log *logrus.Logger, what string) func(error) {
	var mu sync.Mutex
	var last string
	var at time.Time
	return func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if msg := err.Error(); msg != last || time.Since(at) > 30*time.Second {
			last, at = msg, time.Now()
			log.WithError(err).Warn(what)
		}
	}
}

// paceTarget maps --pace-latency-target to bridge.Config.SchedLatencyTarget:
// the flag's 0 (off) is the Config's negative.
func paceTarget(d time.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return d
}
