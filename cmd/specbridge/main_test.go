package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/speculators/all/alltest"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "specbridge-cli")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "specbridge")
	// The reports' provenance carries a date: the same one in every run,
	// so that tests comparing two runs' bytes hold across midnight.
	os.Setenv("SOURCE_DATE_EPOCH", "1700000000")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runIn(t, "", args...)
}

// runIn runs the binary in directory dir ("": the test's own).
func runIn(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

func TestHelpListsEveryFlagWithDefault(t *testing.T) {
	out, _, code := run(t, "replay", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"--speculators", "--seed SEED", "(default: 1)", "--runs", "--mode", `(default: "simulate")`, "--param", "--output", `(default: "table")`, "--format"} {
		if !strings.Contains(out, want) {
			t.Errorf("replay --help lacks %q", want)
		}
	}
	out, _, _ = run(t, "--help")
	for _, want := range []string{"replay", "speculators", "--log-format", `(default: "text")`} {
		if !strings.Contains(out, want) {
			t.Errorf("--help lacks %q", want)
		}
	}
}

// Two runs with the same seed print identical bytes.
func TestReplayDeterministicBytes(t *testing.T) {
	args := []string{"replay", "--runs", "2", "--seed", "3", "--output", "json", "../../scenarios/late-sleep-sensitivity.yaml"}
	a, errA, codeA := run(t, args...)
	b, _, _ := run(t, args...)
	if codeA != 0 {
		t.Fatalf("exit %d: %s", codeA, errA)
	}
	if a != b {
		t.Fatal("same seed, different output")
	}
	var rep struct {
		Mode    string
		Results []struct {
			Speculator string
			MeanJobS   float64 `json:"mean_job_s"`
		}
	}
	reg := alltest.Registry(t)
	if err := json.Unmarshal([]byte(a), &rep); err != nil || rep.Mode != "simulate" || len(rep.Results) != len(reg.Names()) {
		t.Fatalf("json %v: %+v", err, rep)
	}
	csv, _, _ := run(t, "replay", "--output", "csv", "--speculators", "late", "../../scenarios/late-sleep-sensitivity.yaml")
	if lines := strings.Split(strings.TrimSpace(csv), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[0], "input,mode,seed") {
		t.Fatalf("csv output:\n%s", csv)
	}
}

// Flags after the input mean what they mean in front of it (urfave/cli alone
// would stop at the input and ignore them); a global flag stays global, and
// "--" still ends the flags.
func TestReplayFlagsAfterInput(t *testing.T) {
	in := "../../scenarios/late-sleep-sensitivity.yaml"
	before, errB, code := run(t, "--log-level", "warn", "replay", "--runs", "1", "--speculators", "late", "--output=csv", in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errB)
	}
	after, errA, code := run(t, "--log-level", "warn", "replay", in, "--runs", "1", "--speculators", "late", "--output=csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errA)
	}
	if before != after || !strings.HasPrefix(before, "input,mode,seed") || strings.Count(before, "\n") != 2 {
		t.Fatalf("flags before the input:\n%s\nafter it:\n%s", before, after)
	}
	_, stderr, code := run(t, "replay", "--runs", "1", "--", in, "--output")
	if code == 0 || !strings.Contains(stderr, "--output") {
		t.Fatalf("after --, --output is an input: exit %d, %s", code, stderr)
	}
}

// replay --data-dir keeps the run times of completed tasks that GRASS uses
// as t_new before a job's first completion, and a second replay on the same
// directory starts from them and adds its own.
func TestReplayDataDirKeepsRunTimes(t *testing.T) {
	dir := t.TempDir()
	args := []string{"replay", "--runs", "1", "--speculators", "grass", "--data-dir", dir, "../../scenarios/late-sleep-sensitivity.yaml"}
	if _, stderr, code := run(t, args...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	path := filepath.Join(dir, "grass-runtimes.jsonl")
	first, err := os.ReadFile(path)
	if err != nil || strings.Count(string(first), "\n") == 0 || !strings.HasPrefix(string(first), `{"type":"map","ms":`) {
		t.Fatalf("run times after one replay: %q (%v)", first, err)
	}
	if _, stderr, code := run(t, args...); code != 0 {
		t.Fatalf("second replay: exit %d: %s", code, stderr)
	}
	second, err := os.ReadFile(path)
	if err != nil || !strings.HasPrefix(string(second), string(first)) || len(second) <= len(first) {
		t.Fatalf("after a second replay the run times file has %d bytes (%v), want the first %d and more", len(second), err, len(first))
	}
}

// Bad input: non-zero exit and one line naming the file and the line.
func TestBadInputOneLineError(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("../../data/jhist/job_0.23.9-FAILED.jhist")
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.jhist")
	os.WriteFile(cut, data[:len(data)*2/3], 0o644)
	cases := map[string][]string{
		"line ":          {"replay", cut},
		"unknown policy": {"replay", "--speculators", "late,fastest", cut},
		"no parameter":   {"replay", "--param", "late.nope=1", cut},
		"want simulate":  {"replay", "--mode", "guess", cut},
		"no INPUT":       {"replay"},
	}
	for want, args := range cases {
		_, stderr, code := run(t, args...)
		if code == 0 {
			t.Errorf("%v: exit 0", args)
		}
		if strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, want) {
			t.Errorf("%v: stderr %q, want one line containing %q", args, stderr, want)
		}
	}
	_, stderr, _ := run(t, "replay", cut)
	if !strings.Contains(stderr, "cut.jhist") {
		t.Errorf("error %q does not name the file", stderr)
	}
}

