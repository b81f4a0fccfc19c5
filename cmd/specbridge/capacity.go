package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strings"

	krb "github.com/jcmturner/gokrb5/v8/client"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/yarnclient/rmcapacity"
	"github.com/specbridge/specbridge/yarnclient/rmorder"
)

// capacityFlags are serve's flags for the cluster's capacity, read from the
// ResourceManager for sca, dolly and ese (issue 25 item 4).
func capacityFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "rm", Usage: "ResourceManager web `ADDRESSES` (http(s)://host:port, comma-separated for HA) whose /ws/v1/cluster/metrics give sca, dolly and ese the cluster's total and free containers; default: from yarn-site.xml of --hadoop-conf (HADOOP_CONF_DIR); \"off\": none (they size clones from the hello's slots)", EnvVars: []string{"SPECBRIDGE_RM"}},
		&cli.DurationFlag{Name: "rm-refresh", Value: rmcapacity.DefaultRefresh, Usage: "how often the ResourceManager's metrics are read; a reading older than 3 periods is not used", EnvVars: []string{"SPECBRIDGE_RM_REFRESH"}},
		&cli.BoolFlag{Name: "rm-job-order", Usage: "set the YARN application priority of every job whose policy orders jobs (sca, sda, ese, auto) from that order, so that the capacity scheduler serves jobs as the replay does (docs/operations.md); needs a ResourceManager (--rm) and yarn.cluster.max-application-priority above 0; it replaces those jobs' submitted priorities", EnvVars: []string{"SPECBRIDGE_RM_JOB_ORDER"}},
		&cli.IntFlag{Name: "rm-job-order-levels", Usage: "priority `LEVELS` the job order uses (1..LEVELS), at most the cluster's; used alone when the ResourceManager's /conf cannot be read", DefaultText: "the ResourceManager's yarn.cluster.max-application-priority", EnvVars: []string{"SPECBRIDGE_RM_JOB_ORDER_LEVELS"}},
		&cli.DurationFlag{Name: "rm-job-order-interval", Value: rmorder.DefaultInterval, Usage: "how often the job order is written to the ResourceManager (only changed priorities are)", EnvVars: []string{"SPECBRIDGE_RM_JOB_ORDER_INTERVAL"}},
		&cli.StringFlag{Name: "rm-user", Usage: "`USER` named (user.name) in the job order's requests under simple authentication (read where the RM's web server uses Hadoop's pseudo authentication filter); with yarn.acl.enable it must own the jobs or be a YARN admin", DefaultText: "the sidecar's user", EnvVars: []string{"SPECBRIDGE_RM_USER"}},
		&cli.Int64Flag{Name: "rm-container-mb", Usage: "`MB` of one container in the capacity count", DefaultText: "mapreduce.map.memory.mb rounded up to yarn.scheduler.minimum-allocation-mb, from --hadoop-conf, else 1024", EnvVars: []string{"SPECBRIDGE_RM_CONTAINER_MB"}},
	}
}

// capacity is the running watcher, or the reason there is none.
type capacity struct {
	fn         speculators.Capacity
	collectors []prometheus.Collector
	watcher    *rmcapacity.Watcher
	off        string // why there is no watcher
	// The ResourceManagers read, and the Kerberos login for their SPNEGO
	// (nil without), for the job order.
	rms      []string
	kerberos *krb.Client
}

// describe is the capacity's line on the dashboard.
func (c capacity) describe() string {
	if c.watcher == nil {
		return c.off
	}
	s, fresh, err := c.watcher.Snapshot()
	switch {
	case fresh:
		return fmt.Sprintf("%d containers, %d free (ResourceManager %s, read %s)", s.Total, s.Free, s.RM, s.At.UTC().Format("15:04:05"))
	case err != nil:
		return "unknown: " + err.Error() + "; sca, dolly and ese size clones without it"
	default:
		return "not read yet"
	}
}

// hadoopConfDir is --hadoop-conf, else HADOOP_CONF_DIR, else
// HADOOP_HOME/etc/hadoop, else "".
func hadoopConfDir(c *cli.Context) string {
	if d := c.String("hadoop-conf"); d != "" {
		return d
	}
	if d := os.Getenv("HADOOP_CONF_DIR"); d != "" {
		return d
	}
	if h := os.Getenv("HADOOP_HOME"); h != "" {
		return filepath.Join(h, "etc", "hadoop")
	}
	return ""
}

