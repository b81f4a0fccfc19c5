package speculators

import "fmt"

// DecisionKind is what a policy asks the AM (or the simulator) to do.
type DecisionKind uint8

const (
	// Speculate launches Copies more attempts of Task.
	Speculate DecisionKind = iota
	// Kill kills Attempt.
	Kill
	// Rerun declares the output of a completed map attempt lost and runs the
	// map again (retrospective speculation).
	Rerun
	// Drop tells the job it does not need Task (approximation jobs).
	Drop
)

var decisionKindNames = [...]string{"speculate", "kill", "rerun", "drop"}

func (k DecisionKind) String() string { return kindName(decisionKindNames[:], int(k)) }

// Decision is one action with the policy's reason in words, for logs and for
// the replay report.
type Decision struct {
	Kind    DecisionKind
	Task    TaskID
	Attempt AttemptID // Kill, Rerun
	Copies  int       // Speculate; 0 is read as 1
	Reason  string
	// Resume (Speculate only) makes the new attempts resume from the byte
	// offset that attempt From of the same task had reached when the
	// decision was made, instead of starting at the beginning of the split
	// (Speculative-Resume, SRQuant/LASER paper §III). Simulator only: live,
	// Hadoop cannot start an attempt at an offset, so the copies start from
	// zero and the policy's reason says so.
	Resume bool
	From   AttemptID
}

func (d Decision) String() string {
	switch d.Kind {
	case Speculate:
		c := d.Copies
		if c < 1 {
			c = 1
		}
		if d.Resume {
			return fmt.Sprintf("speculate %s x%d resuming from %s: %s", d.Task, c, d.From, d.Reason)
		}
		return fmt.Sprintf("speculate %s x%d: %s", d.Task, c, d.Reason)
	case Kill, Rerun:
		return fmt.Sprintf("%s %s: %s", d.Kind, d.Attempt, d.Reason)
	default:
		return fmt.Sprintf("%s %s: %s", d.Kind, d.Task, d.Reason)
	}
}
