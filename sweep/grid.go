package sweep

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/specbridge/specbridge/replay"
)

// Setup is what every cell of a grid shares: the replay options besides
// policy, parameters and seed. The zero value of a field means replay's
// default, as the matching replay flag left out does.
type Setup struct {
	// Format is jhist, rumen, swim or scenario; "" detects it.
	Format string `json:"format,omitempty"`
	// Nodes and Slots re-execute histories on that cluster (not scenarios).
	Nodes int `json:"nodes,omitempty"`
	Slots int `json:"slots,omitempty"`
	// Scheduler is fifo or fair; "" keeps the input's.
	Scheduler string `json:"scheduler,omitempty"`
	// MaxJobs replays only the earliest-submitted jobs (0: all).
	MaxJobs int `json:"max_jobs,omitempty"`
	// Stragglers is the straggler model for inputs without attempt times.
	Stragglers Stragglers `json:"stragglers"`
}

// Stragglers is replay.StragglerModel with names for the cell's JSON.
type Stragglers struct {
	Off              bool    `json:"off,omitempty"`
	TailFraction     float64 `json:"tail_fraction"`
	TailShape        float64 `json:"tail_shape"`
	TailMin          float64 `json:"tail_min"`
	TailCap          float64 `json:"tail_cap"`
	SlowNodeFraction float64 `json:"slow_node_fraction"`
	SlowNodeFactor   float64 `json:"slow_node_factor"`
}

// StragglersOf converts replay's straggler model.
func StragglersOf(m replay.StragglerModel) Stragglers {
	return Stragglers{Off: m.Off, TailFraction: m.TailFraction, TailShape: m.TailShape, TailMin: m.TailMin,
		TailCap: m.TailCap, SlowNodeFraction: m.SlowNodeFraction, SlowNodeFactor: m.SlowNodeFactor}
}

// Model converts back to replay's straggler model.
func (s Stragglers) Model() replay.StragglerModel {
	return replay.StragglerModel{Off: s.Off, TailFraction: s.TailFraction, TailShape: s.TailShape, TailMin: s.TailMin,
		TailCap: s.TailCap, SlowNodeFraction: s.SlowNodeFraction, SlowNodeFactor: s.SlowNodeFactor}
}

// Cell is one simulation of a grid. Its JSON form, on one line, is what
// `specbridge sweep --cells` prints and `--cell LINE` runs.
type Cell struct {
	// Index is the cell's place in the grid: rows are ordered by it.
	Index int `json:"cell"`
	// Input is the input as named on the command line: the row's input.
	Input string `json:"input"`
	// File is where to read Input when it is not at Input: a YARN
	// mapper's shipped copy. "" reads Input.
	File   string `json:"file,omitempty"`
	Policy string `json:"policy"`
	// Params are the policy's parameter values by name (defaults for the
	// rest).
	Params map[string]string `json:"params,omitempty"`
	Seed   uint64            `json:"seed"`
	Setup
}

// Line is the cell as one line of JSON (no newline).
func (c Cell) Line() (string, error) {
	b, err := json.Marshal(c)
	if err != nil {
		return "", fmt.Errorf("cell %d: %w", c.Index, err)
	}
	return string(b), nil
}

// ParseCell reads a cell line; unknown fields are an error, so that a line
// from a newer specbridge does not run as something else.
func ParseCell(line string) (Cell, error) {
	var c Cell
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return Cell{}, fmt.Errorf("cell line %.80q: %w", line, err)
	}
	if dec.More() {
		return Cell{}, fmt.Errorf("cell line %.80q: more than one JSON value", line)
	}
	if c.Input == "" || c.Policy == "" {
		return Cell{}, fmt.Errorf("cell line %.80q: no input or no policy", line)
	}
	if c.Index < 0 {
		return Cell{}, fmt.Errorf("cell line %.80q: negative cell index", line)
	}
	return c, nil
}

