package hdfs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/internal/hadoopconf"
)

func TestParseURL(t *testing.T) {
	var none *Config // no configuration
	u, err := none.ParseURL("hdfs://nn.example:8020/tmp/history/done/")
	if err != nil || u.NameNode != "nn.example:8020" || u.Path != "/tmp/history/done" {
		t.Fatalf("got %+v, %v", u, err)
	}
	if got := u.Join("x.jhist").String(); got != "hdfs://nn.example:8020/tmp/history/done/x.jhist" {
		t.Errorf("join: %s", got)
	}
	root, err := none.ParseURL("hdfs://nn:9000")
	if err != nil || root.Path != "/" {
		t.Errorf("root: %+v, %v", root, err)
	}
	t.Setenv("HADOOP_CONF_DIR", t.TempDir()) // no configuration: hdfs:///tmp has no default
	t.Setenv("HADOOP_HOME", "")
	for _, cfg := range []*Config{none, EnvConf()} {
		for _, bad := range []string{"hdfs:///tmp", "http://nn:1/x", "/tmp/x"} {
			if _, err := cfg.ParseURL(bad); err == nil {
				t.Errorf("%q accepted", bad)
			}
			if c, _, err := cfg.DialURL(bad); err == nil || c != nil || !strings.Contains(err.Error(), bad) {
				t.Errorf("DialURL(%q): %v, %v; want an error naming it", bad, c, err)
			}
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
	if _, err := ConfDir(t.TempDir()); err == nil {
		t.Error("an empty configuration directory accepted")
	}
	cfg, err := ConfDir("testdata/ha-conf")
	if err != nil {
		t.Fatal(err)
	}
	u, err := cfg.ParseURL("hdfs:///specbridge/cfa")
	if err != nil || u.NameNode != "mycluster" || u.Path != "/specbridge/cfa" {
		t.Fatalf("hdfs:///specbridge/cfa: %+v, %v", u, err)
	}
	for authority, want := range map[string]string{
		"mycluster":     "nn-a.example:8020,nn-b.example:9820",
		"legacy":        "legacy.example:9000",
		"nn.example":    "nn.example:8020",
		"nn.example:99": "nn.example:99",
	} {
		got, err := cfg.Addresses(authority)
		if err != nil || strings.Join(got, ",") != want {
			t.Errorf("Addresses(%s) = %v, %v; want %s", authority, got, err, want)
		}
	}
	if _, err := cfg.Addresses("other"); err == nil || !strings.Contains(err.Error(), "dfs.namenode.rpc-address.other.x") {
		t.Errorf("a nameservice without addresses: %v", err)
	}
	t.Setenv("HADOOP_CONF_DIR", "testdata/ha-conf")
	if u, err := EnvConf().ParseURL("hdfs:///x"); err != nil || u.NameNode != "mycluster" {
		t.Errorf("HADOOP_CONF_DIR's fs.defaultFS: %+v, %v", u, err)
	}
	if _, err := cfg.ParseURL("hdfs:///x"); err != nil {
		t.Error(err)
	}
}

// Two configurations in one process do not see each other's settings (the
// package keeps none): one without fs.defaultFS refuses hdfs:///path while
// another resolves it, whatever order they are made in.
func TestConfigsApart(t *testing.T) {
	ha, err := ConfDir("testdata/ha-conf")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("HADOOP_CONF_DIR", t.TempDir())
	t.Setenv("HADOOP_HOME", "")
	env := EnvConf()
	if _, err := env.ParseURL("hdfs:///x"); err == nil || !strings.Contains(err.Error(), "fs.defaultFS") {
		t.Errorf("no fs.defaultFS: %v", err)
	}
	if u, err := ha.ParseURL("hdfs:///x"); err != nil || u.NameNode != "mycluster" {
		t.Errorf("the HA configuration, made first: %+v, %v", u, err)
	}
}

// The site files are read as Hadoop's HDFS client reads them, through the
// module's one configuration reader: core-site.xml, then hdfs-site.xml, a
// later property winning unless an earlier one was final; HADOOP_HOME's
// etc/hadoop when HADOOP_CONF_DIR is unset; a malformed or oversized file
// is an error naming the file (and the line), at once for ConfDir and when
// an address needs it for EnvConf.
func TestSiteFilesFollowHadoop(t *testing.T) {
	write := func(dir, name, body string) {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	write(dir, "core-site.xml", `<configuration>
<property><name>fs.defaultFS</name><value>hdfs://final-ns</value><final>true</final></property>
<property><name>dfs.namenode.rpc-address.nn</name><value>core.example:1</value></property>
</configuration>`)
	write(dir, "hdfs-site.xml", `<configuration>
<property><name>fs.defaultFS</name><value>hdfs://ignored</value></property>
<property><name>dfs.namenode.rpc-address.nn</name><value>hdfs.example:2</value></property>
</configuration>`)
	write(dir, "mapred-site.xml", `<configuration><property><name>fs.defaultFS</name><value>hdfs://mapred</value></property></configuration>`)
	cfg, err := ConfDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if u, err := cfg.ParseURL("hdfs:///x"); err != nil || u.NameNode != "final-ns" {
		t.Errorf("final fs.defaultFS of core-site.xml: %+v, %v", u, err)
	}
	if a, err := cfg.Addresses("nn"); err != nil || len(a) != 1 || a[0] != "hdfs.example:2" {
		t.Errorf("hdfs-site.xml over core-site.xml: %v, %v", a, err)
	}

	home := t.TempDir()
	write(filepath.Join(home, "etc", "hadoop"), "core-site.xml", `<configuration>
<property><name>fs.defaultFS</name><value>http://not-hdfs</value></property>
</configuration>`)
	t.Setenv("HADOOP_CONF_DIR", "")
	t.Setenv("HADOOP_HOME", home)
	if _, err := EnvConf().ParseURL("hdfs:///x"); err == nil || !strings.Contains(err.Error(), filepath.Join(home, "etc", "hadoop", "core-site.xml")+" line 2") {
		t.Errorf("HADOOP_HOME/etc/hadoop's fs.defaultFS, named with its file and line: %v", err)
	}

	bad := t.TempDir()
	write(bad, "hdfs-site.xml", "<configuration>\n<property><name>a</name><value>1</value></property>\n<property>\n</configuration>")
	big := t.TempDir()
	write(big, "core-site.xml", "<configuration>"+strings.Repeat(" ", hadoopconf.MaxBytes)+"</configuration>")
	for d, want := range map[string]string{bad: filepath.Join(bad, "hdfs-site.xml") + " line 3", big: "over"} {
		if _, err := ConfDir(d); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ConfDir(%s): %v, want an error with %q", d, err, want)
		}
		t.Setenv("HADOOP_CONF_DIR", d)
		if _, err := EnvConf().ParseURL("hdfs:///x"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("EnvConf in %s: %v, want an error with %q", d, err, want)
		}
		if u, err := EnvConf().ParseURL("hdfs://nn:1/x"); err != nil || u.NameNode != "nn:1" {
			t.Errorf("host:port needs no configuration: %+v, %v", u, err)
		}
	}
}
