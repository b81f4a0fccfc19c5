package speculators

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
)

// ParamKind is the type of a policy parameter.
type ParamKind uint8

const (
	Float ParamKind = iota
	Int
	Bool
	String
)

func (k ParamKind) String() string {
	return [...]string{"float", "int", "bool", "string"}[k]
}

// ParamSpec declares one policy parameter. Default is a float64, int64, bool
// or string matching Kind. Doc cites the paper section or Hadoop key the
// default comes from.
type ParamSpec struct {
	Name    string
	Kind    ParamKind
	Default any
	Doc     string
	// HadoopKey is the Hadoop configuration key of the same knob, if any; it
	// is accepted as an alias of Name.
	HadoopKey string
}

// Params are a policy's effective parameter values.
type Params struct {
	Policy string
	specs  []ParamSpec
	values map[string]any
}

func (p Params) get(name string, kind ParamKind) any {
	v, ok := p.values[name]
	if !ok {
		// A policy asking for a parameter it did not declare is a bug in the
		// policy; returning the zero value keeps the process alive and the
		// policy's tests catch it.
		switch kind {
		case Float:
			return 0.0
		case Int:
			return int64(0)
		case Bool:
			return false
		default:
			return ""
		}
	}
	return v
}

// Float returns a float parameter.
func (p Params) Float(name string) float64 { v, _ := p.get(name, Float).(float64); return v }

// Int returns an integer parameter.
func (p Params) Int(name string) int64 { v, _ := p.get(name, Int).(int64); return v }

// Bool returns a boolean parameter.
func (p Params) Bool(name string) bool { v, _ := p.get(name, Bool).(bool); return v }

// String returns a string parameter.
func (p Params) String(name string) string { v, _ := p.get(name, String).(string); return v }

// Specs returns the declared parameters in declaration order.
func (p Params) Specs() []ParamSpec { return p.specs }

// Values returns "name=value" for every parameter in declaration order.
func (p Params) Values() []string {
	out := make([]string, 0, len(p.specs))
	for _, s := range p.specs {
		out = append(out, s.Name+"="+FormatParam(p.values[s.Name]))
	}
	return out
}

// Map returns the effective values keyed by name, formatted as strings.
func (p Params) Map() map[string]string {
	out := make(map[string]string, len(p.specs))
	for _, s := range p.specs {
		out[s.Name] = FormatParam(p.values[s.Name])
	}
	return out
}

// FormatParam formats a parameter value the way ParseParam reads it.
func FormatParam(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case int64:
		return strconv.FormatInt(x, 10)
	case bool:
		return strconv.FormatBool(x)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// ParseParam parses s as a value of kind.
func ParseParam(kind ParamKind, s string) (any, error) {
	s = strings.TrimSpace(s)
	switch kind {
	case Float:
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || f != f {
			return nil, fmt.Errorf("%q is not a number", s)
		}
		return f, nil
	case Int:
		i, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", s)
		}
		return i, nil
	case Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return nil, fmt.Errorf("%q is not true or false", s)
		}
		return b, nil
	default:
		return s, nil
	}
}

// Env is what a policy constructor may use besides its parameters.
type Env struct {
	// Rand is the policy's seeded random source; never nil.
	Rand *rand.Rand
	// Registry lets a composite policy build the policy it wraps.
	Registry *Registry
	// Prior is what earlier jobs taught, read only (nil: nothing), such as
	// GRASS's samples and its t_new prior. What a policy learns goes out
	// through Teacher (Engine.Learned), never into Prior: the driver owns
	// the knowledge, its snapshots and any I/O behind it (learned.go).
	Prior Prior
}

// Policy registers a speculator under a name.
type Policy struct {
	Name   string
	Doc    string // one line: what it is and where it comes from
	Params []ParamSpec
	New    func(p Params, env Env) (Speculator, error)
}

// Registry maps policy names to constructors. It is built explicitly (see
// package all), not by init side effects.
type Registry struct {
	policies []Policy
	byName   map[string]int
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{byName: map[string]int{}} }