// startCapacity starts reading the RM's capacity when an RM is named (by
// --rm or the Hadoop configuration); without one the policies keep their
// behaviour, and the log and the dashboard say so. A bad flag or
// configuration is an error; an RM that does not answer is not (it is
// logged, and read again every --rm-refresh).
func startCapacity(ctx context.Context, c *cli.Context, log logrus.FieldLogger) (capacity, error) {
	if c.Duration("rm-refresh") <= 0 {
		return capacity{}, errors.New("--rm-refresh must be positive")
	}
	if c.Int64("rm-container-mb") < 0 {
		return capacity{}, errors.New("--rm-container-mb must be positive")
	}
	const blind = "none: no ResourceManager address (--rm, or yarn-site.xml of --hadoop-conf / HADOOP_CONF_DIR); sca, dolly and ese size clones from the job's own slots"
	flag := strings.TrimSpace(c.String("rm"))
	if flag == "off" {
		log.Info("cluster capacity: --rm off; sca, dolly and ese size clones from the job's own slots")
		return capacity{off: "off (--rm off); sca, dolly and ese size clones from the job's own slots"}, nil
	}
	site := rmcapacity.SiteConf{}
	if dir := hadoopConfDir(c); dir != "" {
		var err error
		if site, err = rmcapacity.LoadSite(dir); err != nil {
			return capacity{}, err
		}
	}
	var rms []string
	for _, a := range strings.Split(flag, ",") {
		if a = strings.TrimSpace(a); a != "" {
			rms = append(rms, a)
		}
	}
	if len(rms) == 0 {
		var err error
		if rms, err = site.RMAddresses(); err != nil {
			return capacity{}, fmt.Errorf("cluster capacity: %w", err)
		}
	}
	if len(rms) == 0 {
		log.Warn("cluster capacity: " + blind)
		return capacity{off: blind}, nil
	}
	ct, err := site.MapContainer()
	if err != nil {
		return capacity{}, fmt.Errorf("cluster capacity: %w", err)
	}
	if mb := c.Int64("rm-container-mb"); mb > 0 {
		ct.MB = mb
	}
	cfg := rmcapacity.Config{RMs: rms, Container: ct, Refresh: c.Duration("rm-refresh"), Log: log}
	if site.Secured() {
		if cfg.Kerberos, err = hdfsConf(c).KerberosLogin(); err != nil {
			return capacity{}, fmt.Errorf("cluster capacity: SPNEGO to the ResourceManager: %w", err)
		}
		if cfg.Kerberos == nil {
			return capacity{}, errors.New("cluster capacity: hadoop.http.authentication.type is kerberos but hadoop.security.authentication is not: no Kerberos login for SPNEGO")
		}
	}
	w, err := rmcapacity.New(cfg)
	if err != nil {
		return capacity{}, err
	}
	fields := logrus.Fields{"rm": strings.Join(rms, ","), "container_mb": ct.MB, "container_vcores": ct.VCores, "refresh": cfg.Refresh, "spnego": cfg.Kerberos != nil}
	if err := w.Refresh(ctx); err != nil {
		log.WithFields(fields).WithError(err).Warn("cluster capacity: first read failed; sca, dolly and ese size clones without it until a read succeeds")
	} else {
		s, _, _ := w.Snapshot()
		fields["containers"], fields["free"] = s.Total, s.Free
		log.WithFields(fields).Info("cluster capacity: reading the ResourceManager")
	}
	go w.Run(ctx)
	return capacity{fn: w.Capacity, collectors: w.Collectors(), watcher: w, rms: rms, kerberos: cfg.Kerberos}, nil
}

// startJobOrder starts setting the application priorities of the jobs whose
// policies order jobs (--rm-job-order) on the ResourceManagers the capacity
// reads; nil when it is off. Asking for it without a ResourceManager is an
// error: the operator asked for something that cannot happen.
func startJobOrder(ctx context.Context, c *cli.Context, capa capacity, log logrus.FieldLogger) (*rmorder.Orderer, error) {
	if !c.Bool("rm-job-order") {
		return nil, nil
	}
	if len(capa.rms) == 0 {
		return nil, fmt.Errorf("--rm-job-order needs a ResourceManager: %s", capa.off)
	}
	if c.Duration("rm-job-order-interval") <= 0 {
		return nil, errors.New("--rm-job-order-interval must be positive")
	}
	if c.Int("rm-job-order-levels") < 0 {
		return nil, errors.New("--rm-job-order-levels must be 0 (the cluster's) or more")
	}
	name := c.String("rm-user")
	if name == "" && capa.kerberos == nil {
		if u, err := user.Current(); err == nil {
			name = u.Username
		}
	}
	o, err := rmorder.New(rmorder.Config{RMs: capa.rms, User: name, Levels: c.Int("rm-job-order-levels"),
		Interval: c.Duration("rm-job-order-interval"), Kerberos: capa.kerberos, Log: log})
	if err != nil {
		return nil, err
	}
	log.WithFields(logrus.Fields{"rm": strings.Join(capa.rms, ","), "user": name, "interval": c.Duration("rm-job-order-interval")}).
		Info("job order: the application priorities of jobs whose policies order jobs follow that order")
	go o.Run(ctx)
	return o, nil
}
