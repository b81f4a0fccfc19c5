package history

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Format names a kind of input file.
type Format string

// The formats Detect recognises. FormatScenario is a specbridge scenario
// (YAML), which this package does not read.
const (
	FormatJhist    Format = "jhist"
	FormatRumen    Format = "rumen"
	FormatSWIM     Format = "swim"
	FormatScenario Format = "scenario"
)

// DetectBytes is how much of a file's start Detect needs to decide.
const DetectBytes = 4096

// Detect tells a file's format from its first bytes (head; DetectBytes
// are enough), not from its name, which is used only in the error:
//
//   - a first line "Avro-Json" or "Avro-Binary": jhist;
//   - a JSON object with a "jobID" or "mapTasks" key: rumen;
//   - YAML with a top-level key of a scenario ("cluster:", "workload:",
//     "name:", "description:", "reference:", "paper:", "faults:"):
//     scenario (a long description can push cluster: past the head);
//   - lines of six tab-separated columns, the last five numbers: swim.
func Detect(name string, head []byte) (Format, error) {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	text := bytes.TrimLeft(head, " \t\r\n")
	switch {
	case len(text) == 0:
		return "", fmt.Errorf("detect %s: the file is empty", name)
	case bytes.HasPrefix(text, []byte(jhistHeader)), bytes.HasPrefix(text, []byte(jhistBinaryHeader)):
		return FormatJhist, nil
	case rumenLooksLike(text):
		return FormatRumen, nil
	case scenarioLooksLike(head):
		return FormatScenario, nil
	case swimLooksLike(head):
		return FormatSWIM, nil
	}
	return "", fmt.Errorf("detect %s: not a job history (Avro-Json or Avro-Binary), Rumen trace, SWIM workload or scenario", name)
}

// completeLines returns head's lines, dropping a last line cut short by
// the head's end unless it is the only one.
func completeLines(head []byte) []string {
	lines := strings.Split(string(head), "\n")
	if len(lines) > 1 {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// scenarioLooksLike reports YAML with a top-level key of a scenario.
func scenarioLooksLike(head []byte) bool {
	lines := completeLines(head)
	if len(lines) == 1 && len(head) >= DetectBytes {
		lines = strings.SplitN(string(head), "\n", 2) // one long first line: its start says
	}
	for _, line := range lines {
		line = strings.TrimRight(line, "\r")
		for _, key := range []string{"cluster:", "workload:", "name:", "description:", "reference:", "paper:", "faults:"} {
			if rest, ok := strings.CutPrefix(line, key); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
				return true
			}
		}
	}
	return false
}

// swimLooksLike reports lines of six tab-separated columns whose last five
// are numbers.
func swimLooksLike(head []byte) bool {
	rows := 0
	for _, line := range completeLines(head) {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 6 {
			return false
		}
		for _, col := range cols[1:] {
			if _, err := strconv.ParseFloat(strings.TrimSpace(col), 64); err != nil {
				return false
			}
		}
		rows++
	}
	return rows > 0
}
