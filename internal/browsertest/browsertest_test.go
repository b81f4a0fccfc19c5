package browsertest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A page that throws, logs an error and fetches from the network: Watch
// sees the first two, WatchOffline all three.
func TestWatchSeesWhatAPageMustNotDo(t *testing.T) {
	page := `data:text/html,<script>console.error("logged");</script><img src="http://127.0.0.1:9/x.png"><script>throw new Error("thrown")</script>`
	for _, c := range []struct {
		name  string
		watch func(testing.TB, context.Context) *Problems
		want  []string
	}{
		{"online", Watch, []string{`console error: "logged"`, "exception: Uncaught"}},
		{"offline", WatchOffline, []string{`console error: "logged"`, "exception: Uncaught", "network request: http://127.0.0.1:9/x.png",
			"log error: Failed to load resource"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := Context(t, 30*time.Second)
			p := c.watch(t, ctx)
			if err := chromedp.Do(ctx, chromedp.Navigate(page)); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(10 * time.Second)
			for {
				p.mu.Lock()
				got := strings.Join(p.list, "\n")
				p.mu.Unlock()
				missing := ""
				for _, w := range c.want {
					if !strings.Contains(got, w) {
						missing = w
					}
				}
				if missing == "" {
					if c.name == "online" && strings.Contains(got, "network request") {
						t.Errorf("Watch noted a network request:\n%s", got)
					}
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("no %q among the problems seen:\n%s", missing, got)
				}
				time.Sleep(20 * time.Millisecond) // polling the events chromedp delivers
			}
		})
	}
}
