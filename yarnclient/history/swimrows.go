package history

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// SWIMRow is one SWIM workload row, before the model derives tasks: what a
// sampler needs to choose jobs without building the tasks of every row.
type SWIMRow struct {
	ID string
	// SubmitS is the submit time in seconds from the workload's start.
	SubmitS int64
	// InputBytes, ShuffleBytes and OutputBytes are the map input, the
	// shuffle and the reduce output.
	InputBytes, ShuffleBytes, OutputBytes int64
	// Line is the row's line in the file, for errors.
	Line int
}

// ReadSWIMRows reads a SWIM TSV stream into rows, with the checks and
// errors of ReadSWIMFrom ("read NAME line N: ...").
func ReadSWIMRows(r io.Reader, name string) ([]SWIMRow, error) {
	var rows []SWIMRow
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		row, err := parseSWIMRow(text)
		if err != nil {
			return nil, fmt.Errorf("read %s line %d: %w", name, line, err)
		}
		rows = append(rows, SWIMRow{ID: row.id, SubmitS: row.submitS, InputBytes: row.input,
			ShuffleBytes: row.shuffle, OutputBytes: row.outputRed, Line: line})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s line %d: %w", name, line+1, err)
	}
	return rows, nil
}

// TaskCounts returns the maps and reduces the model gives a row.
func (m SWIMModel) TaskCounts(row SWIMRow) (maps, reduces int64) {
	return m.taskCounts(swimRow{input: row.InputBytes, shuffle: row.ShuffleBytes})
}

// JobOf derives one row's Job as ReadSWIMFrom does; seq numbers its tasks
// and source names the trace. It fails on an invalid model or a row over
// the map limit.
func (m SWIMModel) JobOf(row SWIMRow, seq int, source string) (*Job, error) {
	r, err := m.checkRow(row, source)
	if err != nil {
		return nil, err
	}
	return m.job(r, seq, source), nil
}

// checkRow checks the model and the row's map count (JobOf's errors).
func (m SWIMModel) checkRow(row SWIMRow, source string) (swimRow, error) {
	if err := m.validate(); err != nil {
		return swimRow{}, fmt.Errorf("read %s: SWIM model: %w", source, err)
	}
	r := swimRow{id: row.ID, submitS: row.SubmitS, input: row.InputBytes, shuffle: row.ShuffleBytes, outputRed: row.OutputBytes}
	if maps, _ := m.taskCounts(r); maps > swimMaxTasks {
		return swimRow{}, fmt.Errorf("read %s line %d: %d bytes of input would make %d maps, over the limit of %d (a corrupt row?)", source, row.Line, row.InputBytes, maps, swimMaxTasks)
	}
	return r, nil
}

// EachTask calls f with each task JobOf would derive from row, maps then
// reduces in index order: its type, input bytes and work (the run time of
// its one attempt, ms), without building the Job, its ids and counters (a
// streamed replay derives a day's millions of tasks this way). It fails as
// JobOf does.
func (m SWIMModel) EachTask(row SWIMRow, source string, f func(typ TaskType, inputBytes, workMs int64)) error {
	r, err := m.checkRow(row, source)
	if err != nil {
		return err
	}
	m.eachTask(r, func(typ TaskType, _, in, _, dur int64) { f(typ, in, dur) })
	return nil
}
