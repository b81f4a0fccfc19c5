package main

import (
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"
)

// cfaTestToken is the analyzer API's token in these tests.
const cfaTestToken = "cfa-test-token"

// runCFAFor starts `specbridge cfa` with args (and --token-file with
// cfaTestToken), waits for its address, runs f against it, then stops it as
// SIGTERM would (context cancel) and returns its error.
func runCFAFor(t *testing.T, args []string, f func(base string)) error {
	t.Helper()
	return runInProcess(t, CFACommand(), append([]string{"--token-file", tokenFile(t, cfaTestToken)}, args...),
		func(addr string) { f("http://" + addr) })
}

// The command serves the API, persists to --store and, restarted on the
// same store, has the job's records back.
func TestCFACommandPersistsAcrossRestarts(t *testing.T) {
	store := filepath.Join(t.TempDir(), "cfa")
	args := []string{"--store", store, "--gather-interval", "50ms", "--tws-window", "3", "--initial-threshold", "8s"}
	err := runCFAFor(t, args, func(base string) {
		body := `[{"kind":"attempt-started","time":1000,"attempt":"m_000001_0","node":"h1","container":"container_1_0001_01_000002"}]`
		if code, _ := httpDo(t, "POST", base+"/v1/jobs/job_1_0001/events", "", body); code != http.StatusUnauthorized {
			t.Fatalf("post events without a token: HTTP %d, want 401", code)
		}
		if code, _ := httpDo(t, "POST", base+"/v1/jobs/job_1_0001/events", cfaTestToken, body); code != http.StatusNoContent {
			t.Fatalf("post events: HTTP %d", code)
		}
	})
	if err != nil {
		t.Fatalf("first run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(store, "snapshot.cfa")); err != nil {
		t.Fatalf("no snapshot after a clean stop: %v", err)
	}
	err = runCFAFor(t, args, func(base string) {
		if code, _ := get(t, base+"/v1/jobs/job_1_0001", cfaTestToken); code != http.StatusOK {
			t.Fatalf("job after restart: HTTP %d", code)
		}
	})
	if err != nil {
		t.Fatalf("second run: %v", err)
	}
}

func TestCFACommandRejectsBadFlags(t *testing.T) {
	app := &cli.App{Commands: []*cli.Command{CFACommand()}, ExitErrHandler: func(*cli.Context, error) {}}
	tok := tokenFile(t, cfaTestToken)
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
		{"--probe-timeout", "-1s", "--store", t.TempDir()},
		{"--probe-timeout", "0s", "--rm-url", "http://rm:8088", "--store", t.TempDir()},
	} {
		err := app.Run(append([]string{"specbridge", "cfa", "--listen", "127.0.0.1:0", "--token-file", tok}, args...))
		if err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}

// Under systemd (Type=notify, NOTIFY_SOCKET set) the analyzer says
// READY=1 once it listens and STOPPING=1 when told to stop, as serve does
// (deploy.TestSystemdUnitRunsServe runs serve's unit).
func TestCFANotifiesSystemd(t *testing.T) {
	sock, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: filepath.Join(t.TempDir(), "notify"), Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer sock.Close()
	t.Setenv("NOTIFY_SOCKET", sock.LocalAddr().String())
	next := func(want string) {
		t.Helper()
		buf := make([]byte, 4096)
		if err := sock.SetReadDeadline(time.Now().Add(30 * time.Second)); err != nil {
			t.Fatal(err)
		}
		for {
			n, err := sock.Read(buf)
			if err != nil {
				t.Fatalf("waiting for %s: %v", want, err)
			}
			if strings.HasPrefix(string(buf[:n]), want) {
				return
			}
		}
	}
	err = runCFAFor(t, []string{"--store", filepath.Join(t.TempDir(), "cfa")}, func(string) { next("READY=1\nSTATUS=listening on http://") })
	if err != nil {
		t.Fatal(err)
	}
	next("STOPPING=1")
}
