package history

import (
	"strings"
	"testing"
)

func TestDetect(t *testing.T) {
	head := func(path string) []byte {
		b := readFile(t, path)
		return b[:min(len(b), DetectBytes)]
	}
	cases := []struct {
		name string
		head []byte
		want Format
	}{
		{jhist023, head(jhist023), FormatJhist},
		{jhist24, head(jhist24), FormatJhist},
		{jhistSpec, head(jhistSpec), FormatJhist},
		{rumenFixture, head(rumenFixture), FormatRumen},
		{swimFile, head(swimFile), FormatSWIM},
		{"compact.json", []byte(`{"mapTasks":[],"jobID":"job_1_1"}`), FormatRumen},
		{"s.yaml", []byte("# a scenario\nname: x\ncluster:\n  nodes: 10\n"), FormatScenario},
		{"w.yaml", []byte("---\nworkload: {swim: fb.tsv}\n"), FormatScenario},
		// A description longer than the head pushes cluster: out of it.
		{"long.yaml", []byte("description: >\n" + strings.Repeat("  a long story\n", DetectBytes/14+1))[:DetectBytes], FormatScenario},
		{"longname.yaml", []byte("name: " + strings.Repeat("x", DetectBytes))[:DetectBytes], FormatScenario},
	}
	for _, c := range cases {
		got, err := Detect(c.name, c.head)
		if err != nil || got != c.want {
			t.Errorf("Detect(%s) = %q, %v; want %q", c.name, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "hello\n", `{"other":1}`, "nested:\n  cluster: 1\n", "a\tb\tc\n"} {
		if f, err := Detect("odd.txt", []byte(bad)); err == nil || !strings.Contains(err.Error(), "odd.txt") {
			t.Errorf("Detect(%q) = %q, %v; want an error naming odd.txt", bad, f, err)
		}
	}
}
