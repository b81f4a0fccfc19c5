package spectest

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/specbridge/specbridge/speculators"
)

// job builds a fresh harness: "job policy=NAME maps=N reduces=N slots=N
// input=BYTES[,BYTES...] reduce-input=... deadline=SEC error=E start=SEC
// resume=yes|no slot-pools=yes|no capacity=TOTAL,FREE seed=N id=ID POLICY.PARAM=VALUE ...".
// capacity is the cluster's containers as the ResourceManager reports them
// live (JobInfo.Capacity): TOTAL in all, FREE of them free.
func (s *script) job(a *args) error {
	var j Job
	var ok bool
	if j.Policy, ok = a.str("policy"); !ok {
		return fmt.Errorf("job: missing policy=NAME")
	}
	var err error
	ints := []struct {
		key string
		dst *int
	}{{"maps", &j.Info.Maps}, {"reduces", &j.Info.Reduces}, {"slots", &j.Info.Slots}}
	for _, f := range ints {
		if *f.dst, _, err = a.int(f.key); err != nil {
			return err
		}
	}
	if seed, ok, err := a.int("seed"); err != nil {
		return err
	} else if ok {
		j.Seed = uint64(seed)
	}
	if id, ok := a.str("id"); ok {
		j.Info.ID = id
	}
	if j.Info.MapInputBytes, err = sizes(a, "input", j.Info.Maps); err != nil {
		return err
	}
	if j.Info.ReduceInputBytes, err = sizes(a, "reduce-input", j.Info.Reduces); err != nil {
		return err
	}
	for key, dst := range map[string]*speculators.Time{"deadline": &j.Info.Deadline, "start": &j.Info.Start} {
		f, _, err := a.float(key)
		if err != nil {
			return err
		}
		*dst = Sec(f)
	}
	if j.Info.ErrorBound, _, err = a.float("error"); err != nil {
		return err
	}
	taskS, _, err := a.float("task-s")
	if err != nil {
		return err
	}
	j.Info.TaskMillis = float64(Sec(taskS))
	if j.Info.TailIndex, _, err = a.float("tail"); err != nil {
		return err
	}
	if c, ok := a.str("capacity"); ok {
		t, f, found := strings.Cut(c, ",")
		total, err1 := strconv.Atoi(t)
		free, err2 := strconv.Atoi(f)
		if !found || err1 != nil || err2 != nil || total <= 0 || free < 0 || free > total {
			return fmt.Errorf("job: capacity=%q is not TOTAL,FREE with 0 <= FREE <= TOTAL, TOTAL > 0", c)
		}
		j.Info.Capacity = func() (int, int, bool) { return total, free, true }
	}
	for _, f := range []struct {
		key string
		to  *bool
	}{{"resume", &j.Info.Resume}, {"slot-pools", &j.Info.SlotPools}, {"job-order", &j.Info.JobOrder}} {
		if r, ok := a.str(f.key); ok {
			if r != "yes" && r != "no" {
				return fmt.Errorf("job: %s=%q is not yes or no", f.key, r)
			}
			*f.to = r == "yes"
		}
	}
	for k, v := range a.kv {
		if a.used[k] {
			continue
		}
		name, isParam := strings.CutPrefix(k, j.Policy+".")
		if !isParam && !strings.Contains(k, ".") {
			return fmt.Errorf("job: unknown argument %s (a parameter is POLICY.NAME=VALUE)", k)
		}
		if j.Params == nil {
			j.Params = map[string]string{}
		}
		j.Params[name] = v
		a.used[k] = true
	}
	if j.Info.ID == "" {
		j.Info.ID = "job_test_0001"
	}
	switch {
	case len(s.runtimes) > 0:
		j.Prior = Records{Tails: s.tails, Runtimes: s.runtimes}
		s.tails, s.runtimes = nil, nil
	case len(s.tails) > 0:
		j.Prior, s.tails = Tails(s.tails), nil
	}
	e, err := s.reg.NewEngineWith(j.Info, j.Policy, j.Params, max(j.Seed, 1), j.Prior)
	if err != nil {
		return err
	}
	s.h = newHarness(s.t, e, j)
	return nil
}

// yearSeconds bounds a deadline record's deadline.
const yearSeconds = 365 * 24 * 3600

