package replay

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/workload/scenario"
	"github.com/specbridge/specbridge/yarnclient/history"
)

// Each recorded job is replayed under its own configuration (issue 30):
// the keys below, read from its conf.xml beside the history or a Rumen
// trace's jobProperties (history.Job.Conf); a key the job's configuration
// does not hold is inferred from what the history proves, else Hadoop's
// default. Each setting keeps where it came from (conf, inferred,
// default), shown in --jobs and the report.
//
// Inference, when the key is not in the configuration:
//   - max attempts of a type: Hadoop's AM fails a task when its failed
//     attempts reach the limit, so a task of that type that FAILED after
//     k failed attempts proves the limit was k (the least such k is
//     taken); a task that failed k times and then succeeded proves it was
//     over k (taken when over the default 4). With no failed attempt the
//     default stands: the history proves nothing of it.
//   - task timeout: a failed attempt whose diagnostic is Hadoop's "Timed
//     out after N secs" (Hadoop 2) or "task timeout set: Ns, taskTimedOut:
//     true" (Hadoop 3) proves the timeout was N s (the least N). The
//     history keeps no finer figure: the attempt's recorded time is the
//     timeout plus up to one mapreduce.task.timeout.check-interval-ms,
//     so it bounds the timeout only from above, and the diagnostic's N is
//     the better of the two.
//
// What the simulator does with each:
//   - max attempts (mapreduce.map.maxattempts, mapreduce.reduce.maxattempts):
//     the job fails once a task of that type has failed that many times
//     (sim.Job.MaxAttempts, ReduceMaxAttempts).
//   - speculative per type (mapreduce.map.speculative,
//     mapreduce.reduce.speculative): off, the simulator launches no copy of
//     that type for any policy (sim.Job.NoSpeculate), as Hadoop's AM then
//     passes that type's events to no speculator.
//   - reduce slow-start (mapreduce.job.reduce.slowstart.completedmaps):
//     the job's own (sim.Job.ReduceSlowstart).
//   - mapreduce.job.speculative.* keys: the hadoop policy's parameters
//     for this job (over --param), as Hadoop's DefaultSpeculator reads
//     them from the job's configuration.
//   - specbridge.speculator and specbridge.<policy>.<param>: the policy
//     that ran on the live cluster, and its parameters, shown per job;
//     the parameters apply to that policy when it is replayed.
//   - the task timeout is shown; recorded attempts replay their recorded
//     times, so it changes no simulated time of a recorded job.
//   - container memory/vcores (mapreduce.map.memory.mb, ...cpu.vcores,
//     reduce alike) are shown; the replay's slots are the recorded hosts'
//     peak concurrency (cluster.go), which already holds them.

// Setting sources.
const (
	FromConf     = "conf"
	FromInferred = "inferred"
	FromDefault  = "default"
)

// jobKeys lists every key the replay reads, with its Hadoop 1 name where
// there is one (the later name wins when both are set).
var jobKeys = []struct{ key, old string }{
	{"mapreduce.map.maxattempts", "mapred.map.max.attempts"},
	{"mapreduce.reduce.maxattempts", "mapred.reduce.max.attempts"},
	{"mapreduce.task.timeout", "mapred.task.timeout"},
	{"mapreduce.map.speculative", "mapred.map.tasks.speculative.execution"},
	{"mapreduce.reduce.speculative", "mapred.reduce.tasks.speculative.execution"},
	{"mapreduce.job.reduce.slowstart.completedmaps", "mapred.reduce.slowstart.completed.maps"},
	{"mapreduce.map.memory.mb", ""},
	{"mapreduce.reduce.memory.mb", ""},
	{"mapreduce.map.cpu.vcores", ""},
	{"mapreduce.reduce.cpu.vcores", ""},
	{deadlineKey, ""},
}

// deadlineKey is the shim's deadline of an approximation job, in ms after
// the job's start (ShimConfig's GRASS_DEADLINE_MS): the job's deadline in
// replay (sim.Job.Deadline, from the job's simulated start, as the bridge
// takes it from the AM's), for the policies that read one (srquant, gs,
// grass) and PoCD. Only a configuration sets it; a history proves none.
const deadlineKey = "specbridge.grass.deadline-ms"

