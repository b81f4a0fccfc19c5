//go:build integration

package sweep

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/specbridge/specbridge/internal/itest"
)

// `specbridge sweep --on-yarn` on the mini cluster (scripts/test-integration.sh:
// MiniDFSCluster and MiniMRYarnCluster from Maven Central, and the sweep job
// jar it builds): the grid of TestParallelRowsIdentical — 2 policies x 2
// parameter values x 2 seeds — on a bundled scenario shipped through the
// distributed cache and on a job history read from HDFS by the mappers,
// as a MapReduce job of 16 cells, 2 per map (NLineInputFormat). Its merged
// rows, CSV on stdout and the --json file, are byte for byte the local
// sweep's.
func TestIntegrationSweepOnYARN(t *testing.T) {
	conf := itest.Env(t, "HADOOP_CONF_DIR")
	jar := itest.Env(t, "SPECBRIDGE_SWEEP_JAR")
	cpFile := filepath.Join(itest.Env(t, "SPECBRIDGE_MINICLUSTER_DIR"), "classpath")
	cp, err := os.ReadFile(cpFile)
	if err != nil {
		t.Fatalf("the mini cluster's Hadoop classpath: %v", err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "specbridge")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/specbridge").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	// A job history on HDFS (replay reads histories there, not scenarios):
	// the mappers read it there.
	u := itest.FreshDir(t, "SPECBRIDGE_FS", "/tmp/specbridge-it", "sweep")
	c, root := itest.DialDir(t, nil, u), u.Path
	hist, err := os.ReadFile("../yarnclient/history/testdata/job_2.4-SUCCEEDED-speculative.jhist")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.WriteFile(root+"/job.jhist", hist); err != nil {
		t.Fatal(err)
	}
	grid := []string{"sweep", "-q", "--output", "csv", "--speculators", "late,hadoop",
		"--param", "late.speculative-cap=0,0.2", "--param", "hadoop.minimum-allowed-tasks=1,10",
		"--runs", "2", scenario, u.Join("job.jhist").String()}
	sweep := func(name string, extra ...string) (string, string) {
		jsonFile := filepath.Join(dir, name+".json")
		cmd := exec.Command(bin, append(append(append([]string{}, grid...), "--json", jsonFile), extra...)...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		start := time.Now()
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s sweep: %v\n%s", name, err, stderr.String())
		}
		t.Logf("%s sweep: %s", name, time.Since(start).Round(time.Millisecond))
		js, err := os.ReadFile(jsonFile)
		if err != nil {
			t.Fatal(err)
		}
		return stdout.String(), string(js)
	}
	localCSV, localJSON := sweep("local", "--hadoop-conf", conf)
	if n := strings.Count(localCSV, "\n"); n != 17 {
		t.Fatalf("local sweep: %d lines, want a header and 16 rows:\n%s", n, localCSV)
	}
	quick := "-Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:CICompilerCount=1"
	yarnCSV, yarnJSON := sweep("yarn", "--on-yarn", "--hadoop-conf", conf, "--hadoop-classpath", strings.TrimSpace(string(cp)),
		"--job-jar", jar, "--binary", bin, "--yarn-dir", root+"/job", "--cells-per-task", "2",
		"--job-conf", "mapreduce.jvm.add-opens-as-default=true",
		"--job-conf", "yarn.app.mapreduce.am.command-opts="+quick,
		"--job-conf", "mapreduce.map.java.opts="+quick)
	if yarnCSV != localCSV {
		t.Errorf("the YARN sweep's CSV differs from the local sweep's:\nYARN:\n%s\nlocal:\n%s", yarnCSV, localCSV)
	}
	if yarnJSON != localJSON {
		t.Errorf("the YARN sweep's JSON differs from the local sweep's:\nYARN:\n%s\nlocal:\n%s", yarnJSON, localJSON)
	}
	// The rows stay on HDFS, one part file per map.
	parts, err := c.List(root + "/job/rows")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range parts {
		if strings.HasPrefix(p.Name, "part-m-") {
			n++
		}
	}
	if n != 8 {
		t.Errorf("%d part files in %s/job/rows, want 8 (16 cells, 2 per map)", n, root)
	}
}
