package main

import (
	"crypto/tls"
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/specbridge/specbridge/bridge"
)

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
