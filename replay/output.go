package replay

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/specbridge/specbridge/sim"
)

// Report is one input's replay. In simulate mode Results holds []Result; in
// decisions mode []DecisionsResult, and Actual lists what Hadoop did.
type Report struct {
	Input   string              `json:"input"`
	Format  string              `json:"format"`
	Mode    string              `json:"mode"`
	Seed    uint64              `json:"seed"`
	Runs    int                 `json:"runs"`
	Results any                 `json:"results"`
	Actual  []ActualSpeculation `json:"actual,omitempty"`
	// Provenance says what was run; Verdict (simulate mode) helps choose.
	Provenance *Provenance `json:"provenance,omitempty"`
	Verdict    *Verdict    `json:"verdict,omitempty"`
	// Regime is the input's load against Xu and Lau's cutoff lambda_U
	// (regime.go); nil when its jobs carry no a-priori Pareto model.
	Regime *Regime `json:"xulau_regime,omitempty"`
}

// Provenance is what was run, so that a report with a changed parameter
// does not read like a default one. Date is a UTC day (YYYY-MM-DD), from
// SOURCE_DATE_EPOCH when it is set (the reproducible-builds convention),
// else today; --no-date leaves it out. Choice: a day rather than a time,
// so that the same command on the same day gives the same bytes, and
// SOURCE_DATE_EPOCH or --no-date give them on any day.
type Provenance struct {
	Command string   `json:"command"`
	Params  []string `json:"params,omitempty"`
	Version string   `json:"version"`
	Seeds   string   `json:"seeds"`
	Date    string   `json:"date,omitempty"`
}

// Line is the provenance as one line of text.
func (p *Provenance) Line() string {
	s := fmt.Sprintf("run: %s (specbridge %s; seeds %s", p.Command, p.Version, p.Seeds)
	if len(p.Params) > 0 {
		s += "; parameters changed: " + strings.Join(p.Params, ", ")
	} else {
		s += "; every parameter at its default"
	}
	if p.Date != "" {
		s += "; " + p.Date
	}
	return s + ")"
}

// SeedsText is "1" for one run, "1 to 5" for five.
func SeedsText(seed uint64, runs int) string {
	if runs <= 1 {
		return strconv.FormatUint(seed, 10)
	}
	return fmt.Sprintf("%d to %d", seed, seed+uint64(runs)-1)
}

// Write renders the report as "table", "json" or "csv".
func (r *Report) Write(w io.Writer, format string) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	case "csv":
		return r.WriteCSV(w, true)
	case "table", "":
		return r.writeTable(w)
	}
	return fmt.Errorf("unknown output format %q (table, json, csv)", format)
}

// newTable prints title (the line before the table; "" for none) to w and
// returns a table on w, right-aligned columns two spaces apart, whose first
// row is header.
func newTable(w io.Writer, title, header string) *tabwriter.Writer {
	if title != "" {
		fmt.Fprintln(w, title)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, header)
	return tw
}

// wideGroups prints a by-group figure as one row per policy and one
// column per group (the first result's groups, in order): as many lines as
// policies, where a row per group and policy made hundreds.
func wideGroups(w io.Writer, title string, res []Result, groups func(*Result) int, name func(*Result, int) string, cell func(*Result, int) string) error {
	header := "speculator\t"
	for gi := range groups(&res[0]) {
		header += name(&res[0], gi) + "\t"
	}
	tw := newTable(w, title, header)
	for i := range res {
		x := &res[i]
		row := x.Speculator + "\t"
		for gi := range groups(&res[0]) {
			if gi < groups(x) {
				row += cell(x, gi)
			} else {
				row += "-"
			}
			row += "\t"
		}
		fmt.Fprintln(tw, row)
	}
	return tw.Flush()
}

// writeNotes lists the policies that could not act on the input, and why.
func writeNotes(w io.Writer, res []Result) {
	first := true
	for _, x := range res {
		if x.Note == "" {
			continue
		}
		if first {
			fmt.Fprintln(w, "\nnotes (policies that could not act on this input):")
			first = false
		}
		fmt.Fprintf(w, "  %s: %s\n", x.Speculator, x.Note)
	}
}

