package bridge

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// TestShimProtocolNamesAreTheSidecars reads the shim's Protocol.java and
// checks that every name it writes or reads is one the sidecar knows in the
// same role (frame type, error code, event kind, decision kind, ack result,
// snapshot state), and that the shim names every frame type and event kind
// it sends. A name changed on one side only fails here, not on a cluster.
func TestShimProtocolNamesAreTheSidecars(t *testing.T) {
	const path = "../java-shim/src/main/java/org/specbridge/shim/Protocol.java"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	decl := regexp.MustCompile(`static final String ([A-Z]+)_([A-Z_]+) = "([^"]*)";`)
	found := decl.FindAllStringSubmatch(string(raw), -1)
	if len(found) == 0 {
		t.Fatalf("%s: no protocol constants found", path)
	}

	set := func(names ...string) map[string]bool {
		m := map[string]bool{}
		for _, n := range names {
			m[n] = true
		}
		return m
	}
	var events, decisions []string
	for k := speculators.AttemptStarted; k <= speculators.JobBounds; k++ {
		events = append(events, k.String())
	}
	for k := speculators.Speculate; k <= speculators.Drop; k++ {
		decisions = append(decisions, k.String())
	}
	states := []string{"RUNNING"}
	for s := range endKinds {
		states = append(states, s)
	}
	roles := map[string]map[string]bool{
		"TYPE": set(TypeHello, TypeWelcome, TypeEvents, TypeDecisions, TypeAck, TypePing, TypePong, TypeResync,
			TypeResynced, TypeError, TypeBye),
		"CODE": set(CodeHelloRequired, CodeUnsupportedVersion, CodeUnauthorized, CodeUnknownSpeculator,
			CodeBadParameter, CodeBadJob, CodeTooManySessions, CodeDuplicateHello, CodeMalformedFrame,
			CodeFrameTooLarge, CodeUnknownType, CodeBinaryFrame, CodeEventRejected, CodeUnknownDecision,
			CodeThrottled, CodeAbuse, CodeReplaced, CodeShuttingDown, CodeInternal),
		"EVENT":    set(events...),
		"DECISION": set(decisions...),
		"ACK":      set(AckApplied, AckRefused),
		"STATE":    set(states...),
	}
	java := map[string]map[string]bool{}
	for _, m := range found {
		role, name, value := m[1], m[2], m[3]
		known, ok := roles[role]
		if !ok {
			t.Errorf("%s: %s_%s: role %s is not one of the protocol's", path, role, name, role)
			continue
		}
		if !known[value] {
			t.Errorf("%s: %s_%s = %q is not a %s the sidecar knows", path, role, name, value, strings.ToLower(role))
		}
		if java[role] == nil {
			java[role] = map[string]bool{}
		}
		java[role][value] = true
	}
	// What the shim sends must be named there, so that no literal escapes the check.
	for _, want := range []struct{ role, value string }{
		{"TYPE", TypeHello}, {"TYPE", TypeEvents}, {"TYPE", TypeAck}, {"TYPE", TypeResync}, {"TYPE", TypeBye},
		{"TYPE", TypePing}, {"TYPE", TypePong},
		{"EVENT", speculators.AttemptStarted.String()}, {"EVENT", speculators.AttemptStatus.String()},
		{"EVENT", speculators.AttemptSucceeded.String()}, {"EVENT", speculators.AttemptFailed.String()},
		{"EVENT", speculators.AttemptKilled.String()}, {"EVENT", speculators.ContainerNeeds.String()},
		{"ACK", AckApplied}, {"ACK", AckRefused},
	} {
		if !java[want.role][want.value] {
			t.Errorf("%s: no %s constant for %q, which the shim sends", path, want.role, want.value)
		}
	}
	for _, d := range decisions {
		if !java["DECISION"][d] {
			t.Errorf("%s: no DECISION constant for %q: the shim would refuse it as unknown", path, d)
		}
	}
}
