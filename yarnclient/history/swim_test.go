package history

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

const swimFile = sharedData + "/swim/FB-2009_samples_24_times_1hr_0.tsv"

func TestReadSWIMFacebook2009(t *testing.T) {
	readFile(t, swimFile)
	jobs, err := readSWIMFile(swimFile, DefaultSWIMModel())
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 5894 {
		t.Fatalf("jobs = %d, want 5894", len(jobs))
	}
	count := func(job *Job, typ TaskType) int {
		n := 0
		for _, task := range job.Tasks {
			if task.Type == typ {
				n++
			}
		}
		return n
	}
	// job0	49	49	740773	2339561	627471: one map, one reduce.
	j0 := jobs[0]
	if j0.ID != "job0" || j0.Submit != SWIMEpochMs+49_000 || count(j0, Map) != 1 || count(j0, Reduce) != 1 || j0.Source != swimFile {
		t.Errorf("job0 = %+v", *j0)
	}
	m := j0.Tasks[0]
	if m.InputBytes != 740773 || m.OutputBytes != 2339561 || len(m.Attempts) != 1 {
		t.Errorf("job0 map = %+v", m)
	}
	// 10 s + 740773 B = 0.706 MiB x 300 ms = 212 ms.
	if a := m.Attempts[0]; a.Start != SWIMEpochMs+49_000 || a.Finish-a.Start != 10_212 || a.Status != Succeeded {
		t.Errorf("job0 map attempt = %+v", a)
	}
	// job4	208	11	3623279	0	9838062: map-only, maps write the output.
	j4 := jobs[4]
	if count(j4, Map) != 1 || count(j4, Reduce) != 0 || j4.Tasks[0].OutputBytes != 9838062 {
		t.Errorf("job4 = %+v", *j4)
	}
	byID := map[string]*Job{}
	for _, j := range jobs {
		byID[j.ID] = j
	}
	// job969	17519	1	7551263722208	51038659744	103464:
	// ceil(7551263722208 / 128 MiB) = 56262 maps, ceil(47.53 GiB / 1 GiB) = 48 reduces.
	j969 := byID["job969"]
	if j969 == nil || count(j969, Map) != 56262 || count(j969, Reduce) != 48 || j969.Submit != SWIMEpochMs+17_519_000 {
		t.Fatalf("job969: %d maps %d reduces", count(j969, Map), count(j969, Reduce))
	}
	var in int64
	for _, task := range j969.Tasks[:56262] {
		in += task.InputBytes
	}
	last := j969.Tasks[56261]
	if in != 7551263722208 || j969.Tasks[0].InputBytes != 128<<20 || last.Index != 56261 || last.InputBytes >= 128<<20 {
		t.Errorf("job969 input split: total %d, first %d, last #%d %d", in, j969.Tasks[0].InputBytes, last.Index, last.InputBytes)
	}
	// job1712 shuffles 8.8 TB: reduces capped at 999.
	if j := byID["job1712"]; j == nil || count(j, Reduce) != 999 {
		t.Errorf("job1712 reduces not capped at 999")
	}
}

func TestSWIMModelCaps(t *testing.T) {
	m := DefaultSWIMModel()
	m.MaxMaps = 10
	jobs, err := ReadSWIMFrom(strings.NewReader("j\t0\t0\t10000000000\t5\t7\n"), "x.tsv", m)
	if err != nil {
		t.Fatal(err)
	}
	tasks := jobs[0].Tasks
	if len(tasks) != 11 || tasks[0].InputBytes != 1_000_000_000 || tasks[10].Type != Reduce || tasks[10].InputBytes != 5 {
		t.Errorf("tasks = %d, first map %d", len(tasks), tasks[0].InputBytes)
	}
	m.BlockBytes = 0
	if _, err := ReadSWIMFrom(strings.NewReader(""), "x.tsv", m); err == nil || !strings.Contains(err.Error(), "x.tsv") {
		t.Errorf("invalid model error = %v", err)
	}
}

func TestSWIMErrors(t *testing.T) {
	const good = "job0\t49\t49\t740773\t2339561\t627471\n"
	cases := []badInput{
		{"columns", good + "\njob1\t1\t2\t3\t4\n", 3, "found 5"},
		{"non-numeric", good + good + "job2\t1\t2\tmany\t4\t5\n", 3, "column 4 (map input bytes)"},
		{"negative", "job0\t-1\t49\t1\t1\t1\n", 1, "column 2"},
		{"empty id", "\t1\t2\t3\t4\t5\n", 1, "empty job id"},
		{"too many maps", "j\t1\t1\t9000000000000000000\t0\t0\n", 1, "over the limit"},
	}
	checkBadInputs(t, "bad.tsv", func(r io.Reader, file string) error {
		_, err := ReadSWIMFrom(r, file, DefaultSWIMModel())
		return err
	}, cases)
}

func BenchmarkReadSWIM(b *testing.B) {
	data := readFile(b, swimFile)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ReadSWIMFrom(bytes.NewReader(data), swimFile, DefaultSWIMModel()); err != nil {
			b.Fatal(err)
		}
	}
}

// EachTask gives, row by row, the tasks JobOf derives (type, input bytes,
// the run time of the one attempt), and JobOf's error for a row over the
// map limit.
func TestSWIMEachTaskIsJobOf(t *testing.T) {
	f := strings.NewReader(string(readFile(t, swimFile)))
	rows, err := ReadSWIMRows(f, swimFile)
	if err != nil {
		t.Fatal(err)
	}
	m := DefaultSWIMModel()
	tasks := 0
	for i, row := range rows[:800] {
		j, err := m.JobOf(row, i, swimFile)
		if err != nil {
			t.Fatal(err)
		}
		k := 0
		err = m.EachTask(row, swimFile, func(typ TaskType, in, work int64) {
			if k >= len(j.Tasks) {
				t.Fatalf("row %d: more tasks than JobOf's %d", i, len(j.Tasks))
			}
			want := &j.Tasks[k]
			a := &want.Attempts[0]
			if typ != want.Type || in != want.InputBytes || work != a.Finish-a.Start {
				t.Fatalf("row %d task %d: %v %d bytes %d ms; JobOf: %v %d bytes %d ms", i, k, typ, in, work, want.Type, want.InputBytes, a.Finish-a.Start)
			}
			k++
		})
		if err != nil || k != len(j.Tasks) {
			t.Fatalf("row %d: %d tasks (err %v), JobOf %d", i, k, err, len(j.Tasks))
		}
		tasks += k
	}
	if tasks < 1000 {
		t.Fatalf("%d tasks compared; the test proves little", tasks)
	}
	big := rows[0]
	big.InputBytes = 1 << 62
	if err := m.EachTask(big, swimFile, func(TaskType, int64, int64) {}); err == nil || !strings.Contains(err.Error(), "over the limit") {
		t.Fatalf("row over the map limit: err = %v", err)
	}
}
