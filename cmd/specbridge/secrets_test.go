package main

import (
	"crypto/tls"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"
)

// hup sends this process SIGHUP (the running server's handler takes it)
// and waits until the server has logged the reload's outcome, which it
// returns.
func hup(t *testing.T, hook *logtest.Hook, cmd string) *logrus.Entry {
	t.Helper()
	before := len(hook.AllEntries())
	if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		entries := hook.AllEntries()
		for _, e := range entries[before:] {
			if strings.HasPrefix(e.Message, cmd+": SIGHUP: ") {
				return e
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s logged no reload within 10 s of SIGHUP", cmd)
		}
		time.Sleep(20 * time.Millisecond) // poll interval of a condition wait
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// SIGHUP re-reads --token-file and --dashboard-token-file: the new tokens
// open a session and the page, the removed ones no longer do, a session
// opened before stays open; a token file that no longer reads keeps the
// tokens it had, and serving goes on.
func TestServeReloadsTokensOnSIGHUP(t *testing.T) {
	hook := logHook(t)
	amTokens, viewers := tokenFile(t, "old-token"), tokenFile(t, "viewer-1")
	hello := map[string]any{"speculator": "none", "maps": 1}
	err := runInProcess(t, ServeCommand(), []string{"--token-file", amTokens, "--dashboard-token-file", viewers}, func(addr string) {
		url, base := "ws://"+addr+"/v1/am", "http://"+addr
		before := dialAM(t, url)
		if f := sayHello(t, before, "old-token", "job_1700000000000_0001", hello); f.Type != "welcome" {
			t.Fatalf("hello with the first token: %+v", f)
		}
		if code, _ := get(t, base+"/dashboard/state", "viewer-1"); code != 200 {
			t.Fatalf("dashboard with the first viewer token: %d", code)
		}

		writeFile(t, amTokens, "# rotated\nnew-token\n")
		writeFile(t, viewers, "viewer-2\n")
		if e := hup(t, hook, "serve"); e.Level != logrus.InfoLevel || !strings.Contains(e.Message, "1 tokens, 1 dashboard tokens") {
			t.Fatalf("reload logged %s %q", e.Level, e.Message)
		}
		if f := sayHello(t, dialAM(t, url), "new-token", "job_1700000000000_0002", hello); f.Type != "welcome" {
			t.Fatalf("hello with the new token: %+v", f)
		}
		if f := sayHello(t, dialAM(t, url), "old-token", "job_1700000000000_0003", hello); f.Code != "unauthorized" {
			t.Fatalf("hello with the removed token: %+v", f)
		}
		if code, _ := get(t, base+"/dashboard/state", "viewer-2"); code != 200 {
			t.Errorf("dashboard with the new viewer token: %d", code)
		}
		if code, _ := get(t, base+"/dashboard/state", "viewer-1"); code != 401 {
			t.Errorf("dashboard with the removed viewer token: %d, want 401", code)
		}
		// The session opened with the removed token carries on.
		if err := before.WriteJSON(map[string]any{"type": "ping", "nonce": 5}); err != nil {
			t.Fatal(err)
		}
		var pong amFrame
		_ = before.SetReadDeadline(time.Now().Add(5 * time.Second))
		if err := before.ReadJSON(&pong); err != nil || pong.Type != "pong" {
			t.Fatalf("the session opened before the reload: %+v, %v", pong, err)
		}

		// A token file emptied by mistake: an error naming it, the old tokens kept.
		writeFile(t, amTokens, "# nothing yet\n")
		if e := hup(t, hook, "serve"); e.Level != logrus.ErrorLevel || !strings.Contains(e.Data[logrus.ErrorKey].(error).Error(), "--token-file") {
			t.Fatalf("a bad reload logged %s %q %v", e.Level, e.Message, e.Data)
		}
		if f := sayHello(t, dialAM(t, url), "new-token", "job_1700000000000_0004", hello); f.Type != "welcome" {
			t.Fatalf("hello after a failed reload: %+v", f)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

// SIGHUP re-reads --tls-cert and --tls-key: new connections get the new
// certificate (a client that trusts only the old one is refused).
func TestServeReloadsTheCertificateOnSIGHUP(t *testing.T) {
	hook := logHook(t)
	certFile, keyFile, oldPool := selfSigned(t)
	newCert, newKey, newPool := selfSigned(t)
	runServeFor(t, []string{"--tls-cert", certFile, "--tls-key", keyFile}, func(url string) {
		secure := "wss://" + strings.TrimPrefix(url, "ws://")
		dial := func(trust *tls.Config) error {
			d := websocket.Dialer{TLSClientConfig: trust, HandshakeTimeout: 5 * time.Second}
			c, _, err := d.Dial(secure, nil)
			if err == nil {
				c.Close()
			}
			return err
		}
		if err := dial(&tls.Config{RootCAs: oldPool}); err != nil {
			t.Fatalf("the first certificate: %v", err)
		}
		for from, to := range map[string]string{newCert: certFile, newKey: keyFile} {
			data, err := os.ReadFile(from)
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, to, string(data))
		}
		if e := hup(t, hook, "serve"); e.Level != logrus.InfoLevel || !strings.Contains(e.Message, "the TLS key pair") {
			t.Fatalf("reload logged %s %q", e.Level, e.Message)
		}
		if err := dial(&tls.Config{RootCAs: newPool}); err != nil {
			t.Fatalf("the new certificate after SIGHUP: %v", err)
		}
		if err := dial(&tls.Config{RootCAs: oldPool}); err == nil {
			t.Fatal("a client trusting only the old certificate still connects after the reload")
		}
	})
}

// The standalone analyzer reloads its API tokens the same way.
func TestCFAReloadsTokensOnSIGHUP(t *testing.T) {
	hook := logHook(t)
	file := tokenFile(t, "api-1")
	err := runInProcess(t, CFACommand(), []string{"--token-file", file, "--store", t.TempDir()}, func(addr string) {
		base := "http://" + addr
		if code, _ := get(t, base+"/v1/nodes", "api-1"); code != 200 {
			t.Fatalf("GET /v1/nodes with the first token: %d", code)
		}
		writeFile(t, file, "api-2\n")
		if e := hup(t, hook, "cfa"); e.Level != logrus.InfoLevel {
			t.Fatalf("reload logged %s %q", e.Level, e.Message)
		}
		if code, _ := get(t, base+"/v1/nodes", "api-2"); code != 200 {
			t.Errorf("the new token: %d", code)
		}
		if code, _ := get(t, base+"/v1/nodes", "api-1"); code != 401 {
			t.Errorf("the removed token: %d, want 401", code)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A short token is taken (tests and first tries use words) but logged as
// weak, by its place in the file and never its text.
func TestShortTokensAreWarnedAbout(t *testing.T) {
	hook := logHook(t)
	file := filepath.Join(t.TempDir(), "tokens")
	writeFile(t, file, "0123456789abcdef0123\nsesame\n")
	if err := runInProcess(t, ServeCommand(), []string{"--token-file", file}, func(string) {}); err != nil {
		t.Fatal(err)
	}
	var warned []*logrus.Entry
	for _, e := range hook.AllEntries() {
		if e.Level == logrus.WarnLevel && strings.HasPrefix(e.Message, "--token-file: token ") {
			warned = append(warned, e)
		}
	}
	if len(warned) != 1 || warned[0].Data["token"] != 2 || warned[0].Data["file"] != file {
		t.Fatalf("warnings %v: want one, about token 2 of %s", warned, file)
	}
	if strings.Contains(warned[0].Message, "sesame") {
		t.Fatalf("the warning shows the token: %q", warned[0].Message)
	}
}

// logHook records the standard logger's entries (where the commands run
// in process log) until the test ends.
func logHook(t *testing.T) *logtest.Hook {
	t.Helper()
	hook := logtest.NewGlobal()
	t.Cleanup(func() { logrus.StandardLogger().ReplaceHooks(logrus.LevelHooks{}) })
	return hook
}
