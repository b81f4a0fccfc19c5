package bridge

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/gorilla/websocket"
)

// The write side of a session: every frame goes through write, and frames
// written during a turn of the fair queue (turns.go) wait in the outbox
// until the turn has ended.

// strike answers a bad frame and ends the session after too many.
func (s *session) strike(code, text string) error {
	if s.strikes.add(s.srv.cfg.Now()) {
		return s.fatal(CodeAbuse, fmt.Sprintf("more than %d bad frames within %s (last: %s: %s)", s.srv.cfg.MaxStrikes, s.srv.cfg.StrikeWindow, code, text))
	}
	return s.sendError(ErrorFrame{Code: code, Text: text})
}

func (s *session) sendError(f ErrorFrame) error {
	f.Type = TypeError
	s.srv.metrics.errorsSent.WithLabelValues(f.Code).Inc()
	return s.write(f)
}

// fatal sends a fatal error frame and a close frame; it always returns errEnd.
func (s *session) fatal(code, text string) error {
	if err := s.endTurn(); err != nil {
		return errEnd
	}
	if err := s.sendError(ErrorFrame{Code: code, Text: text, Fatal: true}); err != nil {
		return errEnd
	}
	closeCode := websocket.ClosePolicyViolation
	switch code {
	case CodeShuttingDown, CodeReplaced:
		closeCode = websocket.CloseGoingAway
	case CodeInternal:
		closeCode = websocket.CloseInternalServerErr
	case CodeTooManySessions, CodeMemoryBudget, CodeRateLimited:
		closeCode = websocket.CloseTryAgainLater
	}
	_ = s.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(closeCode, code),
		time.Now().Add(s.srv.cfg.WriteTimeout))
	return errEnd
}

func (s *session) write(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode frame: %w", err)
	}
	if s.cur != nil { // sent by endTurn, once the turn's slot is free
		s.outbox = append(s.outbox, data)
		return nil
	}
	return s.send(data)
}

// endTurn ends the current turn, if any, and then sends the frames written
// during it: a slow client's connection never holds a slot.
func (s *session) endTurn() error {
	if s.cur == nil {
		return nil
	}
	s.cur.end()
	s.cur = nil
	out := s.outbox
	s.outbox = s.outbox[:0]
	for i, data := range out {
		out[i] = nil
		if err := s.send(data); err != nil {
			return err
		}
	}
	return nil
}

func (s *session) send(data []byte) error {
	_ = s.conn.SetWriteDeadline(time.Now().Add(s.srv.cfg.WriteTimeout))
	if err := s.conn.WriteMessage(websocket.TextMessage, data); err != nil {
		return fmt.Errorf("write frame: %w", err)
	}
	return nil
}
