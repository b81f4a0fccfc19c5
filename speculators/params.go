package speculators

import (
	"errors"
	"fmt"
)

// FloatParam declares a float parameter; its Kind follows from the default,
// so a declaration cannot disagree with itself.
func FloatParam(name string, def float64, doc string) ParamSpec {
	return ParamSpec{Name: name, Kind: Float, Default: def, Doc: doc}
}

// IntParam declares an integer parameter.
func IntParam(name string, def int64, doc string) ParamSpec {
	return ParamSpec{Name: name, Kind: Int, Default: def, Doc: doc}
}

// BoolParam declares a boolean parameter.
func BoolParam(name string, def bool, doc string) ParamSpec {
	return ParamSpec{Name: name, Kind: Bool, Default: def, Doc: doc}
}

// StringParam declares a string parameter.
func StringParam(name, def, doc string) ParamSpec {
	return ParamSpec{Name: name, Kind: String, Default: def, Doc: doc}
}

// ParamErrors gathers a constructor's out-of-range parameters so that one
// error names all of them, each as "NAME VALUE: want WHAT".
type ParamErrors []error

// If records that the parameter name with value is out of range when bad;
// want says what would be in range. The value prints as %v: %g for floats,
// %d for integers.
func (e *ParamErrors) If(bad bool, name string, value any, want string) {
	if bad {
		*e = append(*e, fmt.Errorf("%s %v: want %s", name, value, want))
	}
}

// Add records an error of the constructor's own wording; nil is ignored.
func (e *ParamErrors) Add(err error) {
	if err != nil {
		*e = append(*e, err)
	}
}

// Err joins the recorded errors, or is nil when there are none.
func (e ParamErrors) Err() error { return errors.Join(e...) }
