//go:build integration

package replay

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/internal/itest"
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
	in, err := Load(u.String()+"/", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if in.Format != "jhist" || len(in.Jobs) != len(local) {
		t.Fatalf("format %s, %d jobs", in.Format, len(in.Jobs))
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
