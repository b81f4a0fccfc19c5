package spectest

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/specbridge/specbridge/speculators"
)

// RunDir runs every test file under dir (a file or a directory, walked in
// name order) with the text format of the package doc, building engines
// from reg. Run it with -rewrite to regenerate the expected outputs.
func RunDir(t *testing.T, dir string, reg *speculators.Registry) {
	datadriven.Walk(t, dir, func(t *testing.T, path string) {
		RunFile(t, path, reg)
	})
}

// RunFile runs one test file (see RunDir).
func RunFile(t *testing.T, path string, reg *speculators.Registry) {
	datadriven.RunTest(t, path, (&script{reg: reg}).directive)
}

// RunString runs a script given as a string (for a test that keeps a short
// case beside its Go code).
func RunString(t *testing.T, input string, reg *speculators.Registry) {
	datadriven.RunTestFromString(t, input, (&script{reg: reg}).directive)
}

// directive runs one directive: its command, then its input's lines.
func (s *script) directive(t *testing.T, td *datadriven.TestData) string {
	s.t = t
	s.pos, s.at = td.Pos, td.Pos
	out, err := s.command(td.Cmd, td.CmdArgs)
	if err == nil && td.Input != "" {
		var more string
		more, err = s.lines(td.Input)
		out += more
	}
	if err != nil {
		return out + "error: " + err.Error() + "\n"
	}
	return out
}

// script is one file's state: the harness the latest job command built,
// and the earlier jobs' map-time spreads (tail lines) the next job command
// takes as its Prior.
type script struct {
	t     testing.TB
	reg   *speculators.Registry
	h     *Harness
	tails []speculators.TailFit
	// runtimes are earlier jobs' completed tasks (runtime lines) the next
	// job command takes into its Prior with the tails.
	runtimes []speculators.RuntimeRecord
	// pos is the current directive's file:line, at the command's (an
	// input line's is pos's line plus its place in the input).
	pos, at string
}

// posAt is the file:line n lines below pos ("file:line", datadriven's
// TestData.Pos); pos itself when it has no line.
func posAt(pos string, n int) string {
	i := strings.LastIndexByte(pos, ':')
	l, err := strconv.Atoi(pos[i+1:])
	if i < 0 || err != nil {
		return pos
	}
	return pos[:i+1] + strconv.Itoa(l+n)
}

// lines runs each non-empty, non-comment line of input as a command.
func (s *script) lines(input string) (string, error) {
	var b strings.Builder
	for i, line := range strings.Split(input, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		s.at = posAt(s.pos, i+1)
		cmd, args, err := datadriven.ParseLine(line)
		if err != nil {
			return b.String(), fmt.Errorf("input line %d: %w", i+1, err)
		}
		out, err := s.command(cmd, args)
		b.WriteString(out)
		if err != nil {
			return b.String(), fmt.Errorf("input line %d %q: %w", i+1, line, err)
		}
	}
	return b.String(), nil
}

// args reads a command's arguments: key=value pairs (a value list
// "a,b,c" or "(a, b, c)" as one comma-joined string) and bare words in
// order.
type args struct {
	kv    map[string]string
	words []string
	used  map[string]bool
}

func readArgs(in []datadriven.CmdArg) args {
	a := args{kv: map[string]string{}, used: map[string]bool{}}
	for _, c := range in {
		if len(c.Vals) == 0 {
			a.words = append(a.words, c.Key)
			continue
		}
		a.kv[c.Key] = strings.Join(c.Vals, ",")
	}
	return a
}

func (a *args) str(key string) (string, bool) {
	v, ok := a.kv[key]
	if ok {
		a.used[key] = true
	}
	return v, ok
}

func (a *args) float(key string) (float64, bool, error) {
	v, ok := a.str(key)
	if !ok {
		return 0, false, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, true, fmt.Errorf("%s=%s: not a number", key, v)
	}
	return f, true, nil
}

