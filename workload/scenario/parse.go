package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// MaxBytes bounds a scenario file: the bundled ones are a few KB, and a
// trace given as a scenario by mistake must not be read whole.
const MaxBytes = 16 << 20

// Read parses and validates the scenario file at path.
func Read(path string) (*Scenario, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read scenario: %w", err)
	}
	defer f.Close()
	data, err := readAtMost(f, path)
	if err != nil {
		return nil, err
	}
	s, err := Parse(path, data)
	if err != nil {
		return nil, err
	}
	if err := s.LoadTraces(filepath.Dir(path)); err != nil {
		return nil, err
	}
	return s, nil
}

// ReadFrom parses a scenario from r; name is used in errors.
func ReadFrom(r io.Reader, name string) (*Scenario, error) {
	data, err := readAtMost(r, name)
	if err != nil {
		return nil, err
	}
	return Parse(name, data)
}

// readAtMost reads r whole, refusing more than MaxBytes.
func readAtMost(r io.Reader, name string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("read %s: over %d MiB, too large for a scenario (a trace? give its format)", name, MaxBytes>>20)
	}
	return data, nil
}

// Parse parses and validates scenario text; name is used in errors, which
// all read "read NAME line N: what is wrong".
func Parse(name string, data []byte) (*Scenario, error) {
	var root yaml.Node
	if yaml.Unmarshal(data, &root) == nil { // else Decode below says what is wrong
		if err := finiteNumbers(&root); err != nil {
			return nil, fmt.Errorf("read %s %w", name, err)
		}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var s Scenario
	if err := dec.Decode(&s); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("read %s line 1: empty scenario", name)
		}
		return nil, fmt.Errorf("read %s: %s", name, unknownTopField.ReplaceAllStringFunc(yamlMessage(err), func(m string) string {
			key := unknownTopField.FindStringSubmatch(m)[1]
			return fmt.Sprintf("unknown field %q%s", key, didYouMean(key, yamlKeys(reflect.TypeOf(s))))
		}))
	}
	s.Source = name
	if err := s.validate(); err != nil {
		return nil, fmt.Errorf("read %s %w", name, err)
	}
	return &s, nil
}

// finiteNumbers refuses YAML's .nan and .inf anywhere in the tree under n:
// no field of the format means them, and the simulator would turn them
// into times of 1 ms or overflowed ones.
func finiteNumbers(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!float" {
		var f float64
		if n.Decode(&f) == nil && (math.IsNaN(f) || math.IsInf(f, 0)) {
			return lineErr(n.Line, "%s is not a finite number", n.Value)
		}
	}
	for _, c := range n.Content {
		if err := finiteNumbers(c); err != nil {
			return err
		}
	}
	return nil
}

// yamlMessage turns yaml.v3's "yaml: line 3: ..." into "line 3: ...".
func yamlMessage(err error) string {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "yaml: ")
	msg = strings.ReplaceAll(msg, "unmarshal errors:\n  ", "")
	return strings.ReplaceAll(msg, "\n  ", "; ")
}

// decodeLined is every UnmarshalYAML of the format: it zeroes v, decodes n
// into it as decodeStrict does and records n's line in line. v is the
// value's twin without the method (rawDist for a *Dist, ...), so that the
// decoder does not call the method again.
func decodeLined[R any](n *yaml.Node, v *R, line *int) error {
	*v = *new(R)
	if err := decodeStrict(n, v); err != nil {
		return err
	}
	*line = n.Line
	return nil
}

// decodeStrict decodes a mapping node into v (a pointer to a struct),
// refusing keys the struct does not declare. yaml.v3 does not carry
// KnownFields into custom unmarshalers, so types that record their line
// check their keys here.
func decodeStrict(n *yaml.Node, v any) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: expected a mapping", n.Line)
	}
	keys := yamlKeys(reflect.TypeOf(v).Elem())
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if !slices.Contains(keys, k.Value) {
			return fmt.Errorf("line %d: unknown field %q%s", k.Line, k.Value, didYouMean(k.Value, keys))
		}
	}
	return n.Decode(v)
}

// unknownTopField is yaml.v3's KnownFields error, which names the Go type
// ("field workloads not found in type scenario.Scenario"): the top level's
// keys are checked by the decoder, the nested ones by decodeStrict, and
// both read `unknown field "x"`.
var unknownTopField = regexp.MustCompile(`field (\S+) not found in type \S+`)

