package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

const stragglers = "../../scenarios/late-ec2-stragglers.yaml"

// `specbridge help [command]` and --help anywhere print help and run nothing,
// with exit status 0, even next to inputs that do not exist.
func TestHelpAnywhere(t *testing.T) {
	for _, args := range [][]string{
		{"help"}, {"help", "replay"}, {"help", "serve"}, {"replay", "-h"},
		{"replay", "--runs", "3", "no-such-input.yaml", "--help"},
		{"replay", "--help", "no-such-input.yaml"},
		{"replay", stragglers, "--output", "json", "--help"},
		{"speculators", "--help"}, {"help", "docs", "policies"},
	} {
		out, stderr, code := run(t, args...)
		if code != 0 || stderr != "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
		if !strings.Contains(out, "USAGE:") {
			t.Errorf("%v printed no help:\n%s", args, out)
		}
		if strings.Contains(out, "mean s") || strings.Contains(out, `"results"`) {
			t.Errorf("%v ran a replay", args)
		}
	}
	out, _, _ := run(t, "help", "replay")
	if !strings.Contains(out, "specbridge replay [command options] INPUT...") || !strings.Contains(out, "--report FILE") {
		t.Errorf("help replay is not replay's help:\n%s", out)
	}
}

// Every flag's help line reads correctly: one default at most, and a
// placeholder that is a word in capitals (or urfave's "value"), not a piece
// of the usage text; replay names every placeholder.
func TestHelpTextOfEveryFlag(t *testing.T) {
	flagLine := regexp.MustCompile(`^\s+(--[a-z0-9-]+(?:, -[a-z])?)(?: ([^ \[]+))?(?: \[ [^\]]+ \])?\s{2,}(.*)$`)
	for _, cmd := range [][]string{{"replay"}, {"sweep"}, {"serve"}, {"cfa"}, {"speculators"}, {"docs", "policies"}, {}} {
		out, _, code := run(t, append(cmd, "--help")...)
		if code != 0 {
			t.Fatalf("%v --help: exit %d", cmd, code)
		}
		lines := 0
		for _, line := range strings.Split(out, "\n") {
			m := flagLine.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			lines++
			if n := strings.Count(m[3], "(default"); n > 1 {
				t.Errorf("%v: %s: %d defaults: %q", cmd, m[1], n, m[3])
			}
			if ph := m[2]; ph != "" && ph != "value" && strings.ToUpper(ph) != ph {
				t.Errorf("%v: %s: placeholder %q is not a word in capitals", cmd, m[1], ph)
			}
			if len(cmd) == 1 && cmd[0] == "replay" && m[2] == "value" {
				t.Errorf("replay: %s has the generic placeholder \"value\"", m[1])
			}
			if strings.Contains(m[3], "(default: 0)") {
				t.Errorf("%v: %s: a default of 0 that means \"not set\": %q", cmd, m[1], m[3])
			}
		}
		if lines < 1 {
			t.Errorf("%v --help: found %d flag lines, the test's pattern is stale:\n%s", cmd, lines, out)
		}
	}
}

// Every missing input is named at once, before anything is replayed or
// written.
func TestMissingInputsBeforeAnyWork(t *testing.T) {
	dir := t.TempDir()
	jobs := filepath.Join(dir, "jobs.csv")
	_, stderr, code := run(t, "replay", "--jobs", jobs, stragglers, "missing-one.jhist", filepath.Join(dir, "missing-two"))
	if code == 0 || !strings.Contains(stderr, "missing-one.jhist") || !strings.Contains(stderr, "missing-two") || !strings.Contains(stderr, "2 of 3 inputs not found") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(jobs); err == nil {
		t.Error("--jobs file written although inputs were missing")
	}
}

