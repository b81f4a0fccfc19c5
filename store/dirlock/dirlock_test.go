package dirlock

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
)

// A second owner is refused at once, naming the directory, the pid and
// the host; once the first lets go, the directory can be taken again.
func TestSecondOwnerIsRefused(t *testing.T) {
	dir := t.TempDir()
	l, err := Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Acquire(dir)
	host, _ := os.Hostname()
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), dir) ||
		!strings.Contains(err.Error(), "pid "+strconv.Itoa(os.Getpid())) || !strings.Contains(err.Error(), host) {
		t.Fatalf("second lock: %v", err)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	l2, err := Acquire(dir)
	if err != nil {
		t.Fatalf("after unlock: %v", err)
	}
	_ = l2.Unlock()
}
