package replay

import "strconv"

// figureColumns is the one table of Figures' measured columns, in the order
// every output writes them (replay's CSV, sweep's CSV): each column's name
// (its JSON name too; TestFigureColumnsAreTheJSONNames holds them equal)
// and where its value lives. Averaging over runs and rounding walk the same
// table, so a figure added here is averaged, rounded and written everywhere.
var figureColumns = []struct {
	name  string
	field func(*Figures) *float64
}{
	{"mean_job_s", func(f *Figures) *float64 { return &f.MeanJobS }},
	{"p50_job_s", func(f *Figures) *float64 { return &f.P50JobS }},
	{"p95_job_s", func(f *Figures) *float64 { return &f.P95JobS }},
	{"p99_job_s", func(f *Figures) *float64 { return &f.P99JobS }},
	{"makespan_s", func(f *Figures) *float64 { return &f.MakespanS }},
	{"container_s", func(f *Figures) *float64 { return &f.ContainerS }},
	{"clones", func(f *Figures) *float64 { return &f.Clones }},
	{"speculative_attempts", func(f *Figures) *float64 { return &f.SpeculativeAttempts }},
	{"speculative_wins", func(f *Figures) *float64 { return &f.SpeculativeWins }},
	{"killed_attempts", func(f *Figures) *float64 { return &f.KilledAttempts }},
	{"wasted_container_s", func(f *Figures) *float64 { return &f.WastedContainerS }},
	{"unfinished_jobs", func(f *Figures) *float64 { return &f.UnfinishedJobs }},
}

// FiguresCSVHeader names the Figures' CSV columns: jobs, tasks, then the
// measured ones in figureColumns' order.
func FiguresCSVHeader() []string {
	out := []string{"jobs", "tasks"}
	for _, c := range figureColumns {
		out = append(out, c.name)
	}
	return out
}

// CSVRecord is f's values in FiguresCSVHeader's order (shortest decimal
// form, as every CSV of the project writes numbers).
func (f *Figures) CSVRecord() []string {
	out := []string{strconv.Itoa(f.Jobs), strconv.Itoa(f.Tasks)}
	for _, c := range figureColumns {
		out = append(out, FormatNumber(*c.field(f)))
	}
	return out
}

// measured is every measured figure of f, in figureColumns' order.
func (f *Figures) measured() []*float64 {
	out := make([]*float64, len(figureColumns))
	for i, c := range figureColumns {
		out[i] = c.field(f)
	}
	return out
}

// FormatNumber writes x in its shortest decimal form: the CSV outputs' one
// number format.
func FormatNumber(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
