package main

import (
	"os"
	"strings"
	"testing"

	"github.com/sirupsen/logrus"
)

// serve's start line gives the dashboard's URL beside the websocket's, and
// a token file every user can read is warned about (a 0600 one is not).
func TestServeLogsDashboardAndReadableTokenFile(t *testing.T) {
	hook := logHook(t)
	open, closed := tokenFile(t, "a-token-of-enough-length-1234"), tokenFile(t, "another-token-of-enough-length")
	if err := os.Chmod(open, 0o644); err != nil {
		t.Fatal(err)
	}
	var addr string
	err := runInProcess(t, ServeCommand(), []string{"--token-file", open, "--dashboard-token-file", closed, "--data-dir", t.TempDir()},
		func(a string) { addr = a })
	if err != nil {
		t.Fatal(err)
	}
	var warned []string
	dash := ""
	for _, e := range hook.AllEntries() {
		if e.Level == logrus.WarnLevel && strings.Contains(e.Message, "readable by every user") {
			warned = append(warned, e.Data["file"].(string))
		}
		if e.Message == "specbridge sidecar listening" {
			dash, _ = e.Data["dashboard"].(string)
		}
	}
	if len(warned) != 1 || warned[0] != open {
		t.Errorf("warned about %v, want only %s", warned, open)
	}
	if want := "http://" + addr + "/"; dash != want {
		t.Errorf("dashboard URL %q, want %q", dash, want)
	}
}

// NO_COLOR (any value) turns the text logs' colours off; without it they
// are logrus's: on a terminal only.
func TestNoColorTurnsLogColoursOff(t *testing.T) {
	defer logrus.SetFormatter(&logrus.TextFormatter{})
	for _, tc := range []struct {
		env  string
		want bool
	}{{"1", true}, {"", false}} {
		t.Setenv("NO_COLOR", tc.env)
		app := newApp()
		app.Writer = &strings.Builder{}
		if err := app.Run([]string{"specbridge", "version"}); err != nil {
			t.Fatal(err)
		}
		f, ok := logrus.StandardLogger().Formatter.(*logrus.TextFormatter)
		if !ok || f.DisableColors != tc.want {
			t.Errorf("NO_COLOR=%q: formatter %#v, want DisableColors %v", tc.env, logrus.StandardLogger().Formatter, tc.want)
		}
	}
}
