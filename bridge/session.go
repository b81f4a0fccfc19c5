package bridge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"github.com/sirupsen/logrus"

	"github.com/specbridge/specbridge/speculators"
)

// keepReadBuf is the largest read buffer recycled between frames.
const keepReadBuf = 64 << 10

// readBufs recycles frame read buffers across sessions: a frame is decoded
// (copying what the decoder keeps) as soon as it is read, so an idle session
// holds no buffer.
var readBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

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

// session is one AM connection. The reader goroutine reads and decodes
// frames; run owns the engine and is the only writer.
type session struct {
	srv    *Server
	conn   *websocket.Conn
	name   string
	remote string
	log    logrus.FieldLogger
	ctx    context.Context
	cancel context.CancelFunc
	in     chan item

	stopOnce sync.Once
	stopCode string
	stopText string

	helloSeen atomic.Bool
	live      liveSession // what Server.Live shows

	// Owned by run.
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
	cur          *turn             // the turn being handled, if any
	outbox       [][]byte          // frames written during cur, sent by endTurn

	turnTag turnTag // fair-queue finish tag (turns.go)

	// Fault analyzer (feed.go): node events queued by deliver, the
	// subscription, tasks dropped, and whether the job was ended there.
	noticeMu    sync.Mutex
	notices     []speculators.Event
	noticeWake  chan struct{}
	unsubscribe func()
	dropped     map[speculators.TaskID]bool
	jobEnded    bool
	byeCounted  bool // the job's bye is in jobs_ended_total (once per session)
}

func newSession(srv *Server, conn *websocket.Conn, id uint64, remote string) *session {
	ctx, cancel := context.WithCancel(context.Background())
	name := fmt.Sprintf("s-%06d-%06x", id, srv.cfg.Now().UnixNano()&0xffffff)
	return &session{
		srv: srv, conn: conn, name: name, remote: remote, ctx: ctx, cancel: cancel, in: make(chan item),
		log:     srv.log.WithFields(logrus.Fields{"session": name, "remote": remote}),
		strikes: newStrikes(srv.cfg.MaxStrikes, srv.cfg.StrikeWindow),
	}
}

// stop asks the session to end with a fatal error frame; safe from any
// goroutine, and only the first call counts.
func (s *session) stop(code, text string) {
	s.stopOnce.Do(func() {
		s.stopCode, s.stopText = code, text
		s.cancel()
	})
}

// errEnd ends the session after a fatal frame has been written or the
// connection is gone.
var errEnd = errors.New("session ended")

// run serves the session until the client leaves, a fatal error, or stop.
func (s *session) run() {
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		s.read()
	}()
	defer func() {
		s.cancel()
		_ = s.conn.Close()
		<-readerDone
	}()
	var tick <-chan time.Time
	var ticker *time.Ticker
	defer func() {
		if ticker != nil {
			ticker.Stop()
		}
	}()
	for {
		var err error
		select {
		case <-s.ctx.Done():
			s.stopOnce.Do(func() {}) // stop's fields are now final
			if s.stopCode != "" {
				s.log.WithField("code", s.stopCode).Info("closing session: ", s.stopText)
				s.fatal(s.stopCode, s.stopText)
			}
			return
		case it := <-s.in:
			s.cur = it.turn
			err = s.guard(func() error { return s.handle(it) })
			if e := s.endTurn(); err == nil {
				err = e
			}
			if err == nil && ticker == nil && s.engine != nil {
				ticker = time.NewTicker(s.srv.cfg.DecideInterval)
				tick = ticker.C
			}
		case <-tick:
			err = s.guard(func() error { return s.decideAndSend(time.Time{}) })
		case <-s.noticeWake:
			err = s.guard(s.onNotices)
		}
		if err != nil {
			if !errors.Is(err, errEnd) {
				s.log.WithError(err).Info("session ended")
			}
			return
		}
	}
}

// guard turns a panic in a policy into a fatal error of this session only.
func (s *session) guard(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.WithField("panic", r).Errorf("internal error, closing session\n%s", debug.Stack())
			s.srv.metrics.fallbacks.WithLabelValues(CodeInternal).Inc()
			s.fatal(CodeInternal, "internal error in the sidecar; the shim falls back")
			err = errEnd
		}
	}()
	return f()
}

