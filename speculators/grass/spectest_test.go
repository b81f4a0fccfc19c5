package grass

import (
	"testing"

	"github.com/specbridge/specbridge/speculators/spectest"
)

// TestData runs the worked examples in testdata/ (spectest's text format):
// the decision points of Figures 1 and 2. The figures' whole runs, slot by
// slot, are in grass_paper_test.go.
func TestData(t *testing.T) {
	spectest.RunDir(t, "testdata", registry(t))
}
