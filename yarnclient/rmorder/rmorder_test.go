package rmorder

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/specbridge/specbridge/speculators"
)

func TestForgetOnlyByTheLastPublisher(t *testing.T) {
	o, err := New(Config{RMs: []string{"http://rm:8088"}})
	if err != nil {
		t.Fatal(err)
	}
	first, second := new(int), new(int)
	o.Publish("application_1_0001", first, speculators.Priority{Key: 1})
	o.Publish("application_1_0001", second, speculators.Priority{Key: 2}) // a new session took over
	o.Forget("application_1_0001", first)
	if e := o.jobs["application_1_0001"]; e == nil || e.pri.Key != 2 || e.seq != 1 {
		t.Fatalf("the older session's Forget dropped the newer one's job: %+v", e)
	}
	o.Forget("application_1_0001", second)
	if len(o.jobs) != 0 {
		t.Fatalf("the job is still ordered after its session forgot it: %+v", o.jobs)
	}
	for _, bad := range []Config{{}, {RMs: []string{"http://rm:8088"}, Levels: -1}, {RMs: []string{"rm:8088"}, MaxUpdates: -1}, {RMs: []string{"ftp://rm"}}} {
		if _, err := New(bad); err == nil {
			t.Errorf("New(%+v) accepted", bad)
		}
	}
}

// The dashboard's line before any round, and after a round no
// ResourceManager answered (nothing listens on port 1).
func TestDescribeSaysWhatTheLastRoundDid(t *testing.T) {
	o, err := New(Config{RMs: []string{"http://127.0.0.1:1"}, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if d := o.Describe(); d != "not written yet" {
		t.Errorf("before any round: %q", d)
	}
	if _, err := o.Round(context.Background()); err == nil {
		t.Fatal("a round with no ResourceManager listening succeeded")
	}
	if d := o.Describe(); !strings.HasPrefix(d, "failing (last round ") || !strings.Contains(d, "127.0.0.1:1") {
		t.Errorf("after a failed round: %q", d)
	}
}
