package history

import (
	"io"
	"strconv"
	"strings"
	"testing"
)

// badInput is a malformed input and where its reader must say it is wrong.
type badInput struct {
	name, in string
	line     int
	want     string
}

// checkBadInputs reads each case with read, as the file file, and wants an
// error that starts "read FILE line N: " and contains the case's want.
func checkBadInputs(t *testing.T, file string, read func(r io.Reader, file string) error, cases []badInput) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := read(strings.NewReader(c.in), file)
			if err == nil {
				t.Fatal("no error")
			}
			prefix := "read " + file + " line " + strconv.Itoa(c.line) + ": "
			if !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q, want prefix %q and %q", err, prefix, c.want)
			}
		})
	}
}