// Count prints a count that is a mean over runs: a whole number as one
// ("3", not "3.0", as with one run), else with one decimal.
func Count(x float64) string {
	if x == math.Trunc(x) {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

func f3(x float64) string { return FormatNumber(x) }

func (r *Report) writeTable(w io.Writer) error {
	fmt.Fprintf(w, "input %s (%s), mode %s, seed %d, runs %d\n", r.Input, r.Format, r.Mode, r.Seed, r.Runs)
	if r.Provenance != nil {
		fmt.Fprintln(w, r.Provenance.Line())
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	switch res := r.Results.(type) {
	case []Result:
		spread := len(res) > 0 && res[0].Spread != nil
		header := "speculator\tjobs\ttasks\tmean s\tp50 s\tp95 s\tp99 s\tmakespan s\tcontainer s\tclones\tspec\twon\tkilled\twasted s\tunfinished\t"
		if spread {
			header = "speculator\tjobs\ttasks\tmean s\tover seeds\tp50 s\tp95 s\tp99 s\tmakespan s\tcontainer s\tclones\tspec\twon\tkilled\twasted s\tunfinished\t"
		}
		fmt.Fprintln(tw, header)
		for _, x := range res {
			over := ""
			if spread && x.Spread != nil {
				over = fmt.Sprintf("%.1f-%.1f\t", x.Spread.Min, x.Spread.Max)
			} else if spread {
				over = "-\t"
			}
			fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f\t%s%.1f\t%.1f\t%.1f\t%.1f\t%.0f\t%s\t%s\t%s\t%s\t%.0f\t%s\t\n", x.Speculator, x.Jobs, x.Tasks,
				x.MeanJobS, over, x.P50JobS, x.P95JobS, x.P99JobS, x.MakespanS, x.ContainerS, Count(x.Clones), Count(x.SpeculativeAttempts),
				Count(x.SpeculativeWins), Count(x.KilledAttempts), x.WastedContainerS, Count(x.UnfinishedJobs))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		writeNotes(w, res)
		writeMembers(w, res)
		if r.Verdict != nil {
			fmt.Fprintln(w, "\nverdict (time against cost):")
			for _, l := range r.Verdict.Summary {
				fmt.Fprintln(w, "  "+l)
			}
		}
		if len(res) > 0 && len(res[0].Groups) > 0 {
			if err := wideGroups(w, "\nmean job time by job group, s (p95 in brackets):", res,
				func(x *Result) int { return len(x.Groups) }, func(x *Result, gi int) string { return x.Groups[gi].Group },
				func(x *Result, gi int) string {
					return fmt.Sprintf("%.1f (%.1f)", x.Groups[gi].MeanJobS, x.Groups[gi].P95JobS)
				}); err != nil {
				return err
			}
		}
		writeRegime(w, r.Regime)
		if err := writeFailuresTable(w, res); err != nil {
			return err
		}
		if err := writeRecordedTable(w, res); err != nil {
			return err
		}
		if len(res) > 0 && res[0].Cluster != "" {
			fmt.Fprintf(w, "\ncluster: %s\n", res[0].Cluster)
		}
		if len(res) > 0 && res[0].StragglerModel != "" {
			fmt.Fprintf(w, "\nstraggler model (the input has no attempt times of its own): %s\n", res[0].StragglerModel)
		}
		if err := writeApproxTable(w, res); err != nil {
			return err
		}
		return writeDeadlinesTable(w, res)
	case []DecisionsResult:
		fmt.Fprintf(tw, "speculator\tjobs\ttasks\tdecisions\tspeculated tasks\talso speculated by Hadoop\tskipped events\t\n")
		for _, x := range res {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t\n", x.Speculator, x.Jobs, x.Tasks, len(x.Decisions), x.SpeculatedTasks, x.MatchedActual, x.SkippedEvents)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(w, "\nwhat Hadoop did: %d speculative attempts\n", len(r.Actual))
		for _, a := range r.Actual {
			fmt.Fprintf(w, "  %8.1fs  %s  %s (%s)\n", a.AtS, a.Job, a.Attempt, a.Status)
		}
		for _, x := range res {
			fmt.Fprintf(w, "\n%s would have decided: %d\n", x.Speculator, len(x.Decisions))
			for _, d := range x.Decisions {
				target := d.Task
				if d.Attempt != "" {
					target = d.Attempt
				}
				fmt.Fprintf(w, "  %8.1fs  %s  %s %s: %s\n", d.AtS, d.Job, d.Kind, target, d.Reason)
			}
		}
		return nil
	}
	return tw.Flush()
}

// WriteCSV writes the report as CSV rows, after the header if header is
// set: several reports with one header make one document (every row names
// its input).
func (r *Report) WriteCSV(w io.Writer, header bool) error {
	cw := csv.NewWriter(w)
	if !header {
		cw = csv.NewWriter(&skipFirstLine{w: w})
	}
	switch res := r.Results.(type) {
	case []Result:
		head := append([]string{"input", "mode", "seed", "runs", "speculator"}, FiguresCSVHeader()...)
		cw.Write(append(head, append(append(approxCSVHeader(), failuresCSVHeader()...), recordedCSVHeader()...)...))
		for _, x := range res {
			row := append([]string{r.Input, r.Mode, strconv.FormatUint(r.Seed, 10), strconv.Itoa(r.Runs), x.Speculator}, x.Figures.CSVRecord()...)
			cw.Write(append(row, append(append(approxCSVRow(&x.Approximation), failuresCSVRow(&x.Failures)...), recordedCSVRow(&x)...)...))
		}
	case []DecisionsResult:
		cw.Write([]string{"input", "speculator", "job", "at_s", "kind", "task", "attempt", "reason"})
		for _, x := range res {
			for _, d := range x.Decisions {
				cw.Write([]string{r.Input, x.Speculator, d.Job, f3(d.AtS), d.Kind, d.Task, d.Attempt, d.Reason})
			}
		}
		for _, a := range r.Actual {
			cw.Write([]string{r.Input, "hadoop-actual", a.Job, f3(a.AtS), "speculate", a.Task, a.Attempt, "recorded " + a.Status})
		}
	}
	cw.Flush()
	return cw.Error()
}

// skipFirstLine drops everything up to and including the first newline
// written through it: a CSV header.
type skipFirstLine struct {
	w       io.Writer
	skipped bool
}

func (s *skipFirstLine) Write(p []byte) (int, error) {
	n := len(p)
	if !s.skipped {
		k := bytes.IndexByte(p, '\n')
		if k < 0 {
			return n, nil
		}
		s.skipped = true
		p = p[k+1:]
	}
	if _, err := s.w.Write(p); err != nil {
		return 0, err
	}
	return n, nil
}

// JobTime is job i's time in ms as every table, CSV and chart measures it:
// finish - submit, plus the recorded AM start-up a replayed history adds;
// -1 for an unfinished job.
func JobTime(w *Workload, res *sim.Result, i int) int64 { return jobTime(w, res, i) }

// writeMembers says, for a per-job policy (auto), which member decided how
// many jobs, overall and per job group (first run).
func writeMembers(w io.Writer, res []Result) {
	for i := range res {
		x := &res[i]
		if len(x.Members) == 0 {
			continue
		}
		line := fmt.Sprintf("\n%s's members (jobs, first run): %s", x.Speculator, memberCounts(x.Members))
		for _, g := range x.Groups {
			if len(g.Members) > 0 {
				line += fmt.Sprintf("; %s: %s", g.Group, memberCounts(g.Members))
			}
		}
		fmt.Fprintln(w, line)
	}
}

// memberCounts is "gs 40, late 3", most jobs first, then by name.
func memberCounts(m map[string]int) string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Slice(names, func(a, b int) bool {
		if m[names[a]] != m[names[b]] {
			return m[names[a]] > m[names[b]]
		}
		return names[a] < names[b]
	})
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s %d", n, m[n])
	}
	return strings.Join(parts, ", ")
}
