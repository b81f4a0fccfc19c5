package bridge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// keepReadBuf is the largest read buffer recycled between frames.
const keepReadBuf = 64 << 10

// readBufs recycles frame read buffers across sessions: a frame is decoded
// (copying what the decoder keeps) as soon as it is read, so an idle session
// holds no buffer.
var readBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// session is one AM connection: the transport shell around its protocol
// core (core.go). The reader goroutine reads and decodes frames; run owns
// the core and is the only writer to the connection.
type session struct {
	*core
	conn   *websocket.Conn
	cancel context.CancelFunc
	in     chan item
	// runFree holds a token while run can take a frame: the reader takes it
	// before it asks for a turn, so that it never holds a turn while run
	// waits for the feed writer's room (afterTurn).
	runFree chan struct{}

	stopOnce sync.Once
	stopCode string
	stopText string

	cur     *turn    // the turn being handled, if any
	outbox  [][]byte // frames written during cur, sent by endTurn
	turnTag turnTag  // fair-queue finish tag (turns.go)
}

func newSession(srv *Server, conn *websocket.Conn, id uint64, remote string) *session {
	ctx, cancel := context.WithCancel(context.Background())
	sess := &session{core: srv.newCore(ctx, id, remote), conn: conn, cancel: cancel, in: make(chan item), runFree: make(chan struct{}, 1)}
	sess.core.stop = sess.stop
	sess.runFree <- struct{}{}
	return sess
}

// stop asks the session to end with a fatal error frame; safe from any
// goroutine, and only the first call counts.
func (s *session) stop(code, text string) {
	s.stopOnce.Do(func() {
		s.stopCode, s.stopText = code, text
		s.cancel()
	})
}

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
	var stopTick func()
	defer func() {
		if stopTick != nil {
			stopTick()
		}
	}()
	for {
		var err error
		select {
		case <-s.ctx.Done():
			s.stopOnce.Do(func() {}) // stop's fields are now final
			if s.stopCode != "" {
				s.log.WithField("code", s.stopCode).Info("closing session: ", s.stopText)
				_ = s.flush(s.fatal(s.stopCode, s.stopText))
			}
			return
		case it := <-s.in:
			s.cur = it.turn
			err = s.guard(func() error { return s.serveItem(it) })
			if e := s.endTurn(); err == nil {
				err = e
			}
			if err == nil && s.srv.feedw != nil {
				err = s.flush(s.afterTurn())
			}
			select { // the reader may ask for a turn again
			case s.runFree <- struct{}{}:
			default:
			}
			if err == nil && stopTick == nil && s.engine != nil {
				tick, stopTick = s.srv.cfg.Clock.NewTicker(s.srv.cfg.DecideInterval)
			}
		case <-tick:
			err = s.guard(func() error { return s.flush(s.Tick(s.srv.cfg.Now())) })
		case <-s.noticeWake:
			err = s.guard(func() error { return s.flush(s.Notices(s.srv.cfg.Now())) })
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
			s.out = s.out[:0] // what the turn wrote before the panic is not sent
			_ = s.flush(s.fatal(CodeInternal, "internal error in the sidecar; the shim falls back"))
			err = errEnd
		}
	}()
	return f()
}

// read delivers frames to run until the connection fails or ctx ends,
// holding back while the session is over its event budget.
func (s *session) read() {
	cfg := &s.srv.cfg
	budget := newEventBudget(cfg.MaxEventsPerSecond, cfg.Clock.Now())
	var noticed time.Time // when the last throttled notice was queued
	s.conn.SetReadLimit(cfg.MaxFrameBytes * hardLimitFactor)
	for {
		timeout := cfg.IdleTimeout
		if !s.helloSeen.Load() {
			timeout = cfg.HandshakeTimeout
		}
		_ = s.conn.SetReadDeadline(time.Now().Add(timeout)) // the kernel's: wall clock
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
		now := cfg.Clock.Now()
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
			paid, stop := cfg.Clock.NewTimer(wait)
			select {
			case <-paid:
			case <-s.ctx.Done():
				stop()
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
	select { // run is not waiting outside a turn (afterTurn)
	case <-s.runFree:
	case <-s.ctx.Done():
		return item{}, false
	}
	tn, waited, err := s.srv.turns.acquire(s.ctx, &s.turnTag, len(data))
	if err != nil {
		return item{}, false
	}
	s.srv.metrics.turnWait.Observe(waited.Seconds())
	f, err := DecodeFrame(data)
	if err != nil {
		return item{kind: itemBadFrame, frame: f, err: err, readAt: readAt, turn: tn}, true
	}
	return item{kind: itemFrame, frame: f, readAt: readAt, turn: tn}, true
}

// serveItem handles one item in the run goroutine: the transport's (a
// closed connection, a throttle notice) here, the protocol's in the core.
func (s *session) serveItem(it item) error {
	switch it.kind {
	case itemClosed:
		if websocket.IsCloseError(it.err, websocket.CloseNormalClosure, websocket.CloseGoingAway) {
			s.log.Debug("client closed the session")
			return errEnd
		}
		return fmt.Errorf("read: %w", it.err)
	case itemThrottled:
		return s.flush(s.sendError(throttleNotice(it.wait, it.rate)))
	}
	return s.flush(s.core.handle(it))
}
