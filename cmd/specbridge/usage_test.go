package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A wrong command line is one line on stderr naming what is wrong and where
// to read more, nothing on stdout, exit 2.
func TestUsageErrorsOneLineExit2(t *testing.T) {
	in := "../../scenarios/late-sleep-sensitivity.yaml"
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"replay", "--bogus", in}, "unknown flag --bogus (see 'specbridge replay --help')"},
		{[]string{"--bogus"}, "unknown flag --bogus (see 'specbridge --help')"},
		{[]string{"replay", "--jbs", "x.csv", in}, "did you mean --jobs?"},
		{[]string{"replay", "--runs", "abc", in}, `--runs "abc": want a whole number`},
		{[]string{"replay", "--seed", "-1", in}, `--seed "-1": want a whole number, 0 or more`},
		{[]string{"replay", in, "--runs"}, "--runs needs a value"},
		{[]string{"sweep", "--bogus", in}, "unknown flag --bogus (see 'specbridge sweep --help')"},
		{[]string{"train", "laser", "--bogus"}, "(see 'specbridge train laser --help')"},
		{[]string{"replya"}, `unknown command "replya" (did you mean "replay"?)`},
		{[]string{"help", "replya"}, `no help topic "replya"`},
		{[]string{"replay"}, "no INPUT given"},
		{[]string{"completion", "fsh"}, `(did you mean "fish"?)`},
	}
	for _, tc := range cases {
		stdout, stderr, code := run(t, tc.args...)
		if code != 2 || stdout != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2, no stdout, one line containing %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
	// A run that fails on its input is not a usage error.
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("jobs: [\n"), 0o644)
	if _, stderr, code := run(t, "replay", bad); code != 1 {
		t.Errorf("replay of a broken file: exit %d (%s), want 1", code, stderr)
	}
}

func TestVersionCommand(t *testing.T) {
	out, _, code := run(t, "version")
	flag, _, _ := run(t, "--version")
	if code != 0 || !strings.HasPrefix(out, "specbridge version ") || out != flag {
		t.Errorf("version: exit %d, %q; --version: %q", code, out, flag)
	}
}

// The bash script completes commands and flags by asking the binary; the
// zsh and fish scripts are at least well-formed for their shells' parsers
// when those shells are installed.
func TestCompletionScripts(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal("bash is needed for this test")
	}
	script := `source <(specbridge completion bash)
COMP_WORDS=(specbridge rep); COMP_CWORD=1; _specbridge_complete; echo "${COMPREPLY[*]}"
COMP_WORDS=(specbridge replay --ru); COMP_CWORD=2; _specbridge_complete; echo "${COMPREPLY[*]}"`
	cmd := exec.Command(bash, "-c", script)
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(binary)+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil || string(out) != "replay\n--runs\n" {
		t.Errorf("bash completion: %v, %q; want replay, then --runs", err, out)
	}
	for _, sh := range []struct{ name, want, check string }{
		{"zsh", "compdef _specbridge specbridge", "zsh"},
		{"fish", "complete -c specbridge", "fish"},
	} {
		out, _, code := run(t, "completion", sh.name)
		if code != 0 || !strings.Contains(out, sh.want) {
			t.Errorf("completion %s: exit %d, lacks %q", sh.name, code, sh.want)
			continue
		}
		if path, err := exec.LookPath(sh.check); err == nil {
			f := filepath.Join(t.TempDir(), "script")
			os.WriteFile(f, []byte(out), 0o644)
			if msg, err := exec.Command(path, "-n", f).CombinedOutput(); err != nil {
				t.Errorf("%s -n: %v: %s", sh.check, err, msg)
			}
		}
	}
}

// docs man is a roff page man can render, naming every command.
func TestManPage(t *testing.T) {
	out, _, code := run(t, "docs", "man")
	if code != 0 || !strings.HasPrefix(out, ".nh\n.TH specbridge 1") {
		t.Fatalf("docs man: exit %d, starts %q", code, out[:min(len(out), 40)])
	}
	page := filepath.Join(t.TempDir(), "specbridge.1")
	os.WriteFile(page, []byte(out), 0o644)
	cmd := exec.Command("man", "-l", page)
	cmd.Env = append(os.Environ(), "MANPAGER=cat", "PAGER=cat", "MANWIDTH=100")
	text, err := cmd.Output()
	if err != nil {
		t.Fatalf("man -l: %v", err)
	}
	for _, want := range []string{"replay", "sweep", "serve", "completion", "--speculators"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("rendered man page lacks %q", want)
		}
	}
}

// A --format that the file's content contradicts: the error names the file,
// the format it has and what to give, not only the reader's parse error.
func TestFormatContradictedByContent(t *testing.T) {
	in := "../../scenarios/late-sleep-sensitivity.yaml"
	for _, format := range []string{"rumen", "jhist", "swim"} {
		_, stderr, code := run(t, "replay", "--format", format, in)
		want := "read " + in + ": --format " + format + ", but its content is scenario: drop --format or give --format scenario"
		if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, want) {
			t.Errorf("--format %s: exit %d, %q; want %q", format, code, stderr, want)
		}
	}
}

// A command that takes no arguments refuses one with exit 2, naming itself
// and the argument, and prints nothing on stdout.
func TestNoArgsCommandsRefuseArguments(t *testing.T) {
	for _, cmd := range [][]string{{"version"}, {"docs", "man"}, {"docs", "policies"}} {
		out, errOut, code := run(t, append(cmd, "extra")...)
		name := strings.Join(cmd, " ")
		want := name + ` takes no arguments, got "extra" (see 'specbridge ` + name + ` --help')`
		if code != 2 || out != "" || !strings.Contains(errOut, want) {
			t.Errorf("%s extra: exit %d, stdout %q, stderr %q; want exit 2 and %q", name, code, out, errOut, want)
		}
	}
}
