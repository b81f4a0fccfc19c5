package bridge

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/specbridge/specbridge/internal/authguard"
	"github.com/specbridge/specbridge/speculators"
)

// The session core: one AM session's protocol with no socket and no wall
// clock. handle takes a frame (decoded by the transport) at the time it was
// read, Tick decides at a time, Notices feeds the fault analyzer's queued
// node events; each leaves the frames to send in out (in order) and, when
// the session must end, the code of its fatal error in closeCode. Store
// I/O never runs here: the analyzer's calls go to the server's feed writer
// (afterTurn, outside the fair queue's turns). The transport shell
// (session.go) is the only code that touches the websocket; no file of the
// core imports net, net/http or the websocket package (core_test.go checks).

// itemKind says what the reader delivered.
type itemKind uint8

const (
	itemFrame itemKind = iota
	itemBadFrame
	itemTooLarge
	itemBinary
	itemClosed
	itemThrottled // the reader holds back for wait (throttleNotice)
)

// item is one thing read from the connection.
type item struct {
	kind   itemKind
	frame  Frame
	err    error
	size   int64
	readAt time.Time
	turn   *turn // the turn the frame was read in; run ends it
	wait   time.Duration
	rate   float64 // itemThrottled: the session's event budget
}

// core is the protocol state of one session.
type core struct {
	srv    *Server
	name   string
	remote string
	log    logrus.FieldLogger
	ctx    context.Context // ends with the session (the feed writer's waits)
	// stop ends the session from another goroutine (a newer session of
	// the job took over); nil in a core without a transport.
	stop func(code, text string)

	helloSeen atomic.Bool
	live      liveSession // what Server.Live shows

	// Owned by the goroutine that calls handle, Tick and Notices.
	now          time.Time // of the input being handled (the server's clock)
	out          []any     // frames to send, in order
	closeCode    string    // set by fatal: the session ends once out is sent
	job          string
	key          jobKey
	info         speculators.JobInfo
	policy       string
	overrides    map[string]string
	seed         uint64
	engine       *speculators.Engine
	nextDecision uint64
	offsetMS     int64 // AM clock minus server clock
	strikes      *strikes
	ev           speculators.Event // scratch for onEvents
	// Fault analyzer (feed.go): node events queued by deliver, the
	// subscription, tasks dropped, and whether the job was ended there.
	noticeMu    sync.Mutex
	notices     []speculators.Event
	noticeWake  chan struct{}
	unsubscribe func()
	dropped     map[speculators.TaskID]bool
	jobEnded    bool
	byeCounted  bool // the job's bye is in jobs_ended_total (once per session)
	// Job order (order.go): the job's priority is published, and no more
	// will be (the job is over or the session ending).
	orderPublished, orderOver bool
	// noticesDropped counts notices past maxQueuedNotices (noticeMu).
	noticesDropped int
	// Passed to the feed writer after the turn (afterTurn): the turn's
	// accepted events, whether the turn ended the job, and whether a bye
	// did (it is told if the end is not durable).
	feedBatch           []speculators.Event
	endQueued, byeWaits bool

	memory int64 // estimated job memory reserved (Server.memory); released by Server.release
	// copiesHeld is this job's running copies as last added to
	// Server.copies (syncCopies); taken back by Server.release.
	copiesHeld int64
	// Guarded by srv.mu: the session holds a place among the connections
	// yet to say hello (pending) or among the admitted sessions.
	pending, admitted bool
}

// newCore makes the core of session number id from remote.
func (srv *Server) newCore(ctx context.Context, id uint64, remote string) *core {
	name := fmt.Sprintf("s-%06d-%06x", id, srv.cfg.Now().UnixNano()&0xffffff)
	return &core{srv: srv, name: name, remote: remote, ctx: ctx,
		log:     srv.log.WithFields(logrus.Fields{"session": name, "remote": remote}),
		strikes: newStrikes(srv.cfg.MaxStrikes, srv.cfg.StrikeWindow)}
}

// Tick asks the engine for decisions at now (the decide interval).
func (s *core) Tick(now time.Time) error {
	if s.engine == nil {
		return nil
	}
	s.now = now
	return s.decideAndSend(time.Time{})
}

// Notices feeds the fault analyzer's queued node events to the engine at
// now and decides.
func (s *core) Notices(now time.Time) error {
	s.now = now
	return s.onNotices()
}

// write queues a frame to send.
func (s *core) write(v any) error {
	s.out = append(s.out, v)
	return nil
}