// yamlKeys lists the YAML keys struct type t declares.
func yamlKeys(t reflect.Type) []string {
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		tag := strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0]
		if tag != "" && tag != "-" {
			keys = append(keys, tag)
		}
	}
	return keys
}

// didYouMean is ` (did you mean "x"?)` for the key nearest to got by edit
// distance, when it is at most a third of got's length (at least 1): a
// slip, not another word; otherwise the keys that are allowed.
func didYouMean(got string, keys []string) string {
	best, dist := "", -1
	for _, k := range keys {
		if d := editDistance(strings.ToLower(got), strings.ToLower(k)); dist < 0 || d < dist {
			best, dist = k, d
		}
	}
	if dist < 0 || dist > max(1, len(got)/3) {
		return fmt.Sprintf(" (known: %s)", strings.Join(keys, ", "))
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// editDistance is the Levenshtein distance between a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// The twins decodeLined decodes into: each type that records its line, without
// its UnmarshalYAML.
type (
	rawDist       Dist
	rawCluster    Cluster
	rawNodeGroup  NodeGroup
	rawWorkload   Workload
	rawJobGroup   JobGroup
	rawFault      Fault
	rawFaultModel FaultModel
	rawSWIMSource SWIMSource
)

// UnmarshalYAML records the line and refuses unknown keys.
func (d *Dist) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode { // a bare number is a constant
		var v float64
		if err := n.Decode(&v); err != nil {
			return fmt.Errorf("line %d: %q is neither a number nor a distribution", n.Line, n.Value)
		}
		*d = Dist{Kind: "constant", Value: v, Line: n.Line}
		return nil
	}
	return decodeLined(n, (*rawDist)(d), &d.Line)
}

// UnmarshalYAML records the line and refuses unknown keys.
func (c *Cluster) UnmarshalYAML(n *yaml.Node) error { return decodeLined(n, (*rawCluster)(c), &c.Line) }

// UnmarshalYAML records the line and refuses unknown keys.
func (g *NodeGroup) UnmarshalYAML(n *yaml.Node) error {
	return decodeLined(n, (*rawNodeGroup)(g), &g.Line)
}

// UnmarshalYAML records the line and refuses unknown keys.
func (w *Workload) UnmarshalYAML(n *yaml.Node) error {
	return decodeLined(n, (*rawWorkload)(w), &w.Line)
}

// UnmarshalYAML records the line and refuses unknown keys.
func (g *JobGroup) UnmarshalYAML(n *yaml.Node) error {
	return decodeLined(n, (*rawJobGroup)(g), &g.Line)
}

// UnmarshalYAML records the line and refuses unknown keys.
func (f *Fault) UnmarshalYAML(n *yaml.Node) error { return decodeLined(n, (*rawFault)(f), &f.Line) }

// maxConfKeys and maxConfLen bound a job group's conf: map (the replay
// reads a dozen keys and policy parameters).
const (
	maxConfKeys = 256
	maxConfLen  = 4096
)

func lineErr(line int, format string, args ...any) error {
	return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, args...))
}

