package speculators

import (
	"strings"
	"testing"
)

// The helpers must keep the wording the constructors had: %g for floats,
// %d for integers, every bad parameter named, nil when all are in range.
func TestParamErrors(t *testing.T) {
	var errs ParamErrors
	errs.If(false, "fine", 1.0, "anything")
	errs.Add(nil)
	if err := errs.Err(); err != nil {
		t.Fatalf("no bad parameter: got %v", err)
	}
	errs.If(true, "cap", 1.5, "a fraction in [0, 1]")
	errs.If(true, "min-runtime-ms", int64(-3), ">= 0")
	err := errs.Err()
	if err == nil {
		t.Fatal("two bad parameters: got no error")
	}
	if want := "cap 1.5: want a fraction in [0, 1]\nmin-runtime-ms -3: want >= 0"; err.Error() != want {
		t.Errorf("got %q, want %q", err, want)
	}
}

// A declaration's Kind follows from its default, so Registry.Add accepts it.
func TestParamDeclarations(t *testing.T) {
	r := NewRegistry()
	err := r.Add(Policy{Name: "p", New: func(Params, Env) (Speculator, error) { return nil, nil }, Params: []ParamSpec{
		FloatParam("f", 0.5, "f"), IntParam("i", 3, "i"), BoolParam("b", true, "b"), StringParam("s", "x", "s"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.Params("p", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(p.Values(), " "); got != "f=0.5 i=3 b=true s=x" {
		t.Errorf("values %q", got)
	}
}
