package bridge

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Version is the protocol version this package speaks (PROTOCOL.md).
const Version = 1

// Frame types.
const (
	TypeHello     = "hello"
	TypeWelcome   = "welcome"
	TypeEvents    = "events"
	TypeDecisions = "decisions"
	TypeAck       = "ack"
	TypePing      = "ping"
	TypePong      = "pong"
	TypeResync    = "resync"
	TypeResynced  = "resynced"
	TypeError     = "error"
	TypeBye       = "bye"
)

// Error codes sent in error frames (PROTOCOL.md, "Errors").
const (
	CodeHelloRequired      = "hello-required"
	CodeUnsupportedVersion = "unsupported-version"
	CodeUnauthorized       = "unauthorized"
	CodeUnknownSpeculator  = "unknown-speculator"
	CodeBadParameter       = "bad-parameter"
	CodeBadJob             = "bad-job"
	CodeTooManySessions    = "too-many-sessions"
	CodeDuplicateHello     = "duplicate-hello"
	CodeMalformedFrame     = "malformed-frame"
	CodeFrameTooLarge      = "frame-too-large"
	CodeUnknownType        = "unknown-type"
	CodeBinaryFrame        = "binary-frame"
	CodeEventRejected      = "event-rejected"
	CodeUnknownDecision    = "unknown-decision"
	CodeThrottled          = "throttled"
	CodeAbuse              = "abuse"
	CodeReplaced           = "replaced"
	CodeShuttingDown       = "shutting-down"
	CodeInternal           = "internal"
	// CodeMemoryBudget refuses a hello whose job's estimated memory does not
	// fit the server's budget (Config.MaxJobMemory); the job runs under
	// Hadoop's own speculator.
	CodeMemoryBudget = "memory-budget"
	// CodeRateLimited refuses a hello unchecked: its address has spent its
	// budget of failed authentications (internal/authguard).
	CodeRateLimited = "rate-limited"
	// CodeJobEndFailed answers a bye (final state) whose job end the fault
	// analyzer could not make durable (its store is failing); not fatal.
	CodeJobEndFailed = "job-end-failed"
)

// Hello opens a session.
type Hello struct {
	Type             string            `json:"type"`
	Version          int               `json:"version"`
	Token            string            `json:"token"`
	Job              string            `json:"job"`
	User             string            `json:"user,omitempty"`
	Queue            string            `json:"queue,omitempty"`
	Speculator       string            `json:"speculator"`
	Params           map[string]string `json:"params,omitempty"`
	Maps             int               `json:"maps"`
	Reduces          int               `json:"reduces"`
	MapInputBytes    []int64           `json:"map_input_bytes,omitempty"`
	ReduceInputBytes []int64           `json:"reduce_input_bytes,omitempty"`
	Slots            int               `json:"slots,omitempty"`
	Start            int64             `json:"start,omitempty"`
	Deadline         int64             `json:"deadline,omitempty"`
	ErrorBound       float64           `json:"error_bound,omitempty"`
	Now              int64             `json:"now,omitempty"`
	// TaskMeanMS and TaskTailIndex are the job's a-priori task-time model
	// (the shim's specbridge.job.task-mean-ms and
	// specbridge.job.task-tail-index); 0 or absent: unknown (taskmodel.go).
	TaskMeanMS    float64 `json:"task_mean_ms,omitempty"`
	TaskTailIndex float64 `json:"task_tail_index,omitempty"`
}

// Welcome accepts a session.
type Welcome struct {
	Type               string            `json:"type"`
	Version            int               `json:"version"`
	Session            string            `json:"session"`
	Speculator         string            `json:"speculator"`
	Params             map[string]string `json:"params"`
	DecideIntervalMS   int64             `json:"decide_interval_ms"`
	MaxFrameBytes      int64             `json:"max_frame_bytes"`
	MaxEventsPerSecond float64           `json:"max_events_per_second"`
	// TaskMeanMS, TaskTailIndex and TaskModelSource echo the task-time
	// model the session uses and where it came from (taskmodel.go).
	TaskMeanMS      float64 `json:"task_mean_ms,omitempty"`
	TaskTailIndex   float64 `json:"task_tail_index,omitempty"`
	TaskModelSource string  `json:"task_model_source"`
}

