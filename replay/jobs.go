package replay

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
)

// JobRow is one job under one policy in one run: the per-job output of
// `replay --jobs`. The JSON names (and the CSV header, the same names in
// the same order: jobColumns) are a public interface: fields may be added,
// never renamed.
type JobRow struct {
	Input  string `json:"input"`
	Policy string `json:"policy"`
	Run    int    `json:"run"` // 0-based
	Seed   uint64 `json:"seed"`
	Job    string `json:"job"`
	Group  string `json:"group"`
	// SubmitS and FinishS are virtual seconds from the start of the run;
	// FinishS and TimeS are nil for a job that did not finish.
	SubmitS float64  `json:"submit_s"`
	FinishS *float64 `json:"finish_s"`
	TimeS   *float64 `json:"time_s"`
	Maps    int      `json:"maps"`
	Reduces int      `json:"reduces"`
	// Attempts counts every attempt launched, originals included.
	Attempts          int     `json:"attempts"`
	CopiesLaunched    int     `json:"copies_launched"`
	CopiesWon         int     `json:"copies_won"`
	Killed            int     `json:"killed"`
	Failed            int     `json:"failed"`
	ContainerS        float64 `json:"container_s"`
	WastedContainerS  float64 `json:"wasted_container_s"`
	WrongSpeculations int     `json:"wrong_speculations"`
	// DeadlineS is a deadline-bound job's deadline after its submit;
	// DeadlineMet says it finished by then; Accuracy is the share of its
	// maps done by then (GRASS §6.1). Nil for jobs without a deadline.
	DeadlineS   *float64 `json:"deadline_s"`
	DeadlineMet *bool    `json:"deadline_met"`
	Accuracy    *float64 `json:"accuracy"`
	// ErrorBound and TimeToBoundS are an error-bound job's bound and the
	// time until enough of its maps were done (nil: no bound, or never
	// reached).
	ErrorBound   *float64 `json:"error_bound"`
	TimeToBoundS *float64 `json:"time_to_bound_s"`
	// Status is how the simulated job ended: SUCCEEDED, FAILED (a replayed
	// task used up its attempts), KILLED (killed as recorded) or
	// UNFINISHED. RecordedStatus and RecordedS are what a history
	// recorded (empty and nil for scenarios and SWIM); TimeS then includes
	// the recorded AM start-up and commit (fidelity.md).
	Status         string   `json:"status"`
	RecordedStatus string   `json:"recorded_status"`
	RecordedS      *float64 `json:"recorded_s"`
	// SettingsFrom is where the job's settings came from: conf (its
	// configuration was read), inferred (none; its history proved some),
	// default (Hadoop's); Settings lists each setting with its source
	// (jobconf.go). Empty for scenarios.
	SettingsFrom string `json:"settings_from"`
	Settings     string `json:"settings"`
	// Member is the member a per-job policy (auto) applied to the job when
	// it ended, and MemberWhy the reason it gave; empty for other policies.
	Member    string `json:"member"`
	MemberWhy string `json:"member_why"`
}