// readKey reports whether the replay reads key: one of jobKeys (or its
// Hadoop 1 name), a mapreduce.job.speculative.* key, or specbridge.*.
func readKey(key string) bool {
	for _, k := range jobKeys {
		if key == k.key || key == k.old {
			return true
		}
	}
	return strings.HasPrefix(key, "mapreduce.job.speculative.") || strings.HasPrefix(key, "specbridge.")
}

// hadoopDefaultMaxAttempts is Hadoop's default mapreduce.map.maxattempts
// and mapreduce.reduce.maxattempts.
const hadoopDefaultMaxAttempts = 4

// maxConfAttempts bounds a configured max attempts (a hostile value).
const maxConfAttempts = 1000

// jobSettings is what the replay takes from one job's configuration.
type jobSettings struct {
	maxAttempts [speculators.NumTaskTypes]int
	speculative [speculators.NumTaskTypes]bool
	slowstart   float64
	timeoutMs   int64
	deadlineMs  int64 // 0: none (deadlineKey)
	memoryMB    [speculators.NumTaskTypes]int64
	vcores      [speculators.NumTaskTypes]int64
	// from says where each key's value came from (jobKeys' key).
	from map[string]string
	// params are the job's policy parameters by policy: hadoop's from
	// mapreduce.job.speculative.* (Hadoop keys), and the policy named by
	// specbridge.speculator (policy) from specbridge.<policy>.<param>.
	params map[string]map[string]string
	policy string
	// ran is the policy that decided the job's speculation when it ran:
	// the configured specbridge.speculator (the shim's default, hadoop,
	// when unset) where the job loaded the shim as its speculator
	// (history.ShimSpeculatorKey), else Hadoop's own, RanPolicy.
	ran string
	// confFile names the configuration read ("" when none).
	confFile string
}

// defaultSettings are Hadoop 3's defaults (mapred-default.xml).
func defaultSettings() jobSettings {
	s := jobSettings{
		maxAttempts: [2]int{hadoopDefaultMaxAttempts, hadoopDefaultMaxAttempts},
		speculative: [2]bool{true, true},
		slowstart:   0.05,
		timeoutMs:   600000,
		memoryMB:    [2]int64{1024, 1024},
		vcores:      [2]int64{1, 1},
		from:        map[string]string{},
		ran:         RanPolicy,
	}
	for _, k := range jobKeys {
		s.from[k.key] = FromDefault
	}
	return s
}

// swimSettings are a SWIM row's: a SWIM trace holds no configuration.
var swimSettings = defaultSettings()

// readSettings reads j's settings: its configuration, then what its
// history proves, then Hadoop's defaults. A value that does not parse or
// is out of range is an error naming the configuration, line and key.
func readSettings(j *history.Job) (jobSettings, error) {
	s := defaultSettings()
	if j.Conf != nil {
		s.confFile = j.Conf.Source
	}
	for _, k := range jobKeys {
		key := k.key
		v, ok := j.Conf.Get(key)
		if !ok && k.old != "" {
			key = k.old
			v, ok = j.Conf.Get(key)
		}
		if !ok {
			continue
		}
		bad := func(want string) error {
			return fmt.Errorf("job %s: %s: %s = %.40q is not %s", j.ID, j.Conf.Where(key), key, v, want)
		}
		s.from[k.key] = FromConf
		switch k.key {
		case "mapreduce.map.maxattempts", "mapreduce.reduce.maxattempts":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > maxConfAttempts {
				return s, bad(fmt.Sprintf("an integer in 1..%d", maxConfAttempts))
			}
			s.maxAttempts[typeOfKey(k.key)] = n
		case "mapreduce.map.speculative", "mapreduce.reduce.speculative":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return s, bad("true or false")
			}
			s.speculative[typeOfKey(k.key)] = b
		case "mapreduce.job.reduce.slowstart.completedmaps":
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || !(f >= 0 && f <= 1) {
				return s, bad("a fraction in [0,1]")
			}
			s.slowstart = f
		case "mapreduce.task.timeout":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 || n > math.MaxInt32 {
				return s, bad("a time in ms")
			}
			s.timeoutMs = n
		case deadlineKey:
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 || n > int64(sim.MaxTime) {
				return s, bad("a time in ms")
			}
			s.deadlineMs = n
		case "mapreduce.map.memory.mb", "mapreduce.reduce.memory.mb", "mapreduce.map.cpu.vcores", "mapreduce.reduce.cpu.vcores":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < -1 || n > 1<<30 {
				return s, bad("an integer")
			}
			if strings.HasSuffix(k.key, "memory.mb") {
				s.memoryMB[typeOfKey(k.key)] = n
			} else {
				s.vcores[typeOfKey(k.key)] = n
			}
		}
	}
	s.readPolicies(j)
	s.infer(j)
	return s, nil
}

