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
	return app.ID
}

// waitState polls application app's state on the ResourceManager at rmWeb
// until it is one of states, for at most 60 s; it returns the last state
// read (or the error reading it) and whether it got there.
func waitState(rmWeb, app string, states ...string) (string, bool) {
	path := rmWeb + "/ws/v1/cluster/apps/" + url.PathEscape(app) + "/state"
	deadline := time.Now().Add(60 * time.Second)
	for {
		var st struct{ State string }
		err := httpjson.Do(context.Background(), http.DefaultClient, httpjson.Request{URL: path, MaxAnswer: 1 << 20}, &st)
		if err == nil && slices.Contains(states, st.State) {
			return st.State, true
		}
		if time.Now().After(deadline) {
			if err != nil {
				return err.Error(), false
			}
			return fmt.Sprintf("%q", st.State), false
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
