package itest

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/specbridge/specbridge/internal/httpjson"
)

// SleeperUser is the caller SubmitSleeper names under simple authentication.
const SleeperUser = "specbridge-it"

// SubmitSleeper submits an application whose AM container runs sleep to the
// ResourceManager at rmWeb (its web address) through the RM's REST API, as
// clients do with new-application and submit: the AM never registers, so
// the application stays ACCEPTED, a state whose priority the RM may change.
// It returns the application's id once the RM has accepted it, and kills the
// application when the test ends.
func SubmitSleeper(t testing.TB, rmWeb string) string {
	t.Helper()
	ctx := context.Background()
	post := func(path string, body, out any) error {
		u := rmWeb + path + "?user.name=" + url.QueryEscape(SleeperUser)
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		return httpjson.Do(ctx, http.DefaultClient, httpjson.Request{Method: http.MethodPost, URL: u, Body: body, MaxAnswer: 1 << 20}, out)
	}
	var app struct {
		ID string `json:"application-id"`
	}
	if err := post("/ws/v1/cluster/apps/new-application", nil, &app); err != nil {
		t.Fatal(err)
	}
	if app.ID == "" {
		t.Fatal("new-application gave no application-id")
	}
	sub := map[string]any{
		"application-id":    app.ID,
		"application-name":  "specbridge-it-sleeper",
		"application-type":  "YARN",
		"max-app-attempts":  1,
		"resource":          map[string]int{"memory": 256, "vCores": 1},
		"am-container-spec": map[string]any{"commands": map[string]string{"command": "sleep 300"}},
	}
	if err := post("/ws/v1/cluster/apps", sub, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { KillApp(t, rmWeb, app.ID) })
	if st, ok := waitState(rmWeb, app.ID, "ACCEPTED", "RUNNING"); !ok {
		t.Fatalf("%s is %s 60 s after its submission, not ACCEPTED", app.ID, st)
	}
	// ACCEPTED comes before the scheduler holds the application's attempt,
	// and until it does the RM answers a priority change with a 503 (a
	// NullPointerException in the capacity scheduler's updateApplicationPriority):
	// wait for the attempt to be SCHEDULED or beyond.
	if st, ok := poll(func() (string, error) { return attemptState(rmWeb, app.ID) }, "SCHEDULED", "ALLOCATED", "LAUNCHED", "RUNNING"); !ok {
		t.Fatalf("%s's attempt is %s 60 s after its submission, not SCHEDULED", app.ID, st)
	}
	return app.ID
}

// attemptState reads the state of application app's latest attempt on the
// ResourceManager at rmWeb ("" before it has one).
func attemptState(rmWeb, app string) (string, error) {
	var at struct {
		AppAttempts struct {
			AppAttempt []struct {
				State string `json:"appAttemptState"`
			}
		}
	}
	path := rmWeb + "/ws/v1/cluster/apps/" + url.PathEscape(app) + "/appattempts"
	if err := httpjson.Do(context.Background(), http.DefaultClient, httpjson.Request{URL: path, MaxAnswer: 1 << 20}, &at); err != nil {
		return "", err
	}
	if a := at.AppAttempts.AppAttempt; len(a) > 0 {
		return a[len(a)-1].State, nil
	}
	return "", nil
}

// waitState polls application app's state on the ResourceManager at rmWeb
// until it is one of states, for at most 60 s; it returns the last state
// read (or the error reading it) and whether it got there.
func waitState(rmWeb, app string, states ...string) (string, bool) {
	path := rmWeb + "/ws/v1/cluster/apps/" + url.PathEscape(app) + "/state"
	return poll(func() (string, error) {
		var st struct{ State string }
		err := httpjson.Do(context.Background(), http.DefaultClient, httpjson.Request{URL: path, MaxAnswer: 1 << 20}, &st)
		return st.State, err
	}, states...)
}

// poll calls read until it returns one of states, for at most 60 s; it
// returns the last value read (or the error reading it) and whether it got
// there.
func poll(read func() (string, error), states ...string) (string, bool) {
	deadline := time.Now().Add(60 * time.Second)
	for {
		v, err := read()
		if err == nil && slices.Contains(states, v) {
			return v, true
		}
		if time.Now().After(deadline) {
			if err != nil {
				return err.Error(), false
			}
			return fmt.Sprintf("%q", v), false
		}
		time.Sleep(100 * time.Millisecond) // polling the RM for the state
	}
}

// KillApp asks the ResourceManager at rmWeb to kill application app and
// waits until it reads KILLED (or another final state).
func KillApp(t testing.TB, rmWeb, app string) {
	t.Helper()
	path := rmWeb + "/ws/v1/cluster/apps/" + url.PathEscape(app) + "/state"
	ctx := context.Background()
	kill := httpjson.Request{Method: http.MethodPut, URL: path + "?user.name=" + url.QueryEscape(SleeperUser), Body: map[string]string{"state": "KILLED"}, MaxAnswer: 1 << 20}
	if err := httpjson.Do(ctx, http.DefaultClient, kill, nil); err != nil {
		t.Logf("kill %s: %v", app, err)
		return
	}
	if st, ok := waitState(rmWeb, app, "KILLED", "FINISHED", "FAILED"); !ok {
		t.Logf("%s is %s 60 s after it was killed", app, st)
	}
}