// strike answers a bad frame and ends the session after too many.
func (s *core) strike(code, text string) error {
	if s.strikes.add(s.now) {
		return s.fatal(CodeAbuse, fmt.Sprintf("more than %d bad frames within %s (last: %s: %s)", s.srv.cfg.MaxStrikes, s.srv.cfg.StrikeWindow, code, text))
	}
	return s.sendError(ErrorFrame{Code: code, Text: text})
}

func (s *core) sendError(f ErrorFrame) error {
	f.Type = TypeError
	s.srv.metrics.errorsSent.WithLabelValues(f.Code).Inc()
	return s.write(f)
}

// fatal queues a fatal error frame and ends the session; it returns errEnd.
func (s *core) fatal(code, text string) error {
	_ = s.sendError(ErrorFrame{Code: code, Text: text, Fatal: true})
	s.closeCode = code
	return errEnd
}

// errEnd ends the session after a fatal frame has been written or the
// connection is gone.
var errEnd = errors.New("session ended")

// handle processes one item; an error ends the session.
// handle runs one frame (or a frame the transport could not take: too
// large, binary, malformed) through the protocol at it.readAt; the frames
// to send are in s.out. An error ends the session (errEnd after a fatal
// frame).
func (s *core) handle(it item) error {
	s.now = it.readAt
	m := s.srv.metrics
	switch it.kind {
	case itemTooLarge, itemBinary:
		if s.engine == nil {
			m.frames.WithLabelValues("other").Inc()
			return s.fatal(CodeHelloRequired, "the first frame must be a JSON text hello")
		}
	}
	switch it.kind {
	case itemTooLarge:
		m.frames.WithLabelValues("other").Inc()
		return s.strike(CodeFrameTooLarge, fmt.Sprintf("frame of %d bytes is over the limit of %d", it.size, s.srv.cfg.MaxFrameBytes))
	case itemBinary:
		m.frames.WithLabelValues("other").Inc()
		return s.strike(CodeBinaryFrame, "binary frames are not part of the protocol; send JSON text frames")
	case itemBadFrame:
		m.frames.WithLabelValues(frameLabel(it.frame.Type)).Inc()
		if s.engine == nil && errors.Is(it.err, errInvalidFrame) {
			s.srv.metrics.sessionsOpened.WithLabelValues(CodeBadJob).Inc()
			return s.fatal(CodeBadJob, it.err.Error())
		}
		if s.engine == nil {
			return s.fatal(CodeHelloRequired, fmt.Sprintf("the first frame must be a hello: %v", it.err))
		}
		if errors.Is(it.err, ErrUnknownType) {
			return s.strike(CodeUnknownType, it.err.Error())
		}
		return s.strike(CodeMalformedFrame, it.err.Error())
	}
	f := it.frame
	m.frames.WithLabelValues(frameLabel(f.Type)).Inc()
	if s.engine == nil && f.Type != TypeHello {
		return s.fatal(CodeHelloRequired, fmt.Sprintf("the first frame must be a hello, not %q", truncate(f.Type, 32)))
	}
	switch f.Type {
	case TypeHello:
		if s.engine != nil {
			return s.sendError(ErrorFrame{Code: CodeDuplicateHello, Text: "this session already said hello; open a new connection for another job"})
		}
		return s.onHello(f.Hello, it.readAt)
	case TypeEvents:
		return s.onEvents(f.Events, it.readAt)
	case TypeAck:
		return s.onAck(f.Ack)
	case TypePing:
		s.observeClock(f.Ping.Now, it.readAt)
		return s.write(Ping{Type: TypePong, Nonce: f.Ping.Nonce, Now: s.now.UnixMilli()})
	case TypePong:
		return nil
	case TypeResync:
		return s.onResync(f.Resync, it.readAt)
	case TypeBye:
		s.onBye(f.Bye)
		return nil
	case TypeError:
		s.log.Warn("client reported an error")
		return nil
	default:
		return s.strike(CodeUnknownType, fmt.Sprintf("clients do not send %q frames", f.Type))
	}
}

// helloPlan is what a hello asks for, once screened.
type helloPlan struct {
	key   jobKey
	name  string // the policy
	model taskModel
	info  speculators.JobInfo
	seed  uint64
}

