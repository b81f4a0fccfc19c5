package sweep

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What a caller leaves empty, Run fills in before it submits: the job jar
// beside the binary, and without a classpath the hadoop command on PATH;
// with neither, Run refuses, naming the flags that would give them.
func TestYARNDefaults(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "specbridge")
	jar := filepath.Join(dir, "specbridge-sweep.jar")
	for _, f := range []string{bin, jar} {
		if err := os.WriteFile(f, nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if got := defaultJobJar(bin); got != jar {
		t.Errorf("job jar beside %s: %q, want %q", bin, got, jar)
	}
	if got := defaultJobJar(filepath.Join(t.TempDir(), "specbridge")); got != "" && !strings.HasPrefix(got, "java-sweep") {
		t.Errorf("no jar beside the binary: %q", got)
	}
	t.Setenv("PATH", t.TempDir())
	_, err := YARN{Binary: bin, CellsPerTask: 1}.Run([]Cell{{Policy: "hadoop"}})
	if err == nil || !strings.Contains(err.Error(), "no hadoop command on PATH") || !strings.Contains(err.Error(), "--hadoop-classpath") {
		t.Errorf("no hadoop command and no classpath: %v", err)
	}
}
