package auto

import (
	"errors"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// TestCheckRemembersSuccessOnly: a member that builds is built once however
// often it is checked (auto's constructor checks every member at every job);
// one that fails is built, and fails, at each check; another registry is
// checked afresh.
func TestCheckRemembersSuccessOnly(t *testing.T) {
	builds, fail := 0, true
	flaky := speculators.Policy{Name: "flaky", New: func(speculators.Params, speculators.Env) (speculators.Speculator, error) {
		builds++
		if fail {
			return nil, errors.New("not yet")
		}
		return nil, nil
	}}
	reg := func() *speculators.Registry {
		r := speculators.NewRegistry()
		if err := r.Add(flaky); err != nil {
			t.Fatal(err)
		}
		return r
	}
	p := &policy{env: speculators.Env{Registry: reg()}}
	for i := 1; i <= 2; i++ {
		if err := p.check("flaky"); err == nil || builds != i {
			t.Fatalf("check %d of a failing member: err %v after %d builds", i, err, builds)
		}
	}
	fail = false
	for i := 0; i < 3; i++ {
		if err := p.check("flaky"); err != nil || builds != 3 {
			t.Fatalf("check %d of a member that builds: err %v after %d builds, want 3", i, err, builds)
		}
	}
	other := &policy{env: speculators.Env{Registry: reg()}}
	if err := other.check("flaky"); err != nil || builds != 4 {
		t.Errorf("another registry: err %v after %d builds, want 4", err, builds)
	}
	if err := p.check("missing"); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("unknown member: err %v", err)
	}
}
