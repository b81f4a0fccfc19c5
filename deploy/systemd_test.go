package deploy

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The systemd unit and its environment file, relative to this package.
const (
	unitFile    = "systemd/specbridge.service"
	unitEnvFile = "systemd/specbridge.env"
)

// unit is a systemd unit file: section -> key -> values in order (a key may
// repeat).
type unit map[string]map[string][]string

// get is the last value of key in section ("" if unset), as systemd reads
// a repeated single-valued key.
func (u unit) get(section, key string) string {
	v := u[section][key]
	if len(v) == 0 {
		return ""
	}
	return v[len(v)-1]
}

// readUnit parses the INI-like syntax of systemd.unit(5) as far as our
// unit uses it: sections, key=value, comments; no line continuations.
func readUnit(t *testing.T, path string) unit {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	u := unit{}
	section := ""
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";"):
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			section = line[1 : len(line)-1]
			if u[section] == nil {
				u[section] = map[string][]string{}
			}
		case strings.HasSuffix(line, `\`):
			t.Fatalf("%s:%d: a continued line; this parser does not follow them", path, n)
		default:
			k, v, ok := strings.Cut(line, "=")
			if !ok || section == "" {
				t.Fatalf("%s:%d: %q is neither a section nor key=value in one", path, n, line)
			}
			k = strings.TrimSpace(k)
			u[section][k] = append(u[section][k], strings.TrimSpace(v))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return u
}

// envLine is one KEY=value line of the environment file, set or commented out.
var envLine = regexp.MustCompile(`^(#?)\s*([A-Z][A-Z0-9_]*)=(.*)$`)

// readEnvFile returns the variables the file sets and every name it
// mentions in a KEY=value line, set or commented out (the commented ones
// are suggestions an operator will uncomment, so they must be real too).
func readEnvFile(t *testing.T, path string) (set map[string]string, named []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	set = map[string]string{}
	for n, line := range strings.Split(string(data), "\n") {
		m := envLine.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "#") {
				t.Fatalf("%s:%d: %q is not KEY=value", path, n+1, line)
			}
			continue
		}
		named = append(named, m[2])
		if m[1] == "" {
			set[m[2]] = m[3]
		}
	}
	return set, named
}

// serveEnvNames is every environment variable `specbridge serve` reads: the
// ones its help lists beside its flags, and the SPECBRIDGE_* ones the code
// reads directly (the HDFS client's Kerberos settings).
func serveEnvNames(t *testing.T) map[string]bool {
	t.Helper()
	out, err := exec.Command(binary, "help", "serve").CombinedOutput()
	if err != nil {
		t.Fatalf("specbridge help serve: %v\n%s", err, out)
	}
	names := map[string]bool{}
	for _, m := range regexp.MustCompile(`\[\$([A-Z0-9_]+)\]`).FindAllStringSubmatch(string(out), -1) {
		names[m[1]] = true
	}
	getenv := regexp.MustCompile(`os\.Getenv\("(SPECBRIDGE_[A-Z0-9_]+)"\)`)
	err = filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "java-shim" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != ".." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range getenv.FindAllStringSubmatch(string(src), -1) {
			names[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !names["SPECBRIDGE_LISTEN"] || !names["SPECBRIDGE_HDFS_KEYTAB"] {
		t.Fatalf("found only %v: the help output or the sources changed shape", names)
	}
	return names
}

// TestSystemdUnitSyntax has systemd's own checker read the unit: no
// unknown key, no bad value. The unit is copied with its binary and
// environment file pointed at this build, which verify wants to exist.
func TestSystemdUnitSyntax(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Fatal("systemd-analyze is not installed (Debian package systemd; scripts/test.sh installs it)")
	}
	u := readUnit(t, unitFile)
	dir := t.TempDir()
	data, err := os.ReadFile(unitFile)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), "ExecStart="+strings.Fields(u.get("Service", "ExecStart"))[0], "ExecStart="+binary, 1)
	text = strings.Replace(text, "EnvironmentFile="+u.get("Service", "EnvironmentFile"), "EnvironmentFile="+mustAbs(t, unitEnvFile), 1)
	copyPath := filepath.Join(dir, "specbridge.service")
	if err := os.WriteFile(copyPath, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(analyze, "verify", copyPath).CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) != 0 {
		t.Fatalf("systemd-analyze verify %s: %v\n%s", unitFile, err, out)
	}
}

