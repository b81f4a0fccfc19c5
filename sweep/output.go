package sweep

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/specbridge/specbridge/replay"
)

// csvHeader names the CSV columns, the Row's JSON names in order (the
// figures' from replay's one table of them).
var csvHeader = append(append([]string{"cell", "input", "policy", "params", "seed"}, replay.FiguresCSVHeader()...), "failed_jobs")

func (r Row) csvRecord() []string {
	head := []string{strconv.Itoa(r.Cell), r.Input, r.Policy, r.Params, strconv.FormatUint(r.Seed, 10)}
	return append(append(head, r.Figures.CSVRecord()...), replay.FormatNumber(r.FailedJobs))
}

// Line is the row as one line of JSON (no newline): what `sweep --cell`
// prints and a YARN mapper writes.
func (r Row) Line() (string, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return "", fmt.Errorf("row of cell %d: %w", r.Cell, err)
	}
	return string(b), nil
}

// WriteCSV writes a header and one record per row.
func WriteCSV(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	for _, r := range rows {
		if err := cw.Write(r.csvRecord()); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes the rows as one JSON array, a row per line.
func WriteJSON(w io.Writer, rows []Row) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("[")
	for i, r := range rows {
		line, err := r.Line()
		if err != nil {
			return err
		}
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n" + line)
	}
	bw.WriteString("\n]\n")
	return bw.Flush()
}

// WriteTable writes the rows as an aligned table for a terminal.
func WriteTable(w io.Writer, rows []Row) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "cell\tinput\tpolicy\tparams\tseed\tjobs\tmean s\tp50 s\tp95 s\tmakespan s\tcontainer s\tspec\twon\tunfinished\t")
	for _, r := range rows {
		params := r.Params
		if params == "" {
			params = "-"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\t%d\t%.1f\t%.1f\t%.1f\t%.1f\t%.0f\t%.1f\t%.1f\t%.1f\t\n", r.Cell, r.Input, r.Policy, params,
			r.Seed, r.Jobs, r.MeanJobS, r.P50JobS, r.P95JobS, r.MakespanS, r.ContainerS, r.SpeculativeAttempts, r.SpeculativeWins,
			r.UnfinishedJobs)
	}
	return tw.Flush()
}

// Write renders rows as "table", "csv" or "json".
func Write(w io.Writer, format string, rows []Row) error {
	switch format {
	case "csv":
		return WriteCSV(w, rows)
	case "json":
		return WriteJSON(w, rows)
	case "table", "":
		return WriteTable(w, rows)
	}
	return fmt.Errorf("unknown output format %q (table, csv, json)", format)
}

// Merge reads rows written one JSON line each, in any order (a YARN job's
// part files, concatenated), and returns them in cell order. Exactly the
// cells 0..cells-1 must be there, once each: a missing, repeated or unknown
// cell is an error naming it (name says where the rows came from).
func Merge(r io.Reader, name string, cells int) ([]Row, error) {
	rows := make([]Row, 0, cells)
	seen := make([]bool, cells)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		var row Row
		dec := json.NewDecoder(strings.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&row); err != nil {
			return nil, fmt.Errorf("%s line %d: not a sweep row: %w", name, line, err)
		}
		if row.Cell < 0 || row.Cell >= cells {
			return nil, fmt.Errorf("%s line %d: cell %d is not in the grid (cells 0-%d)", name, line, row.Cell, cells-1)
		}
		if seen[row.Cell] {
			return nil, fmt.Errorf("%s line %d: cell %d appears twice", name, line, row.Cell)
		}
		seen[row.Cell] = true
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var missing []string
	for k, ok := range seen {
		if !ok && len(missing) < 10 {
			missing = append(missing, strconv.Itoa(k))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s: %d of %d cells have no row (first: %s)", name, cells-len(rows), cells, strings.Join(missing, ", "))
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Cell < rows[j].Cell })
	return rows, nil
}
