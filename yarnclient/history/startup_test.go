package history

import (
	"bufio"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestJhistAttemptStartupFromProgressSplits reads each finished attempt's
// start-up from its progress splits (clockSplits): the first twelfth's
// wall-clock time less the median of the other eleven. The expected values
// are computed here from the file's own JSON, apart from the reader.
func TestJhistAttemptStartupFromProgressSplits(t *testing.T) {
	const path = "../../replay/testdata/livebench/stock-1.jhist"
	want := map[string]int64{}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var ev struct {
			Event map[string]struct {
				AttemptID   string  `json:"attemptId"`
				ClockSplits []int64 `json:"clockSplits"`
			} `json:"event"`
		}
		if !strings.Contains(sc.Text(), `"clockSplits"`) || json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		for _, r := range ev.Event {
			if len(r.ClockSplits) == 12 {
				rest := slices.Clone(r.ClockSplits[1:])
				slices.Sort(rest)
				want[r.AttemptID] = max(r.ClockSplits[0]-rest[5], 0)
			}
		}
	}
	if len(want) < 4 {
		t.Fatalf("%s: %d attempts with progress splits, want the job's 4 maps and its reduce", path, len(want))
	}
	j, err := readJhistFile(path)
	if err != nil {
		t.Fatal(err)
	}
	positive := 0
	for _, task := range j.Tasks {
		for _, a := range task.Attempts {
			if w, ok := want[a.ID]; !ok || a.Startup != w {
				t.Errorf("%s: start-up %d ms, want %d (splits read: %v)", a.ID, a.Startup, w, ok)
			}
			if a.Startup > 1000 {
				positive++
			}
		}
	}
	if positive == 0 {
		t.Error("no attempt started up for more than 1 s: a mini cluster's task JVMs take seconds")
	}
	// The Avro-Binary reader turns each datum into the same JSON form.
	b, err := readJhistFile("testdata/job_3.5-SUCCEEDED-binary.jhist")
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range b.Tasks {
		for _, a := range task.Attempts {
			if a.Startup <= 0 || a.Startup > a.Finish-a.Start {
				t.Errorf("binary history, %s: start-up %d ms of its %d, want a part of it", a.ID, a.Startup, a.Finish-a.Start)
			}
			if a.FirstReport < a.Startup || a.FirstReport > a.Finish-a.Start+1 {
				t.Errorf("binary history, %s: first report at %d ms, start-up %d, run %d: want between", a.ID, a.FirstReport, a.Startup, a.Finish-a.Start)
			}
		}
	}
}

// firstReport reads when an attempt first reported from its splits: the
// leading twelfths Hadoop filled with one line from the launch.
func TestFirstReportOfSplits(t *testing.T) {
	for _, tc := range []struct {
		splits avroLongs
		want   int64
	}{
		// A 40 s map of the live bench: its first report at about 15 s.
		{avroLongs{6404, 6405, 5566, 5006, 5006, 5008, 5005, 5377, 8, 8, 8, 9}, 12_809},
		// A 5 s map silent until its end.
		{avroLongs{11_485, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6}, 11_485},
		// One line from the launch to the end: no report before it.
		{avroLongs{1042, 1042, 1042, 1042, 1042, 1042, 1042, 1042, 1042, 1042, 1042, 1043}, 12_505},
		// Reports every second or so from 6.8 s on.
		{avroLongs{6799, 1087, 1391, 1389, 1075, 1381, 1391, 1384, 12, 11, 12, 12}, 6799},
		{nil, 0},
	} {
		if got := firstReport(clockSplits(tc.splits)); got != tc.want {
			t.Errorf("firstReport(%v) = %d, want %d", tc.splits, got, tc.want)
		}
	}
}

func TestStartupOfOddSplits(t *testing.T) {
	for _, tc := range []struct {
		splits avroLongs
		want   int64
	}{
		{avroLongs{9000, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10}, 8990},
		{avroLongs{500, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000}, 0}, // quick first twelfth
		{nil, 0},                     // no splits (Hadoop 1, Rumen)
		{avroLongs{9000, 10, 10}, 0}, // not Hadoop's twelve
		{avroLongs{9000, -1, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10}, 0},
		{avroLongs{1 << 50, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10}, 0},
		{avroLongs{1 << 31, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10}, 0}, // over an int32 of ms
	} {
		if got := startup(clockSplits(tc.splits)); got != tc.want {
			t.Errorf("startup(%v) = %d, want %d", tc.splits, got, tc.want)
		}
	}
	var v avroLongs
	for _, raw := range []string{`[1,2]`, `{"array":[1,2]}`, `null`} {
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			t.Errorf("%s: %v", raw, err)
		}
	}
	if err := json.Unmarshal([]byte(`"x"`), &v); err == nil {
		t.Error(`"x" as clockSplits: want an error`)
	}
}
