package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --hadoop-conf is the configuration the replay's HDFS input is reached
// with (no package state between): hdfs:///path goes to that directory's
// fs.defaultFS, here a port nothing listens on, and the refusal names it;
// without the flag, HADOOP_CONF_DIR's (none here) gives hdfs:///path no
// NameNode, which the error says; a directory with no configuration in it
// is named at start.
func TestHadoopConfReachesTheInput(t *testing.T) {
	conf := t.TempDir()
	site := `<?xml version="1.0"?><configuration><property><name>fs.defaultFS</name><value>hdfs://127.0.0.1:1</value></property></configuration>`
	if err := os.WriteFile(filepath.Join(conf, "core-site.xml"), []byte(site), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	t.Setenv("HADOOP_CONF_DIR", empty)
	t.Setenv("HADOOP_HOME", "")
	t.Setenv("SPECBRIDGE_HADOOP_CONF", "")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"replay", "--quiet", "--hadoop-conf", conf, "hdfs:///done/"}, "127.0.0.1:1"},
		{[]string{"replay", "--quiet", "hdfs:///done/"}, "fs.defaultFS"},
		{[]string{"replay", "--quiet", "--hadoop-conf", empty, "hdfs:///done/"}, "--hadoop-conf: reading the Hadoop configuration in " + empty},
	} {
		_, stderr, code := run(t, c.args...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want an error with %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
	}
}