func typeOfKey(key string) speculators.TaskType {
	if strings.HasPrefix(key, "mapreduce.reduce.") {
		return speculators.Reduce
	}
	return speculators.Map
}

// readPolicies reads the job's mapreduce.job.speculative.* keys (the
// hadoop policy's parameters, by their Hadoop keys) and
// specbridge.speculator with its specbridge.<policy>.<param> keys. Values
// stay strings: the policy's registry parses and checks them when the job's
// engine is built (jobPolicyParams).
func (s *jobSettings) readPolicies(j *history.Job) {
	if p, ok := j.Conf.Get("specbridge.speculator"); ok && p != "" {
		s.policy = p
		s.from["specbridge.speculator"] = FromConf
	}
	s.ran = RanPolicy
	if c, _ := j.Conf.Get(history.ShimSpeculatorKey); strings.TrimSpace(c) == history.ShimSpeculatorClass && s.policy != "" {
		s.ran = s.policy
	}
	const hadoopPrefix = "mapreduce.job.speculative."
	for _, k := range j.Conf.Keys() {
		v, _ := j.Conf.Get(k)
		switch {
		case strings.HasPrefix(k, hadoopPrefix) && len(k) > len(hadoopPrefix):
			s.addParam(RanPolicy, k, v)
		case k == deadlineKey: // the job's deadline, not a parameter of grass
		case s.policy != "" && strings.HasPrefix(k, "specbridge."+s.policy+".") && len(k) > len("specbridge."+s.policy+"."):
			s.addParam(s.policy, strings.TrimPrefix(k, "specbridge."+s.policy+"."), v)
		}
	}
}

func (s *jobSettings) addParam(policy, key, v string) {
	if s.params == nil {
		s.params = map[string]map[string]string{}
	}
	if s.params[policy] == nil {
		s.params[policy] = map[string]string{}
	}
	s.params[policy][key] = v
}

// infer sets what the history proves of the keys its configuration did
// not hold (see the notes above).
func (s *jobSettings) infer(j *history.Job) {
	var failedAt, survived [speculators.NumTaskTypes]int // 0: none seen
	var timedOut int64                                   // ms; 0: none seen
	for i := range j.Tasks {
		t := &j.Tasks[i]
		ty := speculators.Map
		if t.Type == history.Reduce {
			ty = speculators.Reduce
		}
		failed := 0
		for _, a := range t.Attempts {
			if a.Status != history.Failed {
				continue
			}
			failed++
			if secs, ok := timedOutSecs(a.Error); ok && (timedOut == 0 || secs*1000 < timedOut) {
				timedOut = secs * 1000
			}
		}
		switch {
		case failed == 0:
		case t.Status == history.Failed:
			// The AM fails a task when its failed attempts reach the
			// limit: the limit is k.
			if failedAt[ty] == 0 || failed < failedAt[ty] {
				failedAt[ty] = failed
			}
		default:
			// The task ran on after k failures: the limit is over k.
			survived[ty] = max(survived[ty], failed+1)
		}
	}
	for ty, key := range [...]string{"mapreduce.map.maxattempts", "mapreduce.reduce.maxattempts"} {
		if s.from[key] == FromConf {
			continue
		}
		switch {
		case failedAt[ty] > 0:
			s.maxAttempts[ty] = min(failedAt[ty], maxConfAttempts)
			s.from[key] = FromInferred
		case survived[ty] > s.maxAttempts[ty]:
			s.maxAttempts[ty] = min(survived[ty], maxConfAttempts)
			s.from[key] = FromInferred
		}
	}
	if timedOut > 0 && s.from["mapreduce.task.timeout"] != FromConf {
		s.timeoutMs = timedOut
		s.from["mapreduce.task.timeout"] = FromInferred
	}
}