// Counters are the wire form of speculators.Counters.
type Counters struct {
	InputBytes     int64 `json:"input_bytes,omitempty"`
	OutputBytes    int64 `json:"output_bytes,omitempty"`
	InputRecords   int64 `json:"input_records,omitempty"`
	OutputRecords  int64 `json:"output_records,omitempty"`
	CPUMillis      int64 `json:"cpu_ms,omitempty"`
	GCMillis       int64 `json:"gc_ms,omitempty"`
	SpilledRecords int64 `json:"spilled_records,omitempty"`
}

// WireEvent is the wire form of one speculators.Event.
type WireEvent struct {
	Kind            string    `json:"kind"`
	Time            *int64    `json:"time"`
	Attempt         string    `json:"attempt,omitempty"`
	Node            string    `json:"node,omitempty"`
	Container       string    `json:"container,omitempty"`
	Speculative     bool      `json:"speculative,omitempty"`
	Progress        float64   `json:"progress,omitempty"`
	Phase           string    `json:"phase,omitempty"`
	Counters        *Counters `json:"counters,omitempty"`
	FetchFailedMaps []string  `json:"fetch_failed_maps,omitempty"`
	TaskType        string    `json:"task_type,omitempty"`
	Count           int       `json:"count,omitempty"`
	Deadline        int64     `json:"deadline,omitempty"`
	ErrorBound      float64   `json:"error_bound,omitempty"`
}

// Events is a batch of events.
type Events struct {
	Type   string      `json:"type"`
	Seq    int64       `json:"seq,omitempty"`
	Now    int64       `json:"now,omitempty"`
	Events []WireEvent `json:"events"`
}

// WireDecision is the wire form of one speculators.Decision with its id.
type WireDecision struct {
	ID      uint64 `json:"id"`
	Kind    string `json:"kind"`
	Task    string `json:"task"`
	Attempt string `json:"attempt,omitempty"`
	Copies  int    `json:"copies,omitempty"`
	Reason  string `json:"reason,omitempty"`
	// Member names the member policy whose rule made the decision when the
	// session's policy is a composite (auto); the shim counts applied
	// decisions per member in the job's counters.
	Member string `json:"member,omitempty"`
}

// Decisions is a batch of decisions.
type Decisions struct {
	Type      string         `json:"type"`
	Time      int64          `json:"time"`
	Decisions []WireDecision `json:"decisions"`
}

// Ack results.
const (
	AckApplied = "applied"
	AckRefused = "refused"
)

// AckEntry acknowledges one decision.
type AckEntry struct {
	ID     uint64 `json:"id"`
	Result string `json:"result"`
	Reason string `json:"reason,omitempty"`
}

// Ack acknowledges decisions.
type Ack struct {
	Type string     `json:"type"`
	Acks []AckEntry `json:"acks"`
}

// Ping asks the peer for a pong; Pong answers it with the same nonce.
type Ping struct {
	Type  string `json:"type"`
	Nonce int64  `json:"nonce,omitempty"`
	Now   int64  `json:"now,omitempty"`
}

// Bye is the AM's last frame, sent as its speculator stops: State is the
// job's state then (Hadoop's JobState name). A final state (JobDone) ends
// the job in the fault analyzer at once; any other (an AM attempt stopping
// before the job is over, which the next attempt will resume) changes
// nothing, and the session's close starts the job's grace period as usual.
type Bye struct {
	Type  string `json:"type"`
	Now   int64  `json:"now,omitempty"`
	State string `json:"state"`
}

// JobDone reports whether state is one Hadoop's JobImpl never leaves:
// SUCCEEDED, FAILED or KILLED. ERROR is not among them: an AM ends in it
// on an internal error, and a later AM attempt may still recover the job.
func JobDone(state string) bool {
	switch state {
	case "SUCCEEDED", "FAILED", "KILLED":
		return true
	}
	return false
}