func mustAbs(t *testing.T, path string) string {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// TestSystemdUnitRunsServe runs the unit's command line as systemd would:
// its environment file's settings (with the paths moved into a temporary
// directory and the port made free), NOTIFY_SOCKET for Type=notify. serve
// must say READY=1 once /healthz answers, STOPPING=1 on the unit's
// KillSignal, and exit 0 within TimeoutStopSec (so Restart=on-failure does
// not restart a clean stop). Every variable the environment file names,
// set or suggested, must be one serve reads, and its data directory must
// be the one the unit's StateDirectory creates.
func TestSystemdUnitRunsServe(t *testing.T) {
	u := readUnit(t, unitFile)
	if got := u.get("Service", "Type"); got != "notify" {
		t.Fatalf("Type=%s: want notify (serve sends READY=1)", got)
	}
	exe := strings.Fields(u.get("Service", "ExecStart"))
	if len(exe) < 2 || filepath.Base(exe[0]) != "specbridge" || exe[1] != "serve" {
		t.Fatalf("ExecStart=%v: want the specbridge binary's serve", exe)
	}
	env, named := readEnvFile(t, unitEnvFile)
	known := serveEnvNames(t)
	for _, name := range named {
		if !known[name] {
			t.Errorf("%s names %s, which serve does not read", unitEnvFile, name)
		}
	}
	for _, need := range []string{"SPECBRIDGE_LISTEN", "SPECBRIDGE_TOKEN_FILE", "SPECBRIDGE_DATA_DIR"} {
		if env[need] == "" {
			t.Fatalf("%s does not set %s", unitEnvFile, need)
		}
	}
	if want := "/var/lib/" + u.get("Service", "StateDirectory"); env["SPECBRIDGE_DATA_DIR"] != want {
		t.Fatalf("SPECBRIDGE_DATA_DIR=%s: want %s, the directory StateDirectory= creates and owns", env["SPECBRIDGE_DATA_DIR"], want)
	}
	stopSignal := map[string]syscall.Signal{"SIGTERM": syscall.SIGTERM, "SIGINT": syscall.SIGINT}[u.get("Service", "KillSignal")]
	if stopSignal == 0 {
		t.Fatalf("KillSignal=%s: serve stops cleanly on SIGTERM or SIGINT only", u.get("Service", "KillSignal"))
	}
	stopTimeout, err := time.ParseDuration(u.get("Service", "TimeoutStopSec"))
	if err != nil {
		t.Fatalf("TimeoutStopSec: %v", err)
	}

	dir := t.TempDir()
	notify, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: filepath.Join(dir, "notify.sock"), Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer notify.Close()
	token := filepath.Join(dir, "token")
	if err := os.WriteFile(token, []byte("systemd-test-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "var-lib-specbridge")
	if err := os.Mkdir(data, 0o750); err != nil { // what StateDirectory= does before ExecStart
		t.Fatal(err)
	}
	addrFile := filepath.Join(dir, "addr")
	env["SPECBRIDGE_LISTEN"] = "127.0.0.1:0"
	env["SPECBRIDGE_TOKEN_FILE"] = token
	env["SPECBRIDGE_DATA_DIR"] = data
	env["SPECBRIDGE_ADDR_FILE"] = addrFile
	env["NOTIFY_SOCKET"] = notify.LocalAddr().String()
	cmd := exec.Command(binary, exe[1:]...)
	for _, kv := range os.Environ() { // systemd starts from a clean environment; keep only the basics
		if k, _, _ := strings.Cut(kv, "="); k == "PATH" || k == "HOME" || k == "TMPDIR" {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	log := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var waitErr error
	exited := make(chan struct{})
	go func() { waitErr = cmd.Wait(); close(exited) }()
	defer func() {
		select {
		case <-exited:
		default:
			_ = cmd.Process.Kill()
			<-exited
		}
	}()

	// Type=notify: the unit is started when READY=1 arrives.
	if state := awaitNotification(t, notify, "READY=1", 60*time.Second, exited, log); !strings.Contains(state, "STATUS=listening on ws://") {
		t.Fatalf("READY notification %q: want a STATUS naming the address", state)
	}
	addr, err := os.ReadFile(addrFile)
	if err != nil {
		t.Fatalf("ready, but no address file: %v", err)
	}
	resp, err := http.Get("http://" + strings.TrimSpace(string(addr)) + "/healthz")
	if err != nil {
		t.Fatalf("ready, but /healthz: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("ready, but /healthz answered %s", resp.Status)
	}
	if _, err := os.Stat(filepath.Join(data, "cfa")); err != nil {
		t.Fatalf("serve did not keep its analyzer's records under SPECBRIDGE_DATA_DIR: %v\n%s", err, log.String())
	}

	// systemctl reload: ExecReload's signal, then RELOADING=1 and READY=1 again, and the server still answers.
	reload := strings.Fields(u.get("Service", "ExecReload"))
	if len(reload) != 3 || filepath.Base(reload[0]) != "kill" || reload[1] != "-HUP" || reload[2] != "$MAINPID" {
		t.Fatalf("ExecReload=%v: want kill -HUP $MAINPID (serve reloads its secrets on SIGHUP)", reload)
	}
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	awaitNotification(t, notify, "RELOADING=1", 30*time.Second, exited, log)
	awaitNotification(t, notify, "READY=1", 30*time.Second, exited, log)
	if resp, err := http.Get("http://" + strings.TrimSpace(string(addr)) + "/healthz"); err != nil {
		t.Fatalf("after a reload, /healthz: %v", err)
	} else {
		resp.Body.Close()
	}

	// systemctl stop: the KillSignal, then STOPPING=1 and a clean exit within TimeoutStopSec.
	if err := cmd.Process.Signal(stopSignal); err != nil {
		t.Fatal(err)
	}
	awaitNotification(t, notify, "STOPPING=1", stopTimeout, exited, log)
	select {
	case <-exited:
		if waitErr != nil {
			t.Fatalf("serve exited with %v after %s: Restart=on-failure would restart it\n%s", waitErr, u.get("Service", "KillSignal"), log.String())
		}
	case <-time.After(stopTimeout):
		t.Fatalf("serve still running %s after %s (TimeoutStopSec): systemd would SIGKILL it\n%s", stopTimeout, u.get("Service", "KillSignal"), log.String())
	}
}

// awaitNotification reads sd_notify datagrams until one holds want and
// returns it; it fails if the process exits first or none comes in time.
func awaitNotification(t *testing.T, sock *net.UnixConn, want string, within time.Duration, exited <-chan struct{}, log fmt.Stringer) string {
	t.Helper()
	deadline := time.Now().Add(within)
	buf := make([]byte, 4096)
	for {
		select {
		case <-exited:
			t.Fatalf("serve exited before notifying %s\n%s", want, log.String())
		default:
		}
		if err := sock.SetReadDeadline(time.Now().Add(200 * time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		n, err := sock.Read(buf)
		if err == nil {
			state := string(buf[:n])
			for _, line := range strings.Split(state, "\n") {
				if line == want {
					return state
				}
			}
			continue
		}
		if ne, ok := err.(net.Error); !ok || !ne.Timeout() {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s notification within %s\n%s", want, within, log.String())
		}
	}
}

// syncBuffer collects a process's output while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