// timedOutSecs reads the timeout from a failed attempt's diagnostic as
// Hadoop's TaskHeartbeatHandler writes it: "Timed out after 5 secs"
// (Hadoop 2) or "task timeout set: 5s, taskTimedOut: true" (Hadoop 3).
func timedOutSecs(diag string) (int64, bool) {
	for _, f := range []struct{ mark, unit, also string }{
		{"Timed out after ", " sec", ""},
		{"task timeout set: ", "s,", "taskTimedOut: true"},
	} {
		i := strings.Index(diag, f.mark)
		if i < 0 || (f.also != "" && !strings.Contains(diag, f.also)) {
			continue
		}
		rest := diag[i+len(f.mark):]
		n := 0
		for n < len(rest) && n < 10 && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		secs, err := strconv.ParseInt(rest[:n], 10, 64)
		if err == nil && secs > 0 && strings.HasPrefix(rest[n:], f.unit) {
			return secs, true
		}
	}
	return 0, false
}

// apply sets the simulator job's settings.
func (s *jobSettings) apply(sj *sim.Job) {
	sj.MaxAttempts = s.maxAttempts[speculators.Map]
	sj.ReduceMaxAttempts = s.maxAttempts[speculators.Reduce]
	sj.NoSpeculate = [2]bool{!s.speculative[speculators.Map], !s.speculative[speculators.Reduce]}
	if s.from["mapreduce.job.reduce.slowstart.completedmaps"] == FromConf {
		f := s.slowstart
		sj.ReduceSlowstart = &f
	}
}

// deadline sets sj's deadline from its start, sj.Submit, once that is set.
func (s *jobSettings) deadline(sj *sim.Job) {
	if s.deadlineMs > 0 {
		sj.Deadline = sj.Submit + s.deadlineMs
	}
}

// Summary is the settings' one-line account: each key's value and where
// it came from, in jobKeys order, then the policy keys read.
func (s *jobSettings) Summary() string {
	var b strings.Builder
	add := func(name, v, key string) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%s(%s)", name, v, s.from[key])
	}
	add("map.maxattempts", strconv.Itoa(s.maxAttempts[0]), "mapreduce.map.maxattempts")
	add("reduce.maxattempts", strconv.Itoa(s.maxAttempts[1]), "mapreduce.reduce.maxattempts")
	add("task.timeout", strconv.FormatInt(s.timeoutMs, 10), "mapreduce.task.timeout")
	add("map.speculative", strconv.FormatBool(s.speculative[0]), "mapreduce.map.speculative")
	add("reduce.speculative", strconv.FormatBool(s.speculative[1]), "mapreduce.reduce.speculative")
	add("slowstart", strconv.FormatFloat(s.slowstart, 'g', -1, 64), "mapreduce.job.reduce.slowstart.completedmaps")
	if s.deadlineMs > 0 {
		add("deadline", strconv.FormatInt(s.deadlineMs, 10), deadlineKey)
	}
	if s.policy != "" {
		fmt.Fprintf(&b, " specbridge.speculator=%s(conf)", s.policy)
	}
	for _, p := range slices.Sorted(maps.Keys(s.params)) {
		fmt.Fprintf(&b, " %s:%s(conf)", p, paramString(s.params[p]))
	}
	return b.String()
}

// Source is the settings' overall source: conf when a configuration was
// read, else inferred when the history proved something, else default.
func (s *jobSettings) Source() string {
	if s.confFile != "" {
		return FromConf
	}
	for _, f := range s.from {
		if f == FromInferred {
			return FromInferred
		}
	}
	return FromDefault
}

func paramString(p map[string]string) string {
	keys := slices.Sorted(maps.Keys(p))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + p[k]
	}
	return strings.Join(parts, ",")
}

// jobPolicyParams is policy's parameters for recorded job id: the run's
// (--param) over the job's own from its configuration (jobconf.go) over the
// policy's defaults. --param wins: it is what the user asked of this run;
// the job's configuration is what ran. A configured key the policy does
// not declare is skipped (a Hadoop key no policy models); a bad value of a
// declared one is an error naming the job.
func (w *Workload) jobPolicyParams(reg *speculators.Registry, id, policy string, run map[string]string) (map[string]string, error) {
	own := w.jobParams[id][policy]
	if len(own) == 0 {
		return run, nil
	}
	pol, ok := reg.Lookup(policy)
	if !ok {
		return run, nil
	}
	out := make(map[string]string, len(own)+len(run))
	for k, v := range own {
		for _, spec := range pol.Params {
			if k == spec.Name || (spec.HadoopKey != "" && k == spec.HadoopKey) {
				if _, set := run[spec.Name]; !set && (spec.HadoopKey == "" || run[spec.HadoopKey] == "") {
					out[spec.Name] = v
				}
			}
		}
	}
	for k, v := range run {
		out[k] = v
	}
	if _, err := reg.Params(policy, out); err != nil {
		return nil, fmt.Errorf("job %s: its configured %s parameters: %w", id, policy, err)
	}
	return out, nil
}

