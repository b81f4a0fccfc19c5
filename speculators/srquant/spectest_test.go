package srquant

import (
	"testing"

	"github.com/specbridge/specbridge/speculators/spectest"
)

// TestData runs the worked examples in testdata/ (spectest's text format).
func TestData(t *testing.T) {
	spectest.RunDir(t, "testdata", spectest.Registry(t, Policy()))
}