func (s *Scenario) validate() error {
	c := &s.Cluster
	if len(c.Nodes) == 0 {
		return lineErr(max(c.Line, 1), "cluster has no nodes")
	}
	switch c.Scheduler {
	case "", "fifo", "fair":
	default:
		return lineErr(c.Line, "scheduler %q is not fifo or fair", c.Scheduler)
	}
	if c.HeartbeatS < 0 || c.TaskTimeoutS < 0 || c.HeartbeatS > maxSeconds || c.TaskTimeoutS > maxSeconds {
		return lineErr(c.Line, "heartbeat_s and task_timeout_s must be in [0, %g]", float64(maxSeconds))
	}
	if c.ReduceSlowstart != nil && (*c.ReduceSlowstart < 0 || *c.ReduceSlowstart > 1) {
		return lineErr(c.Line, "reduce_slowstart %g is not in [0,1]", *c.ReduceSlowstart)
	}
	names := map[string]bool{}
	slots := 0
	for i := range c.Nodes {
		g := &c.Nodes[i]
		if g.Count <= 0 || g.Count > maxNodes {
			return lineErr(g.Line, "node group %q: count must be in 1..%d", g.Name, maxNodes)
		}
		if g.Slots < 0 || g.MapSlots < 0 || g.ReduceSlots < 0 {
			return lineErr(g.Line, "node group %q: negative slots", g.Name)
		}
		if g.Slots == 0 && g.MapSlots == 0 && g.ReduceSlots == 0 {
			return lineErr(g.Line, "node group %q: needs slots, or map_slots and reduce_slots", g.Name)
		}
		if g.Slots > 0 && (g.MapSlots > 0 || g.ReduceSlots > 0) {
			return lineErr(g.Line, "node group %q: give slots or map_slots/reduce_slots, not both", g.Name)
		}
		// Each term is at most 3 * maxSlots * maxNodes: no overflow.
		if slots += g.Count * (min(g.Slots, maxSlots) + min(g.MapSlots, maxSlots) + min(g.ReduceSlots, maxSlots)); slots > maxSlots {
			return lineErr(g.Line, "node group %q: the cluster has over %d slots (count x slots, summed over the node groups)", g.Name, maxSlots)
		}
		if g.Slowdown < 0 || g.Slowdown > maxSlowdown {
			return lineErr(g.Line, "node group %q: slowdown %g is not in [0, %g]", g.Name, g.Slowdown, float64(maxSlowdown))
		}
		switch g.SlowdownAppliesTo {
		case "", SlowdownAll, SlowdownReduces:
		default:
			return lineErr(g.Line, "node group %q: slowdown_applies_to %q: want %q or %q", g.Name, g.SlowdownAppliesTo, SlowdownAll, SlowdownReduces)
		}
		if g.SlowdownDist != nil {
			if err := g.SlowdownDist.validate(); err != nil {
				return err
			}
		}
		if g.Name == "" {
			g.Name = "node"
		}
		if names[g.Name] {
			return lineErr(g.Line, "node group name %q used twice", g.Name)
		}
		names[g.Name] = true
	}
	if len(s.Workload.Jobs) == 0 {
		return lineErr(max(s.Workload.Line, 1), "workload has no jobs")
	}
	total := 0
	for i := range s.Workload.Jobs {
		g := &s.Workload.Jobs[i]
		if err := g.validate(); err != nil {
			return err
		}
		if g.SWIM != nil {
			continue // as many as the trace's rows give
		}
		maps := g.Maps
		if g.MapsDist != nil { // its largest draw, or for unbounded laws its mean
			maps = int(min(math.Round(g.MapsDist.MeanValue()), maxTasksInJob))
			if g.MapsDist.Kind == "uniform" {
				maps = int(math.Round(g.MapsDist.Max))
			}
		}
		// Each term is at most maxJobs * 2 * maxTasksInJob: no overflow.
		if total += g.Count * (maps + g.Reduces); total > maxTasks {
			return lineErr(g.Line, "job group %q: the workload has over %d tasks (count x (maps + reduces), summed over the job groups)", g.Name, maxTasks)
		}
	}
	for i := range s.Faults {
		if err := s.validateFault(&s.Faults[i]); err != nil {
			return err
		}
	}
	return s.Cluster.validateFaultModel()
}

