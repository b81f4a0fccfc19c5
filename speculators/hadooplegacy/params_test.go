package hadooplegacy

import (
	"testing"

	"github.com/specbridge/specbridge/speculators/spectest"
)

// TestParams: defaults are LATE §2.1's, overrides by name reach the policy
// through the registry, and values outside their range are refused.
func TestParams(t *testing.T) {
	reg := spectest.Registry(t, Policy())
	p, err := reg.Params(Name, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Float("progress-gap") != 0.2 || p.Int("min-runtime-ms") != 60_000 {
		t.Fatalf("defaults %v", p.Values())
	}
	p, err = reg.Params(Name, map[string]string{"progress-gap": "0.35", "min-runtime-ms": "1000"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Float("progress-gap") != 0.35 || p.Int("min-runtime-ms") != 1000 {
		t.Fatalf("overridden %v", p.Values())
	}
	for _, o := range []map[string]string{{"progress-gap": "-0.1"}, {"progress-gap": "1.5"}, {"min-runtime-ms": "-1"}, {"gap": "0.2"}} {
		if _, _, err := reg.New(Name, o, 1); err == nil {
			t.Errorf("%v accepted", o)
		}
	}
}
