package sim

import (
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/specbridge/specbridge/speculators"
)

// TestTimersPopInTimeThenPushOrder checks the run's event queue against a
// plain stable sort: events come out by time, ties in the order they were
// queued (submits first, as reserved before any timer), whichever of the
// heap, the FIFO lane and the submits holds them, with their kind, ref and
// generation intact, and a peek names the event the next pop returns.
func TestTimersPopInTimeThenPushOrder(t *testing.T) {
	type want struct {
		at   speculators.Time
		kind eventKind
		ref  int32
		gen  uint32
	}
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 7))
		var q timers
		var queued []want // in queue order
		subs := rng.IntN(50)
		subAt := make([]speculators.Time, subs)
		for i := range subAt {
			subAt[i] = speculators.Time(rng.IntN(200))
		}
		q.submits(func(i int) speculators.Time { return subAt[i] }, subs)
		for i, at := range subAt {
			queued = append(queued, want{at: at, kind: evSubmit, ref: int32(i)})
		}
		var got []want
		now := speculators.Time(0)
		for range 3000 {
			if q.len() > 0 && rng.IntN(4) == 0 {
				q.peekAt() // a peek, then pushes or a pop
			}
			if q.len() > 0 && rng.IntN(3) == 0 {
				peeked := speculators.Time(-1)
				if rng.IntN(2) == 0 {
					peeked = q.peekAt() // the pop uses what the peek found
				}
				e := q.pop()
				if peeked >= 0 && e.at != peeked {
					t.Fatalf("seed %d: peeked time %d, popped %d", seed, peeked, e.at)
				}
				if e.at < now {
					t.Fatalf("seed %d: popped time %d after %d", seed, e.at, now)
				}
				now = e.at
				got = append(got, want{at: e.at, kind: e.kind(), ref: e.ref, gen: e.gen})
				continue
			}
			w := want{at: now + speculators.Time(rng.IntN(40)), kind: eventKind(1 + rng.IntN(int(evKillJob))),
				ref: rng.Int32(), gen: rng.Uint32()}
			if rng.IntN(2) == 0 {
				q.pushOrdered(w.at, w.kind, w.ref, w.gen)
			} else {
				q.push(w.at, w.kind, w.ref, w.gen)
			}
			queued = append(queued, w)
		}
		for q.len() > 0 {
			e := q.pop()
			got = append(got, want{at: e.at, kind: e.kind(), ref: e.ref, gen: e.gen})
		}
		// Every pop takes the earliest queued event, ties to the first
		// queued; with pops interleaved the reference is the same
		// selection over what had been queued by then, which a stable
		// sort of all of them gives as long as no event was queued
		// earlier than the time already popped (pushes are at now or
		// later here).
		ref := append([]want(nil), queued...)
		sort.SliceStable(ref, func(a, b int) bool { return ref[a].at < ref[b].at })
		if len(got) != len(ref) {
			t.Fatalf("seed %d: %d events out, %d in", seed, len(got), len(ref))
		}
		for i := range ref {
			if got[i] != ref[i] {
				t.Fatalf("seed %d: event %d is %+v, want %+v", seed, i, got[i], ref[i])
			}
		}
	}
}
