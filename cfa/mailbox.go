package cfa

import (
	"sync"

	"github.com/specbridge/specbridge/cfa/analyzer"
	"github.com/specbridge/specbridge/speculators"
)

// mailboxCap bounds the notices kept per job for remote sidecars that poll.
const mailboxCap = 1024

// mailboxes keeps each job's recent notices, numbered from 1, for the HTTP
// API's long polls.
type mailboxes struct {
	mu    sync.Mutex
	boxes map[string]*mailbox
}

type mailbox struct {
	first  uint64 // number of notices[0]
	events []speculators.Event
	wake   chan struct{} // closed and replaced when a notice arrives
}

func newMailboxes() *mailboxes { return &mailboxes{boxes: map[string]*mailbox{}} }

func (m *mailboxes) box(job string) *mailbox {
	b := m.boxes[job]
	if b == nil {
		b = &mailbox{first: 1, wake: make(chan struct{})}
		m.boxes[job] = b
	}
	return b
}

func (m *mailboxes) put(n analyzer.Notice) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b := m.box(n.Job)
	b.events = append(b.events, n.Event)
	if len(b.events) > mailboxCap {
		drop := len(b.events) - mailboxCap
		b.events = append([]speculators.Event(nil), b.events[drop:]...)
		b.first += uint64(drop)
	}
	close(b.wake)
	b.wake = make(chan struct{})
}

// since returns job's notices numbered after `after`, the number of the
// last one, and a channel closed when another arrives.
func (m *mailboxes) since(job string, after uint64) ([]speculators.Event, uint64, <-chan struct{}) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b := m.box(job)
	last := b.first + uint64(len(b.events)) - 1
	if after >= last {
		return nil, last, b.wake
	}
	from := 0
	if after >= b.first {
		from = int(after - b.first + 1)
	}
	return append([]speculators.Event(nil), b.events[from:]...), last, b.wake
}

func (m *mailboxes) drop(job string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if b := m.boxes[job]; b != nil {
		close(b.wake)
		delete(m.boxes, job)
	}
}

// dropEmpty removes job's mailbox if it holds no notice (numbering would
// otherwise restart under a poller's feet) and no poll waits on it.
func (m *mailboxes) dropEmpty(job string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if b := m.boxes[job]; b != nil && len(b.events) == 0 && b.first == 1 {
		close(b.wake)
		delete(m.boxes, job)
	}
}

// count is the number of mailboxes kept.
func (m *mailboxes) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.boxes)
}