// ParamFlags is the cell's parameters as replay's --param values
// (POLICY.NAME=VALUE), sorted by name.
func (c Cell) ParamFlags() []string {
	out := make([]string, 0, len(c.Params))
	for _, name := range sortedKeys(c.Params) {
		out = append(out, c.Policy+"."+name+"="+c.Params[name])
	}
	return out
}

// ParamsText is the row's params column: NAME=VALUE pairs sorted by name,
// separated by ";", "" for the policy's defaults.
func (c Cell) ParamsText() string {
	var b strings.Builder
	for i, name := range sortedKeys(c.Params) {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(name + "=" + c.Params[name])
	}
	return b.String()
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Axis is one swept parameter of one policy and its values, in the order
// given.
type Axis struct {
	Name   string
	Values []string
}

// Grid is a sweep: every input x policy x combination of the policy's axes
// x seed.
type Grid struct {
	Inputs   []string
	Policies []string
	// Axes holds each policy's swept parameters, in the order given; a
	// policy without axes runs once per seed, with its defaults.
	Axes map[string][]Axis
	// Seeds are the seeds of every combination, in order.
	Seeds []uint64
	Setup Setup
}

// ParseAxes reads --param values of the form POLICY.NAME=V1,V2,... into
// axes per policy, in the order given. Values are split at commas; a comma
// inside a value is written "\,". Whether a policy and parameter exist is the
// caller's to check (it holds the registry); a parameter given twice is an
// error here.
func ParseAxes(flags []string) (map[string][]Axis, error) {
	out := map[string][]Axis{}
	for _, f := range flags {
		key, list, ok := strings.Cut(f, "=")
		policy, name, ok2 := strings.Cut(key, ".")
		if !ok || !ok2 || policy == "" || name == "" {
			return nil, fmt.Errorf("--param %q: want POLICY.NAME=VALUE[,VALUE...], e.g. late.speculative-cap=0.1,0.2", f)
		}
		for _, a := range out[policy] {
			if a.Name == name {
				return nil, fmt.Errorf("--param %s: %s.%s is given twice; list its values in one --param, separated by commas", f, policy, name)
			}
		}
		values := splitValues(list)
		seen := map[string]bool{}
		for _, v := range values {
			if seen[v] {
				return nil, fmt.Errorf("--param %s: value %q is listed twice", f, v)
			}
			seen[v] = true
		}
		out[policy] = append(out[policy], Axis{Name: name, Values: values})
	}
	return out, nil
}

// splitValues splits at commas not escaped as "\,".
func splitValues(list string) []string {
	var out []string
	var cur strings.Builder
	for i := 0; i < len(list); i++ {
		switch {
		case list[i] == '\\' && i+1 < len(list) && list[i+1] == ',':
			cur.WriteByte(',')
			i++
		case list[i] == ',':
			out = append(out, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(list[i])
		}
	}
	return append(out, cur.String())
}

// Cells lists the grid's cells in row order: input-major, then policy (in
// the order given), then the policy's parameter combinations (the last axis
// varying fastest), then seed.
func (g Grid) Cells() []Cell {
	var cells []Cell
	for _, in := range g.Inputs {
		for _, policy := range g.Policies {
			for _, combo := range combinations(g.Axes[policy]) {
				for _, seed := range g.Seeds {
					cells = append(cells, Cell{Index: len(cells), Input: in, Policy: policy, Params: combo, Seed: seed, Setup: g.Setup})
				}
			}
		}
	}
	return cells
}

// combinations lists every assignment of one value per axis, the last axis
// varying fastest; one empty assignment without axes.
func combinations(axes []Axis) []map[string]string {
	out := []map[string]string{nil}
	for _, a := range axes {
		var next []map[string]string
		for _, prev := range out {
			for _, v := range a.Values {
				m := make(map[string]string, len(prev)+1)
				for k, x := range prev {
					m[k] = x
				}
				m[a.Name] = v
				next = append(next, m)
			}
		}
		out = next
	}
	return out
}
