package main

import (
	"crypto/tls"
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/specbridge/specbridge/bridge"
)

// serverFlags declares what serverAuth reads, and where the server says it
// listens: --token-file (tokenUsage says whose tokens), --tls-cert and
// --tls-key (tlsServes says what TLS serves), --addr-file. env prefixes
// their environment variables.
func serverFlags(env, tokenUsage, tlsServes string) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "token-file", Usage: tokenUsage, EnvVars: []string{env + "TOKEN_FILE"}},
		&cli.StringFlag{Name: "tls-cert", Usage: "PEM certificate; with --tls-key, " + tlsServes, EnvVars: []string{env + "TLS_CERT"}},
		&cli.StringFlag{Name: "tls-key", Usage: "PEM private key for --tls-cert", EnvVars: []string{env + "TLS_KEY"}},
		&cli.StringFlag{Name: "addr-file", Usage: "write the bound host:port to this file once listening (for scripts and tests)", EnvVars: []string{env + "ADDR_FILE"}},
	}
}

// serverAuth reads what serve and cfa both need before they listen: the
// tokens of --token-file, required (who says who presents them, for the
// error), and the TLS configuration of --tls-cert and --tls-key, which go
// together (nil: plain). Errors start with cmd, the command's name.
func serverAuth(c *cli.Context, cmd, who string) ([]string, *tls.Config, error) {
	if c.String("token-file") == "" {
		return nil, nil, fmt.Errorf("%s: --token-file is required (%s)", cmd, who)
	}
	tokens, err := bridge.ReadTokenFile(c.String("token-file"))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", cmd, err)
	}
	cert, key := c.String("tls-cert"), c.String("tls-key")
	if (cert == "") != (key == "") {
		return nil, nil, errors.New(cmd + ": --tls-cert and --tls-key go together")
	}
	if cert == "" {
		return tokens, nil, nil
	}
	pair, err := tls.LoadX509KeyPair(cert, key)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: load TLS key pair: %w", cmd, err)
	}
	return tokens, &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}, nil
}