// JobRows lists r's jobs in workload order.
func JobRows(input string, r *Run) []JobRow {
	rows := make([]JobRow, len(r.Sim.Jobs))
	for i := range r.Sim.Jobs {
		j := &r.Sim.Jobs[i]
		spec := &r.Workload.Jobs[i]
		row := JobRow{Input: input, Policy: r.Policy, Run: r.Index, Seed: r.Seed, Job: j.ID, Group: r.Workload.Groups[i],
			SubmitS: ms(j.Submit), Maps: j.Maps, Reduces: j.Reduces, Attempts: j.Attempts,
			CopiesLaunched: j.SpeculativeLaunched, CopiesWon: j.SpeculativeWon, Killed: j.KilledAttempts,
			Failed: j.FailedAttempts, ContainerS: float64(j.ContainerMs) / 1000,
			WastedContainerS: float64(j.WastedContainerMs) / 1000, WrongSpeculations: j.WrongSpeculations}
		row.Status = "UNFINISHED"
		if j.Finish >= 0 {
			f, d := ms(j.Finish), ms(jobTime(r.Workload, r.Sim, i))
			row.FinishS, row.TimeS = &f, &d
			switch {
			case j.Failed():
				row.Status = "FAILED"
			case j.Killed:
				row.Status = "KILLED"
			default:
				row.Status = "SUCCEEDED"
			}
		}
		if i < len(r.Workload.Recorded) {
			rec := r.Workload.Recorded[i]
			row.RecordedStatus = rec.Status
			row.SettingsFrom, row.Settings = rec.SettingsFrom, rec.Settings
			if rec.Time > 0 {
				s := ms(rec.Time)
				row.RecordedS = &s
			}
		}
		if spec.Deadline > 0 {
			d := ms(spec.Deadline - spec.Submit)
			met := j.Finish >= 0 && j.Finish <= spec.Deadline
			row.DeadlineS, row.DeadlineMet = &d, &met
			if acc, ok := Accuracy(spec, j); ok {
				row.Accuracy = &acc
			}
		}
		if spec.ErrorBound > 0 {
			e := spec.ErrorBound
			row.ErrorBound = &e
			if t, ok, reached := TimeToBound(spec, j); ok && reached {
				s := ms(t)
				row.TimeToBoundS = &s
			}
		}
		if m, ok := r.Members[j.ID]; ok {
			row.Member, row.MemberWhy = m.Name, m.Why
		}
		rows[i] = row
	}
	return rows
}

// JobsWriter streams job rows as CSV (one header) or JSON Lines.
type JobsWriter struct {
	w      io.Writer
	csv    *csv.Writer
	enc    *json.Encoder
	header bool
}

// NewJobsWriter writes format "csv" or "jsonl" to w.
func NewJobsWriter(w io.Writer, format string) (*JobsWriter, error) {
	switch format {
	case "csv":
		return &JobsWriter{w: w, csv: csv.NewWriter(w)}, nil
	case "jsonl":
		return &JobsWriter{w: w, enc: json.NewEncoder(w)}, nil
	}
	return nil, fmt.Errorf("per-job output format %q: want csv or jsonl", format)
}

// JobsFormat is the per-job format a file name asks for: .jsonl or .json
// give JSON Lines, anything else CSV.
func JobsFormat(path string) string {
	if strings.HasSuffix(path, ".jsonl") || strings.HasSuffix(path, ".json") {
		return "jsonl"
	}
	return "csv"
}

// jobColumns are the CSV's columns: JobRow's fields in order, each under
// its JSON name, so that the struct is the one list of the per-job facts
// and the CSV and JSON Lines forms name them alike.
var jobColumns = func() []jobColumn {
	ty := reflect.TypeFor[JobRow]()
	out := make([]jobColumn, ty.NumField())
	for i := range out {
		name, _, _ := strings.Cut(ty.Field(i).Tag.Get("json"), ",")
		out[i] = jobColumn{name: name, index: i}
	}
	return out
}()

type jobColumn struct {
	name  string
	index int
}

// jobCell writes one value as the CSV does: numbers in their shortest
// decimal form, a nil pointer (a figure the job does not have) as an empty
// cell.
func jobCell(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return ""
		}
		return jobCell(v.Elem())
	case reflect.String:
		return v.String()
	case reflect.Int:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Uint64:
		return strconv.FormatUint(v.Uint(), 10)
	case reflect.Float64:
		return f3(v.Float())
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	}
	return fmt.Sprint(v.Interface())
}

// Write writes rows.
func (jw *JobsWriter) Write(rows []JobRow) error {
	if jw.enc != nil {
		for i := range rows {
			if err := jw.enc.Encode(&rows[i]); err != nil {
				return err
			}
		}
		return nil
	}
	if !jw.header {
		jw.header = true
		header := make([]string, len(jobColumns))
		for i, c := range jobColumns {
			header[i] = c.name
		}
		if err := jw.csv.Write(header); err != nil {
			return err
		}
	}
	rec := make([]string, len(jobColumns))
	for i := range rows {
		v := reflect.ValueOf(&rows[i]).Elem()
		for j, c := range jobColumns {
			rec[j] = jobCell(v.Field(c.index))
		}
		if err := jw.csv.Write(rec); err != nil {
			return err
		}
	}
	jw.csv.Flush()
	return jw.csv.Error()
}
