package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// selfSigned writes a certificate for 127.0.0.1 and its key, and returns
// their paths and a pool that trusts the certificate.
func selfSigned(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "specbridge test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600)
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// With --tls-cert and --tls-key the sidecar speaks wss:// only: a client
// that trusts the certificate is welcomed; a plain ws:// client is not.
func TestServeTLS(t *testing.T) {
	certFile, keyFile, pool := selfSigned(t)
	runServeFor(t, []string{"--tls-cert", certFile, "--tls-key", keyFile}, func(url string) {
		secure := "wss://" + strings.TrimPrefix(url, "ws://")
		dialer := websocket.Dialer{TLSClientConfig: &tls.Config{RootCAs: pool}, HandshakeTimeout: 5 * time.Second}
		conn, _, err := dialer.Dial(secure, nil)
		if err != nil {
			t.Fatalf("wss dial: %v", err)
		}
		defer conn.Close()
		const t0 = int64(1_700_000_000_000)
		if w := sayHello(t, conn, serveTestToken, "job_1_0001", map[string]any{"speculator": "late", "maps": 1, "start": t0, "now": t0}); w.Type != "welcome" {
			t.Fatalf("hello over TLS answered %+v", w)
		}
		plain := websocket.Dialer{HandshakeTimeout: 2 * time.Second}
		if c, _, err := plain.Dial(url, nil); err == nil {
			c.Close()
			t.Fatal("a plain ws:// client was accepted by a TLS sidecar")
		}
	})
}

func TestServeTLSNeedsBothFiles(t *testing.T) {
	certFile, _, _ := selfSigned(t)
	app := newApp()
	err := app.Run([]string{"specbridge", "serve", "--token-file", certFile, "--tls-cert", certFile})
	if err == nil || !strings.Contains(err.Error(), "--tls-key") {
		t.Fatalf("serve with --tls-cert alone: %v", err)
	}
}