// screenHello checks a hello before anything is built from it: the token
// first (a client without one learns nothing, not even which versions the
// sidecar speaks; checked and counted at once by authguard, so that
// connections opened first and tried together get no more tries than the
// address's budget), the version, every number and name (checkHello), the
// policy and its parameters, the task model. It returns the refusal's code
// and text, or "".
func (s *core) screenHello(h *Hello) (p helloPlan, code, text string) {
	switch s.srv.authFail.Check(s.remote, h.Token, s.srv.authorized) {
	case authguard.Limited:
		return p, CodeRateLimited, "too many failed authentications from this address; try later"
	case authguard.Failed:
		return p, CodeUnauthorized, "bad or missing token" // logged by sample (authguard)
	}
	if h.Version != Version {
		return p, CodeUnsupportedVersion, fmt.Sprintf("protocol version %d is not supported; this sidecar speaks version %d", h.Version, Version)
	}
	if p.key, code, text = checkHello(h, s.srv.cfg.MaxTasksPerJob); code != "" {
		return p, code, text
	}
	p.name = h.Speculator
	if p.name == "" {
		p.name = "none"
	}
	reg := s.srv.cfg.Registry
	if _, ok := reg.Lookup(p.name); !ok {
		return p, CodeUnknownSpeculator, fmt.Sprintf("unknown speculator %q", truncate(p.name, 64))
	}
	var err error
	var meanPrior speculators.Prior
	if s.srv.cfg.TaskMeanFromPrior {
		meanPrior = s.srv.prior()
	}
	if p.model, err = jobTaskModel(h, meanPrior); err != nil {
		return p, CodeBadJob, err.Error()
	}
	if _, err := reg.Params(p.name, h.Params); err != nil {
		s.srv.metrics.rejectedParams.WithLabelValues(p.name).Inc()
		return p, CodeBadParameter, err.Error()
	}
	p.info = speculators.JobInfo{ID: h.Job, Maps: h.Maps, Reduces: h.Reduces, MapInputBytes: h.MapInputBytes,
		ReduceInputBytes: h.ReduceInputBytes, Slots: s.srv.jobSlots(h), Start: h.Start, Deadline: h.Deadline, ErrorBound: h.ErrorBound,
		TaskMillis: p.model.meanMS, TailIndex: p.model.tailIndex, Capacity: s.srv.cfg.Capacity,
		Copies: s.srv.copiesRunning(), JobOrder: s.srv.cfg.JobOrder != nil}
	hash := fnv.New64a()
	_, _ = hash.Write([]byte(h.Job))
	p.seed = hash.Sum64()
	return p, "", ""
}

// placeHello gives a screened hello a session place and reserves its job's
// estimated memory; it returns the refusal's code and text, or "".
func (s *core) placeHello(h *Hello) (code, text string) {
	if !s.srv.admit(s) {
		return CodeTooManySessions, fmt.Sprintf("the sidecar holds its maximum of %d sessions", s.srv.cfg.MaxSessions)
	}
	need := jobMemory(h.Maps, h.Reduces)
	ok, reserved := s.srv.memory.reserve(need)
	if !ok {
		return CodeMemoryBudget, fmt.Sprintf("the job's estimated %.1f MiB (%d tasks) does not fit the sidecar's job memory budget of %.1f MiB (%.1f MiB held by open sessions; serve --max-job-memory)",
			mib(need), h.Maps+h.Reduces, mib(s.srv.cfg.MaxJobMemory), mib(reserved))
	}
	s.memory = need
	s.srv.metrics.jobMemory.Set(float64(reserved))
	return "", ""
}

