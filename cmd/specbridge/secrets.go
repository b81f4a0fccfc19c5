package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/coreos/go-systemd/v22/daemon"
	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"

	"github.com/specbridge/specbridge/bridge"
	"github.com/specbridge/specbridge/internal/tokens"
)

// secrets are what serve and cfa authenticate with, read from files at
// start and again on SIGHUP, so that an operator rotates them without a
// restart (which would cost every AM a handover and a resync): the tokens
// of --token-file (required; who presents them is said in the error), the
// dashboard's read-only tokens of --dashboard-token-file, and the TLS key
// pair of --tls-cert and --tls-key (which go together).
//
// Rotating a token: add the new one to the file, reload, move the AMs'
// token files to it, take the old one out, reload. Sessions already open
// stay open (their token was checked at hello), as do dashboard pages
// whose cookie came from a token still in a file; a cookie from a token
// taken out stops opening the page at once. Rotating a certificate:
// replace the files, reload; new connections get the new certificate.
type secrets struct {
	cmd  string
	c    *cli.Context
	api  *tokens.Set // --token-file
	dash *tokens.Set // --dashboard-token-file; nil without it
	cert atomic.Pointer[tls.Certificate]
	tls  *tls.Config // nil: plain
}

// minTokenLen is the shortest token taken without a warning: 16
// characters, well below the 32 of the documented
// `head -c 24 /dev/urandom | base64`.
const minTokenLen = 16

// warnWeak logs each token of file shorter than minTokenLen, by its place
// in the file (never the token itself). Choice: a warning, not an error,
// so that a test or a first try with a short word still runs, while an
// operator sees the problem in the log of a real deployment.
func warnWeak(log logrus.FieldLogger, flag, file string, list []string) {
	for i, t := range list {
		if len(t) < minTokenLen {
			log.WithFields(logrus.Fields{"file": file, "token": i + 1}).Warnf("%s: token %d is %d characters long; use at least %d random ones (head -c 24 /dev/urandom | base64)",
				flag, i+1, len(t), minTokenLen)
		}
	}
}

// replaceTokens reads the token file of flag into set, warning about weak
// tokens; an error names the flag and keeps set as it was.
func replaceTokens(set *tokens.Set, flag, file string) error {
	list, err := bridge.ReadTokenFile(file)
	if err == nil {
		err = set.Replace(list)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", flag, err)
	}
	warnWeak(logrus.StandardLogger(), flag, file, list)
	warnReadable(logrus.StandardLogger(), flag, file)
	return nil
}

// startServer begins a server command (serve, cfa): signals are caught
// from the start, so that a SIGTERM right after the address file appears
// stops the process cleanly rather than killing it; then its secrets are
// loaded (loadSecrets) and watched until ctx ends. stop releases the
// signals.
func startServer(c *cli.Context, cmd, who string, log logrus.FieldLogger) (ctx context.Context, stop context.CancelFunc, sec *secrets, err error) {
	ctx, stop = signal.NotifyContext(c.Context, syscall.SIGTERM, syscall.SIGINT)
	sec, err = loadSecrets(c, cmd, who)
	if err != nil {
		stop()
		return nil, nil, nil, err
	}
	sec.watch(ctx, log)
	return ctx, stop, sec, nil
}

// loadSecrets reads the secrets; errors start with cmd, the command's name.
func loadSecrets(c *cli.Context, cmd, who string) (*secrets, error) {
	if c.String("token-file") == "" {
		return nil, fmt.Errorf("%s: --token-file is required (%s)", cmd, who)
	}
	s := &secrets{cmd: cmd, c: c, api: &tokens.Set{}}
	if err := replaceTokens(s.api, "--token-file", c.String("token-file")); err != nil {
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	if f := c.String("dashboard-token-file"); f != "" && c.Bool("dashboard") {
		s.dash = &tokens.Set{}
		if err := replaceTokens(s.dash, "--dashboard-token-file", f); err != nil {
			return nil, fmt.Errorf("%s: %w", cmd, err)
		}
	}
	certFile, keyFile := c.String("tls-cert"), c.String("tls-key")
	if (certFile == "") != (keyFile == "") {
		return nil, errors.New(cmd + ": --tls-cert and --tls-key go together")
	}
	if certFile != "" {
		pair, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return nil, fmt.Errorf("%s: load TLS key pair: %w", cmd, err)
		}
		s.cert.Store(&pair)
		s.tls = &tls.Config{MinVersion: tls.VersionTLS12,
			GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return s.cert.Load(), nil }}
	}
	return s, nil
}

// dashboardTokens are the sets that open the dashboard.
func (s *secrets) dashboardTokens() []*tokens.Set {
	if s.dash == nil {
		return []*tokens.Set{s.api}
	}
	return []*tokens.Set{s.api, s.dash}
}

// reload reads every file again. Each part is replaced only if its file
// reads well, so a mistake in one (an empty token file, a key that does not
// match its certificate) keeps the old secrets of that part, and serving
// goes on; the error says which file. A flag given at start is read again;
// one not given stays off.
func (s *secrets) reload() (summary string, err error) {
	var errs []error
	if e := replaceTokens(s.api, "--token-file", s.c.String("token-file")); e != nil {
		errs = append(errs, e)
	}
	summary = fmt.Sprintf("%d tokens", s.api.Len())
	if s.dash != nil {
		if e := replaceTokens(s.dash, "--dashboard-token-file", s.c.String("dashboard-token-file")); e != nil {
			errs = append(errs, e)
		}
		summary += fmt.Sprintf(", %d dashboard tokens", s.dash.Len())
	}
	if s.tls != nil {
		if pair, e := tls.LoadX509KeyPair(s.c.String("tls-cert"), s.c.String("tls-key")); e != nil {
			errs = append(errs, fmt.Errorf("TLS key pair: %w", e))
		} else {
			s.cert.Store(&pair)
			summary += ", the TLS key pair"
		}
	}
	return summary, errors.Join(errs...)
}

// watch reloads the secrets on every SIGHUP until ctx ends, telling
// systemd (Type=notify) that it is reloading and then ready again. A failed
// reload is logged with what it kept; it never stops the server.
func (s *secrets) watch(ctx context.Context, log logrus.FieldLogger) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	go func() {
		defer signal.Stop(hup)
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
			}
			notifySystemd(daemon.SdNotifyReloading)
			summary, err := s.reload()
			if err != nil {
				log.WithError(err).Errorf("%s: SIGHUP: reload failed for part of the secrets; that part keeps its old values (now %s)", s.cmd, summary)
			} else {
				log.Infof("%s: SIGHUP: reloaded %s", s.cmd, summary)
			}
			notifySystemd(daemon.SdNotifyReady)
		}
	}()
}