// attachConf reads the configuration kept beside job j's history
// (history.ConfFileName in the same directory: a JobHistory done or
// intermediate directory keeps both) into j.Conf, through openSibling,
// which opens a file of the history's directory by its base name. None
// there is no error (the job replays on inferred and default settings); a
// bad one is, naming the file and line. A Rumen job's jobProperties, read
// with the trace, are kept.
func attachConf(j *history.Job, openSibling func(base string) (io.ReadCloser, error)) error {
	if j == nil || j.ID == "" || j.Conf != nil {
		return nil
	}
	base := history.ConfFileName(j.ID)
	f, err := openSibling(base)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("job %s: %s: %w", j.ID, base, err)
	}
	defer f.Close()
	name := base
	if j.Source != "" {
		name = siblingName(j.Source, base)
	}
	conf, err := history.ReadConf(f, name)
	if err != nil {
		return err
	}
	j.Conf = conf
	return nil
}

// siblingName names the file base beside the history file hist (a local
// path or an hdfs:// URL).
func siblingName(hist, base string) string {
	if i := strings.LastIndexByte(hist, '/'); i >= 0 {
		return hist[:i+1] + base
	}
	return base
}

// siblingOf opens files of src beside its file name.
func siblingOf(src Source, name string) func(string) (io.ReadCloser, error) {
	return func(base string) (io.ReadCloser, error) { return src.OpenSibling(name, base) }
}

// scenarioConf applies scenario job groups' conf: maps (read once per
// group) to their jobs.
type scenarioConf struct {
	s    *scenario.Scenario
	sets map[string]*jobSettings // by group
}

// apply sets sj's settings from its group's conf: map, if it has one: only
// the keys the map sets (a scenario job otherwise runs as before: no
// attempt limit, the cluster's slow-start), and its policy parameters.
func (sc *scenarioConf) apply(w *Workload, sj *sim.Job, j *scenario.Job) error {
	if len(j.Conf) == 0 {
		return nil
	}
	set, ok := sc.sets[j.Group]
	if !ok {
		line := 0
		for _, g := range sc.s.Workload.Jobs {
			if g.Name == j.Group {
				line = g.Line
			}
		}
		name := fmt.Sprintf("scenario %s line %d: job group %q conf", sc.s.Source, line, j.Group)
		for k := range j.Conf {
			if !readKey(k) {
				return fmt.Errorf("%s: key %.60q is not one the replay reads (docs/replay.md lists them)", name, k)
			}
		}
		c, err := history.ConfFromMap(name, j.Conf)
		if err != nil {
			return err
		}
		s, err := readSettings(&history.Job{ID: j.Group, Conf: c})
		if err != nil {
			return err
		}
		if sc.sets == nil {
			sc.sets = map[string]*jobSettings{}
		}
		set = &s
		sc.sets[j.Group] = set
	}
	if set.from["mapreduce.map.maxattempts"] == FromConf {
		sj.MaxAttempts = set.maxAttempts[speculators.Map]
	}
	if set.from["mapreduce.reduce.maxattempts"] == FromConf {
		sj.ReduceMaxAttempts = set.maxAttempts[speculators.Reduce]
	}
	sj.NoSpeculate = [2]bool{!set.speculative[speculators.Map], !set.speculative[speculators.Reduce]}
	if set.from["mapreduce.job.reduce.slowstart.completedmaps"] == FromConf {
		f := set.slowstart
		sj.ReduceSlowstart = &f
	}
	if len(set.params) > 0 {
		if w.jobParams == nil {
			w.jobParams = map[string]map[string]map[string]string{}
		}
		w.jobParams[sj.ID] = set.params
	}
	return nil
}
