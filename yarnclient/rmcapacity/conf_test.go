package rmcapacity

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// LoadSite follows Hadoop's precedence: core-site.xml, mapred-site.xml,
// yarn-site.xml in that order, a later property of the same name winning
// (in one file or a later one) unless the earlier was final. Before it
// shared internal/hadoopconf's reader, the first value of a key won and
// <final> was not read.
func TestLoadSiteFollowsHadoopPrecedence(t *testing.T) {
	dir := t.TempDir()
	for name, props := range map[string]string{
		"core-site.xml": `<property><name>hadoop.http.authentication.type</name><value>simple</value></property>
<property><name>yarn.resourcemanager.hostname</name><value>core-rm</value><final>true</final></property>
<property><name>yarn.http.policy</name><value>HTTPS_ONLY</value></property>`,
		"mapred-site.xml": `<property><name>mapreduce.map.memory.mb</name><value>2048</value></property>
<property><name>mapreduce.map.memory.mb</name><value>3072</value></property>`,
		"yarn-site.xml": `<property><name>yarn.resourcemanager.hostname</name><value>yarn-rm</value></property>
<property><name>yarn.http.policy</name><value>HTTP_ONLY</value></property>
<property><name>hadoop.http.authentication.type</name><value>kerberos</value></property>`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("<configuration>\n"+props+"\n</configuration>\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	c, err := LoadSite(dir)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{
		"yarn.resourcemanager.hostname":   "core-rm",   // final in core-site.xml: yarn-site.xml's is ignored
		"yarn.http.policy":                "HTTP_ONLY", // the later file wins
		"hadoop.http.authentication.type": "kerberos",
		"mapreduce.map.memory.mb":         "3072", // the later property of one file wins
	} {
		if c[k] != want {
			t.Errorf("%s = %q, want %q", k, c[k], want)
		}
	}
	if rms, err := c.RMAddresses(); err != nil || strings.Join(rms, " ") != "http://core-rm:8088" {
		t.Errorf("RMs %v, %v; want the final hostname over HTTP", rms, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mapred-site.xml"), []byte("<configuration>\n\n<property><final>yes</final><name>k</name></property></configuration>"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadSite(dir); err == nil || !strings.Contains(err.Error(), "mapred-site.xml line 3") {
		t.Errorf("a bad <final>: %v, want the file and line named", err)
	}
}
