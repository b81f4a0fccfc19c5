package bridge

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/gorilla/websocket"
)

// The write side of the transport: the frames the core queued are sent by
// flush; frames flushed during a turn of the fair queue (turns.go) wait in
// the outbox until the turn has ended.

// flush sends (or, during a turn, holds for endTurn) the frames the core
// queued, then, if the core ended the session, ends the turn, sends a close
// frame and returns errEnd; otherwise it returns err.
func (s *session) flush(err error) error {
	for i, v := range s.out {
		s.out[i] = nil
		if werr := s.writeFrame(v); werr != nil {
			s.out = s.out[:0]
			return werr
		}
	}
	s.out = s.out[:0]
	if s.closeCode == "" {
		return err
	}
	code := s.closeCode
	if terr := s.endTurn(); terr != nil {
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

func (s *session) writeFrame(v any) error {
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
