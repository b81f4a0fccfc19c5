package bridge

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// A session that was idle goes in front of backlogged ones: start-time
// fair queueing by the cost of the turns each had.
func TestTurnsIdleSessionGoesFirst(t *testing.T) {
	q := newTurns(1, 0)
	ctx := context.Background()
	var a, heavy1, heavy2, light turnTag
	heavy1.finish, heavy2.finish = 5e9, 6e9 // had long turns
	first, _, err := q.acquire(ctx, &a, 100)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 3)
	var wg sync.WaitGroup
	waitTurn := func(name string, tag *turnTag) {
		defer wg.Done()
		tn, _, err := q.acquire(ctx, tag, 100)
		if err != nil {
			t.Error(err)
			return
		}
		got <- name
		tn.end()
	}
	queued := func(n int) { // wait until n sessions wait
		for deadline := time.Now().Add(waitFor); ; {
			l := q.waiting()
			if l == n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d waiting, want %d", l, n)
			}
			time.Sleep(time.Millisecond)
		}
	}
	wg.Add(1)
	go waitTurn("heavy2", &heavy2)
	queued(1)
	wg.Add(1)
	go waitTurn("heavy1", &heavy1)
	queued(2)
	wg.Add(1)
	go waitTurn("light", &light)
	queued(3)
	first.end()
	var order []string
	for range 3 {
		order = append(order, <-got)
	}
	if want := []string{"light", "heavy1", "heavy2"}; order[0] != want[0] || order[1] != want[1] || order[2] != want[2] {
		t.Fatalf("turns went to %v, want %v", order, want)
	}
	wg.Wait()
	q.mu.Lock()
	free := q.free
	q.mu.Unlock()
	if free != 1 {
		t.Fatalf("%d slots free after every turn ended, want 1", free)
	}
}

// A session that gives up waiting (its context ends) frees its place, and
// a slot granted to it as it gave up is passed on.
func TestTurnsCancelledWaiterPassesOn(t *testing.T) {
	q := newTurns(1, 0)
	var a, b, c turnTag
	first, _, _ := q.acquire(context.Background(), &a, 100)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { _, _, err := q.acquire(ctx, &b, 100); errc <- err }()
	for q.waiting() == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-errc; err == nil {
		t.Fatal("a cancelled wait got a turn")
	}
	first.end()
	done := make(chan struct{})
	go func() {
		tn, _, err := q.acquire(context.Background(), &c, 100)
		if err == nil {
			tn.end()
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(waitFor):
		t.Fatal("the slot was lost with the cancelled waiter")
	}
}

func (t *turns) waiting() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.queue.Len()
}

// A client that trickles a frame (sends its first fragment and stalls)
// holds no turn: with a single slot, another session is still served.
func TestStalledFrameHoldsNoTurn(t *testing.T) {
	ts := startServer(t, func(c *Config) { c.MaxBusySessions = 1 })
	stall := dial(t, ts.url)
	w, err := stall.conn.NextWriter(websocket.TextMessage)
	if err != nil {
		t.Fatal(err)
	}
	// More than the writer's buffer: a first fragment goes out, the rest never.
	if _, err := w.Write([]byte(`{"type":"ping","pad":"` + strings.Repeat("x", 8192))); err != nil {
		t.Fatal(err)
	}
	c, _ := open(t, ts, hello(testJob, "none", 1, 0, nil))
	c.alive()
}