// read delivers frames to run until the connection fails or ctx ends,
// holding back while the session is over its event budget.
func (s *session) read() {
	cfg := &s.srv.cfg
	budget := newEventBudget(cfg.MaxEventsPerSecond, time.Now())
	var noticed time.Time // when the last throttled notice was queued
	s.conn.SetReadLimit(cfg.MaxFrameBytes * hardLimitFactor)
	for {
		timeout := cfg.IdleTimeout
		if !s.helloSeen.Load() {
			timeout = cfg.HandshakeTimeout
		}
		_ = s.conn.SetReadDeadline(time.Now().Add(timeout))
		mt, r, err := s.conn.NextReader()
		if err != nil {
			select {
			case s.in <- item{kind: itemClosed, err: err}:
			case <-s.ctx.Done():
			}
			return
		}
		it, ok := s.readItem(mt, r)
		if !ok {
			return
		}
		tn := it.turn
		// Counted before run gets the item: run recycles its events.
		n := 1
		if it.kind == itemFrame && it.frame.Events != nil {
			n += len(it.frame.Events.Events)
		}
		if tn != nil {
			tn.units = float64(n) // the fair queue's cost of the turn
		}
		select {
		case s.in <- it:
		case <-s.ctx.Done():
			if tn != nil {
				tn.end()
			}
			return
		}
		if tn != nil { // this session asks for no other turn meanwhile
			select {
			case <-tn.done:
			case <-s.ctx.Done():
				return
			}
		}
		if it.kind == itemClosed {
			return
		}
		now := time.Now()
		if n > 1 { // events: the session's fair share of the server's budget
			budget.setRate(s.srv.fair.rate(s, now))
		}
		if wait := budget.take(n, now); wait > 0 {
			// Backpressure: the AM's frames wait in its own TCP buffers.
			s.srv.metrics.throttled.Add(wait.Seconds())
			if now.Sub(noticed) >= throttleNoticeEvery {
				noticed = now
				select {
				case s.in <- item{kind: itemThrottled, wait: wait, rate: budget.rate}:
				case <-s.ctx.Done():
					return
				}
			}
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-s.ctx.Done():
				t.Stop()
				return
			}
		}
	}
}

// readItem reads the body of a frame NextReader returned and then, in a
// turn of the server's fair queue (run ends it), validates and decodes it.
// The body is read before the turn: a client trickling a frame's bytes
// must not hold a slot. It returns false if the session ended meanwhile.
func (s *session) readItem(mt int, r io.Reader) (item, bool) {
	max := s.srv.cfg.MaxFrameBytes
	// The buffer is recycled once the frame is decoded: decoding copies what
	// it keeps.
	rb := readBufs.Get().(*bytes.Buffer)
	defer func() {
		if rb.Cap() <= keepReadBuf { // do not keep a large frame's buffer
			rb.Reset()
			readBufs.Put(rb)
		}
	}()
	if _, err := rb.ReadFrom(io.LimitReader(r, max+1)); err != nil {
		return item{kind: itemClosed, err: err}, true
	}
	data := rb.Bytes()
	readAt := s.srv.cfg.Now()
	if int64(len(data)) > max {
		rest, err := io.Copy(io.Discard, r)
		if err != nil {
			return item{kind: itemClosed, err: fmt.Errorf("frame over the hard limit of %d bytes: %w", max*hardLimitFactor, err)}, true
		}
		return item{kind: itemTooLarge, size: int64(len(data)) + rest, readAt: readAt}, true
	}
	if mt != websocket.TextMessage {
		return item{kind: itemBinary, size: int64(len(data)), readAt: readAt}, true
	}
	tn, waited, err := s.srv.turns.acquire(s.ctx, &s.turnTag, len(data))
	if err != nil {
		return item{}, false
	}
	s.srv.metrics.turnWait.Observe(waited.Seconds())
	if err := validateFrame(data); err != nil {
		return item{kind: itemBadFrame, err: err, readAt: readAt, turn: tn}, true
	}
	f, err := DecodeFrame(data)
	if err != nil {
		return item{kind: itemBadFrame, frame: f, err: err, readAt: readAt, turn: tn}, true
	}
	return item{kind: itemFrame, frame: f, readAt: readAt, turn: tn}, true
}