func (a *args) int(key string) (int, bool, error) {
	v, ok := a.str(key)
	if !ok {
		return 0, false, nil
	}
	i, err := strconv.Atoi(v)
	if err != nil {
		return 0, true, fmt.Errorf("%s=%s: not an integer", key, v)
	}
	return i, true, nil
}

// time reads t= in seconds (decimals allowed).
func (a *args) time() (speculators.Time, error) {
	f, ok, err := a.float("t")
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, fmt.Errorf("missing t=SECONDS")
	}
	return Sec(f), nil
}

func (a *args) unused() error {
	for k := range a.kv {
		if !a.used[k] {
			return fmt.Errorf("unknown argument %s", k)
		}
	}
	return nil
}

// ParseTask reads "m3" or "r0" (map 3, reduce 0).
func ParseTask(s string) (speculators.TaskID, error) {
	if len(s) < 2 || (s[0] != 'm' && s[0] != 'r') {
		return speculators.TaskID{}, fmt.Errorf("task %q: want m<index> or r<index>", s)
	}
	i, err := strconv.Atoi(s[1:])
	if err != nil || i < 0 {
		return speculators.TaskID{}, fmt.Errorf("task %q: want m<index> or r<index>", s)
	}
	if s[0] == 'm' {
		return Map(i), nil
	}
	return Reduce(i), nil
}

// attempt reads "m3" (the task's latest attempt; for start, its next) or
// "m3.1" (attempt 1 of map 3).
func (s *script) attempt(name string, next bool) (speculators.AttemptID, error) {
	taskPart, nPart, explicit := strings.Cut(name, ".")
	task, err := ParseTask(taskPart)
	if err != nil {
		return speculators.AttemptID{}, err
	}
	if explicit {
		n, err := strconv.Atoi(nPart)
		if err != nil || n < 0 {
			return speculators.AttemptID{}, fmt.Errorf("attempt %q: want TASK.N", name)
		}
		return speculators.AttemptID{Task: task, N: int32(n)}, nil
	}
	if next {
		return s.h.NextAttempt(task), nil
	}
	a, ok := s.h.Latest(task)
	if !ok {
		return speculators.AttemptID{}, fmt.Errorf("attempt %q: task has not started", name)
	}
	return a, nil
}

func (s *script) needJob() error {
	if s.h == nil {
		return fmt.Errorf("no job yet: start the file with a job command")
	}
	return nil
}

// command runs one command and returns its output.
func (s *script) command(cmd string, in []datadriven.CmdArg) (string, error) {
	a := readArgs(in)
	switch cmd {
	case "job":
		return "", s.job(&a)
	case "run":
		return "", a.unused()
	case "tail":
		if err := s.tail(&a); err != nil {
			return "", fmt.Errorf("%s: %w", s.at, err)
		}
		return "", nil
	case "runtime":
		if err := s.runtime(&a); err != nil {
			return "", fmt.Errorf("%s: %w", s.at, err)
		}
		return "", nil
	}
	if err := s.needJob(); err != nil {
		return "", err
	}
	var out string
	var err error
	switch cmd {
	case "decide":
		out, err = s.decide(&a)
	case "gate":
		out, err = s.gate(&a)
	case "choose":
		out, err = s.choose(&a)
	case "priority":
		out, err = s.priority(&a)
	case "place":
		out, err = s.place(&a)
	case "learned":
		out = formatLearned(s.h.Learned())
	case "why":
		out = s.why()
	default:
		var ev speculators.Event
		ev, err = s.event(cmd, &a)
		if err == nil {
			err = a.unused()
		}
		if err == nil {
			err = s.h.TryObserve(ev)
		}
		return "", err
	}
	if err == nil {
		err = a.unused()
	}
	return out, err
}