// SnapshotAttempt is one attempt in a resync snapshot.
type SnapshotAttempt struct {
	Attempt     string    `json:"attempt"`
	State       string    `json:"state"`
	Node        string    `json:"node,omitempty"`
	Container   string    `json:"container,omitempty"`
	Speculative bool      `json:"speculative,omitempty"`
	Start       int64     `json:"start"`
	LastReport  int64     `json:"last_report,omitempty"`
	Finish      int64     `json:"finish,omitempty"`
	Progress    float64   `json:"progress,omitempty"`
	Phase       string    `json:"phase,omitempty"`
	Counters    *Counters `json:"counters,omitempty"`
}

// ContainerNeed is one task type's outstanding container requests.
type ContainerNeed struct {
	TaskType string `json:"task_type"`
	Count    int    `json:"count"`
}

// Resync carries the full state of a job after a reconnect.
type Resync struct {
	Type           string            `json:"type"`
	Now            int64             `json:"now,omitempty"`
	Attempts       []SnapshotAttempt `json:"attempts"`
	ContainerNeeds []ContainerNeed   `json:"container_needs,omitempty"`
}

// Resynced answers a resync.
type Resynced struct {
	Type     string `json:"type"`
	Attempts int    `json:"attempts"`
	Rejected int    `json:"rejected"`
}

// ErrorFrame reports a problem to the peer.
type ErrorFrame struct {
	Type  string `json:"type"`
	Code  string `json:"code"`
	Text  string `json:"text"`
	Seq   int64  `json:"seq,omitempty"`
	Index *int   `json:"index,omitempty"`
	Fatal bool   `json:"fatal,omitempty"`
	// RetryAfterMS and EventsPerSecond come with CodeThrottled: how long
	// the sidecar will not read the session, and the session's current
	// event budget.
	RetryAfterMS    int64   `json:"retry_after_ms,omitempty"`
	EventsPerSecond float64 `json:"events_per_second,omitempty"`
}

// Frame is one decoded frame: Type says which pointer is set. Frames of
// types the client never sends (welcome, decisions, ...) decode with only
// Type set so that a caller can answer them as it sees fit.
type Frame struct {
	Type   string
	Hello  *Hello
	Events *Events
	Ack    *Ack
	Ping   *Ping
	Resync *Resync
	Bye    *Bye
}

// ErrUnknownType is wrapped by DecodeFrame for a well-formed frame of a type
// this version does not know.
var ErrUnknownType = errors.New("unknown frame type")

// ErrMalformed is wrapped by DecodeFrame for anything that is not a valid
// frame.
var ErrMalformed = errors.New("malformed frame")

// clientFrame is every field of every frame a client sends, so that a frame
// is decoded in one pass of encoding/json. (A hand-written decoder for
// events frames was dropped: encoding/json alone sustains several times the
// 100k updates/s target, BenchmarkStatusUpdates1000Sessions.) The hello
// fields come from Hello itself, whose type and now the fields of the same
// names here shadow (encoding/json takes the shallowest field of a name).
type clientFrame struct {
	Type *string `json:"type"`
	Now  int64   `json:"now"`
	Hello
	// events
	Seq    int64       `json:"seq"`
	Events []WireEvent `json:"events"`
	// ack
	Acks []AckEntry `json:"acks"`
	// ping, pong
	Nonce int64 `json:"nonce"`
	// resync
	Attempts       []SnapshotAttempt `json:"attempts"`
	ContainerNeeds []ContainerNeed   `json:"container_needs"`
	// bye
	State string `json:"state"`
}

