package all

import (
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

func TestRegistryHoldsEveryPolicy(t *testing.T) {
	r, err := Registry()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"none", "hadoop", "hadoop-legacy", "late", "farms", "tws", "srquant", "laser"} {
		if _, ok := r.Lookup(name); !ok {
			t.Errorf("policy %s is not registered", name)
		}
		if _, _, err := r.New(name, nil, 1); err != nil {
			t.Errorf("%s with defaults: %v", name, err)
		}
	}
}

// The policies of a large replay declare that they ask for no Rerun
// (speculators.NoReruns), so the simulator reuses a done task's attempt
// slots at once; FARMS, which reruns lost outputs, does not.
func TestPoliciesThatNeverRerun(t *testing.T) {
	r, err := Registry()
	if err != nil {
		t.Fatal(err)
	}
	info := speculators.JobInfo{ID: "j", Maps: 4, Reduces: 1, Slots: 8}
	for name, want := range map[string]bool{"none": false, "hadoop": false, "late": false, "farms": true} {
		e, err := r.NewEngine(info, name, nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.Reruns(); got != want {
			t.Errorf("%s: Reruns() = %v, want %v", name, got, want)
		}
	}
}