func (s *script) decide(a *args) (string, error) {
	now, err := a.time()
	if err != nil {
		return "", err
	}
	ds := s.h.Decide(now)
	var b strings.Builder
	fmt.Fprintf(&b, "t=%s", fmtSec(now))
	if len(ds) == 0 {
		b.WriteString(" none\n")
		return b.String(), nil
	}
	b.WriteString(":\n")
	for _, d := range ds {
		b.WriteString(FormatDecision(d))
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// timeNode reads t= and node=.
func (a *args) timeNode() (speculators.Time, string, error) {
	now, err := a.time()
	if err != nil {
		return 0, "", err
	}
	node, ok := a.str("node")
	if !ok {
		return 0, "", fmt.Errorf("missing node=")
	}
	return now, node, nil
}

func (s *script) gate(a *args) (string, error) {
	now, node, err := a.timeNode()
	if err != nil {
		return "", err
	}
	if s.h.Engine.AllowSpeculativeOn(speculators.NodeID(node), now) {
		return fmt.Sprintf("t=%s copy on %s: allowed\n", fmtSec(now), node), nil
	}
	return fmt.Sprintf("t=%s copy on %s: refused\n", fmtSec(now), node), nil
}

// place is the simulator's first placement of the job's tasks: "place
// t=T slots=S idle=I [reduce-slots=R reduce-idle=RI] [copies-running=C]"
// hands the policy the cluster view (ClusterView: the reduce pool on
// Hadoop 1 slot pools; C copies of other jobs running, which live a job
// sees only with the cluster's capacity, JobInfo.Copies; the job the one
// waiting, chi(l) of Xu and Lau §IV) as a Cloner's LaunchCopies, and
// prints how many attempts each task starts with (1 for a policy that does
// not clone).
func (s *script) place(a *args) (string, error) {
	now, err := a.time()
	if err != nil {
		return "", err
	}
	var v speculators.ClusterView
	for _, f := range []struct {
		key string
		to  *int
	}{{"slots", &v.Slots}, {"idle", &v.Idle}, {"reduce-slots", &v.ReduceSlots}, {"reduce-idle", &v.ReduceIdle}, {"copies-running", &v.SpeculativeRunning}} {
		n, _, err := a.int(f.key)
		if err != nil {
			return "", err
		}
		*f.to = n
	}
	if v.Slots <= 0 || v.Idle < 0 || v.Idle > v.Slots || v.ReduceSlots < 0 || v.ReduceSlots > v.Slots || v.ReduceIdle < 0 || v.ReduceIdle > v.ReduceSlots || v.ReduceIdle > v.Idle || v.SpeculativeRunning < 0 || v.SpeculativeRunning > v.Slots-v.Idle {
		return "", fmt.Errorf("place: want slots > 0, 0 <= idle <= slots, 0 <= reduce-idle <= reduce-slots <= slots, reduce-idle <= idle, 0 <= copies-running <= slots - idle")
	}
	job := s.h.Engine.Job
	v.Waiting = []speculators.JobSize{{Tasks: len(job.Tasks[speculators.Map]) + len(job.Tasks[speculators.Reduce]), TaskMillis: job.Info.TaskMillis, TailIndex: job.Info.TailIndex}}
	return fmt.Sprintf("t=%s attempts a task: %d\n", fmtSec(now), s.h.Engine.LaunchCopies(v, now)), nil
}

// priority prints the job's order on free slots (a JobPrioritizer's tier
// and key; the simulator gives a slot to the lowest), or "none" when the
// policy does not order jobs.
func (s *script) priority(a *args) (string, error) {
	now, err := a.time()
	if err != nil {
		return "", err
	}
	if !s.h.Engine.Prioritizes() {
		return fmt.Sprintf("t=%s priority: none\n", fmtSec(now)), nil
	}
	p := s.h.Engine.JobPriority(now)
	return fmt.Sprintf("t=%s priority: tier %d key %.0f\n", fmtSec(now), p.Tier, p.Key), nil
}

// why prints the policy's account of its choice (a Why method, as auto's,
// which names the rules that chose its member), or "why: none".
func (s *script) why() string {
	w, ok := s.h.Policy().(interface{ Why() string })
	if !ok {
		return "why: none\n"
	}
	return "why: " + w.Why() + "\n"
}

func (s *script) choose(a *args) (string, error) {
	now, node, err := a.timeNode()
	if err != nil {
		return "", err
	}
	// A script that offers a slot drives the job in pull mode from then on,
	// as the simulator does from the job's start.
	s.h.Engine.OfferSlots()
	task, cp, ok := s.h.Engine.ChooseForSlot(speculators.NodeID(node), now)
	switch {
	case !ok:
		return fmt.Sprintf("t=%s slot on %s: no choice\n", fmtSec(now), node), nil
	case cp:
		return fmt.Sprintf("t=%s slot on %s: copy of %s\n", fmtSec(now), node, task), nil
	default:
		return fmt.Sprintf("t=%s slot on %s: %s\n", fmtSec(now), node, task), nil
	}
}

// FormatDecision is a decision as the text format prints it:
// "speculate m_000001 copies=1: REASON" ("speculate m_000001 copies=2
// resume-from=m_000001_0: REASON" for Speculative-Resume),
// "kill m_000001_0: REASON", "rerun m_000002_0: REASON", "drop m_000003: REASON".
func FormatDecision(d speculators.Decision) string {
	switch d.Kind {
	case speculators.Speculate:
		if d.Resume {
			return fmt.Sprintf("speculate %s copies=%d resume-from=%s: %s", d.Task, d.Copies, d.From, d.ReasonText())
		}
		return fmt.Sprintf("speculate %s copies=%d: %s", d.Task, d.Copies, d.ReasonText())
	case speculators.Kill, speculators.Rerun:
		return fmt.Sprintf("%s %s: %s", d.Kind, d.Attempt, d.ReasonText())
	default:
		return fmt.Sprintf("%s %s: %s", d.Kind, d.Task, d.ReasonText())
	}
}

func fmtSec(t speculators.Time) string {
	return strconv.FormatFloat(float64(t)/1000, 'f', -1, 64)
}

func formatLearned(l speculators.Learned) string {
	if l.Empty() {
		return "nothing learned\n"
	}
	var b strings.Builder
	for _, r := range l.Runtimes {
		fmt.Fprintf(&b, "runtime %s ms=%s input=%d\n", r.Type, strconv.FormatFloat(r.Ms, 'f', -1, 64), r.InputBytes)
	}
	for _, f := range l.Tails {
		switch {
		case f.IsDeadline() && f.Mark == speculators.MarkBoundCopies:
			fmt.Fprintf(&b, "tail bound-copies=%s copied=%d wins=%d\n", fmtSec(f.Deadline), f.Copied, f.CopyWins)
		case f.IsDeadline() && f.Mark == speculators.MarkBoundSpread:
			fmt.Fprintf(&b, "tail bound-spread=%s maps=%d sigma=%.3f upper=%.3f\n", fmtSec(f.Deadline), f.Maps, f.Sigma, f.Upper)
		case f.IsDeadline() && f.Mark == speculators.MarkReducePool:
			fmt.Fprintf(&b, "tail reduce-pool=%s busy=%.3f\n", fmtSec(f.Deadline), f.Sigma)
		case f.IsDeadline():
			key := "deadline"
			for _, m := range timeMarks {
				if m.mark == f.Mark {
					key = m.key
				}
			}
			fmt.Fprintf(&b, "tail %s=%s\n", key, fmtSec(f.Deadline))
		default:
			fmt.Fprintf(&b, "tail maps=%d sigma=%.3f\n", f.Maps, f.Sigma)
		}
	}
	for _, x := range l.Samples {
		fmt.Fprintf(&b, "sample bucket=%d kind=%s algorithm=%s tasks=%d bound=%.3f utilisation=%.3f accuracy=%.3f curve=%d points\n",
			x.Bucket, x.Kind, x.Algorithm, x.Tasks, x.Bound, x.Utilisation, x.Accuracy, len(x.Curve))
	}
	return b.String()
}
