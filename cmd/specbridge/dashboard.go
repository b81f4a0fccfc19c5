package main

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/specbridge/specbridge/internal/dashboard"
	"github.com/specbridge/specbridge/yarnclient/hdfs"
)

// dashboardFlags are the live page's flags, shared by serve and cfa; env
// is the commands' variable prefix (SPECBRIDGE_ or SPECBRIDGE_CFA_).
func dashboardFlags(env string) []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "dashboard", Value: true, Usage: "serve the live dashboard at / (--dashboard=false turns it off)", EnvVars: []string{env + "DASHBOARD"}},
		&cli.StringFlag{Name: "dashboard-token-file", Usage: "`FILE` of extra tokens, one per line, that open the dashboard only (read-only); the --token-file tokens always open it", EnvVars: []string{env + "DASHBOARD_TOKEN_FILE"}},
	}
}

// withDashboard mounts the dashboard in front of api when --dashboard is
// on: / and /dashboard/... are the page's, everything else api's (cfg's
// tokens are the server's secrets: loadSecrets). It
// returns api unchanged (and a nil dashboard) when it is off.
func withDashboard(c *cli.Context, cfg dashboard.Config, api http.Handler) (http.Handler, *dashboard.Dashboard, error) {
	if !c.Bool("dashboard") {
		return api, nil, nil
	}
	d, err := dashboard.New(cfg)
	if err != nil {
		return nil, nil, err
	}
	mux := http.NewServeMux()
	d.Mount(mux)
	mux.Handle("/", api)
	return mux, d, nil
}

// hadoopCommand is cmd for a command that reads or writes hdfs:// paths:
// --hadoop-conf comes first among its flags, and is read (useHadoopConf)
// before its action runs, which takes it with hdfsConf.
func hadoopCommand(cmd *cli.Command) *cli.Command {
	cmd.Flags = append([]cli.Flag{hadoopConfFlag()}, cmd.Flags...)
	cmd.Before = useHadoopConf
	return cmd
}

// server is what a command that serves over HTTP (serve, cfa) says of its
// server in its flags.
type server struct {
	env                 string // prefix of the flags' environment variables
	listen, listenUsage string // --listen's default and usage
	tokenUsage          string // whose tokens --token-file holds
	tlsServes           string // what --tls-cert serves
}

// serverCommand is hadoopCommand for a command that serves over HTTP
// (listenHTTP): --listen, its own flags, then the token, TLS and
// address-file flags (serverFlags), the analyzer's (cfaFlags) and the
// dashboard's.
func serverCommand(cmd *cli.Command, s server) *cli.Command {
	listen := &cli.StringFlag{Name: "listen", Value: s.listen, Usage: s.listenUsage, EnvVars: []string{s.env + "LISTEN"}}
	cmd.Flags = slices.Concat([]cli.Flag{listen}, cmd.Flags, serverFlags(s.env, s.tokenUsage, s.tlsServes), cfaFlags(), dashboardFlags(s.env))
	return hadoopCommand(cmd)
}

func hadoopConfFlag() cli.Flag {
	return &cli.StringFlag{Name: "hadoop-conf", Usage: "`DIR` of the cluster's core-site.xml and hdfs-site.xml for hdfs:// paths (fs.defaultFS for hdfs:///path, HA nameservices, Kerberos); default: HADOOP_CONF_DIR, else HADOOP_HOME/etc/hadoop", EnvVars: []string{"SPECBRIDGE_HADOOP_CONF"}}
}

// hadoopConfKey is where useHadoopConf keeps the command's HDFS
// configuration in its context.
type hadoopConfKey struct{}

// useHadoopConf reads --hadoop-conf (a bad directory is named at start),
// else the environment's configuration (hdfs.EnvConf), into the command's
// context.
func useHadoopConf(c *cli.Context) error {
	cfg := hdfs.EnvConf()
	if d := c.String("hadoop-conf"); d != "" {
		var err error
		if cfg, err = hdfs.ConfDir(d); err != nil {
			return fmt.Errorf("--hadoop-conf: %w", err)
		}
	}
	c.Context = context.WithValue(c.Context, hadoopConfKey{}, cfg)
	return nil
}

// hdfsConf is the command's HDFS configuration (useHadoopConf); the
// environment's when the command has none.
func hdfsConf(c *cli.Context) *hdfs.Config {
	if cfg, ok := c.Context.Value(hadoopConfKey{}).(*hdfs.Config); ok {
		return cfg
	}
	return hdfs.EnvConf()
}
