// Package browsertest starts headless Chromium for the tests that check a
// page in a real browser (the replay report, the live dashboard). It finds
// the binary, and skips the test when there is none unless
// SPECBRIDGE_REQUIRE_BROWSER is set (scripts/test.sh sets it and installs
// Debian's chromium), so that CI can never count a skipped browser test as a
// pass, and watches a tab for what a page must not do (Watch). It is for
// tests only and must not be imported by production code.
package browsertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
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

// Problems are what a page did that it must not: uncaught exceptions,
// console errors and failed assertions, and with WatchOffline error entries
// of the browser's log and requests to the network.
type Problems struct {
	mu   sync.Mutex
	list []string
}

func (p *Problems) note(format string, args ...any) {
	p.mu.Lock()
	p.list = append(p.list, fmt.Sprintf(format, args...))
	p.mu.Unlock()
}

// Check reports each problem seen so far as an error of t.
func (p *Problems) Check(t testing.TB) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range p.list {
		t.Errorf("the page: %s", s)
	}
}

// Watch starts the browser of ctx (a Context) and collects the page's
// uncaught exceptions and console errors (console.error, console.assert).
func Watch(t testing.TB, ctx context.Context) *Problems {
	t.Helper()
	return watch(t, ctx, false)
}

// WatchOffline is Watch for a page that must work offline (a file:// page
// with everything inline): it also collects the error entries of the
// browser's log (a resource that failed to load, say) and every request for
// anything but a file: or data: URL.
func WatchOffline(t testing.TB, ctx context.Context) *Problems {
	t.Helper()
	return watch(t, ctx, true)
}

func watch(t testing.TB, ctx context.Context, offline bool) *Problems {
	t.Helper()
	p := &Problems{}
	err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				p.note("console %s: %s", e.Type, strings.Join(parts, " "))
			}
		case *runtime.EventExceptionThrown:
			p.note("exception: %s", e.ExceptionDetails.Text)
		case *cdplog.EventEntryAdded:
			if offline && e.Entry.Level == cdplog.EntryLevelError {
				p.note("log error: %s (%s)", e.Entry.Text, e.Entry.URL)
			}
		case *network.EventRequestWillBeSent:
			if u := e.Request.URL; offline && !strings.HasPrefix(u, "file://") && !strings.HasPrefix(u, "data:") {
				p.note("network request: %s", u)
			}
		}
	})
	if err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	if !offline {
		return p
	}
	if _, err := chromedp.Call(ctx, cdplog.Enable, cdp.Empty{}); err != nil {
		t.Fatalf("Log.enable: %v", err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("Network.enable: %v", err)
	}
	return p
}
