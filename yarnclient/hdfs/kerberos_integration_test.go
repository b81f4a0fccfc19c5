//go:build integration

package hdfs_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gohdfs "github.com/colinmarc/hdfs/v2"
	"github.com/specbridge/specbridge/internal/itest"
	"github.com/specbridge/specbridge/yarnclient/hdfs"
)

// kerberosDir returns a fresh directory's URL on the secured mini HDFS
// of scripts/hdfs-kerberos-test.sh (reached with itest.KerberosConf).
func kerberosDir(t *testing.T) hdfs.URL {
	t.Helper()
	return itest.FreshDir(t, "SPECBRIDGE_KRB_FS", "/specbridge", "hdfs")
}

// With a keytab and with a ticket cache (kinit), the client authenticates
// to the NameNode with Kerberos and to the DataNode with SASL (block
// tokens): write, atomic rewrite, append, list and read all work, as the
// principal's user (the owner of what it creates).
func TestKerberosReadWrite(t *testing.T) {
	itest.EachCredentials(t, func(t *testing.T, _ itest.Credentials, cfg *hdfs.Config) {
		u := kerberosDir(t)
		c := itest.DialDir(t, cfg, u)
		data := bytes.Repeat([]byte("kerberos "), 50_000) // ~450 KB: several packets through SASL
		if err := c.WriteFile(u.Path+"/a", data); err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			if err := c.Append(u.Path+"/log", []byte{byte('a' + i)}); err != nil {
				t.Fatal(err)
			}
		}
		got, err := c.ReadFile(u.Path + "/a")
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("read back %d of %d bytes: %v", len(got), len(data), err)
		}
		if got, err := c.ReadFile(u.Path + "/log"); err != nil || string(got) != "abc" {
			t.Fatalf("appended: %q, %v", got, err)
		}
		fi, err := hdfs.Raw(c).Stat(u.Path + "/a")
		if err != nil {
			t.Fatal(err)
		}
		if owner := fi.(*gohdfs.FileInfo).Owner(); owner != "specbridge" {
			t.Errorf("owner %q, want specbridge (the principal's user)", owner)
		}
	})
}

// Without credentials the client is refused, with an error that says so
// and names the address; a client configured for simple authentication is
// refused by the NameNode, and the error names the path.
func TestKerberosRefusedWithoutCredentials(t *testing.T) {
	cfg := itest.KerberosConf(t, itest.NoCredentials)
	u := kerberosDir(t)
	_, err := cfg.Dial(u.NameNode)
	itest.WantRefused(t, err, "ticket cache", u.NameNode)

	// The same cluster, the client told nothing of Kerberos.
	plain := t.TempDir()
	core, err := os.ReadFile(filepath.Join(itest.Env(t, "SPECBRIDGE_KRB_CONF"), "core-site.xml"))
	if err != nil {
		t.Fatal(err)
	}
	core = bytes.Replace(core, []byte("<value>kerberos</value>"), []byte("<value>simple</value>"), 1)
	if err := os.WriteFile(filepath.Join(plain, "core-site.xml"), core, 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := itest.Conf(t, plain).Dial(u.NameNode)
	if err == nil {
		defer c.Close()
		_, err = c.List(u.Path)
	}
	if err == nil {
		t.Fatal("simple authentication against a Kerberos NameNode was not refused")
	}
	if !strings.Contains(err.Error(), "hadoop.security.authentication=kerberos") {
		t.Errorf("refusal does not say it is about authentication: %v", err)
	}
	if c != nil && !strings.Contains(err.Error(), u.String()) {
		t.Errorf("refusal does not name %s: %v", u, err)
	}
	t.Logf("refused: %v", err)
}
