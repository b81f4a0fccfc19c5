package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"
)

// tokenFile writes token to a file, as --token-file and the like read it,
// and returns its path.
func tokenFile(t *testing.T, token string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(f, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

// httpDo sends a request, with "Authorization: Bearer token" unless token
// is empty, and returns the answer's status and body.
func httpDo(t *testing.T, method, url, token, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	return resp.StatusCode, string(b)
}

// get is httpDo of a GET.
func get(t *testing.T, url, token string) (int, string) {
	t.Helper()
	return httpDo(t, "GET", url, token, "")
}

// runInProcess runs `specbridge CMD --listen 127.0.0.1:0 --addr-file FILE
// args...` in this process (serve and cfa), waits for the address it
// writes once it listens, runs f with it, then stops it as SIGTERM would
// (its context ends) and returns its error.
func runInProcess(t *testing.T, cmd *cli.Command, args []string, f func(addr string)) error {
	t.Helper()
	addrFile := filepath.Join(t.TempDir(), "addr")
	app := &cli.App{Commands: []*cli.Command{cmd}, ExitErrHandler: func(*cli.Context, error) {}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- app.RunContext(ctx, append([]string{"specbridge", cmd.Name, "--listen", "127.0.0.1:0", "--addr-file", addrFile}, args...))
	}()
	deadline := time.Now().Add(10 * time.Second)
	var addr []byte
	for {
		var err error
		if addr, err = os.ReadFile(addrFile); err == nil {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("%s exited at start: %v", cmd.Name, err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not write its address within 10 s", cmd.Name)
		}
		time.Sleep(20 * time.Millisecond) // polling for the file it writes once it listens
	}
	f(strings.TrimSpace(string(addr)))
	cancel()
	select {
	case err := <-done:
		return err
	case <-time.After(15 * time.Second):
		t.Fatalf("%s did not stop within 15 s of its context ending", cmd.Name)
		return nil
	}
}