func TestDecisionsModeOnSharedHistories(t *testing.T) {
	out, stderr, code := run(t, "replay", "--mode", "decisions", "--output", "json", "../../data/jhist/job_2.4.0-FAILED.jhist")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, `"mode": "decisions"`) || !strings.Contains(out, `"speculator": "late"`) {
		t.Fatalf("decisions output:\n%s", out)
	}
}

// The straggler model's flags: a bad value is an error naming the flag; on
// a history (not SWIM) the model never applies, so the recorded comparison
// is printed and no straggler model is named.
func TestReplayStragglerFlagsAndRecordedTable(t *testing.T) {
	in := "../../yarnclient/history/testdata/job_3.5-SUCCEEDED-binary.jhist"
	_, stderr, code := run(t, "replay", "--speculators", "hadoop", "--straggler-fraction", "2", in)
	if code == 0 || !strings.Contains(stderr, "--straggler-") || !strings.Contains(stderr, "fraction 2") {
		t.Fatalf("--straggler-fraction 2: exit %d, %s", code, stderr)
	}
	out, stderr, code := run(t, "replay", "--speculators", "hadoop,none", in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "recorded vs simulated") || !strings.Contains(out, "job_1795291776859_0002  SUCCEEDED        73.2") ||
		strings.Contains(out, "straggler model") {
		t.Fatalf("output lacks the recorded comparison or names a straggler model:\n%s", out)
	}
}

// `specbridge help CMD [SUB]` prints what `specbridge CMD [SUB] --help`
// does, for every command and subcommand: urfave/cli's own help command
// left out the subcommands of train, cfa and docs (so `train laser` could
// not be found from `help train`) and printed `help train laser` as `help
// train`. A word that names nothing is an error naming it.
func TestHelpCommandIsDashDashHelp(t *testing.T) {
	var paths [][]string
	for _, c := range commands() {
		paths = append(paths, []string{c.Name})
		for _, sub := range c.Subcommands {
			paths = append(paths, []string{c.Name, sub.Name})
		}
	}
	subs := 0
	for _, p := range paths {
		want, _, code := run(t, append(append([]string{}, p...), "--help")...)
		if code != 0 {
			t.Fatalf("%v --help: exit %d", p, code)
		}
		got, stderr, code := run(t, append([]string{"help"}, p...)...)
		if code != 0 || stderr != "" || got != want {
			t.Errorf("help %v: exit %d, stderr %q, and not %v --help's output:\n%s\nwant:\n%s", p, code, stderr, p, got, want)
		}
		if len(p) == 2 {
			subs++
			if parent, _, _ := run(t, "help", p[0]); !strings.Contains(parent, "\n   "+p[1]+" ") {
				t.Errorf("help %s does not list its subcommand %s:\n%s", p[0], p[1], parent)
			}
		}
	}
	if subs < 3 {
		t.Errorf("found %d subcommands (train laser, cfa fsck, docs policies at least)", subs)
	}
	for _, bad := range [][]string{{"nosuch"}, {"train", "nosuch"}, {"replay", "nosuch"}} {
		_, stderr, code := run(t, append([]string{"help"}, bad...)...)
		if code == 0 || !strings.Contains(stderr, bad[len(bad)-1]) {
			t.Errorf("help %v: exit %d, stderr %q; want an error naming %q", bad, code, stderr, bad[len(bad)-1])
		}
	}
}
