package inorder

import (
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
)

// Job 0 finishes only after job 1 has: emit must still see 0 first.
func TestEmitsInIndexOrder(t *testing.T) {
	oneDone := make(chan struct{})
	var got []int
	err := Run(5, 2, func(k int) (int, error) {
		if k == 0 {
			<-oneDone
		}
		if k == 1 {
			close(oneDone)
		}
		return k * 10, nil
	}, func(k, v int) error {
		if v != k*10 {
			return fmt.Errorf("job %d: got %d", k, v)
		}
		got = append(got, k)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 1, 2, 3, 4}; !slices.Equal(got, want) {
		t.Fatalf("emitted %v, want %v", got, want)
	}
}

func TestJobErrorStopsAndIsReturned(t *testing.T) {
	boom := errors.New("boom")
	var started atomic.Int32
	var got []int
	err := Run(100, 1, func(k int) (int, error) {
		started.Add(1)
		if k == 3 {
			return 0, boom
		}
		return k, nil
	}, func(k, _ int) error {
		got = append(got, k)
		return nil
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	if !slices.Equal(got, []int{0, 1, 2}) {
		t.Fatalf("emitted %v, want [0 1 2]", got)
	}
	if n := started.Load(); n != 4 {
		t.Fatalf("%d jobs started, want 4 (none after the failure)", n)
	}
}

func TestEmitErrorStops(t *testing.T) {
	stop := errors.New("stop")
	var emitted int
	err := Run(50, 3, func(k int) (int, error) { return k, nil }, func(k, _ int) error {
		emitted++
		if k == 2 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || emitted != 3 {
		t.Fatalf("err = %v after %d emits, want stop after 3", err, emitted)
	}
}

func TestZeroJobs(t *testing.T) {
	if err := Run(0, 0, func(int) (int, error) { return 0, errors.New("called") },
		func(int, int) error { return errors.New("called") }); err != nil {
		t.Fatal(err)
	}
}
