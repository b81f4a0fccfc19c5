package speculators

import (
	"slices"
	"testing"
)

func TestPriorityLevelsRankBestFirstAndBandWhenJobsOutnumberLevels(t *testing.T) {
	p := func(keys ...float64) []Priority {
		var out []Priority
		for _, k := range keys {
			out = append(out, Priority{Tier: 1, Key: k})
		}
		return out
	}
	cases := []struct {
		name   string
		ranked []Priority
		top    int
		want   []int
	}{
		{"fewer jobs than levels", p(1, 2, 3), 10, []int{10, 9, 8}},
		{"as many as levels", p(1, 2, 3), 3, []int{3, 2, 1}},
		{"twice the levels: bands of two", p(1, 2, 3, 4, 5, 6), 3, []int{3, 3, 2, 2, 1, 1}},
		{"ties share the first one's level", p(1, 1, 2, 2, 2, 3), 10, []int{10, 10, 8, 8, 8, 5}},
		{"one level", p(1, 2, 3), 1, []int{1, 1, 1}},
		{"no levels", p(1, 2), 0, nil},
		{"no jobs", nil, 10, []int{}},
	}
	for _, c := range cases {
		got := PriorityLevels(c.ranked, c.top)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
		for _, l := range got {
			if l < 1 || l > c.top {
				t.Errorf("%s: level %d outside 1..%d", c.name, l, c.top)
			}
		}
	}
	// A lower tier outranks any key of a higher one once sorted; Levels
	// trusts the order it is given, so two tiers with equal keys differ.
	if got := PriorityLevels([]Priority{{Tier: 0, Key: 5}, {Tier: 1, Key: 5}}, 10); !slices.Equal(got, []int{10, 9}) {
		t.Errorf("two tiers, one key: %v, want [10 9]", got)
	}
}