// onHello screens a hello, places it, builds the job's engine and welcomes
// the session, or refuses it with a fatal error frame.
func (s *core) onHello(h *Hello, readAt time.Time) error {
	m := s.srv.metrics
	refuse := func(code, text string) error {
		s.srv.helloRefused(s)
		m.sessionsOpened.WithLabelValues(code).Inc()
		if slices.Contains(fallbackCodes, code) {
			m.fallbacks.WithLabelValues(code).Inc()
			// The AM logs this too, but the operator watches the sidecar.
			s.log.WithFields(logrus.Fields{"job": truncate(h.Job, 64), "user": truncate(h.User, 64), "speculator": truncate(h.Speculator, 64),
				"code": code, "reason": text}).Warn("job refused an engine; it runs under Hadoop's own speculator")
		}
		return s.fatal(code, text)
	}
	p, code, text := s.screenHello(h)
	if code == "" {
		code, text = s.placeHello(h)
	}
	if code != "" {
		return refuse(code, text)
	}
	engine, err := s.srv.cfg.Registry.NewEngineWith(p.info, p.name, h.Params, p.seed, s.srv.prior())
	if err != nil {
		return refuse(CodeBadJob, err.Error()) // the memory goes back with the session place (helloRefused)
	}
	s.job, s.key, s.info, s.policy, s.overrides, s.seed, s.engine = h.Job, p.key, p.info, p.name, h.Params, p.seed, engine
	s.observeClock(h.Now, readAt)
	s.log = s.log.WithFields(logrus.Fields{"job": h.Job, "speculator": p.name})
	s.helloSeen.Store(true)
	s.srv.claimJob(h.Job, s)
	s.subscribe()
	m.sessionsOpened.WithLabelValues("accepted").Inc()
	s.log.WithFields(logrus.Fields{"user": h.User, "queue": h.Queue, "maps": h.Maps, "reduces": h.Reduces,
		"task_mean_ms": p.model.meanMS, "task_tail_index": p.model.tailIndex, "task_model": p.model.source}).Info("session opened")
	cfg := &s.srv.cfg
	effective := engine.Params.Map()
	s.publishHello(h, effective)
	return s.write(Welcome{Type: TypeWelcome, Version: Version, Session: s.name, Speculator: p.name,
		Params: effective, DecideIntervalMS: cfg.DecideInterval.Milliseconds(),
		MaxFrameBytes: cfg.MaxFrameBytes, MaxEventsPerSecond: cfg.MaxEventsPerSecond,
		TaskMeanMS: p.model.meanMS, TaskTailIndex: p.model.tailIndex, TaskModelSource: p.model.source})
}

func (s *core) onEvents(f *Events, readAt time.Time) error {
	s.observeClock(f.Now, readAt)
	m := s.srv.metrics
	rejected, observed := 0, 0
	// --log-level trace logs every event accepted, with the AM's time of
	// it and when its frame was read: what a policy saw live, and when.
	tracer, trace := s.log.(*logrus.Entry)
	trace = trace && tracer.Logger.IsLevelEnabled(logrus.TraceLevel)
	ev := &s.ev // reused: an Event escapes into Observe, and this runs per event
	for i := range f.Events {
		var err error
		*ev, err = toEvent(s.key, &f.Events[i])
		if err == nil {
			err = s.engine.Observe(ev)
		}
		if err != nil {
			m.eventsRejected.Inc()
			if rejected < maxEventErrorsPerBatch {
				idx := i // not &i: that would move i to the heap on every iteration
				if err := s.sendError(ErrorFrame{Code: CodeEventRejected, Text: err.Error(), Seq: f.Seq, Index: &idx}); err != nil {
					return err
				}
			}
			rejected++
			continue
		}
		observed++
		if trace {
			tracer.WithFields(logrus.Fields{"kind": ev.Kind.String(), "attempt": ev.Attempt.String(), "at": ev.Time,
				"progress": ev.Progress, "read_at": readAt.UnixMilli()}).Trace("event")
		}
		s.feedObserve(ev)
	}
	*ev = speculators.Event{}
	s.keepLearned()
	m.events.Add(float64(observed))
	s.publishProgress(observed)
	if rejected > maxEventErrorsPerBatch {
		text := fmt.Sprintf("%d more events of this batch were rejected", rejected-maxEventErrorsPerBatch)
		if err := s.sendError(ErrorFrame{Code: CodeEventRejected, Text: text, Seq: f.Seq}); err != nil {
			return err
		}
	}
	s.checkJobEnded()
	return s.decideAndSend(readAt)
}

// keepLearned hands what the policy learned for later jobs
// (speculators.Engine.Learned) to the server's Knowledge.
func (s *core) keepLearned() {
	l := s.engine.Learned()
	if l.Empty() || s.srv.cfg.Knowledge == nil {
		return
	}
	if err := s.srv.cfg.Knowledge.Keep(l); err != nil {
		s.log.WithError(err).Error("keep what the policy learned")
	}
}

