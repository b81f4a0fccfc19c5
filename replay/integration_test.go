//go:build integration

package replay

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/internal/itest"
	"github.com/specbridge/specbridge/yarnclient/history"
)

// `specbridge replay hdfs://...` on a real HDFS: a directory holding the
// fixture and both shared histories, in nested folders like a JobHistory
// done directory (done/YYYY/MM/DD/serial/), reads as one input whose jobs
// equal the local files' jobs; a single file reads too.
func TestIntegrationLoadFromHDFS(t *testing.T) {
	u := itest.FreshDir(t, "SPECBRIDGE_FS", "/tmp/specbridge-it", "replay").Join("done")
	c := itest.DialDir(t, nil, u)
	root := u.Path
	local := []string{
		"../yarnclient/history/testdata/job_2.4-SUCCEEDED-speculative.jhist",
		"../data/jhist/job_2.4.0-FAILED.jhist",
		"../data/jhist/job_0.23.9-FAILED.jhist",
	}
	for i, f := range local {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dir := fmt.Sprintf("%s/2026/11/%02d/000000", root, 20+i)
		if err := c.MkdirAll(dir); err != nil {
			t.Fatal(err)
		}
		name := f[strings.LastIndex(f, "/")+1:]
		if err := c.WriteFile(dir+"/"+name, b); err != nil {
			t.Fatal(err)
		}
		if err := c.WriteFile(dir+"/"+strings.TrimSuffix(name, ".jhist")+"_conf.xml", []byte("<configuration/>")); err != nil {
			t.Fatal(err)
		}
	}
	// The first job's configuration beside its history, as JobHistory keeps
	// it (issue 30): read from HDFS with the job.
	confPath := root + "/2026/11/20/000000/" + history.ConfFileName("job_1400204860297_0002")
	if err := c.WriteFile(confPath, []byte("<configuration>\n<property><name>mapreduce.map.speculative</name><value>false</value></property>\n</configuration>\n")); err != nil {
		t.Fatal(err)
	}
	in, err := Load(u.String()+"/", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if in.Format != "jhist" || len(in.Jobs) != len(local) {
		t.Fatalf("format %s, %d jobs", in.Format, len(in.Jobs))
	}
	if v, _ := in.Jobs[0].Conf.Get("mapreduce.map.speculative"); v != "false" || !strings.HasPrefix(in.Jobs[0].Conf.Source, "hdfs://") || in.Jobs[1].Conf != nil {
		t.Errorf("conf.xml beside the HDFS history: %+v, %+v", in.Jobs[0].Conf, in.Jobs[1].Conf)
	}
	for i, f := range local {
		want, err := Load(f, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got := in.Jobs[i]
		w := want.Jobs[0]
		if got.ID != w.ID || len(got.Tasks) != len(w.Tasks) || got.Status != w.Status || !strings.HasPrefix(got.Source, "hdfs://") {
			t.Errorf("job %d from HDFS: id %s, %d tasks, %s, source %s; local: %s, %d tasks, %s",
				i, got.ID, len(got.Tasks), got.Status, got.Source, w.ID, len(w.Tasks), w.Status)
		}
	}
	one, err := Load(u.Join("2026/11/20/000000/job_2.4-SUCCEEDED-speculative.jhist").String(), LoadOptions{})
	if err != nil || len(one.Jobs) != 1 {
		t.Fatalf("single file: %v", err)
	}
	if _, err := Load(u.String()+"/missing/", LoadOptions{}); err == nil || !strings.Contains(err.Error(), "hdfs://") {
		t.Errorf("missing directory: %v", err)
	}
}