// timeMarks names the deadline records that hold a time alone: the tail
// command's key for each, read (tail) and written (formatLearned) alike.
var timeMarks = []struct {
	key  string
	mark speculators.DeadlineMark
}{
	{"deadline", speculators.MarkDeadline},
	{"bound", speculators.MarkBoundAhead},
	{"lost-output", speculators.MarkOutputLost},
	{"reduces-built", speculators.MarkReducesBuilt},
	{"node-failed", speculators.MarkNodeFailed},
	{"node-resumed", speculators.MarkNodeResumed},
}

// tail queues an earlier job's fit for the next job command (speculators.TailFit):
// a map record "tail maps=N sigma=S [slow=F] [upper=U] [copied=C wins=W]
// [lost=L paced=P]" (rule v38: lost map copies, P of them at their
// originals' pace, P at most L) or a reduce
// record "tail reduces=R rslow=F [rsigma=S] [copied=C wins=W] [ratio=X]" (rules v8, v9
// and v14: a reduce record's copied and wins count its reduces; rule v39:
// X the reduce time after the maps over the map phase, in [0,
// speculators.MaxReduceRatio]; "tail reduces=1 ratio=X", below 6 reduces,
// is a record of the ratio alone). maps and sigma are required in
// a map record; maps is a count of 1 to speculators.MaxJobTasks, sigma a
// number in [0, speculators.MaxTailSigma], slow (default 0) a share in [0,
// 1], upper (default 0: none; rule v17) a number in [0,
// speculators.MaxTailSigma], wins at most copied; reduces is a count of 1 to
// speculators.MaxJobTasks, rslow a share in [0, 1] and rsigma (default 0:
// no spread) a number in [0, speculators.MaxTailSigma]; a deadline record
// "tail deadline=SEC" (rule v41: a job with that absolute deadline, in
// (0, a year] seconds, runs now) takes nothing else, nor does a bound
// record "tail bound=SEC" (rule v44: a job with an error bound was still
// short of it shortly before SEC; MarkBoundAhead), nor a lost-output
// record "tail lost-output=SEC" (rule v51: a job lost at SEC a map output a
// reducer had reported it could not fetch; MarkOutputLost), nor a node
// record "tail node-failed=SEC" or "tail node-resumed=SEC" (rule v69: a
// job was told at SEC that a node was declared failed, or back;
// MarkNodeFailed, MarkNodeResumed); a bound-copy
// record "tail bound-copies=SEC copied=C wins=W" (rule v52: a job with an
// error bound reached it at SEC, C of its done maps copied, W of them won
// by a copy; MarkBoundCopies) takes those two counts and nothing else; a
// bound-spread record "tail bound-spread=SEC maps=N sigma=S upper=U" (rule
// v56: a job with an error bound reached it at SEC, its N original maps
// then spread S, their upper half U; MarkBoundSpread) takes those three; a
// reduce-pool record "tail reduce-pool=SEC busy=B" (rule v67: a job was
// placed at SEC on slot pools whose reduce pool was B busy, in [0, 1];
// MarkReducePool) takes that one.
func (s *script) tail(a *args) error {
	var f speculators.TailFit
	for _, m := range timeMarks {
		k := m.key
		d, ok, err := a.float(k)
		if err == nil && !ok {
			continue
		}
		// A deadline record (auto's rule v41), a bound record (rule v44),
		// a lost-output record (rule v51), a reduces-built record (rule
		// v65) or a node record (rule v69): alone, a time in seconds.
		switch {
		case err != nil:
			return fmt.Errorf("tail: %w", err)
		case !(d > 0 && d <= yearSeconds):
			return fmt.Errorf("tail: %s=%g: want seconds in (0, %d]", k, d, yearSeconds)
		}
		if err := a.unused(); err != nil {
			return fmt.Errorf("tail: a %s record takes %s=SEC alone: %w", k, k, err)
		}
		s.tails = append(s.tails, speculators.TailFit{Deadline: Sec(d), Mark: m.mark})
		return nil
	}
	if d, ok, err := a.float("bound-copies"); err != nil || ok {
		// A bound-copy record (rule v52): its time and its copy counts.
		if err != nil {
			return fmt.Errorf("tail: %w", err)
		}
		copied, _, err := a.int("copied")
		if err != nil {
			return fmt.Errorf("tail: %w", err)
		}
		wins, _, err := a.int("wins")
		if err != nil {
			return fmt.Errorf("tail: %w", err)
		}
		if err := a.unused(); err != nil {
			return fmt.Errorf("tail: a bound-copies record takes bound-copies=SEC copied=C wins=W alone: %w", err)
		}
		f := speculators.TailFit{Mark: speculators.MarkBoundCopies, Copied: copied, CopyWins: wins}
		if d > 0 && d <= yearSeconds {
			f.Deadline = Sec(d)
		}
		if !f.Valid() {
			return fmt.Errorf("tail: bound-copies=%g copied=%d wins=%d: want seconds in (0, %d], copied in 1..%d, wins at most copied", d, copied, wins, yearSeconds, speculators.MaxJobTasks)
		}
		s.tails = append(s.tails, f)
		return nil
	}
	if d, ok, err := a.float("bound-spread"); err != nil || ok {
		// A bound-spread record (rule v56): its time and its maps' spread.
		if err != nil {
			return fmt.Errorf("tail: %w", err)
		}
		maps, _, err := a.int("maps")
		if err != nil {
			return fmt.Errorf("tail: %w", err)
		}
		sigma, _, err := a.float("sigma")
		if err != nil {
			return fmt.Errorf("tail: %w", err)
		}
		upper, _, err := a.float("upper")
		if err != nil {
			return fmt.Errorf("tail: %w", err)
		}
		if err := a.unused(); err != nil {
			return fmt.Errorf("tail: a bound-spread record takes bound-spread=SEC maps=N sigma=S upper=U alone: %w", err)
		}
		f := speculators.TailFit{Mark: speculators.MarkBoundSpread, Maps: maps, Sigma: sigma, Upper: upper}
		if d > 0 && d <= yearSeconds {
			f.Deadline = Sec(d)
		}
		if !f.Valid() {
			return fmt.Errorf("tail: bound-spread=%g maps=%d sigma=%g upper=%g: want seconds in (0, %d], maps in 1..%d, sigma and upper in [0, %g]", d, maps, sigma, upper, yearSeconds, speculators.MaxJobTasks, speculators.MaxTailSigma)
		}
		s.tails = append(s.tails, f)
		return nil
	}
	if d, ok, err := a.float("reduce-pool"); err != nil || ok {
		// A reduce-pool record (rule v67): a placement's time and its
		// reduce pool's busy fraction.
		if err != nil {
			return fmt.Errorf("tail: %w", err)
		}
		busy, _, err := a.float("busy")
		if err != nil {
			return fmt.Errorf("tail: %w", err)
		}
		if err := a.unused(); err != nil {
			return fmt.Errorf("tail: a reduce-pool record takes reduce-pool=SEC busy=B alone: %w", err)
		}
		f := speculators.TailFit{Mark: speculators.MarkReducePool, Sigma: busy}
		if d > 0 && d <= yearSeconds {
			f.Deadline = Sec(d)
		}
		if !f.Valid() {
			return fmt.Errorf("tail: reduce-pool=%g busy=%g: want seconds in (0, %d], busy in [0, 1]", d, busy, yearSeconds)
		}
		s.tails = append(s.tails, f)
		return nil
	}
	ints := []struct {
		key string
		to  *int
	}{{"maps", &f.Maps}, {"copied", &f.Copied}, {"wins", &f.CopyWins}, {"reduces", &f.Reduces}, {"lost", &f.Lost}, {"paced", &f.LostPaced}}
	floats := []struct {
		key string
		to  *float64
	}{{"sigma", &f.Sigma}, {"slow", &f.Slow}, {"rslow", &f.ReduceSlow}, {"rsigma", &f.ReduceSigma}, {"upper", &f.Upper}, {"ratio", &f.ReduceRatio}}
	set := map[string]bool{}
	for _, k := range ints {
		v, ok, err := a.int(k.key)
		if err != nil {
			return fmt.Errorf("tail: %w", err)
		}
		*k.to, set[k.key] = v, ok
	}
	for _, k := range floats {
		v, ok, err := a.float(k.key)
		if err != nil {
			return fmt.Errorf("tail: %w", err)
		}
		*k.to, set[k.key] = v, ok
	}
	switch {
	case set["ratio"] && !set["reduces"]:
		return fmt.Errorf("tail: ratio belongs to a reduce record (reduces=R ratio=X)")
	case set["rsigma"] && !set["reduces"]:
		return fmt.Errorf("tail: rsigma belongs to a reduce record (reduces=R rslow=F rsigma=S)")
	case set["reduces"] && (set["maps"] || set["sigma"] || set["upper"]):
		return fmt.Errorf("tail: a reduce record (reduces=R rslow=F) or a map record (maps=N sigma=S ...), not both")
	case !set["reduces"] && (!set["maps"] || !set["sigma"]):
		return fmt.Errorf("tail: want maps=N sigma=S [slow=F]")
	case set["reduces"] && !f.Valid():
		return fmt.Errorf("tail: reduces=%d rslow=%g rsigma=%g copied=%d wins=%d ratio=%g: want reduces in 1..%d, rslow in [0, 1], rsigma in [0, %g], wins at most copied and ratio in [0, %g] (alone below %d reduces)", f.Reduces, f.ReduceSlow, f.ReduceSigma, f.Copied, f.CopyWins, f.ReduceRatio, speculators.MaxJobTasks, speculators.MaxTailSigma, speculators.MaxReduceRatio, speculators.RatioOnlyReduces)
	case !f.Valid():
		copies := ""
		if set["copied"] || set["wins"] {
			copies = fmt.Sprintf(" copied=%d wins=%d (wins at most copied)", f.Copied, f.CopyWins)
		}
		if set["lost"] || set["paced"] {
			copies += fmt.Sprintf(" lost=%d paced=%d (paced at most lost)", f.Lost, f.LostPaced)
		}
		return fmt.Errorf("tail: maps=%d sigma=%g slow=%g%s: want maps in 1..%d, sigma in [0, %g] and slow in [0, 1]", f.Maps, f.Sigma, f.Slow, copies, speculators.MaxJobTasks, speculators.MaxTailSigma)
	}
	if err := a.unused(); err != nil {
		return fmt.Errorf("tail: %w", err)
	}
	s.tails = append(s.tails, f)
	return nil
}

