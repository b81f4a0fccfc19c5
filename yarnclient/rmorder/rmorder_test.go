package rmorder

import (
	"testing"

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
