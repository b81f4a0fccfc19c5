package bridge

import (
	"errors"
	"fmt"
)

// MaxTime bounds every time a client sends (ms since the epoch on the AM's
// clock): the end of year 9999, past which policies' durations overflow.
const MaxTime = 253_402_300_799_999

// errInvalidFrame wraps the errors of well-formed JSON that a lenient
// decoder would take: a key given twice, invalid UTF-8, a time out of range.
var errInvalidFrame = errors.New("invalid frame")

// checkTimes refuses times outside [0, MaxTime], naming the field.
func checkTimes(cf *clientFrame) error {
	type field struct {
		p string
		t int64
	}
	out := func(t int64) bool { return t < 0 || t > MaxTime }
	fail := func(t int64, path string, args ...any) error {
		return fmt.Errorf("%w: %s: time %d out of range (want 0 to %d ms since the epoch)", errInvalidFrame, fmt.Sprintf(path, args...), t, int64(MaxTime))
	}
	for _, f := range [...]field{{"now", cf.Now}, {"start", cf.Start}, {"deadline", cf.Deadline}} {
		if out(f.t) {
			return fail(f.t, "%s", f.p)
		}
	}
	for i := range cf.Events {
		e := &cf.Events[i]
		if e.Time != nil && out(*e.Time) {
			return fail(*e.Time, "events[%d].time", i)
		}
		if out(e.Deadline) {
			return fail(e.Deadline, "events[%d].deadline", i)
		}
	}
	for i := range cf.Attempts {
		a := &cf.Attempts[i]
		for _, f := range [...]field{{"start", a.Start}, {"last_report", a.LastReport}, {"finish", a.Finish}} {
			if out(f.t) {
				return fail(f.t, "attempts[%d].%s", i, f.p)
			}
		}
	}
	return nil
}
