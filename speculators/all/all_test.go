package all

import "testing"

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
