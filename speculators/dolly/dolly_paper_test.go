package dolly

import "testing"

// TestPaperCloneSmallJobsWithinBudget: every task of a small job is cloned
// (2 copies), a job above the threshold is not, and clones never take more
// than the budget's share of the cluster's slots; with room for part of
// the copies, each task gets as many as fit for all of them.
// Reference: Xu and Lau §II on Dolly ("cloning every small job ... the
// cloned copies only consume a small amount of additional resource"); the
// FARMS paper's related work (§5) on Dolly's budgeted proactive cloning.
func TestPaperCloneSmallJobsWithinBudget(t *testing.T) {
	for _, tc := range []struct {
		name                    string
		m, copies, slots, using int
		want                    int
	}{
		{"small job, empty budget", 8, 2, 3000, 0, 2},
		{"job at the threshold", 10, 2, 3000, 0, 2},
		{"large job", 11, 2, 3000, 0, 1},
		{"budget nearly used: 150 - 145 < 8", 8, 2, 3000, 145, 1},
		{"budget fits exactly", 8, 2, 3000, 142, 2},
		{"three copies, room for one extra each", 5, 3, 200, 4, 2},
		{"slots unknown: no budget", 5, 3, 0, 0, 3},
	} {
		if got := Clones(tc.m, 10, tc.copies, 0.05, tc.slots, tc.using); got != tc.want {
			t.Errorf("%s: %d copies, want %d", tc.name, got, tc.want)
		}
	}
}
