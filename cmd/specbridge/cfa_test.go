package main

import (
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"
)

// freeAddr returns a loopback address with a port free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// cfaTestToken is the analyzer API's token in these tests.
const cfaTestToken = "cfa-test-token"

// cfaTokenFile writes cfaTestToken to a file.
func cfaTokenFile(t *testing.T) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "cfa-token")
	if err := os.WriteFile(f, []byte(cfaTestToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

// cfaDo sends a request with the test token.
func cfaDo(t *testing.T, method, url, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+cfaTestToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// runCFAFor starts `specbridge cfa` with args (and --token-file with
// cfaTestToken), waits for /healthz, runs f against its address, then
// stops it as SIGTERM would (context cancel) and returns its error.
func runCFAFor(t *testing.T, args []string, f func(base string)) error {
	t.Helper()
	addr := freeAddr(t)
	app := &cli.App{Commands: []*cli.Command{CFACommand()}, ExitErrHandler: func(*cli.Context, error) {}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	tok := cfaTokenFile(t)
	go func() {
		done <- app.RunContext(ctx, append([]string{"specbridge", "cfa", "--listen", addr, "--token-file", tok}, args...))
	}()
	base := "http://" + addr
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			break
		}
		select {
		case err := <-done:
			t.Fatalf("cfa exited at start: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("cfa not up within 10 s: %v", err)
		}
		time.Sleep(20 * time.Millisecond) // polling for the listener
	}
	f(base)
	cancel()
	select {
	case err := <-done:
		return err
	case <-time.After(15 * time.Second):
		t.Fatal("cfa did not stop within 15 s of its context ending")
		return nil
	}
}

// The command serves the API, persists to --store and, restarted on the
// same store, has the job's records back.
func TestCFACommandPersistsAcrossRestarts(t *testing.T) {
	store := filepath.Join(t.TempDir(), "cfa")
	args := []string{"--store", store, "--gather-interval", "50ms", "--tws-window", "3", "--initial-threshold", "8s"}
	err := runCFAFor(t, args, func(base string) {
		body := `[{"kind":"attempt-started","time":1000,"attempt":"m_000001_0","node":"h1","container":"container_1_0001_01_000002"}]`
		resp, err := http.Post(base+"/v1/jobs/job_1_0001/events", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("post events without a token: HTTP %d, want 401", resp.StatusCode)
		}
		resp = cfaDo(t, "POST", base+"/v1/jobs/job_1_0001/events", body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNoContent {
			t.Fatalf("post events: HTTP %d", resp.StatusCode)
		}
	})
	if err != nil {
		t.Fatalf("first run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(store, "snapshot.cfa")); err != nil {
		t.Fatalf("no snapshot after a clean stop: %v", err)
	}
	err = runCFAFor(t, args, func(base string) {
		resp := cfaDo(t, "GET", base+"/v1/jobs/job_1_0001", "")
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("job after restart: HTTP %d", resp.StatusCode)
		}
	})
	if err != nil {
		t.Fatalf("second run: %v", err)
	}
}

func TestCFACommandRejectsBadFlags(t *testing.T) {
	app := &cli.App{Commands: []*cli.Command{CFACommand()}, ExitErrHandler: func(*cli.Context, error) {}}
	tok := cfaTokenFile(t)
	if err := app.Run([]string{"specbridge", "cfa", "--listen", "127.0.0.1:0", "--store", t.TempDir()}); err == nil || !strings.Contains(err.Error(), "--token-file") {
		t.Errorf("cfa without --token-file: %v", err)
	}
	for _, args := range [][]string{
		{"--tls-cert", "x.pem", "--store", t.TempDir()},
		{"--max-pending", "0", "--store", t.TempDir()},
		{"--detector", "nope", "--store", t.TempDir()},
		{"--tws-window", "0", "--store", t.TempDir()},
		{"--rm-url", "ftp://x", "--store", t.TempDir()},
		{"--gap", "0s", "--store", t.TempDir()},
	} {
		err := app.Run(append([]string{"specbridge", "cfa", "--listen", "127.0.0.1:0", "--token-file", tok}, args...))
		if err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}
