package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/speculators/laser"
)

// TestTrainLaserWritesAModelReplayLoads: `train laser INPUT --out FILE`
// (flags after the input) writes a model that `replay --param
// laser.model=FILE` runs, and prints the validation errors.
func TestTrainLaserWritesAModelReplayLoads(t *testing.T) {
	out := filepath.Join(t.TempDir(), "model.json")
	stdout, stderr, code := run(t, "train", "laser", "../../scenarios/laser-pocd.yaml", "--out", out, "--runs", "1", "--task-epochs", "1", "--job-epochs", "1")
	if code != 0 {
		t.Fatalf("train laser: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "task time") || !strings.Contains(stdout, "machine time") {
		t.Errorf("no validation errors printed:\n%s", stdout)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := laser.ParseModel(data); err != nil {
		t.Fatalf("the written model does not parse: %v", err)
	}
	stdout, stderr, code = run(t, "replay", "--speculators", "laser", "--param", "laser.model="+out, "../../scenarios/laser-pocd.yaml")
	if code != 0 || !strings.Contains(stdout, "PoCD") {
		t.Fatalf("replay with the model: exit %d: %s\n%s", code, stderr, stdout)
	}
}

func TestTrainLaserBadInputs(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"version": 1}`), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "laser", "--out", filepath.Join(dir, "m.json")}, "no INPUT"},
		{[]string{"train", "laser", "--out", filepath.Join(dir, "m.json"), filepath.Join(dir, "missing.yaml")}, "missing.yaml"},
		{[]string{"replay", "--speculators", "laser", "--param", "laser.model=" + bad, "../../scenarios/laser-pocd.yaml"}, "bad.json"},
		// Zero was silently the default and billions never ended.
		{[]string{"train", "laser", "--runs", "0", "--out", filepath.Join(dir, "m.json"), "../../scenarios/laser-pocd.yaml"}, "--runs 0: want 1..100000 (see 'specbridge train laser --help')"},
		{[]string{"train", "laser", "--runs", "1000000000", "--out", filepath.Join(dir, "m.json"), "../../scenarios/laser-pocd.yaml"}, "--runs 1000000000"},
		{[]string{"train", "laser", "--task-epochs", "-1", "--out", filepath.Join(dir, "m.json"), "../../scenarios/laser-pocd.yaml"}, "--task-epochs -1"},
		{[]string{"train", "laser", "--r-max", "1000000000", "--out", filepath.Join(dir, "m.json"), "../../scenarios/laser-pocd.yaml"}, "r_max 1000000000 in 0..64"},
		{[]string{"train", "laser", "--tau-est-s", "NaN", "--out", filepath.Join(dir, "m.json"), "../../scenarios/laser-pocd.yaml"}, "tau_est NaN s"},
		{[]string{"replay", "--speculators", "laser", "--param", "laser.r-max=2000000000", "../../scenarios/laser-pocd-tasks3.yaml"}, "r-max 2000000000: want 0..64"},
	} {
		_, stderr, code := run(t, c.args...)
		if code == 0 || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "panic") {
			t.Errorf("%v: exit %d, stderr %q; want a non-zero exit naming %q", c.args, code, stderr, c.want)
		}
	}
}