// DecodeFrame decodes one text frame. Unknown fields are ignored; the error
// wraps ErrUnknownType or ErrMalformed and says what was wrong.
func DecodeFrame(data []byte) (Frame, error) {
	var cf clientFrame
	err := unmarshalStrict(data, &cf)
	if err == nil {
		err = checkTimes(&cf)
	}
	if errors.Is(err, errInvalidFrame) {
		f, _ := classify(data, err)
		return Frame{Type: f.Type}, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	if err != nil {
		return classify(data, err)
	}
	if cf.Type == nil {
		return Frame{}, fmt.Errorf("%w: no \"type\" field", ErrMalformed)
	}
	f := Frame{Type: *cf.Type}
	switch f.Type {
	case TypeHello:
		f.Hello = &cf.Hello
		f.Hello.Type, f.Hello.Now = f.Type, cf.Now
	case TypeEvents:
		f.Events = &Events{Type: f.Type, Seq: cf.Seq, Now: cf.Now, Events: cf.Events}
	case TypeAck:
		f.Ack = &Ack{Type: f.Type, Acks: cf.Acks}
	case TypePing, TypePong:
		f.Ping = &Ping{Type: f.Type, Nonce: cf.Nonce, Now: cf.Now}
	case TypeResync:
		f.Resync = &Resync{Type: f.Type, Now: cf.Now, Attempts: cf.Attempts, ContainerNeeds: cf.ContainerNeeds}
	case TypeBye:
		f.Bye = &Bye{Type: f.Type, Now: cf.Now, State: cf.State}
	case TypeWelcome, TypeDecisions, TypeResynced, TypeError:
	default:
		return f, fmt.Errorf("%w %q", ErrUnknownType, truncate(f.Type, 64))
	}
	return f, nil
}

// unmarshalStrict decodes a client frame with encoding/json/v2 semantics
// (github.com/go-json-experiment/json: Go 1.26's encoding/json/v2 needs
// GOEXPERIMENT=jsonv2): a key given twice and invalid UTF-8 are errors,
// and keys match fields exactly ("Time" is not "time": an unknown field,
// ignored as the protocol says). Such errors name the field.
func unmarshalStrict(data []byte, v any) error {
	err := jsonv2.Unmarshal(data, v)
	var me *jsonv2.SemanticError
	if errors.As(err, &me) { // worded here: the library varies its own wording on purpose
		what, want := "value", ""
		if me.JSONKind != 0 {
			what = me.JSONKind.String()
		}
		if me.GoType != nil {
			want = " (want " + me.GoType.String() + ")"
		}
		return fmt.Errorf("%s: a JSON %s does not fit%s", pointerPath(me.JSONPointer), what, want)
	}
	var se *jsontext.SyntacticError
	if err == nil || !errors.As(err, &se) {
		return err
	}
	path := pointerPath(se.JSONPointer)
	switch {
	case errors.Is(err, jsontext.ErrDuplicateName):
		return fmt.Errorf("%w: %s: field %q given twice", errInvalidFrame, pointerPath(se.JSONPointer.Parent()), truncate(se.JSONPointer.LastToken(), 32))
	case strings.Contains(se.Err.Error(), "invalid UTF-8"):
		return fmt.Errorf("%w: %s: not valid UTF-8", errInvalidFrame, path)
	}
	return err
}

// pointerPath writes a JSON pointer as the protocol's errors name fields:
// "/events/3/time" is "events[3].time", "" is "frame".
func pointerPath(p jsontext.Pointer) string {
	var b strings.Builder
	for tok := range p.Tokens() {
		if _, err := strconv.Atoi(tok); err == nil {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(truncate(tok, 32))
	}
	if b.Len() == 0 {
		return "frame"
	}
	return b.String()
}

// classify explains a frame the one-pass decoder refused: a frame of an
// unknown type is reported as such even when its fields would not fit the
// known frames; anything else is malformed.
func classify(data []byte, decodeErr error) (Frame, error) {
	var env struct {
		Type *string `json:"type"`
	}
	if err := jsonv2.Unmarshal(data, &env); err != nil && !errors.Is(err, jsontext.ErrDuplicateName) {
		return Frame{}, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if env.Type == nil {
		return Frame{}, fmt.Errorf("%w: no \"type\" field", ErrMalformed)
	}
	f := Frame{Type: *env.Type}
	switch f.Type {
	case TypeHello, TypeEvents, TypeAck, TypePing, TypePong, TypeResync, TypeBye, TypeWelcome, TypeDecisions, TypeResynced, TypeError:
		return f, fmt.Errorf("%w: %s: %v", ErrMalformed, f.Type, decodeErr)
	}
	return f, fmt.Errorf("%w %q", ErrUnknownType, truncate(f.Type, 64))
}

// truncate shortens client-supplied text before it is echoed or logged.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
