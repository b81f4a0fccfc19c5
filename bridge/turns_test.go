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

// grantOrder queues one waiter per tag (with its frame size) behind a held
// slot, in the given order, releases the slot and returns the order in
// which they got their turns.
func grantOrder(t *testing.T, q *turns, names []string, tags []*turnTag, sizes []int) []string {
	t.Helper()
	ctx := context.Background()
	var hold turnTag
	hold.finish = q.vtime
	first, _, err := q.acquire(ctx, &hold, 100)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, len(names))
	var wg sync.WaitGroup
	for i := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tn, _, err := q.acquire(ctx, tags[i], sizes[i])
			if err != nil {
				t.Error(err)
				return
			}
			got <- names[i]
			tn.end()
		}()
		for deadline := time.Now().Add(waitFor); q.waiting() != i+1; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d waiting, want %d", q.waiting(), i+1)
			}
		}
	}
	first.end()
	var order []string
	for range names {
		order = append(order, <-got)
	}
	wg.Wait()
	return order
}

// Flooding sessions in lock step share one start tag (a round); a light
// session a small frame ahead of it still goes before the round's large
// frames, which arrived first (the order is by start tag plus the frame's
// estimated cost). Ordered by start tag and arrival, it waited for the
// whole round.
func TestTurnsLightSessionBeforeFloodersRound(t *testing.T) {
	q := newTurns(1, 0)
	q.vtime = 1000
	var f1, f2, f3, light turnTag
	f1.finish, f2.finish, f3.finish = 1000, 1000, 1000 // the round
	light.finish = 1002                                // had a small frame in this round
	order := grantOrder(t, q, []string{"f1", "f2", "f3", "light"}, []*turnTag{&f1, &f2, &f3, &light}, []int{3000, 3000, 3000, 200})
	if order[0] != "light" {
		t.Fatalf("turns went to %v, want light first", order)
	}
}

// Among equal keys the session that had less service goes first, whatever
// the arrival order.
func TestTurnsTieGoesToLessService(t *testing.T) {
	q := newTurns(1, 0)
	q.vtime = 1000
	var more, less turnTag
	more.finish, less.finish = 1000, 900 // both start at the virtual time
	order := grantOrder(t, q, []string{"more", "less"}, []*turnTag{&more, &less}, []int{640, 640})
	if order[0] != "less" {
		t.Fatalf("turns went to %v, want less first", order)
	}
}

// A turn costs at most maxLead units: one huge frame (an AM's every
// attempt started) does not put its session thousands of units behind.
func TestTurnCostBounded(t *testing.T) {
	q := newTurns(1, 0)
	var tag turnTag
	tn, _, err := q.acquire(context.Background(), &tag, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	tn.units = 4001
	tn.end()
	if tag.finish != maxLead {
		t.Fatalf("finish tag %v after a 4,000-event frame, want the bound %d", tag.finish, maxLead)
	}
}

// A light session (at most lightSlack past the virtual time) goes before a
// session further ahead, even with a larger frame.
func TestTurnsLightClassFirst(t *testing.T) {
	q := newTurns(1, 0)
	q.vtime = 1000
	var ahead, light turnTag
	ahead.finish = 1000 + lightSlack + 2 // had more than its share
	light.finish = 1002
	order := grantOrder(t, q, []string{"ahead", "light"}, []*turnTag{&ahead, &light}, []int{200, 3000})
	if order[0] != "light" {
		t.Fatalf("turns went to %v, want light first", order)
	}
}
