package rmcapacity

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeSite writes name in dir: a site file holding props.
func writeSite(t *testing.T, dir, name, props string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte("<?xml version=\"1.0\"?>\n<configuration>"+props+"</configuration>"), 0o600); err != nil {
		t.Fatal(err)
	}
}

func prop(k, v string) string {
	return "<property><name>" + k + "</name><value>" + v + "</value></property>"
}

// LoadSite follows Hadoop's precedence: core-site.xml, mapred-site.xml,
// yarn-site.xml in that order, a later property of the same name winning
// (in one file or a later one) unless the earlier was final. Before it
// shared internal/hadoopconf's reader, the first value of a key won and
// <final> was not read.
func TestLoadSiteFollowsHadoopPrecedence(t *testing.T) {
	dir := t.TempDir()
	writeSite(t, dir, "core-site.xml", prop("hadoop.http.authentication.type", "simple")+
		"\n<property><name>yarn.resourcemanager.hostname</name><value>core-rm</value><final>true</final></property>\n"+
		prop("yarn.http.policy", "HTTPS_ONLY"))
	writeSite(t, dir, "mapred-site.xml", prop("mapreduce.map.memory.mb", "2048")+prop("mapreduce.map.memory.mb", "3072"))
	writeSite(t, dir, "yarn-site.xml", prop("yarn.resourcemanager.hostname", "yarn-rm")+prop("yarn.http.policy", "HTTP_ONLY")+
		prop("hadoop.http.authentication.type", "kerberos"))
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
	writeSite(t, dir, "mapred-site.xml", "\n<property><final>yes</final><name>k</name></property>")
	if _, err := LoadSite(dir); err == nil || !strings.Contains(err.Error(), "mapred-site.xml line 3") {
		t.Errorf("a bad <final>: %v, want the file and line named", err)
	}
}

func TestSiteConfFindsRMsAndContainer(t *testing.T) {
	dir := t.TempDir()
	write := func(name, props string) { writeSite(t, dir, name, props) }
	write("yarn-site.xml", prop("yarn.resourcemanager.ha.enabled", "true")+prop("yarn.resourcemanager.ha.rm-ids", "rm1, rm2")+
		prop("yarn.resourcemanager.webapp.address.rm1", "rm-a:8088")+prop("yarn.resourcemanager.hostname.rm2", "rm-b")+
		prop("yarn.scheduler.minimum-allocation-mb", "512"))
	write("mapred-site.xml", prop("mapreduce.map.memory.mb", "1500"))
	write("core-site.xml", prop("hadoop.http.authentication.type", "kerberos"))
	c, err := LoadSite(dir)
	if err != nil {
		t.Fatal(err)
	}
	rms, err := c.RMAddresses()
	if err != nil || strings.Join(rms, " ") != "http://rm-a:8088 http://rm-b:8088" {
		t.Errorf("RMs %v, %v", rms, err)
	}
	ct, err := c.MapContainer()
	if err != nil || ct != (Container{MB: 1536, VCores: 1}) {
		t.Errorf("container %+v, %v; want 1536 MB (1500 rounded up to 512s), 1 vcore", ct, err)
	}
	if !c.Secured() {
		t.Error("kerberos HTTP authentication not seen")
	}
	write("yarn-site.xml", prop("yarn.resourcemanager.ha.enabled", "true")+prop("yarn.resourcemanager.ha.rm-ids", "rm1"))
	if c, err = LoadSite(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := c.RMAddresses(); err == nil || !strings.Contains(err.Error(), "rm1") {
		t.Errorf("an RM id without an address: %v", err)
	}
	// Hadoop's own default is -1: the size is inferred, 1024 MB without a heap setting.
	write("mapred-site.xml", prop("mapreduce.map.memory.mb", "-1"))
	if c, err = LoadSite(dir); err != nil {
		t.Fatal(err)
	}
	if ct, err := c.MapContainer(); err != nil || ct.MB != 1024 {
		t.Errorf("mapreduce.map.memory.mb -1 (Hadoop's default): %+v, %v; want 1024 MB", ct, err)
	}
	write("mapred-site.xml", prop("mapreduce.map.memory.mb", "lots"))
	if c, err = LoadSite(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := c.MapContainer(); err == nil || !strings.Contains(err.Error(), "mapreduce.map.memory.mb") {
		t.Errorf("a container size that is no number: %v", err)
	}
	write("yarn-site.xml", "<property><name>x</name>")
	if _, err := LoadSite(dir); err == nil || !strings.Contains(err.Error(), "yarn-site.xml") {
		t.Errorf("broken XML: %v", err)
	}
}