// Add registers p; a duplicate name or a parameter default of the wrong kind
// is an error.
func (r *Registry) Add(p Policy) error {
	if p.Name == "" || p.New == nil {
		return fmt.Errorf("policy %q: name and constructor are required", p.Name)
	}
	if _, dup := r.byName[p.Name]; dup {
		return fmt.Errorf("policy %q registered twice", p.Name)
	}
	for _, s := range p.Params {
		if _, err := ParseParam(s.Kind, FormatParam(s.Default)); err != nil || !kindMatches(s.Kind, s.Default) {
			return fmt.Errorf("policy %s parameter %s: default %v is not a %s", p.Name, s.Name, s.Default, s.Kind)
		}
	}
	r.byName[p.Name] = len(r.policies)
	r.policies = append(r.policies, p)
	return nil
}

func kindMatches(k ParamKind, v any) bool {
	switch v.(type) {
	case float64:
		return k == Float
	case int64:
		return k == Int
	case bool:
		return k == Bool
	case string:
		return k == String
	}
	return false
}

// Names lists the registered policies in registration order.
func (r *Registry) Names() []string {
	out := make([]string, len(r.policies))
	for i, p := range r.policies {
		out[i] = p.Name
	}
	return out
}

// Lookup returns the policy registered as name.
func (r *Registry) Lookup(name string) (Policy, bool) {
	i, ok := r.byName[name]
	if !ok {
		return Policy{}, false
	}
	return r.policies[i], true
}

// Params resolves a policy's parameters: defaults, then overrides keyed by
// parameter name or Hadoop key. An unknown name or a bad value is an error
// that names both.
func (r *Registry) Params(name string, overrides map[string]string) (Params, error) {
	p, ok := r.Lookup(name)
	if !ok {
		return Params{}, fmt.Errorf("unknown speculator %q (known: %s)", name, strings.Join(r.Names(), ", "))
	}
	params := Params{Policy: name, specs: p.Params, values: make(map[string]any, len(p.Params))}
	for _, s := range p.Params {
		params.values[s.Name] = s.Default
	}
	keys := make([]string, 0, len(overrides))
	for k := range overrides {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		spec, ok := findSpec(p.Params, k)
		if !ok {
			return Params{}, fmt.Errorf("speculator %s has no parameter %q", name, k)
		}
		v, err := ParseParam(spec.Kind, overrides[k])
		if err != nil {
			return Params{}, fmt.Errorf("parameter %s.%s: %w", name, spec.Name, err)
		}
		params.values[spec.Name] = v
	}
	return params, nil
}

func findSpec(specs []ParamSpec, key string) (ParamSpec, bool) {
	for _, s := range specs {
		if s.Name == key || (s.HadoopKey != "" && s.HadoopKey == key) {
			return s, true
		}
	}
	return ParamSpec{}, false
}

// New builds policy name with the given overrides and seed and no prior.
func (r *Registry) New(name string, overrides map[string]string, seed uint64) (Speculator, Params, error) {
	return r.NewWith(name, overrides, seed, nil)
}

// NewWith builds policy name with the given overrides, seed and prior
// (Env.Prior; nil: none).
func (r *Registry) NewWith(name string, overrides map[string]string, seed uint64, prior Prior) (Speculator, Params, error) {
	params, err := r.Params(name, overrides)
	if err != nil {
		return nil, Params{}, err
	}
	p, _ := r.Lookup(name)
	env := Env{Rand: rand.New(rand.NewPCG(seed, 0x5eed5eed)), Registry: r, Prior: prior}
	s, err := p.New(params, env)
	if err != nil {
		return nil, Params{}, fmt.Errorf("speculator %s: %w", name, err)
	}
	return s, params, nil
}

// NewEngine builds an engine for one job running policy name, without a
// prior.
func (r *Registry) NewEngine(info JobInfo, name string, overrides map[string]string, seed uint64) (*Engine, error) {
	return r.NewEngineWith(info, name, overrides, seed, nil)
}

// NewEngineWith builds an engine for one job running policy name with what
// earlier jobs taught (prior; nil: nothing).
func (r *Registry) NewEngineWith(info JobInfo, name string, overrides map[string]string, seed uint64, prior Prior) (*Engine, error) {
	s, params, err := r.NewWith(name, overrides, seed, prior)
	if err != nil {
		return nil, err
	}
	return NewEngine(info, name, s, params)
}
