package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/urfave/cli/v2"
)

const serveTestToken = "serve-test-token"

// runServeFor starts `specbridge serve` with args, waits for its address,
// runs f against the websocket URL, then stops it as SIGTERM would.
func runServeFor(t *testing.T, args []string, f func(url string)) {
	t.Helper()
	err := runInProcess(t, ServeCommand(), append([]string{"--token-file", tokenFile(t, serveTestToken), "--decide-interval", "50ms"}, args...),
		func(addr string) { f("ws://" + addr + "/v1/am") })
	if err != nil {
		t.Fatalf("serve: %v", err)
	}
}

// amFrame is what the tests read of the sidecar's frames to an AM.
type amFrame struct {
	Type, Code, Text string
	Rejected         int
	Fatal            bool
}

// dialAM opens an AM's websocket to url for the length of the test.
func dialAM(t *testing.T, url string) *websocket.Conn {
	t.Helper()
	conn, _, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// sayHello sends an AM's hello for job with token and the fields of more
// (speculator, params, maps, ...) and returns the first frame answered
// (within 5 s).
func sayHello(t *testing.T, conn *websocket.Conn, token, job string, more map[string]any) amFrame {
	t.Helper()
	hello := map[string]any{"type": "hello", "version": 1, "token": token, "job": job}
	for k, v := range more {
		hello[k] = v
	}
	if err := conn.WriteJSON(hello); err != nil {
		t.Fatalf("%s: hello: %v", job, err)
	}
	var f amFrame
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if err := conn.ReadJSON(&f); err != nil {
		t.Fatalf("%s: answer to the hello: %v", job, err)
	}
	_ = conn.SetReadDeadline(time.Time{})
	return f
}

// runJob runs a two-map job through a session: both maps start on host
// h1 and succeed after 4 s.
func runJob(t *testing.T, url, job, speculator string, params map[string]string) {
	t.Helper()
	conn := dialAM(t, url)
	const t0 = int64(1_700_000_000_000)
	send := func(v any) {
		t.Helper()
		if err := conn.WriteJSON(v); err != nil {
			t.Fatal(err)
		}
	}
	if w := sayHello(t, conn, serveTestToken, job, map[string]any{"speculator": speculator, "params": params, "maps": 2, "reduces": 0,
		"start": t0, "now": t0}); w.Type != "welcome" {
		t.Fatalf("hello answered %+v", w)
	}
	suffix := strings.TrimPrefix(job, "job_")
	var evs []map[string]any
	for i := 0; i < 2; i++ {
		a := fmt.Sprintf("attempt_%s_m_%06d_0", suffix, i)
		evs = append(evs, map[string]any{"kind": "attempt-started", "time": t0, "attempt": a, "node": "h1", "container": "c"})
	}
	send(map[string]any{"type": "events", "seq": 1, "now": t0 + 1000, "events": evs})
	evs = nil
	for i := 0; i < 2; i++ {
		a := fmt.Sprintf("attempt_%s_m_%06d_0", suffix, i)
		evs = append(evs, map[string]any{"kind": "attempt-succeeded", "time": t0 + 4000 + int64(i), "attempt": a})
	}
	send(map[string]any{"type": "events", "seq": 2, "now": t0 + 5000, "events": evs})
	send(map[string]any{"type": "ping", "nonce": 1})
	for { // the pong proves both batches were handled
		var f struct{ Type, Code, Text string }
		if err := conn.ReadJSON(&f); err != nil {
			t.Fatalf("read: %v", err)
		}
		if f.Type == "error" {
			t.Fatalf("error frame %s: %s", f.Code, f.Text)
		}
		if f.Type == "pong" {
			break
		}
	}
	_ = conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""))
}

// serve --data-dir keeps GRASS samples and the embedded analyzer's records
// there, and a restarted serve carries on from them.
func TestServeDataDirPersists(t *testing.T) {
	data := t.TempDir()
	args := []string{"--data-dir", data, "--gather-interval", "50ms"}
	runServeFor(t, args, func(url string) {
		runJob(t, url, "job_1700000000000_0001", "grass", map[string]string{"xi": "1"})
	})
	samples, err := os.ReadFile(filepath.Join(data, "grass-samples.jsonl"))
	if err != nil || len(samples) == 0 {
		t.Fatalf("no GRASS sample under --data-dir (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(data, "cfa", "snapshot.cfa")); err != nil {
		t.Fatalf("no analyzer snapshot under --data-dir: %v", err)
	}
	runtimes, err := os.ReadFile(filepath.Join(data, "grass-runtimes.jsonl"))
	if err != nil || strings.Count(string(runtimes), "\n") == 0 {
		t.Fatalf("no run times of completed tasks under --data-dir: %q (%v)", runtimes, err)
	}
	runServeFor(t, args, func(url string) {
		runJob(t, url, "job_1700000000000_0002", "grass", map[string]string{"xi": "1"})
	})
	again, err := os.ReadFile(filepath.Join(data, "grass-samples.jsonl"))
	if err != nil || strings.Count(string(again), "\n") != 2 || !strings.HasPrefix(string(again), string(samples)) {
		t.Fatalf("after a restart the samples file holds:\n%s\nwant the first sample and a second (%v)", again, err)
	}
	more, err := os.ReadFile(filepath.Join(data, "grass-runtimes.jsonl"))
	if err != nil || !strings.HasPrefix(string(more), string(runtimes)) || len(more) <= len(runtimes) {
		t.Fatalf("after a restart the run times file holds:\n%s\nwant the first job's and the second's (%v)", more, err)
	}
}

// serve --cfa-url feeds a standalone analyzer instead of its own.
func TestServeFeedsAStandaloneAnalyzer(t *testing.T) {
	store := filepath.Join(t.TempDir(), "cfa")
	err := runCFAFor(t, []string{"--store", store, "--gather-interval", "50ms"}, func(base string) {
		runServeFor(t, []string{"--cfa-url", base, "--cfa-token-file", tokenFile(t, cfaTestToken)}, func(url string) {
			runJob(t, url, "job_1700000000000_0003", "tws", nil)
			deadline := time.Now().Add(10 * time.Second)
			for {
				code, body := get(t, base+"/v1/jobs/job_1700000000000_0003", cfaTestToken)
				var out struct {
					Job *struct {
						Ended    int64          `json:"ended"`
						Attempts map[string]any `json:"attempts"`
					} `json:"job"`
				}
				_ = json.Unmarshal([]byte(body), &out)
				if out.Job != nil && len(out.Job.Attempts) == 2 && out.Job.Ended != 0 {
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("the standalone analyzer never had the job's 2 attempts and its end (HTTP %d)", code)
				}
				time.Sleep(50 * time.Millisecond) // the remote feed posts every 100 ms
			}
		})
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestServeRejectsBadCFAFlags(t *testing.T) {
	token := tokenFile(t, "x")
	app := &cli.App{Commands: []*cli.Command{ServeCommand()}, ExitErrHandler: func(*cli.Context, error) {}}
	for _, args := range [][]string{
		{"--cfa-url", "ftp://x", "--cfa-token-file", token},
		{"--cfa-url", "http://127.0.0.1:1"}, // no --cfa-token-file
		{"--detector", "nope"},
		{"--gap", "0s"},
		{"--cfa-job-grace", "0s"},
	} {
		err := app.Run(append([]string{"specbridge", "serve", "--listen", "127.0.0.1:0", "--token-file", token}, args...))
		if err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}

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
