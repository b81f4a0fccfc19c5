package speculators

import (
	"fmt"
	"math"
)

// Bind registers a policy whose parameters are declared, read and checked in
// one place: bind gets a new policy P (a pointer to its zero T) and, for
// each parameter, calls one Binder method that names it, gives its default,
// its valid range and its doc, and points at the field it sets: each
// parameter is written once, not as a ParamSpec, a read in a constructor and
// a range check apart.
//
// bind runs once when the policy is registered, to list the parameters
// (values at their defaults, a zero Env; that policy is dropped), and once
// per construction, with the job's values; out-of-range values are then an
// error naming each. Work beyond setting fields, such as building a wrapped
// policy from Env.Registry, goes after a check of Binder.Ready, which is
// false while declaring and after an out-of-range value.
func Bind[T any, P interface {
	*T
	Speculator
}](name, doc string, bind func(b *Binder, p P)) Policy {
	decl := &Binder{}
	bind(decl, P(new(T)))
	return Policy{
		Name:   name,
		Doc:    doc,
		Params: decl.specs,
		New: func(v Params, env Env) (Speculator, error) {
			b := &Binder{params: &v, env: env}
			p := P(new(T))
			bind(b, p)
			if err := b.errs.Err(); err != nil {
				return nil, err
			}
			return p, nil
		},
	}
}

// Declare is Bind for a policy that needs nothing from its caller: it
// returns the function that registers the policy, so that a package
// declares its policy with its name, doc and parameters in one statement,
//
//	var Policy = speculators.Declare(Name, "doc", func(b *speculators.Binder, p *policy) {
//		b.Float(&p.x, "x", 0.5, speculators.Fraction, "what x is")
//	})
//
// and callers register it with Policy(), as they would a function that
// returned Bind's result: out-of-range values are an error naming each.
// Each call builds the Policy afresh.
func Declare[T any, P interface {
	*T
	Speculator
}](name, doc string, bind func(b *Binder, p P)) func() Policy {
	return func() Policy { return Bind(name, doc, bind) }
}

// Binder is what Bind hands a policy's bind function: it declares each
// parameter, or reads it into the policy and checks its range.
type Binder struct {
	params *Params // nil while declaring
	env    Env
	specs  []ParamSpec
	errs   ParamErrors
}

// Valid is a parameter's valid range: OK reports whether a value is in it
// (integers as float64), Want says what is, in the error that names an
// out-of-range value ("NAME VALUE: want WANT"). The zero Valid accepts
// anything.
type Valid struct {
	OK   func(float64) bool
	Want string
}

// AtLeast accepts x >= lo.
func AtLeast(lo float64) Valid {
	return Valid{func(x float64) bool { return x >= lo }, fmt.Sprintf(">= %g", lo)}
}

// Span accepts whole numbers lo..hi.
func Span(lo, hi int) Valid {
	return Valid{func(x float64) bool { return x >= float64(lo) && x <= float64(hi) }, fmt.Sprintf("%d..%d", lo, hi)}
}

// In accepts lo <= x <= hi; what names the kind of value ("a fraction").
func In(lo, hi float64, what string) Valid {
	return Valid{func(x float64) bool { return x >= lo && x <= hi }, fmt.Sprintf("%s in [%g, %g]", what, lo, hi)}
}

// Below accepts lo <= x < hi; what names the kind of value ("a
// probability").
func Below(lo, hi float64, what string) Valid {
	return Valid{func(x float64) bool { return x >= lo && x < hi }, fmt.Sprintf("%s in [%g, %g)", what, lo, hi)}
}

// Common ranges.
var (
	// NonNegative is AtLeast(0).
	NonNegative = AtLeast(0)
	// Fraction is a share of something, in [0, 1].
	Fraction = In(0, 1, "a fraction")
	// PercentileRange is a percentile, in [0, 100].
	PercentileRange = In(0, 100, "a percentile")
	// PositiveFinite is a finite number > 0.
	PositiveFinite = Valid{func(x float64) bool { return x > 0 && !math.IsInf(x, 0) }, "a finite number > 0"}
	// NonNegativeFinite is a finite number >= 0.
	NonNegativeFinite = Valid{func(x float64) bool { return x >= 0 && !math.IsInf(x, 0) }, "a finite number >= 0"}
)

// Env is the environment of the construction (zero while declaring).
func (b *Binder) Env() Env { return b.env }

// Ready reports whether the values were read and all so far are in range:
// false while declaring, so that a build stops before work that needs them.
func (b *Binder) Ready() bool { return b.params != nil && len(b.errs) == 0 }

func (b *Binder) bind(spec ParamSpec, valid Valid, value func(Params) any, num func(any) float64) {
	if b.params == nil {
		b.specs = append(b.specs, spec)
		value(Params{values: map[string]any{spec.Name: spec.Default}})
		return
	}
	v := value(*b.params)
	if valid.OK != nil && !valid.OK(num(v)) {
		b.errs.If(true, spec.Name, v, valid.Want)
	}
}

// Float declares a float parameter and reads it into dst.
func (b *Binder) Float(dst *float64, name string, def float64, valid Valid, doc string) {
	b.bind(FloatParam(name, def, doc), valid,
		func(p Params) any { *dst = p.Float(name); return *dst },
		func(v any) float64 { return v.(float64) })
}

// Int declares an integer parameter and reads it into dst.
func (b *Binder) Int(dst *int, name string, def int64, valid Valid, doc string) {
	b.bind(IntParam(name, def, doc), valid,
		func(p Params) any { *dst = int(p.Int(name)); return *dst },
		func(v any) float64 { return float64(v.(int)) })
}

// Int64 declares an integer parameter and reads it into dst (a Time in ms,
// a count that may be large).
func (b *Binder) Int64(dst *int64, name string, def int64, valid Valid, doc string) {
	b.bind(IntParam(name, def, doc), valid,
		func(p Params) any { *dst = p.Int(name); return *dst },
		func(v any) float64 { return float64(v.(int64)) })
}

// Bool declares a boolean parameter and reads it into dst.
func (b *Binder) Bool(dst *bool, name string, def bool, doc string) {
	b.bind(BoolParam(name, def, doc), Valid{},
		func(p Params) any { *dst = p.Bool(name); return *dst }, nil)
}

// String declares a string parameter and reads it into dst; a check of its
// value is the build's (Check, Fail).
func (b *Binder) String(dst *string, name, def, doc string) {
	b.bind(StringParam(name, def, doc), Valid{},
		func(p Params) any { *dst = p.String(name); return *dst }, nil)
}

// HadoopKeys gives every parameter declared so far its Hadoop
// configuration key, prefix + name, as an alias (ParamSpec.HadoopKey).
func (b *Binder) HadoopKeys(prefix string) {
	for i := range b.specs {
		b.specs[i].HadoopKey = prefix + b.specs[i].Name
	}
}

// Check records an out-of-range value the ranges of single parameters do
// not catch (two that must agree), as ParamErrors.If; ignored while
// declaring.
func (b *Binder) Check(bad bool, name string, value any, want string) {
	if b.params != nil {
		b.errs.If(bad, name, value, want)
	}
}

// Fail records an error of the build's own wording (nil is ignored);
// ignored while declaring.
func (b *Binder) Fail(err error) {
	if b.params != nil {
		b.errs.Add(err)
	}
}
