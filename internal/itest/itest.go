// Package itest holds what the integration tests (build tag integration)
// share: reading the mini clusters' endpoints from the environment that
// scripts/test-integration.sh, hdfs-ha-test.sh and hdfs-kerberos-test.sh
// export; pointing package hdfs at the HA or the Kerberos-secured mini HDFS
// (with each kind of credentials) and checking the refusal without them;
// fresh directories on a mini HDFS and clients connected to them; and
// asking the HA mini HDFS to fail over. It must not start or stop clusters.
package itest

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/specbridge/specbridge/yarnclient/hdfs"
)

// Env returns the environment variable name (SPECBRIDGE_FS,
// SPECBRIDGE_RM_WEB, SPECBRIDGE_JHS_WEB), without a trailing slash. The
// integration tests require it: a missing one fails the test, never skips.
func Env(t testing.TB, name string) string {
	t.Helper()
	v := strings.TrimRight(os.Getenv(name), "/")
	if v == "" {
		t.Fatalf("%s is not set: run scripts/test-integration.sh, or source a mini cluster's env file", name)
	}
	return v
}

// Failover asks the HA mini HDFS of scripts/hdfs-ha-test.sh (its control
// endpoint, SPECBRIDGE_HA_CONTROL) to make its other NameNode active, and
// with down to shut the formerly active one down; it returns once the
// failover is done, with the index of the NameNode now active.
func Failover(t testing.TB, down bool) string {
	t.Helper()
	u := Env(t, "SPECBRIDGE_HA_CONTROL") + "/failover"
	if down {
		u += "?down=1"
	}
	resp, err := http.Post(u, "text/plain", nil)
	if err != nil {
		t.Fatalf("failover: %v", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("failover: %d %s %v", resp.StatusCode, body, err)
	}
	active := strings.TrimSpace(string(body))
	t.Logf("failover (down=%v): NameNode %s is active", down, active)
	return active
}

// Kerberos credentials the Kerberos tests use against the secured mini
// HDFS of scripts/hdfs-kerberos-test.sh.
type Credentials string

const (
	Keytab        Credentials = "keytab"       // SPECBRIDGE_HDFS_KEYTAB and SPECBRIDGE_HDFS_PRINCIPAL
	TicketCache   Credentials = "ticket cache" // KRB5CCNAME, a cache kinit wrote
	NoCredentials Credentials = "none"         // neither: no keytab, a ticket cache that does not exist
)

// Kerberos sets the environment of the test for creds (KRB5_CONFIG to the
// mini KDC's krb5.conf, and the keytab or the ticket cache) and returns the
// client's Hadoop configuration directory (SPECBRIDGE_KRB_CONF), for
// hdfs.ConfDir.
func Kerberos(t *testing.T, creds Credentials) (confDir string) {
	t.Helper()
	t.Setenv("KRB5_CONFIG", Env(t, "SPECBRIDGE_KRB_KRB5CONF"))
	t.Setenv("SPECBRIDGE_HDFS_KEYTAB", "")
	t.Setenv("SPECBRIDGE_HDFS_PRINCIPAL", "")
	switch creds {
	case Keytab:
		t.Setenv("SPECBRIDGE_HDFS_KEYTAB", Env(t, "SPECBRIDGE_KRB_KEYTAB"))
		t.Setenv("SPECBRIDGE_HDFS_PRINCIPAL", Env(t, "SPECBRIDGE_KRB_PRINCIPAL"))
		t.Setenv("KRB5CCNAME", t.TempDir()+"/no-ccache") // the keytab, not a cache, must be what works
	case TicketCache:
		t.Setenv("KRB5CCNAME", "FILE:"+Env(t, "SPECBRIDGE_KRB_CCACHE"))
	default:
		t.Setenv("KRB5CCNAME", t.TempDir()+"/no-ccache")
	}
	return Env(t, "SPECBRIDGE_KRB_CONF")
}

// Conf is the Hadoop client configuration in dir (hdfs.ConfDir), failing
// the test when it does not load.
func Conf(t testing.TB, dir string) *hdfs.Config {
	t.Helper()
	cfg, err := hdfs.ConfDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// HA is Conf on the client configuration of the HA mini HDFS of
// scripts/hdfs-ha-test.sh (SPECBRIDGE_HA_CONF: the nameservice mycluster,
// its two NameNodes, and fs.defaultFS hdfs://mycluster), with the URL of a
// fresh directory there, hdfs://mycluster/specbridge-ha/<name>-<nanoseconds>;
// it creates nothing (DialDir does).
func HA(t testing.TB, name string) (*hdfs.Config, hdfs.URL) {
	t.Helper()
	cfg := Conf(t, Env(t, "SPECBRIDGE_HA_CONF"))
	return cfg, hdfs.URL{NameNode: "mycluster", Path: fmt.Sprintf("/specbridge-ha/%s-%d", name, time.Now().UnixNano())}
}

// KerberosConf is Conf on the secured mini HDFS's client configuration
// with creds in the environment (Kerberos).
func KerberosConf(t *testing.T, creds Credentials) *hdfs.Config {
	t.Helper()
	return Conf(t, Kerberos(t, creds))
}

// EachCredentials runs f as one subtest per working kind of credentials, a
// keytab and a ticket cache (each named by its Credentials), with the
// configuration that uses them (KerberosConf).
func EachCredentials(t *testing.T, f func(t *testing.T, creds Credentials, cfg *hdfs.Config)) {
	t.Helper()
	for _, creds := range []Credentials{Keytab, TicketCache} {
		t.Run(string(creds), func(t *testing.T) {
			f(t, creds, KerberosConf(t, creds))
		})
	}
}

// WantRefused fails the test unless err is the refusal of a client that
// has no Kerberos credentials (NoCredentials): an error that says Kerberos
// and the missing keytab, and names each of where (the input, store or
// address refused).
func WantRefused(t testing.TB, err error, where ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: not refused without Kerberos credentials", strings.Join(where, ", "))
	}
	for _, want := range append([]string{"Kerberos", "no keytab"}, where...) {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

// DialHDFS connects to the mini cluster's HDFS (SPECBRIDGE_FS,
// hdfs://host:port: no configuration needed) for the length of the test.
func DialHDFS(t testing.TB) *hdfs.Client {
	t.Helper()
	var none *hdfs.Config
	u, err := none.ParseURL(Env(t, "SPECBRIDGE_FS"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := none.Dial(u.NameNode)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// DialDir connects to u's NameNode (or HA nameservice) with cfg for the
// length of the test and makes the directory u.Path there.
func DialDir(t testing.TB, cfg *hdfs.Config, u hdfs.URL) *hdfs.Client {
	t.Helper()
	c, err := cfg.Dial(u.NameNode)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if err := c.MkdirAll(u.Path); err != nil {
		t.Fatal(err)
	}
	return c
}

// FreshDir returns the URL of a fresh directory, <parent>/<name>-<nanoseconds>,
// on the mini HDFS that the environment variable fs names (SPECBRIDGE_FS, or
// SPECBRIDGE_KRB_FS for the secured one: hdfs://host:port, no
// configuration needed). It creates nothing: DialDir does.
func FreshDir(t testing.TB, fs, parent, name string) hdfs.URL {
	t.Helper()
	var none *hdfs.Config
	u, err := none.ParseURL(Env(t, fs))
	if err != nil {
		t.Fatal(err)
	}
	u.Path = fmt.Sprintf("%s/%s-%d", parent, name, time.Now().UnixNano())
	return u
}

// MiniHDFS is DialDir on a FreshDir of the mini cluster's HDFS
// (SPECBRIDGE_FS), /tmp/specbridge-it/<name>-<nanoseconds>, whose path it
// returns.
func MiniHDFS(t testing.TB, name string) (*hdfs.Client, string) {
	t.Helper()
	u := FreshDir(t, "SPECBRIDGE_FS", "/tmp/specbridge-it", name)
	return DialDir(t, nil, u), u.Path
}
