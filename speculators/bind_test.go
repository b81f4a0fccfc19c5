package speculators

import (
	"strings"
	"testing"
)

type boundPolicy struct {
	n     int
	f, p  float64
	ready bool
}

func (*boundPolicy) Decide(_ *Job, _ Time, out []Decision) []Decision { return out }

var boundTestPolicy = Declare("bound", "a test policy", func(b *Binder, p *boundPolicy) {
	b.Int(&p.n, "n", 3, Span(1, 5), "a count")
	b.Float(&p.f, "f", 0.5, Fraction, "a share")
	b.Float(&p.p, "p", 0, Below(0, 1, "a probability"), "a chance")
	b.Check(p.n == 4 && p.f == 1, "f", p.f, "not 1 when n is 4")
	p.ready = b.Ready()
})

func TestBindDeclaresReadsAndChecks(t *testing.T) {
	pol := boundTestPolicy()
	if len(pol.Params) != 3 || pol.Params[0].Name != "n" || pol.Params[0].Default != int64(3) ||
		pol.Params[1].Kind != Float || pol.Params[1].Default != 0.5 {
		t.Fatalf("declared %+v", pol.Params)
	}
	r := NewRegistry()
	if err := r.Add(pol); err != nil {
		t.Fatal(err)
	}
	s, _, err := r.New("bound", map[string]string{"n": "5"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if p := s.(*boundPolicy); p.n != 5 || p.f != 0.5 || !p.ready {
		t.Errorf("read %+v, want n 5, f 0.5, ready", p)
	}
	_, _, err = r.New("bound", map[string]string{"n": "0", "f": "1.5", "p": "1"}, 1)
	if err == nil || !strings.Contains(err.Error(), "n 0: want 1..5") || !strings.Contains(err.Error(), "f 1.5: want a fraction in [0, 1]") ||
		!strings.Contains(err.Error(), "p 1: want a probability in [0, 1)") {
		t.Errorf("error %v, want the three out-of-range values named", err)
	}
	_, _, err = r.New("bound", map[string]string{"n": "4", "f": "1"}, 1)
	if err == nil || !strings.Contains(err.Error(), "f 1: want not 1 when n is 4") {
		t.Errorf("error %v, want the cross check", err)
	}
}
