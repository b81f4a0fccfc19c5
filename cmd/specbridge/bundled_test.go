package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// repoRoot is the repository's root, absolute.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// inside reports whether path (absolute) lies in the repository: what a
// fresh clone has, with no ../shared beside it.
func inside(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// tracePaths lists every `path:` value in a scenario file (SWIM traces).
func tracePaths(t *testing.T, file string) []string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if s, ok := e.(string); ok && k == "path" {
					out = append(out, s)
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(doc)
	return out
}

// Every bundled scenario replays (its 30 earliest jobs, under hadoop and
// late) on a fresh clone: run
// from a directory outside the repository (so a trace path works only if it
// is resolved against the scenario file), and every trace it names lies in
// the repository.
func TestEveryBundledScenarioRuns(t *testing.T) {
	root := repoRoot(t)
	files, _ := filepath.Glob(filepath.Join(root, "scenarios", "*.yaml"))
	more, _ := filepath.Glob(filepath.Join(root, "scenarios", "*", "*.yaml"))
	files = append(files, more...)
	if len(files) < 10 {
		t.Fatalf("found %d bundled scenarios", len(files))
	}
	elsewhere := t.TempDir()
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			for _, p := range tracePaths(t, f) {
				abs := filepath.Join(filepath.Dir(f), p)
				if !inside(root, abs) {
					t.Errorf("trace %s resolves outside the repository (%s): bundle it under data/", p, abs)
				}
				if _, err := os.Stat(abs); err != nil {
					t.Errorf("trace %s: %v", p, err)
				}
			}
			// Two policies on the 30 earliest jobs: the Xu and Lau
			// scenarios hold hundreds of jobs on 3,000 machines, and
			// replay's own tests run each policy on its scenarios.
			out, stderr, code := runIn(t, elsewhere, "replay", "--quiet", "--speculators", "hadoop,late", "--max-jobs", "30", "--output", "json", f)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var rep struct {
				Results []struct {
					Speculator string
					Jobs       int
				}
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Results) == 0 || rep.Results[0].Jobs == 0 {
				t.Fatalf("%v: %s", err, out)
			}
		})
	}
}

// Every command the README shows names only files a fresh clone has, and
// the replays among them run, shortened to one run of two policies unless
// they name their own (the SWIM day takes minutes with every policy), with
// their output files in a temporary directory.
func TestReadmeCommands(t *testing.T) {
	root := repoRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var cmds [][]string
	for _, block := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(string(readme), -1) {
		text := strings.ReplaceAll(block[1], "\\\n", " ")
		for _, line := range strings.Split(text, "\n") {
			line, _, _ = strings.Cut(line, "#")
			fields := strings.Fields(line)
			for i, f := range fields {
				if f == "./specbridge" || (f == "run" && i+1 < len(fields) && fields[i+1] == "./cmd/specbridge") {
					start := i + 1
					if f == "run" {
						start = i + 2
					}
					cmds = append(cmds, fields[start:])
					break
				}
			}
		}
	}
	if len(cmds) < 5 {
		t.Fatalf("found %d specbridge commands in README.md, the test's pattern is stale", len(cmds))
	}
	outFlags := map[string]bool{"--report": true, "--jobs": true, "--plot": true, "--data-dir": true, "--token-file": true, "--store": true}
	ran := 0
	for _, args := range cmds {
		tmp := t.TempDir()
		var run []string
		for i := 0; i < len(args); i++ {
			a := args[i]
			if outFlags[a] && i+1 < len(args) {
				run = append(run, a, filepath.Join(tmp, filepath.Base(args[i+1])))
				i++
				continue
			}
			if strings.Contains(a, "/") && !strings.HasPrefix(a, "-") && !strings.Contains(a, "://") {
				abs := filepath.Join(root, a)
				if !inside(root, abs) {
					t.Errorf("README command %v names %s, outside the repository", args, a)
				} else if _, err := os.Stat(abs); err != nil {
					t.Errorf("README command %v: %s is not in the repository: %v", args, a, err)
				}
			}
			run = append(run, a)
		}
		if len(run) == 0 || run[0] != "replay" || strings.Contains(strings.Join(run, " "), "hdfs://") {
			continue // serve, help and HDFS inputs: a cluster or a server, not a quick run
		}
		run = append(run, "--runs", "1", "--max-jobs", "200")
		if !strings.Contains(strings.Join(run, " "), "--speculators") {
			run = append(run, "--speculators", "hadoop,late")
		}
		if _, stderr, code := runIn(t, root, append(run, "--quiet")...); code != 0 {
			t.Errorf("README command %v: exit %d: %s", args, code, stderr)
		}
		ran++
	}
	if ran < 3 {
		t.Errorf("ran %d of the README's replays, want at least 3", ran)
	}
}
