package rmorder

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

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

// rmAnswering is a ResourceManager's REST API as far as the job order uses
// it, over a real HTTP server: /conf gives the cluster's maximum priority
// (maxPrio; "" answers 403, as a secured RM may), and a priority change
// answers the status status(app) gives (200 with the priority asked).
func rmAnswering(t *testing.T, maxPrio string, status func(app string) int) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/conf" {
			if maxPrio == "" {
				w.WriteHeader(http.StatusForbidden)
				return
			}
			fmt.Fprintf(w, `{"property":{"key":%q,"value":%q}}`, MaxLevelsKey, maxPrio)
			return
		}
		app, ok := strings.CutPrefix(r.URL.Path, "/ws/v1/cluster/apps/")
		app, ok2 := strings.CutSuffix(app, "/priority")
		if !ok || !ok2 || r.Method != http.MethodPut {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		var body struct{ Priority int }
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		if code := status(app); code != http.StatusOK {
			w.WriteHeader(code)
			fmt.Fprintf(w, `{"RemoteException":{"exception":"E","message":"status %d for %s"}}`, code, app)
			return
		}
		fmt.Fprintf(w, `{"priority":%d}`, body.Priority)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// An RM's error about one application does not stop the others: a 500 is
// asked again next round, a 403 is a refusal (the job left alone), and the
// jobs ranked below both are written; a 401 (the caller not authenticated)
// ends the round.
func TestRoundGoesOnPastOneApplicationsError(t *testing.T) {
	failing := true
	url := rmAnswering(t, "10", func(app string) int {
		switch {
		case app == "application_1_0001" && failing:
			return http.StatusInternalServerError
		case app == "application_1_0002":
			return http.StatusForbidden
		}
		return http.StatusOK
	})
	o, err := New(Config{RMs: []string{url}})
	if err != nil {
		t.Fatal(err)
	}
	for i, app := range []string{"application_1_0001", "application_1_0002", "application_1_0003"} {
		o.Publish(app, o, speculators.Priority{Key: float64(i)})
	}
	if n, err := o.Round(context.Background()); n != 1 || err != nil {
		t.Fatalf("round: %d set, %v; want the third job set past the first's 500 and the second's 403", n, err)
	}
	if r, f := testutil.ToFloat64(o.retries), testutil.ToFloat64(o.refusals); r != 1 || f != 1 {
		t.Errorf("retries %v, refusals %v; want 1 and 1", r, f)
	}
	failing = false
	if n, err := o.Round(context.Background()); n != 1 || err != nil {
		t.Errorf("next round: %d set, %v; want the first job (its 500 passed) and not the refused one", n, err)
	}

	unauthorized := rmAnswering(t, "10", func(string) int { return http.StatusUnauthorized })
	o, err = New(Config{RMs: []string{unauthorized}})
	if err != nil {
		t.Fatal(err)
	}
	o.Publish("application_1_0001", o, speculators.Priority{})
	if _, err := o.Round(context.Background()); err == nil || testutil.ToFloat64(o.failures) != 1 || testutil.ToFloat64(o.refusals) != 0 {
		t.Errorf("a 401: %v, failures %v, refusals %v; want the round ended, not the job refused", err, testutil.ToFloat64(o.failures), testutil.ToFloat64(o.refusals))
	}
}

// The levels: the cluster's maximum; --rm-job-order-levels when lower, or
// when the maximum cannot be read; none (priorities off) when the cluster
// says 0, even with the flag.
func TestLevelsFromTheClusterAndTheFlag(t *testing.T) {
	ok := func(string) int { return http.StatusOK }
	for _, c := range []struct {
		clusterMax string
		flag, want int
	}{{"10", 0, 10}, {"10", 20, 10}, {"10", 5, 5}, {"", 5, 5}, {"0", 5, 0}, {"0", 0, 0}} {
		o, err := New(Config{RMs: []string{rmAnswering(t, c.clusterMax, ok)}, Levels: c.flag})
		if err != nil {
			t.Fatal(err)
		}
		got, err := o.resolveLevels(context.Background())
		if err != nil || got != c.want {
			t.Errorf("cluster %q, flag %d: %d levels, %v; want %d", c.clusterMax, c.flag, got, err, c.want)
		}
	}
	o, _ := New(Config{RMs: []string{rmAnswering(t, "", ok)}})
	if _, err := o.resolveLevels(context.Background()); err == nil {
		t.Error("no readable maximum and no flag: levels resolved")
	}
}
