package cfa

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/specbridge/specbridge/store/dirlock"
)

// locker is a Dir that can be owned by one process: LocalDir (flock on
// DIR/LOCK) and HDFSDir (a lease file). NewService takes the lock before
// it reads the store and holds it until Close.
type locker interface {
	Lock() (release func() error, err error)
}

// Lock takes the directory's flock (store/dirlock).
func (d LocalDir) Lock() (func() error, error) {
	l, err := dirlock.Acquire(string(d))
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return l.Unlock, nil
}

// The HDFS lease: HDFS has no lock a crashed client gives up, so the
// owner keeps a file naming itself (pid, host) with an expiry it renews
// every leaseTTL/3. Another process takes the directory only once the
// lease has expired, or at once when the lease names its own host and a
// pid that is no longer running there (a restart after a crash). Taking
// it is an exclusive create on the NameNode, so of two racers one wins.
const (
	leaseName = "LEASE"
	leaseTTL  = 30 * time.Second
)

type leaseFile struct {
	ID      string `json:"id"`
	PID     int    `json:"pid"`
	Host    string `json:"host"`
	Expires int64  `json:"expires_unix_ms"`
}

// Lock takes the directory's lease and renews it until release.
func (d *HDFSDir) Lock() (func() error, error) {
	host, _ := os.Hostname()
	me := leaseFile{ID: fmt.Sprintf("%s-%d-%d", host, os.Getpid(), time.Now().UnixNano()), PID: os.Getpid(), Host: host}
	p := d.path(leaseName)
	encode := func() []byte {
		me.Expires = time.Now().Add(leaseTTL).UnixMilli()
		b, _ := json.Marshal(me)
		return b
	}
	for attempt := 0; ; attempt++ {
		b, err := d.c.ReadFile(p)
		switch {
		case err == nil:
			var l leaseFile
			if json.Unmarshal(b, &l) == nil && l.live(host) {
				return nil, fmt.Errorf("store: data directory %s is in use by pid %d on host %s (lease %s, valid until %s)",
					d, l.PID, l.Host, d.url.Join(leaseName), time.UnixMilli(l.Expires).UTC().Format(time.RFC3339))
			}
			if err := d.c.Remove(p); err != nil {
				return nil, err
			}
		case !errors.Is(err, fs.ErrNotExist):
			return nil, err
		}
		err = d.c.Create(p, encode())
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) || attempt > 0 {
			return nil, fmt.Errorf("store: take the lease of %s: %w", d, err)
		}
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(leaseTTL / 3)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				d.setLeaseErr(d.renew(p, me.ID, encode()))
			}
		}
	}()
	var once sync.Once
	return func() error {
		var err error
		once.Do(func() {
			close(stop)
			<-done
			if d.leaseError() == nil {
				err = d.c.Remove(p)
			}
		})
		return err
	}, nil
}

// renew rewrites the lease if it is still ours.
func (d *HDFSDir) renew(p, id string, data []byte) error {
	b, err := d.c.ReadFile(p)
	if err != nil {
		return fmt.Errorf("store %s: renew the lease: %w", d, err)
	}
	var l leaseFile
	if err := json.Unmarshal(b, &l); err != nil || l.ID != id {
		return fmt.Errorf("store %s: %w to pid %d on host %s; not writing any more", d, errLeaseLost, l.PID, l.Host)
	}
	return d.c.WriteFile(p, data)
}

// setLeaseErr keeps a lost lease (sticky: the directory is someone
// else's now); a renewal that failed for another reason is retried at the
// next tick, before the lease runs out.
func (d *HDFSDir) setLeaseErr(err error) {
	if err == nil || !errors.Is(err, errLeaseLost) {
		return
	}
	d.leaseMu.Lock()
	defer d.leaseMu.Unlock()
	if d.leaseErr == nil {
		d.leaseErr = err
	}
}

// leaseError is the lost lease, if it was lost.
func (d *HDFSDir) leaseError() error {
	d.leaseMu.Lock()
	defer d.leaseMu.Unlock()
	return d.leaseErr
}

var errLeaseLost = errors.New("lease lost")

// live reports whether the lease still holds, seen from host.
func (l leaseFile) live(host string) bool {
	if time.Now().UnixMilli() >= l.Expires {
		return false
	}
	if l.Host == host && l.PID > 0 && l.PID != os.Getpid() {
		if err := syscall.Kill(l.PID, 0); errors.Is(err, syscall.ESRCH) {
			return false // its owner crashed on this host
		}
	}
	return true
}
