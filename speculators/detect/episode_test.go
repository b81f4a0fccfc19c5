package detect

import "testing"

// The shared episode boundaries: an episode opens past the gap; suspicion
// is due at the suspect fraction of the threshold (inclusive), failure
// only past the threshold; neither is due twice.
func TestEpisodeBoundaries(t *testing.T) {
	if Unresponsive(4_000, 4_000) || !Unresponsive(4_001, 4_000) {
		t.Error("Unresponsive: want silent > gap")
	}
	cases := []struct {
		v             Verdict
		silent        int64
		suspect, fail bool
	}{
		{Verdict{}, 2_999, false, false},
		{Verdict{}, 3_000, true, false}, // half of 6 s
		{Verdict{}, 6_000, true, false}, // at the threshold: not yet failed
		{Verdict{}, 6_001, true, true},
		{Verdict{Suspected: true}, 6_001, false, true},
		{Verdict{Suspected: true, Failed: true}, 60_000, false, false},
	}
	for _, c := range cases {
		s, f := c.v.Judge(c.silent, 6_000, 0.5)
		if s != c.suspect || f != c.fail {
			t.Errorf("%+v silent %d: suspect %v fail %v, want %v %v", c.v, c.silent, s, f, c.suspect, c.fail)
		}
	}
}
