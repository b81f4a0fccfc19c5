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
	// Reason is the reason in words. A policy that may give thousands of
	// decisions in one Decide sets Why instead, formatted only where a
	// decision is shown: read the reason with ReasonText.
	Reason string
	Why    Why
	// Resume (Speculate only) makes the new attempts resume from the byte
	// offset that attempt From of the same task had reached when the
	// decision was made, instead of starting at the beginning of the split
	// (Speculative-Resume, SRQuant/LASER paper §III). Simulator only: live,
	// Hadoop cannot start an attempt at an offset, so the copies start from
	// zero and the policy's reason says so.
	Resume bool
	From   AttemptID
	// Member names the shipped policy whose rule made the decision when a
	// composite policy (auto) made it; empty otherwise. The bridge sends it
	// (the wire's "member") and the shim counts applied decisions per member
	// in the job's "specbridge auto member" counters.
	Member string
}

// ReasonText is the decision's reason in words: Reason, else Why formatted.
func (d Decision) ReasonText() string {
	if d.Reason != "" || d.Why.Format == "" {
		return d.Reason
	}
	return d.Why.String()
}

// Why is a reason kept as a fmt format and up to four numbers, formatted
// only when it is read (Decision.ReasonText). Building one costs no
// formatting and no allocation, so a policy's Decide over ten thousand
// running tasks stays cheap; logs, the wire and the replay report format
// the reasons of the decisions they show. Build it with Because and the
// F (float64) and I (integer) methods, one per verb of the format, in
// order; arguments past the fourth are dropped.
type Why struct {
	Format string
	Args   [4]float64
	// N is the number of arguments; bit i of Ints marks argument i as an
	// integer (formatted as an int64, for %d).
	N, Ints uint8
}

// Because starts a Why with its format.
func Because(format string) Why { return Why{Format: format} }

// F adds a float64 argument.
func (w Why) F(x float64) Why {
	if int(w.N) < len(w.Args) {
		w.Args[w.N] = x
		w.N++
	}
	return w
}

// I adds an integer argument (exact up to 2^53).
func (w Why) I(x int) Why {
	if int(w.N) < len(w.Args) {
		w.Ints |= 1 << w.N
		w.Args[w.N] = float64(x)
		w.N++
	}
	return w
}

// String formats the reason.
func (w Why) String() string {
	var args [len(Why{}.Args)]any
	for i := range int(w.N) {
		if w.Ints&(1<<i) != 0 {
			args[i] = int64(w.Args[i])
		} else {
			args[i] = w.Args[i]
		}
	}
	return fmt.Sprintf(w.Format, args[:w.N]...)
}

func (d Decision) String() string {
	switch d.Kind {
	case Speculate:
		c := d.Copies
		if c < 1 {
			c = 1
		}
		if d.Resume {
			return fmt.Sprintf("speculate %s x%d resuming from %s: %s", d.Task, c, d.From, d.ReasonText())
		}
		return fmt.Sprintf("speculate %s x%d: %s", d.Task, c, d.ReasonText())
	case Kill, Rerun:
		return fmt.Sprintf("%s %s: %s", d.Kind, d.Attempt, d.ReasonText())
	default:
		return fmt.Sprintf("%s %s: %s", d.Kind, d.Task, d.ReasonText())
	}
}
