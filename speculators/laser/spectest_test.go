package laser

import (
	"testing"

	"github.com/specbridge/specbridge/speculators/spectest"
)

// TestData runs the worked examples in testdata/ (spectest's text format)
// with the hand-built model of laser_test.go.
func TestData(t *testing.T) {
	spectest.RunDir(t, "testdata", spectest.Registry(t, Policy(testModel())))
}