func (g *JobGroup) validate() error {
	if err := g.validateApprox(); err != nil {
		return err
	}
	if len(g.Conf) > maxConfKeys {
		return lineErr(g.Line, "job group %q: conf has %d keys, over %d", g.Name, len(g.Conf), maxConfKeys)
	}
	for k, v := range g.Conf {
		if len(k) > maxConfLen || len(v) > maxConfLen {
			return lineErr(g.Line, "job group %q: conf key %.40q: key or value over %d bytes", g.Name, k, maxConfLen)
		}
	}
	if g.SWIM != nil {
		return g.validateSWIM()
	}
	if g.Count <= 0 || g.Count > maxJobs {
		return lineErr(g.Line, "job group %q: count must be in 1..%d", g.Name, maxJobs)
	}
	if g.Maps > maxTasksInJob || g.Reduces > maxTasksInJob {
		return lineErr(g.Line, "job group %q: more than %d tasks of a type", g.Name, maxTasksInJob)
	}
	if err := g.validateSizes(); err != nil {
		return err
	}
	if g.Maps < 0 || g.Reduces < 0 || (g.Maps+g.Reduces == 0 && g.MapsDist == nil) {
		return lineErr(g.Line, "job group %q: needs maps and/or reduces (got %d and %d)", g.Name, g.Maps, g.Reduces)
	}
	if (g.Maps > 0 || g.MapsDist != nil) && g.MapS == nil {
		return lineErr(g.Line, "job group %q: maps need map_s", g.Name)
	}
	if g.Reduces > 0 && g.ReduceS == nil {
		return lineErr(g.Line, "job group %q: reduces need reduce_s", g.Name)
	}
	for _, d := range []*Dist{g.InterArrivalS, g.MapS, g.ReduceS, g.TaskNoise, g.DeadlineS, g.ErrorBound} {
		if d != nil {
			if err := d.validate(); err != nil {
				return err
			}
		}
	}
	for _, d := range []*Dist{g.MapS, g.ReduceS} {
		if d != nil && d.Kind == "constant" && d.Value > maxWorkS {
			return lineErr(d.Line, "job group %q: task work %g s is over %g s (30 days; the simulator's longest)", g.Name, d.Value, float64(maxWorkS))
		}
	}
	if err := g.validateReducePhases(); err != nil {
		return err
	}
	switch g.CopyWork {
	case "", "same", "resample", "fresh":
	default:
		return lineErr(g.Line, "job group %q: copy_work %q is not same, resample or fresh", g.Name, g.CopyWork)
	}
	if g.AtS < 0 || g.MapInputMiB < 0 || g.AtS > maxSeconds || g.MapInputMiB > maxInputMiB {
		return lineErr(g.Line, "job group %q: at_s and map_input_mib must be in [0, %g] and [0, %g]", g.Name, float64(maxSeconds), float64(maxInputMiB))
	}
	return nil
}

// validateReducePhases checks reduce_phases, for synthetic and SWIM groups
// alike: three fractions (copy, sort, reduce), none negative, summing to 1.
func (g *JobGroup) validateReducePhases() error {
	if g.ReducePhases == nil {
		return nil
	}
	if len(g.ReducePhases) != 3 {
		return lineErr(g.Line, "job group %q: reduce_phases needs 3 fractions (copy, sort, reduce)", g.Name)
	}
	sum := 0.0
	for _, f := range g.ReducePhases {
		if f < 0 {
			return lineErr(g.Line, "job group %q: negative reduce phase", g.Name)
		}
		sum += f
	}
	if math.Abs(sum-1) > 1e-6 {
		return lineErr(g.Line, "job group %q: reduce_phases sum to %g, not 1", g.Name, sum)
	}
	return nil
}

func (s *Scenario) hasNode(name string) bool {
	for _, g := range s.Cluster.Nodes {
		if member(name, g.Name, g.Count) {
			return true
		}
	}
	return false
}

// member reports whether name is the name NodeName gives to one of the
// count members of group (nodes of a node group, jobs of a job group).
func member(name, group string, count int) bool {
	rest, ok := strings.CutPrefix(name, group+"-")
	if !ok {
		return false
	}
	k, err := strconv.Atoi(rest)
	return err == nil && k >= 1 && k <= count && NodeName(group, k) == name
}

// Limits on sizes, so that a typo cannot ask for a billion nodes.
const (
	maxNodes      = 100_000
	maxJobs       = 1_000_000
	maxTasksInJob = 1_000_000
	maxSumTerms   = 100_000
	// maxSlowdown bounds slowdowns (sim.MaxSlowdown).
	maxSlowdown = 1000
	// maxSlots bounds the cluster's slots (sim.MaxSlots).
	maxSlots = 1 << 24
	// maxTasks bounds the tasks of a whole workload (maps_dist counted at
	// its largest, or its mean when unbounded): a simulation's time grows
	// with them.
	maxTasks = 100_000_000
	// maxSeconds bounds times given in seconds (at_s, heartbeat_s,
	// task_timeout_s): 10 years, which time.Duration and the simulator's
	// ms hold with room to spare.
	maxSeconds = 10 * 365 * 24 * 3600
	// maxWorkS is the simulator's longest task work (sim.MaxWork), in s:
	// longer draws are truncated to it, a longer constant is refused.
	maxWorkS = 30 * 24 * 3600
	// maxInputMiB bounds map_input_mib (1 PiB), whose bytes are an int64.
	maxInputMiB = 1 << 30
)

// NodeName is the name of the i-th (from 1) node of a group.
func NodeName(group string, i int) string { return fmt.Sprintf("%s-%02d", group, i) }
