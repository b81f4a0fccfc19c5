package replay

import "testing"

// A hang at a job's progress (at_map_progress, at_reduce_progress) is a node
// failure for the report's failures table and the policies' notes, as a hang
// at a time is: the table then counts copies as wrong, and farms and tws are
// not told that no node failed.
func TestFactsCountFaultsAtProgress(t *testing.T) {
	for _, c := range []struct {
		path string
		want bool
	}{
		{"../scenarios/heldout13/network-blips.yaml", true}, // hangs at map and reduce progress only
		{"../scenarios/farms-1gb.yaml", true},               // crashes at a time
		{"../scenarios/farms-1gb-nofail.yaml", false},
	} {
		_, _, w, _ := loadScenarioTasks(t, c.path)
		if got := factsOf(w).nodeFailures > 0; got != c.want {
			t.Errorf("%s: node failures counted %v, want %v", c.path, got, c.want)
		}
	}
}
