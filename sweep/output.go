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

// Stream writes rows one at a time, as cells finish, so that a sweep that
// fails part-way, or is interrupted, keeps the rows of the cells that
// finished: CSV and JSON reach w row by row (w should not buffer them for
// long); a table, which aligns its columns over all rows, is written by
// Close. The bytes are the same however the rows arrive.
type Stream struct {
	w      io.Writer
	format string
	cw     *csv.Writer
	n      int
	rows   []Row // table only
}

// NewStream starts a stream of rows as "table", "csv" or "json" (a CSV's
// header is written at once).
func NewStream(w io.Writer, format string) (*Stream, error) {
	s := &Stream{w: w, format: format}
	switch format {
	case "csv":
		s.cw = csv.NewWriter(w)
		if err := s.cw.Write(csvHeader); err != nil {
			return nil, err
		}
		s.cw.Flush()
		return s, s.cw.Error()
	case "json", "table", "":
		return s, nil
	}
	return nil, fmt.Errorf("unknown output format %q (table, csv, json)", format)
}

// Write adds one row.
func (s *Stream) Write(r Row) error {
	defer func() { s.n++ }()
	switch s.format {
	case "csv":
		if err := s.cw.Write(r.csvRecord()); err != nil {
			return err
		}
		s.cw.Flush()
		return s.cw.Error()
	case "json":
		line, err := r.Line()
		if err != nil {
			return err
		}
		sep := ",\n"
		if s.n == 0 {
			sep = "[\n"
		}
		_, err = io.WriteString(s.w, sep+line)
		return err
	}
	s.rows = append(s.rows, r)
	return nil
}

// Close ends the document: a JSON array's bracket, or the whole table.
func (s *Stream) Close() error {
	switch s.format {
	case "json":
		end := "\n]\n"
		if s.n == 0 {
			end = "[\n]\n"
		}
		_, err := io.WriteString(s.w, end)
		return err
	case "csv":
		return nil
	}
	return WriteTable(s.w, s.rows)
}

// WriteCSV writes a header and one record per row.
func WriteCSV(w io.Writer, rows []Row) error { return writeAll(w, "csv", rows) }

// WriteJSON writes the rows as one JSON array, a row per line.
func WriteJSON(w io.Writer, rows []Row) error { return writeAll(w, "json", rows) }

func writeAll(w io.Writer, format string, rows []Row) error {
	bw := bufio.NewWriter(w)
	s, err := NewStream(bw, format)
	if err != nil {
		return err
	}
	for _, r := range rows {
		if err := s.Write(r); err != nil {
			return err
		}
	}
	if err := s.Close(); err != nil {
		return err
	}
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
	if format == "table" || format == "" {
		return WriteTable(w, rows)
	}
	return writeAll(w, format, rows)
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
