package history

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// The fuzz targets check that the readers never panic, that every error
// names the input, and that what they return is well ordered.

const fuzzName = "fuzz-input"

func checkFuzzResult(t *testing.T, jobs []*Job, err error) {
	if err != nil {
		if !strings.Contains(err.Error(), fuzzName) {
			t.Fatalf("error does not name the input: %v", err)
		}
		return
	}
	for _, job := range jobs {
		if job == nil {
			t.Fatal("nil job without error")
		}
		for i, task := range job.Tasks {
			if task.Type != Map && task.Type != Reduce {
				t.Fatalf("task %s has type %q", task.ID, task.Type)
			}
			if i > 0 {
				prev := job.Tasks[i-1]
				if prev.Type == Reduce && task.Type == Map || prev.Type == task.Type && prev.Index > task.Index {
					t.Fatalf("tasks out of order: %s before %s", prev.ID, task.ID)
				}
			}
		}
	}
}

// fuzzJhist is the check of both .jhist fuzz targets (Avro-Json and
// Avro-Binary): a job or an error, never a nil job alone.
func fuzzJhist(t *testing.T, data []byte) {
	job, err := ReadJhistFrom(bytes.NewReader(data), fuzzName)
	if err == nil && job == nil {
		t.Fatal("nil job without error")
	}
	checkFuzzResult(t, []*Job{job}, err)
}

func FuzzJhist(f *testing.F) {
	// Seeds are the samples' first events, with the 10 KB schema line
	// shortened and long error texts cut: with 20-30 KB inputs the fuzzer
	// spends its time minimising them (a few execs a second).
	for _, p := range []string{jhist023, jhist24, jhistSpec} {
		lines := bytes.SplitAfter(readFile(f, p), []byte("\n"))
		lines[1] = []byte("{\"type\":\"record\",\"name\":\"Event\"}\n")
		for i := 2; i < len(lines); i++ {
			if len(lines[i]) > 600 {
				lines[i] = append(lines[i][:560:560], []byte("\"}}}\n")...)
			}
		}
		f.Add(bytes.Join(lines[:min(len(lines), 24)], nil))
	}
	f.Add([]byte("Avro-Json\n{}\n{\"type\":\"TASK_STARTED\",\"event\":{\"x\":{\"taskid\":\"task_1_1_m_000001\"}}}\n"))
	f.Fuzz(fuzzJhist)
}

// FuzzJhistBinary feeds the Avro-Binary reader: seeds are the 2.4 sample
// re-encoded (whole, and its first five events) and a tiny schema.
func FuzzJhistBinary(f *testing.F) {
	bin := jhistToBinary(f, readFile(f, jhist24))
	f.Add(bin)
	schemaEnd := bytes.IndexByte(bin[len(jhistBinaryHeader)+1:], '\n') + len(jhistBinaryHeader) + 2
	f.Add(bin[:min(len(bin), schemaEnd+1500)])
	f.Add([]byte("Avro-Binary\n" + `{"type":"record","name":"Event","fields":[{"name":"type","type":"string"},{"name":"event","type":["null",{"type":"record","name":"R","fields":[{"name":"taskid","type":"string"},{"name":"l","type":{"type":"array","items":"null"}}]}]}]}` +
		"\n\x18TASK_STARTED\x02\x22task_1_1_m_000001\x00"))
	f.Fuzz(fuzzJhist)
}

func FuzzRumen(f *testing.F) {
	f.Add(readFile(f, rumenFixture))
	f.Add([]byte(`{"jobID":"job_1_1","mapTasks":[{"taskID":"task_1_1_m_000000","attempts":[{"attemptID":"attempt_1_1_m_000000_0","hostName":"/r/h"}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		jobs, err := ReadRumenFrom(bytes.NewReader(data), fuzzName)
		checkFuzzResult(t, jobs, err)
		if err != nil {
			return
		}
		// Each job read again from where the reader found it (a streamed
		// replay's Load) is the same job.
		rr := NewRumenReader(bytes.NewReader(data), fuzzName)
		for i := range jobs {
			_, pos, err := rr.Next()
			if err != nil {
				t.Fatalf("job %d: %v", i, err)
			}
			again, err := ReadRumenJobAt(bytes.NewReader(data), fuzzName, pos)
			if err != nil || !reflect.DeepEqual(again, jobs[i]) {
				t.Fatalf("job %d read again at %+v: %v, %+v; want %+v", i, pos, err, again, jobs[i])
			}
		}
	})
}

func FuzzSWIM(f *testing.F) {
	data := readFile(f, swimFile)
	f.Add(data[:bytes.IndexByte(data[4096:], '\n')+4097])
	f.Add([]byte("job4\t208\t11\t3623279\t0\t9838062\n"))
	// Caps keep a fuzzed row from costing a million tasks per exec.
	model := DefaultSWIMModel()
	model.MaxMaps, model.MaxReduces = 1000, 100
	f.Fuzz(func(t *testing.T, data []byte) {
		jobs, err := ReadSWIMFrom(bytes.NewReader(data), fuzzName, model)
		checkFuzzResult(t, jobs, err)
	})
}

// FuzzReadConf: any input gives a configuration within the limits or an
// error naming the file, never a panic.
func FuzzReadConf(f *testing.F) {
	f.Add([]byte(confXML))
	f.Add([]byte("<configuration><property><name>mapreduce.map.maxattempts</name><value>1</value><final>true</final></property></configuration>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ReadConf(bytes.NewReader(data), fuzzName)
		if err != nil {
			if !strings.Contains(err.Error(), fuzzName) {
				t.Fatalf("error without the file's name: %v", err)
			}
			return
		}
		keys := c.Keys()
		if len(keys) > maxConfKept {
			t.Fatalf("%d keys kept", len(keys))
		}
		for _, k := range keys {
			if v, _ := c.Get(k); !ConfKept(k) || len(v) > MaxConfValue {
				t.Fatalf("kept %q = %d bytes", k, len(v))
			}
		}
	})
}
