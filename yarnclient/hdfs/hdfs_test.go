package hdfs

import (
	"strings"
	"testing"
)

func TestParseURL(t *testing.T) {
	u, err := ParseURL("hdfs://nn.example:8020/tmp/history/done/")
	if err != nil || u.NameNode != "nn.example:8020" || u.Path != "/tmp/history/done" {
		t.Fatalf("got %+v, %v", u, err)
	}
	if got := u.Join("x.jhist").String(); got != "hdfs://nn.example:8020/tmp/history/done/x.jhist" {
		t.Errorf("join: %s", got)
	}
	root, err := ParseURL("hdfs://nn:9000")
	if err != nil || root.Path != "/" {
		t.Errorf("root: %+v, %v", root, err)
	}
	t.Setenv("HADOOP_CONF_DIR", t.TempDir()) // no configuration: hdfs:///tmp has no default
	t.Setenv("HADOOP_HOME", "")
	resetConf()
	defer resetConf()
	for _, bad := range []string{"hdfs:///tmp", "http://nn:1/x", "/tmp/x"} {
		if _, err := ParseURL(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
		if c, _, err := DialURL(bad); err == nil || c != nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("DialURL(%q): %v, %v; want an error naming it", bad, c, err)
		}
	}
	if !IsURL("hdfs://a:1/") || IsURL("/tmp") {
		t.Error("IsURL")
	}
}

func TestUserFromEnv(t *testing.T) {
	t.Setenv("HADOOP_USER_NAME", "alice")
	if u, err := User(); err != nil || u != "alice" {
		t.Errorf("User() = %q, %v", u, err)
	}
}

// The cluster's configuration: hdfs:///path is on fs.defaultFS, an HA
// nameservice resolves to its NameNodes in order, a host alone to its
// rpc-address or port 8020; a nameservice without an address is named.
func TestHadoopConf(t *testing.T) {
	defer resetConf()
	if err := UseConf(t.TempDir()); err == nil {
		t.Error("an empty configuration directory accepted")
	}
	if err := UseConf("testdata/ha-conf"); err != nil {
		t.Fatal(err)
	}
	u, err := ParseURL("hdfs:///specbridge/cfa")
	if err != nil || u.NameNode != "mycluster" || u.Path != "/specbridge/cfa" {
		t.Fatalf("hdfs:///specbridge/cfa: %+v, %v", u, err)
	}
	for authority, want := range map[string]string{
		"mycluster":     "nn-a.example:8020,nn-b.example:9820",
		"legacy":        "legacy.example:9000",
		"nn.example":    "nn.example:8020",
		"nn.example:99": "nn.example:99",
	} {
		got, err := Addresses(authority)
		if err != nil || strings.Join(got, ",") != want {
			t.Errorf("Addresses(%s) = %v, %v; want %s", authority, got, err, want)
		}
	}
	if _, err := Addresses("other"); err == nil || !strings.Contains(err.Error(), "dfs.namenode.rpc-address.other.x") {
		t.Errorf("a nameservice without addresses: %v", err)
	}
}
