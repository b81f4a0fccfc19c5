package replay

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
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
	// Regime is the input's load against Xu and Lau's cutoff lambda_U
	// (regime.go); nil when its jobs carry no a-priori Pareto model.
	Regime *Regime `json:"xulau_regime,omitempty"`
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

// byGroup calls row with every result that has group gi, for each group
// gi of the first result in order (groups says how many a result has): the
// rows of a by-group table.
func byGroup(res []Result, groups func(*Result) int, row func(x *Result, gi int)) {
	for gi := range groups(&res[0]) {
		for i := range res {
			if gi < groups(&res[i]) {
				row(&res[i], gi)
			}
		}
	}
}

func f3(x float64) string { return FormatNumber(x) }

func (r *Report) writeTable(w io.Writer) error {
	fmt.Fprintf(w, "input %s (%s), mode %s, seed %d, runs %d\n", r.Input, r.Format, r.Mode, r.Seed, r.Runs)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	switch res := r.Results.(type) {
	case []Result:
		fmt.Fprintln(tw, "speculator\tjobs\ttasks\tmean s\tp50 s\tp95 s\tp99 s\tmakespan s\tcontainer s\tclones\tspec\twon\tkilled\twasted s\tunfinished\t")
		for _, x := range res {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.0f\t%.1f\t%.1f\t%.1f\t%.1f\t%.0f\t%.1f\t\n", x.Speculator, x.Jobs, x.Tasks,
				x.MeanJobS, x.P50JobS, x.P95JobS, x.P99JobS, x.MakespanS, x.ContainerS, x.Clones, x.SpeculativeAttempts,
				x.SpeculativeWins, x.KilledAttempts, x.WastedContainerS, x.UnfinishedJobs)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if len(res) > 0 && len(res[0].Groups) > 0 {
			tw = newTable(w, "\nby job group:", "group\tspeculator\tjobs\tmean s\tp95 s\t")
			byGroup(res, func(x *Result) int { return len(x.Groups) }, func(x *Result, gi int) {
				g := x.Groups[gi]
				fmt.Fprintf(tw, "%s\t%s\t%d\t%.1f\t%.1f\t\n", g.Group, x.Speculator, g.Jobs, g.MeanJobS, g.P95JobS)
			})
			if err := tw.Flush(); err != nil {
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