// --nodes/--slots: applied to histories, refused for scenarios with the
// reason; zero and negative refused.
func TestNodesAndSlots(t *testing.T) {
	for _, args := range [][]string{
		{"replay", "--nodes", "4", stragglers},
		{"replay", stragglers, "--slots", "2"},
	} {
		_, stderr, code := run(t, args...)
		if code == 0 || !strings.Contains(stderr, "is a scenario, which describes its own cluster") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
	for _, args := range [][]string{{"--nodes", "0"}, {"--nodes", "-3"}, {"--slots", "0"}, {"--runs", "0"}, {"--parallel", "0"}} {
		_, stderr, code := run(t, append(append([]string{"replay"}, args...), "../../data/jhist")...)
		if code == 0 || !strings.Contains(stderr, "must be at least 1") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
	// Sizes that would exhaust memory before anything ran (they panicked
	// with an out-of-memory trace), and straggler factors that would run
	// for centuries, are usage errors.
	for _, c := range []struct{ cmd, flag, value, want string }{
		{"replay", "--runs", "1000000000", "--runs 1000000000: at most"},
		{"replay", "--nodes", "2000000000", "--nodes 2000000000: at most"},
		{"replay", "--slots", "2000000000", "--slots 2000000000: at most"},
		{"sweep", "--runs", "1000000000", "--runs 1000000000: at most"},
		{"sweep", "--nodes", "2000000000", "--nodes 2000000000: at most"},
		{"replay", "--straggler-cap", "Inf", "cap <= 1000"},
		{"replay", "--slow-node-factor", "1e12", "slow node factor 1e+12"},
		{"replay", "--jobs", "jobs.xml", "--jobs jobs.xml: want a .csv or .jsonl file"},
		// An output that cannot be written is found before the run, not after.
		{"replay", "--report", "/", "--report /: is a directory"},
		{"replay", "--jobs", "/no-such-dir-specbridge/j.csv", "--jobs /no-such-dir-specbridge/j.csv: no directory"},
		{"sweep", "--csv", "/", "--csv /: is a directory"},
		{"replay", "--no-stragglers=true --straggler-fraction", "0.5", "--straggler-fraction with --no-stragglers"},
		{"sweep", "--no-stragglers=true --slow-node-factor", "2", "--slow-node-factor with --no-stragglers"},
	} {
		_, stderr, code := run(t, append(append([]string{c.cmd}, strings.Fields(c.flag)...), c.value, "../../data/jhist")...)
		if code == 0 || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "goroutine") {
			t.Errorf("%s %s %s: exit %d, stderr %q", c.cmd, c.flag, c.value, code, stderr)
		}
	}
	makespan := func(args ...string) string {
		out, stderr, code := run(t, append([]string{"replay", "--speculators", "none", "--output", "json", "../../data/jhist/job_0.23.9-FAILED.jhist"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var rep struct {
			Results []struct {
				MakespanS float64 `json:"makespan_s"`
			}
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Results) != 1 {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(out[strings.Index(out, `"makespan_s"`):][:30])
	}
	if recorded, one := makespan(), makespan("--nodes", "1", "--slots", "1"); recorded == one {
		t.Errorf("--nodes 1 --slots 1 did not change the history's replay: %s", one)
	}
}

// A --param must name a selected policy and one of its parameters; an
// unknown policy, parameter, command or flag gets a suggestion.
func TestParamsAndSuggestions(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"replay", "--speculators", "late", "--param", "grass.xi=0.2", stragglers}, "policy grass is not selected"},
		{[]string{"replay", "--speculators", "late", "--param", "late.speculative-cap=0.1", "--param", "late.speculative-cap=0.2", stragglers},
			"late.speculative-cap is already set by --param late.speculative-cap=0.1"},
		{[]string{"replay", "--speculators", "hadoop", "--param", "hadoop.retry-after-speculate=5000",
			"--param", "hadoop.mapreduce.job.speculative.retry-after-speculate=6000", stragglers},
			"hadoop.retry-after-speculate is already set by --param hadoop.retry-after-speculate=5000"},
		{[]string{"replay", "--speculators", "lat", stragglers}, `did you mean "late"?`},
		{[]string{"replay", "--param", "late.speculativ-cap=0.2", stragglers}, `did you mean "speculative-cap"?`},
		{[]string{"replay", "--param", "grss.xi=0.2", stragglers}, `did you mean "grass"?`},
		{[]string{"replya", stragglers}, `did you mean "replay"?`},
		{[]string{"replay", "--mode", "simulat", stragglers}, `did you mean "simulate"?`},
	}
	for _, c := range cases {
		out, stderr, code := run(t, c.args...)
		if code == 0 || !strings.Contains(out+stderr, c.want) {
			t.Errorf("%v: exit %d, want %q in:\n%s%s", c.args, code, c.want, out, stderr)
		}
	}
	_, stderr, code := run(t, "replay", "--speculators", "hadoop", "--param", "hadoop.mapreduce.job.speculative.retry-after-speculate=5000", stragglers)
	if code != 0 {
		t.Errorf("a Hadoop key as a parameter name: exit %d, %s", code, stderr)
	}
}

// --output json or csv with several inputs is one document.
func TestSeveralInputsOneDocument(t *testing.T) {
	inputs := []string{stragglers, "../../scenarios/late-sleep-sensitivity.yaml"}
	out, stderr, code := run(t, append([]string{"replay", "--speculators", "none,late", "--output", "json"}, inputs...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var reps []struct {
		Input   string
		Results []json.RawMessage
	}
	if err := json.Unmarshal([]byte(out), &reps); err != nil || len(reps) != 2 || reps[1].Input != inputs[1] || len(reps[0].Results) != 2 {
		t.Fatalf("json of two inputs: %v, %+v", err, reps)
	}
	out, stderr, code = run(t, append([]string{"replay", "--speculators", "none,late", "--output", "csv"}, inputs...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) != 5 || recs[0][0] != "input" || recs[1][0] != inputs[0] || recs[4][0] != inputs[1] {
		t.Fatalf("csv of two inputs (%v):\n%s", err, out)
	}
}

// --jobs writes one row per job, policy and run (CSV or JSON Lines);
// --report a self-contained page; --plot an SVG.
func TestJobsReportPlot(t *testing.T) {
	dir := t.TempDir()
	in := "../../scenarios/farms-1gb.yaml"
	csvPath, jsonl, html, svgPath := filepath.Join(dir, "j.csv"), filepath.Join(dir, "j.jsonl"), filepath.Join(dir, "r.html"), filepath.Join(dir, "c.svg")
	_, stderr, code := run(t, "replay", "--runs", "2", "--speculators", "hadoop,farms", "--jobs", csvPath, "--report", html, "--plot", svgPath, in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, stderr, code = run(t, "replay", "--runs", "2", "--speculators", "hadoop,farms", "--jobs", jsonl, in); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	out, _, _ := run(t, "replay", "--runs", "2", "--speculators", "hadoop,farms", "--output", "json", in)
	var rep struct{ Results []struct{ Jobs int } }
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Results) != 2 {
		t.Fatal(err)
	}
	wantRows := rep.Results[0].Jobs * 2 * 2
	f, _ := os.Open(csvPath)
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(recs) != wantRows+1 {
		t.Fatalf("--jobs csv: %v, %d rows, want %d and a header", err, len(recs)-1, wantRows)
	}
	header := strings.Join(recs[0], ",")
	for _, col := range []string{"job", "group", "submit_s", "finish_s", "time_s", "copies_launched", "copies_won", "killed", "wasted_container_s", "deadline_met", "accuracy"} {
		if !regexp.MustCompile(`(^|,)` + col + `(,|$)`).MatchString(header) {
			t.Errorf("--jobs header lacks %s: %s", col, header)
		}
	}
	seen := map[string]bool{}
	for _, r := range recs[1:] {
		seen[r[1]+"/"+r[2]+"/"+r[4]] = true
	}
	if len(seen) != wantRows {
		t.Errorf("%d distinct policy/run/job rows, want %d", len(seen), wantRows)
	}
	data, _ := os.ReadFile(jsonl)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != wantRows {
		t.Errorf("--jobs jsonl: %d lines, want %d", len(lines), wantRows)
	}
	var row map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &row); err != nil || row["policy"] != "hadoop" || row["time_s"] == nil {
		t.Errorf("first JSON line %v: %v", err, row)
	}
	page, _ := os.ReadFile(html)
	for _, want := range []string{"Verdict", "Against hadoop", "farms", "data:image/svg"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if regexp.MustCompile(`(src|href)="(https?:)?//`).Match(page) {
		t.Error("report links a remote resource; it must be self-contained")
	}
	svgData, _ := os.ReadFile(svgPath)
	if err := xml.Unmarshal(svgData, new(struct{ XMLName xml.Name })); err != nil || !strings.Contains(string(svgData), "<svg") {
		t.Errorf("--plot svg: %v", err)
	}
	// The same command again (the report records its command line, so
	// the same one): the same bytes.
	if _, stderr, code = run(t, "replay", "--runs", "2", "--speculators", "hadoop,farms", "--jobs", csvPath, "--report", html, "--plot", svgPath, in); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if second, _ := os.ReadFile(html); string(second) != string(page) {
		t.Error("same command, inputs and seeds, a different report")
	}
	_, stderr, code = run(t, "replay", "--plot", filepath.Join(dir, "c.gif"), in)
	if code == 0 || !strings.Contains(stderr, ".svg or .png") {
		t.Errorf("--plot .gif: exit %d, %s", code, stderr)
	}
	_, stderr, code = run(t, "replay", "--report", html, in, stragglers)
	if code == 0 || !strings.Contains(stderr, "describes one INPUT") {
		t.Errorf("--report with two inputs: exit %d, %s", code, stderr)
	}
}

// Progress goes to stderr as plain lines when stderr is not a terminal
// (here every millisecond instead of every 5 s), and --quiet silences it.
func TestProgressLinesAndQuiet(t *testing.T) {
	out, stderr, code := run(t, "replay", "--progress-interval", "1ms", "--output", "json", stragglers)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !regexp.MustCompile(`(?m)^replay: .*late-ec2-stragglers.yaml: \d+% \(run 1 of 1, [a-z-]+: policy \d+ of \d+, \d+ of 1 jobs\), .* elapsed, about .* left$`).MatchString(stderr) {
		t.Errorf("no progress line on stderr:\n%s", stderr)
	}
	if !json.Valid([]byte(out)) {
		t.Error("progress leaked into stdout")
	}
	_, stderr, code = run(t, "replay", "--progress-interval", "1ms", "--quiet", stragglers)
	if code != 0 || stderr != "" {
		t.Errorf("--quiet: exit %d, stderr %q", code, stderr)
	}
}

// --max-jobs replays the earliest jobs only, faults on the others dropped
// with them; 0 is refused.
func TestMaxJobs(t *testing.T) {
	out, stderr, code := run(t, "replay", "--speculators", "hadoop,farms", "--max-jobs", "7", "--output", "json", "../../scenarios/farms-overall.yaml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct{ Results []struct{ Jobs int } }
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Results) != 2 || rep.Results[0].Jobs != 7 || rep.Results[1].Jobs != 7 {
		t.Fatalf("%v: %s", err, out)
	}
	if _, stderr, code = run(t, "replay", "--max-jobs", "0", stragglers); code == 0 || !strings.Contains(stderr, "must be at least 1") {
		t.Errorf("--max-jobs 0: exit %d, %s", code, stderr)
	}
}

// TestParallelFlagKeepsOutput: --parallel 1 and --parallel 2 print the same
// report and the same --jobs file, byte for byte (issue 17).
func TestParallelFlagKeepsOutput(t *testing.T) {
	// Each run in a directory of its own with the same relative --jobs
	// path: the provenance's command line is then the same.
	in, err := filepath.Abs("../../data/jhist")
	if err != nil {
		t.Fatal(err)
	}
	var outs [2]string
	for k, par := range []string{"1", "2"} {
		dir := t.TempDir()
		jobs := filepath.Join(dir, "jobs.csv")
		out, stderr, code := runIn(t, dir, "replay", "--quiet", "--parallel", par, "--runs", "2", "--speculators", "hadoop,late,none",
			"--output", "json", "--jobs", "jobs.csv", in)
		if code != 0 {
			t.Fatalf("--parallel %s: exit %d: %s", par, code, stderr)
		}
		rows, err := os.ReadFile(jobs)
		if err != nil {
			t.Fatal(err)
		}
		outs[k] = out + string(rows)
	}
	if outs[0] != outs[1] {
		t.Errorf("--parallel 2 output differs from --parallel 1:\n%s\n---\n%s", outs[1], outs[0])
	}
}

// --nodes' help states the cluster a SWIM trace is replayed on without the
// flag, and it is the one a replay of the bundled FB-2009 day really uses
// (the help once said 100 after the default became the trace's 600).
func TestNodesHelpMatchesSWIMCluster(t *testing.T) {
	out, _, code := run(t, "help", "replay")
	if code != 0 {
		t.Fatalf("help replay: exit %d", code)
	}
	m := regexp.MustCompile(`--nodes N .*\(default: (.*)\)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("help replay has no --nodes line with a default:\n%s", out)
	}
	js, stderr, code := run(t, "replay", "-q", "--max-jobs", "1", "--speculators", "none", "--output", "json",
		"../../data/swim/FB-2009_samples_24_times_1hr_0.tsv")
	if code != 0 {
		t.Fatalf("replay of the bundled SWIM day: exit %d: %s", code, stderr)
	}
	var rep struct {
		Results []struct {
			Cluster string `json:"cluster"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(js), &rep); err != nil || len(rep.Results) != 1 {
		t.Fatalf("replay JSON: %v, %d results:\n%s", err, len(rep.Results), js)
	}
	nodes := regexp.MustCompile(`^(\d+) nodes`).FindStringSubmatch(rep.Results[0].Cluster)
	if nodes == nil {
		t.Fatalf("cluster %q names no node count", rep.Results[0].Cluster)
	}
	if want := "FB-2009 " + nodes[1] + ","; !strings.Contains(m[1], want) {
		t.Errorf("--nodes default %q does not say %q, the cluster the bundled FB-2009 day ran on (%s)", m[1], want, rep.Results[0].Cluster)
	}
}

// Without a terminal, stderr ends with what was done and which files were
// written, however short the run.
func TestProgressSaysWhatWasWritten(t *testing.T) {
	dir := t.TempDir()
	rep, rows := filepath.Join(dir, "r.html"), filepath.Join(dir, "jobs.csv")
	_, stderr, code := run(t, "replay", "--speculators", "none,late", "--runs", "2", "--report", rep, "--jobs", rows, stragglers)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"late-ec2-stragglers.yaml: 1 jobs, 2 policies x 2 runs simulated in ",
		"replay: wrote the report to " + rep + "\n",
		"replay: wrote the job rows to " + rows + "\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

// "-" and /dev/stdin read standard input (a pipe), read once into a file;
// the output names the input as given; an error names stdin.
func TestReplayReadsStdin(t *testing.T) {
	scenario, err := os.ReadFile("../../scenarios/late-sleep-sensitivity.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want, _, _ := run(t, "replay", "-q", "--speculators", "none,late", "--output", "json", "../../scenarios/late-sleep-sensitivity.yaml")
	for _, input := range []string{"-", "/dev/stdin"} {
		cmd := exec.Command(binary, "replay", "-q", "--speculators", "none,late", "--output", "json", input)
		cmd.Stdin = bytes.NewReader(scenario) // a pipe, not a file
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", input, err)
		}
		var got, exp map[string]any
		json.Unmarshal(out, &got)
		json.Unmarshal([]byte(want), &exp)
		if got["input"] != input || !reflect.DeepEqual(got["results"], exp["results"]) {
			t.Errorf("%s: input %v, results differ from the file's: %s", input, got["input"], out)
		}
	}
	cmd := exec.Command(binary, "replay", "-q", "-")
	cmd.Stdin = strings.NewReader("jobs: [\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil || !strings.Contains(stderr.String(), "stdin") || strings.Contains(stderr.String(), "specbridge-stdin-") {
		t.Errorf("bad stdin: %v, %q; want an error naming stdin", err, stderr.String())
	}
	if _, stderr, code := run(t, "replay", "-", "-"); code != 2 || !strings.Contains(stderr, "given twice") {
		t.Errorf("- twice: exit %d, %q", code, stderr)
	}
}

// --job-order takes exact, yarn or none; yarn's levels and interval are
// checked; every refusal names the flag and exits non-zero.
func TestReplayJobOrderFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--job-order", "fastest"}, `--job-order "fastest": want exact, yarn or none`},
		{[]string{"--job-order", "yarn", "--job-order-levels", "0"}, "--job-order-levels 0: want 1 to 1000"},
		{[]string{"--job-order", "yarn", "--job-order-interval", "0s"}, "--job-order-interval 0s: want 1ms or more"},
	} {
		args := append(append([]string{"replay"}, tc.args...), "../../scenarios/grass-exact.yaml")
		_, stderr, code := run(t, args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("replay %v: exit %d, stderr %q; want exit 2 saying %q", tc.args, code, stderr, tc.want)
		}
	}
	// The report says which order the replay ran under: a scenario's
	// exact by default, the YARN model with its levels and period.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "<dt>job order</dt><dd>exact: read at every scheduling pass"},
		{[]string{"--job-order", "yarn", "--job-order-levels", "4", "--job-order-interval", "2s"}, "<dt>job order</dt><dd>yarn: 4 YARN priority levels read every 2s"},
	} {
		html := filepath.Join(t.TempDir(), "report.html")
		args := append(append([]string{"replay", "--speculators", "sca", "--max-jobs", "20", "--report", html}, tc.args...), "../../scenarios/grass-exact.yaml")
		if _, stderr, code := run(t, args...); code != 0 {
			t.Fatalf("replay %v: exit %d, stderr %q", tc.args, code, stderr)
		}
		page, err := os.ReadFile(html)
		if err != nil || !strings.Contains(string(page), tc.want) {
			t.Errorf("replay %v: the report does not say %q (%v)", tc.args, tc.want, err)
		}
	}
}