// runtime queues an earlier job's completed task for the next job command,
// as the learned command prints it: "runtime map|reduce ms=N" (N above 0;
// speculators.RuntimeRecord, its input size unknown).
func (s *script) runtime(a *args) error {
	if len(a.words) != 1 {
		return fmt.Errorf("runtime: want map or reduce, then ms=N")
	}
	var ty speculators.TaskType
	switch a.words[0] {
	case "map":
		ty = speculators.Map
	case "reduce":
		ty = speculators.Reduce
	default:
		return fmt.Errorf("runtime: task type %q: want map or reduce", a.words[0])
	}
	ms, ok, err := a.float("ms")
	switch {
	case err != nil:
		return fmt.Errorf("runtime: %w", err)
	case !ok || !(ms > 0):
		return fmt.Errorf("runtime: want ms=N above 0")
	}
	if err := a.unused(); err != nil {
		return fmt.Errorf("runtime: %w", err)
	}
	s.runtimes = append(s.runtimes, speculators.RuntimeRecord{Type: ty, Ms: ms})
	return nil
}

// sizes reads a list of byte counts: n values, or one value for all n.
func sizes(a *args, key string, n int) ([]int64, error) {
	v, ok := a.str(key)
	if !ok {
		return nil, nil
	}
	parts := strings.Split(v, ",")
	if len(parts) != 1 && len(parts) != n {
		return nil, fmt.Errorf("%s: %d values for %d tasks", key, len(parts), n)
	}
	out := make([]int64, n)
	for i := range out {
		p := parts[0]
		if len(parts) == n {
			p = parts[i]
		}
		b, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
		if err != nil || b < 0 {
			return nil, fmt.Errorf("%s: %q is not a byte count", key, p)
		}
		out[i] = b
	}
	return out, nil
}

