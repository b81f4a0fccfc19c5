// Package dirlock makes one process the owner of a local data directory:
// an exclusive flock(2) on DIR/LOCK, which also names the owner (pid and
// host) so that a second process can say who holds it. The kernel drops
// the lock when its owner exits, even by kill -9, so a crash never leaves
// a directory locked. The package must not know what the directory holds.
package dirlock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Name is the lock file's name inside the directory.
const Name = "LOCK"

// Lock is a held lock; Unlock releases it.
type Lock struct {
	f   *os.File
	dir string
}

// ErrLocked is wrapped by the error Acquire returns when another process
// owns the directory.
var ErrLocked = errors.New("directory is locked by another process")

// Owner returns "pid P on host H", the owner of a lock.
func Owner() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("pid %d on host %s", os.Getpid(), host)
}

// Acquire takes dir's lock (creating dir if missing) or fails at once with
// an error naming the directory and the owner.
func Acquire(dir string) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	p := filepath.Join(dir, Name)
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("data directory %s is in use by %s (%s): %w", dir, owner(p), p, ErrLocked)
		}
		return nil, fmt.Errorf("lock %s: %w", p, err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(Owner()+"\n"), 0) // informative only: the flock is the lock
	}
	return &Lock{f: f, dir: dir}, nil
}

// owner reads who holds the lock in p. An owner that has just taken it may
// not have written its name yet (or the file still names an earlier,
// dead owner): read again for up to a second until it names a live pid.
func owner(p string) string {
	deadline := time.Now().Add(time.Second)
	for {
		b, _ := os.ReadFile(p)
		who := strings.TrimSpace(string(b))
		var pid int
		if _, err := fmt.Sscanf(who, "pid %d", &pid); err == nil && pid > 0 && syscall.Kill(pid, 0) == nil {
			return who
		}
		if time.Now().After(deadline) {
			if who == "" {
				return "another process"
			}
			return who
		}
		time.Sleep(10 * time.Millisecond) // the owner writes its name right after taking the lock
	}
}

// Unlock releases the lock.
func (l *Lock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := errors.Join(syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN), l.f.Close())
	l.f = nil
	if err != nil {
		return fmt.Errorf("unlock %s: %w", l.dir, err)
	}
	return nil
}
