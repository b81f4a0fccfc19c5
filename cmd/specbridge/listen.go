package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/coreos/go-systemd/v22/daemon"
	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"

	"github.com/specbridge/specbridge/internal/dashboard"
)

// serverFlags declares what loadSecrets reads, and where the server says it
// listens: --token-file (tokenUsage says whose tokens), --tls-cert and
// --tls-key (tlsServes says what TLS serves), --addr-file. env prefixes
// their environment variables.
func serverFlags(env, tokenUsage, tlsServes string) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "token-file", Usage: tokenUsage, EnvVars: []string{env + "TOKEN_FILE"}},
		&cli.StringFlag{Name: "tls-cert", Usage: "PEM certificate; with --tls-key, " + tlsServes, EnvVars: []string{env + "TLS_CERT"}},
		&cli.StringFlag{Name: "tls-key", Usage: "PEM private key for --tls-cert", EnvVars: []string{env + "TLS_KEY"}},
		&cli.StringFlag{Name: "addr-file", Usage: "write the bound host:port to this file once listening (for scripts and tests)", EnvVars: []string{env + "ADDR_FILE"}},
		&cli.DurationFlag{Name: "http-idle-timeout", Value: defaultIdleTimeout, Usage: "close a keep-alive HTTP connection idle this long (websocket sessions have their own timeouts)", EnvVars: []string{env + "HTTP_IDLE_TIMEOUT"}},
	}
}

// HTTP timeouts of both servers: a request (headers and body: the
// analyzer's largest posts are a few MB) is read within defaultReadTimeout,
// and a keep-alive connection idle for --http-idle-timeout is closed.
const (
	defaultReadTimeout = time.Minute
	defaultIdleTimeout = time.Minute
)

// front is the HTTP side serve and cfa share: a server on a listener that
// is already bound, and the base URL it answers at.
type front struct {
	srv *http.Server
	ln  net.Listener
	url string // scheme://host:port
}

// listenHTTP listens on --listen (over TLS with tlsCfg, else plain), puts
// the dashboard of dash in front of api (withDashboard; it is closed when
// the server shuts down), and once all that works writes the bound address
// to --addr-file. scheme is the plain one (ws, http); TLS adds an s. Errors
// start with cmd, the command's name.
func listenHTTP(c *cli.Context, cmd string, tlsCfg *tls.Config, scheme string, api http.Handler, dash dashboard.Config) (front, error) {
	ln, err := net.Listen("tcp", c.String("listen"))
	if err != nil {
		return front{}, fmt.Errorf("%s: listen on %s: %w", cmd, c.String("listen"), err)
	}
	dash.Secure = tlsCfg != nil
	handler, d, err := withDashboard(c, dash, api)
	if err != nil {
		_ = ln.Close()
		return front{}, fmt.Errorf("%s: %w", cmd, err)
	}
	idle := c.Duration("http-idle-timeout")
	if idle <= 0 {
		_ = ln.Close()
		return front{}, fmt.Errorf("%s: --http-idle-timeout %s: want a positive duration", cmd, idle)
	}
	// Connections that never send a request, or idle between requests,
	// hold nothing for long (issue 24): headers within 10 s, a request's
	// body within ReadTimeout, and a keep-alive connection closed after
	// --http-idle-timeout. No WriteTimeout: the dashboard's event stream
	// is a long response (it ends when its token is revoked, dashboard.go).
	// A websocket, once upgraded, sets its own deadlines per frame.
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: defaultReadTimeout, IdleTimeout: idle}
	if d != nil {
		srv.RegisterOnShutdown(d.Close)
	}
	if tlsCfg != nil {
		ln = tls.NewListener(ln, tlsCfg)
		scheme += "s"
	}
	if f := c.String("addr-file"); f != "" {
		if err := writeFileAtomic(f, ln.Addr().String()+"\n"); err != nil {
			_ = ln.Close()
			return front{}, fmt.Errorf("%s: --addr-file: %w", cmd, err)
		}
	}
	return front{srv: srv, ln: ln, url: scheme + "://" + ln.Addr().String()}, nil
}

// serve runs the server on its listener in the background and tells a
// service manager that it is ready; the channel gets what Serve returned.
func (f front) serve() <-chan error {
	served := make(chan error, 1)
	go func() { served <- f.srv.Serve(f.ln) }()
	notifySystemd(daemon.SdNotifyReady + "\nSTATUS=listening on " + f.url)
	return served
}

// wait waits until ctx ends (a signal: startServer) or the server fails,
// then tells a service manager that the process is stopping; the error is
// Serve's, nil after a signal.
func (f front) wait(ctx context.Context, served <-chan error) error {
	var err error
	select {
	case <-ctx.Done():
	case err = <-served:
	}
	notifySystemd(daemon.SdNotifyStopping)
	return err
}

// notifySystemd sends state to systemd's notification socket when the
// process runs as a Type=notify unit (NOTIFY_SOCKET set:
// deploy/systemd/specbridge.service), and does nothing otherwise. Ready is
// sent once the listener is bound, so that units ordered after the sidecar
// start when AMs can connect (connections made before Serve runs wait in
// the listen queue); stopping is sent when SIGTERM is taken, so that
// `systemctl status` shows the drain. A notification that cannot be sent
// is logged, never fatal: the service manager then sees a start timeout,
// which is its own report of the problem.
func notifySystemd(state string) {
	if _, err := daemon.SdNotify(false, state); err != nil {
		logrus.WithError(err).Warn("systemd notification failed")
	}
}