var phases = map[string]speculators.Phase{"map": speculators.PhaseMap, "shuffle": speculators.PhaseShuffle,
	"sort": speculators.PhaseSort, "reduce": speculators.PhaseReduce}

var nodeEvents = map[string]speculators.EventKind{"node-suspected": speculators.NodeSuspected,
	"node-failed": speculators.NodeFailed, "node-resumed": speculators.NodeResumed}

var endEvents = map[string]speculators.EventKind{"succeed": speculators.AttemptSucceeded,
	"fail": speculators.AttemptFailed, "kill": speculators.AttemptKilled}

// event reads an event command (see the package doc).
func (s *script) event(cmd string, a *args) (speculators.Event, error) {
	now, err := a.time()
	if err != nil {
		return speculators.Event{}, fmt.Errorf("%s: %w", cmd, err)
	}
	ev := speculators.Event{Time: now}
	if kind, ok := nodeEvents[cmd]; ok {
		ev.Kind = kind
		node, ok := a.str("node")
		if !ok {
			return ev, fmt.Errorf("%s: missing node=", cmd)
		}
		ev.Node = speculators.NodeID(node)
		return ev, nil
	}
	switch cmd {
	case "needs":
		return s.needs(a, ev)
	case "bounds":
		ev.Kind = speculators.JobBounds
		d, _, err := a.float("deadline")
		if err != nil {
			return ev, err
		}
		ev.Deadline = Sec(d)
		ev.ErrorBound, _, err = a.float("error")
		return ev, err
	}
	if len(a.words) == 0 {
		return ev, fmt.Errorf("%s: missing the attempt (m3, r0, m3.1)", cmd)
	}
	ev.Attempt, err = s.attempt(a.words[0], cmd == "start")
	if err != nil {
		return ev, fmt.Errorf("%s: %w", cmd, err)
	}
	if kind, ok := endEvents[cmd]; ok {
		ev.Kind = kind
		return ev, nil
	}
	switch cmd {
	case "start":
		return s.start(a, ev)
	case "progress":
		return s.progress(a, ev)
	}
	return ev, fmt.Errorf("unknown command %q", cmd)
}

