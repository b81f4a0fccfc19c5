package history

import (
	"testing"
)

// Two histories recorded on our own Hadoop 3.5.0 mini cluster by
// scripts/e2e.sh (testdata/README): the same job (4 maps, 1 reduce) written
// once as Avro-JSON with a speculative copy of map 0, once as Avro-Binary,
// Hadoop 3's default encoding, with speculation off.
func TestReadMiniClusterHistories(t *testing.T) {
	for _, tc := range []struct {
		file        string
		speculative []string // attempts recorded as SPECULATIVE
	}{
		{"testdata/job_3.5-SUCCEEDED-speculative.jhist", []string{"m_000000_1"}},
		{"testdata/job_3.5-SUCCEEDED-binary.jhist", nil},
	} {
		job, err := readJhistFile(tc.file)
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if job.Status != Succeeded || job.Submit == 0 || job.Finish <= job.Submit {
			t.Errorf("%s: status %q, submit %d, finish %d", tc.file, job.Status, job.Submit, job.Finish)
		}
		var maps, reduces int
		var spec []string
		for _, task := range job.Tasks {
			if task.Type == Map {
				maps++
			} else {
				reduces++
			}
			if task.Status != Succeeded || len(task.Attempts) == 0 || task.Finish < task.Start {
				t.Errorf("%s: task %s: %s, %d attempts", tc.file, task.ID, task.Status, len(task.Attempts))
			}
			for _, a := range task.Attempts {
				if a.Host == "" || a.Container == "" || a.Start == 0 {
					t.Errorf("%s: attempt %s without host, container or start: %+v", tc.file, a.ID, a)
				}
				if a.Speculative {
					spec = append(spec, a.ID[len(a.ID)-len("m_000000_1"):])
				}
			}
		}
		if maps != 4 || reduces != 1 {
			t.Errorf("%s: %d maps, %d reduces, want 4 and 1", tc.file, maps, reduces)
		}
		if len(spec) != len(tc.speculative) || (len(spec) > 0 && spec[0] != tc.speculative[0]) {
			t.Errorf("%s: speculative attempts %v, want %v", tc.file, spec, tc.speculative)
		}
	}
}
