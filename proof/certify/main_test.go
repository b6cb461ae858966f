package certify_test

import (
	"os"
	"testing"

	"github.com/boardsat/boardsat/encode/sat"
)

// TestMain serves timed gophersat searches when this test binary was
// started as their worker, and runs the tests otherwise.
func TestMain(m *testing.M) {
	sat.ServeWorker()
	os.Exit(m.Run())
}