func (s *script) needs(a *args, ev speculators.Event) (speculators.Event, error) {
	ev.Kind = speculators.ContainerNeeds
	for _, ty := range []speculators.TaskType{speculators.Map, speculators.Reduce} {
		n, ok, err := a.int(ty.String())
		if err != nil {
			return ev, err
		}
		if ok {
			ev.TaskType, ev.Count = ty, n
			return ev, nil
		}
	}
	return ev, fmt.Errorf("needs: want map=N or reduce=N")
}

func (s *script) start(a *args, ev speculators.Event) (speculators.Event, error) {
	ev.Kind = speculators.AttemptStarted
	node, ok := a.str("node")
	if !ok {
		return ev, fmt.Errorf("start: missing node=")
	}
	ev.Node = speculators.NodeID(node)
	ev.Container, _ = a.str("container")
	for _, w := range a.words[1:] {
		switch w {
		case "copy":
			ev.Speculative = true
		case "restated":
			ev.Restated = true
		default:
			return ev, fmt.Errorf("start: unknown word %q (copy, restated)", w)
		}
	}
	return ev, nil
}

// progress reads "progress t=SEC ATTEMPT SCORE [phase=P] [input-bytes=N]
// [output-bytes=N] [cpu-ms=N] [fetch-failed=m1,m2]".
func (s *script) progress(a *args, ev speculators.Event) (speculators.Event, error) {
	ev.Kind = speculators.AttemptStatus
	if len(a.words) != 2 {
		return ev, fmt.Errorf("progress: want ATTEMPT SCORE")
	}
	p, err := strconv.ParseFloat(a.words[1], 64)
	if err != nil {
		return ev, fmt.Errorf("progress: score %q is not a number", a.words[1])
	}
	ev.Progress = p
	if ev.Attempt.Task.Type == speculators.Reduce {
		ev.Phase = speculators.PhaseReduce
	}
	if ph, ok := a.str("phase"); ok {
		if ev.Phase, ok = phases[ph]; !ok {
			return ev, fmt.Errorf("progress: phase %q: want map, shuffle, sort or reduce", ph)
		}
	}
	counters := []struct {
		key string
		dst *int64
	}{{"input-bytes", &ev.Counters.InputBytes}, {"output-bytes", &ev.Counters.OutputBytes}, {"cpu-ms", &ev.Counters.CPUMillis}}
	for _, c := range counters {
		n, _, err := a.int(c.key)
		if err != nil {
			return ev, err
		}
		*c.dst = int64(n)
	}
	if ff, ok := a.str("fetch-failed"); ok {
		for name := range strings.SplitSeq(ff, ",") {
			t, err := ParseTask(strings.TrimSpace(name))
			if err != nil {
				return ev, fmt.Errorf("progress: fetch-failed: %w", err)
			}
			ev.FetchFailedMaps = append(ev.FetchFailedMaps, t)
		}
	}
	return ev, nil
}
