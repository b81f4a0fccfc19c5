// Package browsertest starts headless Chromium for the tests that check a
// page in a real browser (the replay report, the live dashboard). It finds
// the binary, and skips the test when there is none unless
// SPECBRIDGE_REQUIRE_BROWSER is set (scripts/test.sh sets it and installs
// Debian's chromium), so that CI can never count a skipped browser test as a
// pass. It is for tests only and must not be imported by production code.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// RequireEnv makes a missing browser a failure instead of a skip.
const RequireEnv = "SPECBRIDGE_REQUIRE_BROWSER"

// Chromium returns the path of a Chromium binary on PATH, or skips (fails
// with RequireEnv set) when there is none.
func Chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv(RequireEnv) != "" {
		t.Fatalf("no Chromium on PATH and %s is set: install it (apt-get install -y chromium)", RequireEnv)
	}
	t.Skipf("no Chromium on PATH (apt-get install -y chromium); scripts/test.sh installs it and sets %s so that this test cannot be skipped there", RequireEnv)
	return ""
}

// Context starts headless Chromium (found by Chromium) and returns a
// chromedp context for one tab that ends after timeout; the browser is
// closed when the test ends.
func Context(t testing.TB, timeout time.Duration) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(Chromium(t)), chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true), chromedp.Flag("disable-dev-shm-usage", true))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, timeout)
	t.Cleanup(func() {
		cancelTimeout()
		cancelTab()
		cancelAlloc()
	})
	return ctx
}