// handle processes one item; an error ends the session.
func (s *session) handle(it item) error {
	m := s.srv.metrics
	switch it.kind {
	case itemClosed:
		if websocket.IsCloseError(it.err, websocket.CloseNormalClosure, websocket.CloseGoingAway) {
			s.log.Debug("client closed the session")
			return errEnd
		}
		return fmt.Errorf("read: %w", it.err)
	case itemThrottled:
		return s.sendError(throttleNotice(it.wait, it.rate))
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
		return s.write(Ping{Type: TypePong, Nonce: f.Ping.Nonce, Now: s.srv.cfg.Now().UnixMilli()})
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

func (s *session) onHello(h *Hello, readAt time.Time) error {
	m := s.srv.metrics
	refuse := func(code, text string) error {
		m.sessionsOpened.WithLabelValues(code).Inc()
		if slices.Contains(fallbackCodes, code) {
			m.fallbacks.WithLabelValues(code).Inc()
			// The AM logs this too, but the operator watches the sidecar.
			s.log.WithFields(logrus.Fields{"job": truncate(h.Job, 64), "user": truncate(h.User, 64), "speculator": truncate(h.Speculator, 64),
				"code": code, "reason": text}).Warn("job refused an engine; it runs under Hadoop's own speculator")
		}
		return s.fatal(code, text)
	}
	if h.Version != Version {
		return refuse(CodeUnsupportedVersion, fmt.Sprintf("protocol version %d is not supported; this sidecar speaks version %d", h.Version, Version))
	}
	if !s.srv.authorized(h.Token) {
		// Logged by sample, and rate-limited per address (authguard).
		s.srv.authFail.Failed(s.remote, h.Token)
		return refuse(CodeUnauthorized, "bad or missing token")
	}
	key, err := parseJobID(h.Job)
	if err != nil {
		return refuse(CodeBadJob, err.Error())
	}
	if h.Maps < 0 || h.Reduces < 0 || h.Maps+h.Reduces > s.srv.cfg.MaxTasksPerJob {
		return refuse(CodeBadJob, fmt.Sprintf("%d maps and %d reduces: counts must be >= 0 and total at most %d", h.Maps, h.Reduces, s.srv.cfg.MaxTasksPerJob))
	}
	if h.Slots < 0 {
		return refuse(CodeBadJob, fmt.Sprintf("slots %d: want the cluster's containers, or 0 (or absent) when unknown", h.Slots))
	}
	if h.ErrorBound < 0 || h.ErrorBound >= 1 || h.Deadline < 0 {
		return refuse(CodeBadJob, fmt.Sprintf("approximation bounds deadline %d, error_bound %g: want deadline >= 0 (0: none) and 0 <= error_bound < 1", h.Deadline, h.ErrorBound))
	}
	name := h.Speculator
	if name == "" {
		name = "none"
	}
	reg := s.srv.cfg.Registry
	if _, ok := reg.Lookup(name); !ok {
		return refuse(CodeUnknownSpeculator, fmt.Sprintf("unknown speculator %q", truncate(name, 64)))
	}
	model, err := jobTaskModel(h, s.srv.prior())
	if err != nil {
		return refuse(CodeBadJob, err.Error())
	}
	info := speculators.JobInfo{ID: h.Job, Maps: h.Maps, Reduces: h.Reduces, MapInputBytes: h.MapInputBytes,
		ReduceInputBytes: h.ReduceInputBytes, Slots: h.Slots, Start: h.Start, Deadline: h.Deadline, ErrorBound: h.ErrorBound,
		TaskMillis: model.meanMS, TailIndex: model.tailIndex, Capacity: s.srv.cfg.Capacity}
	hash := fnv.New64a()
	_, _ = hash.Write([]byte(h.Job))
	seed := hash.Sum64()
	if _, err := reg.Params(name, h.Params); err != nil {
		m.rejectedParams.WithLabelValues(name).Inc()
		return refuse(CodeBadParameter, err.Error())
	}
	engine, err := reg.NewEngineWith(info, name, h.Params, seed, s.srv.prior())
	if err != nil {
		return refuse(CodeBadJob, err.Error())
	}
	s.job, s.key, s.info, s.policy, s.overrides, s.seed, s.engine = h.Job, key, info, name, h.Params, seed, engine
	s.observeClock(h.Now, readAt)
	s.log = s.log.WithFields(logrus.Fields{"job": h.Job, "speculator": name})
	s.helloSeen.Store(true)
	s.srv.claimJob(h.Job, s)
	s.subscribe()
	m.sessionsOpened.WithLabelValues("accepted").Inc()
	s.log.WithFields(logrus.Fields{"user": h.User, "queue": h.Queue, "maps": h.Maps, "reduces": h.Reduces,
		"task_mean_ms": model.meanMS, "task_tail_index": model.tailIndex, "task_model": model.source}).Info("session opened")
	cfg := &s.srv.cfg
	effective := engine.Params.Map()
	s.publishHello(h, effective)
	return s.write(Welcome{Type: TypeWelcome, Version: Version, Session: s.name, Speculator: name,
		Params: effective, DecideIntervalMS: cfg.DecideInterval.Milliseconds(),
		MaxFrameBytes: cfg.MaxFrameBytes, MaxEventsPerSecond: cfg.MaxEventsPerSecond,
		TaskMeanMS: model.meanMS, TaskTailIndex: model.tailIndex, TaskModelSource: model.source})
}

func (s *session) onEvents(f *Events, readAt time.Time) error {
	s.observeClock(f.Now, readAt)
	m := s.srv.metrics
	rejected, observed := 0, 0
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
func (s *session) keepLearned() {
	l := s.engine.Learned()
	if l.Empty() || s.srv.cfg.Knowledge == nil {
		return
	}
	if err := s.srv.cfg.Knowledge.Keep(l); err != nil {
		s.log.WithError(err).Error("keep what the policy learned")
	}
}

func (s *session) onAck(a *Ack) error {
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

func (s *session) onResync(r *Resync, readAt time.Time) error {
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
func (s *session) observeClock(amNow int64, readAt time.Time) {
	if amNow > 0 {
		s.offsetMS = amNow - readAt.UnixMilli()
	}
}

// amNow is the AM's clock as the session estimates it.
func (s *session) amNow() speculators.Time {
	return s.srv.cfg.Now().UnixMilli() + s.offsetMS
}

// decideAndSend asks the engine for decisions and sends them: the engine
// returns each decision once (Engine.Decide de-duplicates, PROTOCOL.md,
// Decisions). readAt is when the frame that caused it was read (zero for a
// tick).
func (s *session) decideAndSend(readAt time.Time) error {
	m := s.srv.metrics
	now := s.amNow()
	t0 := time.Now()
	ds := s.engine.Decide(now)
	m.decideSeconds.Observe(time.Since(t0).Seconds())
	s.keepLearned()
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