func (s *core) onAck(a *Ack) error {
	for _, e := range a.Acks {
		if e.ID == 0 || e.ID > s.nextDecision {
			if err := s.sendError(ErrorFrame{Code: CodeUnknownDecision, Text: fmt.Sprintf("no decision %d was sent in this session", e.ID)}); err != nil {
				return err
			}
			continue
		}
		switch e.Result {
		case AckApplied:
			s.log.WithField("decision", e.ID).Debug("decision applied")
		case AckRefused:
			s.log.WithFields(logrus.Fields{"decision": e.ID, "reason": truncate(e.Reason, 200)}).Info("decision refused by the AM")
		default:
			if err := s.strike(CodeMalformedFrame, fmt.Sprintf("ack %d: result %q is not applied or refused", e.ID, truncate(e.Result, 32))); err != nil {
				return err
			}
			continue
		}
		s.srv.metrics.acks.WithLabelValues(e.Result).Inc()
		s.publishAck(e.ID, e.Result, e.Reason)
	}
	return nil
}

func (s *core) onResync(r *Resync, readAt time.Time) error {
	s.observeClock(r.Now, readAt)
	engine, err := s.srv.cfg.Registry.NewEngineWith(s.info, s.policy, s.overrides, s.seed, s.srv.prior())
	if err != nil {
		return s.fatal(CodeBadJob, fmt.Sprintf("rebuild engine: %v", err))
	}
	evs, errs := snapshotEvents(s.key, r)
	rejectedAttempts := map[int]bool{}
	for _, e := range errs {
		rejectedAttempts[e.index] = true
	}
	for i := range evs {
		if err := engine.Observe(&evs[i]); err != nil {
			errs = append(errs, indexedError{-1, err})
		}
	}
	for n, e := range errs {
		if n >= maxEventErrorsPerBatch {
			break
		}
		f := ErrorFrame{Code: CodeEventRejected, Text: "resync: " + e.err.Error()}
		if e.index >= 0 {
			idx := e.index
			f.Index = &idx
		}
		if err := s.sendError(f); err != nil {
			return err
		}
	}
	s.srv.metrics.eventsRejected.Add(float64(len(errs)))
	s.srv.metrics.events.Add(float64(len(evs)))
	s.engine = engine
	s.keepLearned()
	s.resyncFeed(evs)
	s.log.WithFields(logrus.Fields{"attempts": len(r.Attempts), "rejected": len(errs)}).Info("state rebuilt from a resync")
	if err := s.write(Resynced{Type: TypeResynced, Attempts: len(r.Attempts), Rejected: len(errs)}); err != nil {
		return err
	}
	return s.decideAndSend(readAt)
}

// observeClock records the offset between the AM's clock and the server's.
func (s *core) observeClock(amNow int64, readAt time.Time) {
	if amNow > 0 {
		s.offsetMS = amNow - readAt.UnixMilli()
	}
}

// amNow is the AM's clock as the session estimates it.
func (s *core) amNow() speculators.Time {
	return s.now.UnixMilli() + s.offsetMS
}

// decideAndSend asks the engine for decisions and sends them: the engine
// returns each decision once (Engine.Decide de-duplicates, PROTOCOL.md,
// Decisions). readAt is when the frame that caused it was read (zero for a
// tick).
func (s *core) decideAndSend(readAt time.Time) error {
	m := s.srv.metrics
	now := s.amNow()
	s.syncCopies()
	t0 := time.Now()
	ds := s.engine.Decide(now)
	m.decideSeconds.Observe(time.Since(t0).Seconds())
	s.keepLearned()
	s.publishOrder(now)
	var out []WireDecision
	for i := range ds {
		d := &ds[i]
		s.noteDecision(d)
		s.nextDecision++
		out = append(out, toWireDecision(s.key, s.nextDecision, *d))
		m.decisions.WithLabelValues(s.policy, d.Kind.String()).Inc()
	}
	if len(out) == 0 {
		s.publishProgress(0)
		return nil
	}
	s.publishProgress(0)
	if err := s.write(Decisions{Type: TypeDecisions, Time: now, Decisions: out}); err != nil {
		return err
	}
	s.publishDecisions(out)
	if !readAt.IsZero() {
		m.batchToDecision.Observe(s.srv.cfg.Now().Sub(readAt).Seconds())
	}
	return nil
}

// syncCopies adds the change in this job's running copies since the last
// sync to Server.copies, before each Decide, so that every job's view of
// the cluster (JobInfo.Copies) counts the copies the other sessions' jobs
// had running at their last batch, as the simulator's view counts every
// job's copies at an instant.
func (s *core) syncCopies() {
	var n int64
	for _, c := range s.engine.Job.SpeculativeRunning {
		n += int64(c)
	}
	if d := n - s.copiesHeld; d != 0 {
		s.srv.copies.Add(d)
		s.copiesHeld = n
	}
}
