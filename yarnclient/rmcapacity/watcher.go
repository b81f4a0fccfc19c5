// Package rmcapacity keeps the cluster's capacity, as the YARN
// ResourceManager reports it, for the policies that size copies by it (sca,
// dolly, ese: speculators.Capacity). A Watcher asks the RM's
// /ws/v1/cluster/metrics every few seconds (package rest holds the stateless
// client), converts memory and vcores to containers of the map size, and
// serves the latest answer to any goroutine without blocking. With HA it
// asks the ResourceManagers in turn, starting from the one that answered
// last; with a secured web API it authenticates with SPNEGO.
package rmcapacity

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	krb "github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/spnego"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/sirupsen/logrus"

	"github.com/specbridge/specbridge/yarnclient/rest"
)

// DefaultRefresh is how often the RM is asked.
const DefaultRefresh = 5 * time.Second

// StaleAfter is how many refresh periods an answer is trusted for: past it
// (the RMs stopped answering) the capacity is reported unknown, and the
// policies fall back to sizing without it, rather than cloning by a
// cluster state that may be long gone.
const StaleAfter = 3

// Config configures a Watcher.
type Config struct {
	// RMs are the ResourceManagers' web addresses (http://host:port), in
	// the order to try them; at least one.
	RMs []string
	// Container is the unit of capacity (SiteConf.MapContainer).
	Container Container
	// Refresh is the period between reads (DefaultRefresh when 0).
	Refresh time.Duration
	// Timeout bounds one request (rest.DefaultTimeout when 0).
	Timeout time.Duration
	// Kerberos, if set, authenticates every request with SPNEGO as this
	// client (the RM's service principal is HTTP/<host>).
	Kerberos *krb.Client
	// Transport is the HTTP transport (http.DefaultTransport when nil).
	Transport http.RoundTripper
	Log       logrus.FieldLogger
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Snapshot is one reading of the cluster.
type Snapshot struct {
	Total, Free int
	RM          string
	At          time.Time
}

// Watcher holds the latest capacity. Create it with New, run Run in a
// goroutine, and pass Capacity to the policies.
type Watcher struct {
	cfg  Config
	rms  []*rest.ResourceManager
	mu   sync.Mutex
	last Snapshot
	ok   bool
	next int // index of the RM to ask first
	err  error

	age, total, free prometheus.GaugeFunc
	failures         prometheus.Counter
}

// New checks cfg and returns a Watcher that has not read anything yet.
func New(cfg Config) (*Watcher, error) {
	if len(cfg.RMs) == 0 {
		return nil, errors.New("ResourceManager capacity: no ResourceManager address")
	}
	if cfg.Container.MB <= 0 || cfg.Container.VCores <= 0 {
		return nil, fmt.Errorf("ResourceManager capacity: container size %d MB, %d vcores: want both positive", cfg.Container.MB, cfg.Container.VCores)
	}
	if cfg.Refresh <= 0 {
		cfg.Refresh = DefaultRefresh
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = logrus.StandardLogger()
	}
	w := &Watcher{cfg: cfg}
	var err error
	if w.rms, err = Clients(cfg.RMs, cfg.Timeout, cfg.Kerberos, cfg.Transport); err != nil {
		return nil, fmt.Errorf("ResourceManager capacity: %w", err)
	}
	w.age = prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "specbridge_rm_capacity_age_seconds",
		Help: "seconds since the ResourceManager's cluster metrics were last read (-1: never)"}, func() float64 {
		s, ok, _ := w.Snapshot()
		if !ok && s.At.IsZero() {
			return -1
		}
		return w.cfg.Now().Sub(s.At).Seconds()
	})
	w.total = prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "specbridge_rm_capacity_containers",
		Help: "the cluster's containers of the map size, as the ResourceManager last reported them"}, func() float64 {
		s, _, _ := w.Snapshot()
		return float64(s.Total)
	})
	w.free = prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "specbridge_rm_capacity_free_containers",
		Help: "free containers of the map size, as the ResourceManager last reported them"}, func() float64 {
		s, _, _ := w.Snapshot()
		return float64(s.Free)
	})
	w.failures = prometheus.NewCounter(prometheus.CounterOpts{Name: "specbridge_rm_capacity_read_failures_total",
		Help: "reads of the ResourceManager's cluster metrics that no ResourceManager answered"})
	return w, nil
}

// Collectors are the watcher's metrics, for /metrics.
func (w *Watcher) Collectors() []prometheus.Collector {
	return []prometheus.Collector{w.age, w.total, w.free, w.failures}
}

// Containers converts the RM's metrics to containers of size c: the fewer of
// what memory and what vcores allow. A cluster whose metrics report no
// vcores (a scheduler counting memory only) is counted by memory.
func Containers(m rest.ClusterMetrics, c Container) (total, free int) {
	count := func(mb, vc int64) int {
		n := mb / c.MB
		if vc > 0 || m.TotalVCores > 0 {
			n = min(n, vc/c.VCores)
		}
		return int(max(0, min(n, 1<<30)))
	}
	return count(m.TotalMB, m.TotalVCores), count(m.AvailableMB, m.AvailableVCores)
}

// Refresh reads the cluster's metrics once, asking the RMs in turn from the
// last that answered, and keeps the answer. The error names every RM's
// failure.
func (w *Watcher) Refresh(ctx context.Context) error {
	w.mu.Lock()
	first := w.next
	w.mu.Unlock()
	var errs []error
	for i := range w.rms {
		k := (first + i) % len(w.rms)
		m, err := w.rms[k].ClusterMetrics(ctx)
		if err == nil && (m.TotalMB < 0 || m.AvailableMB < 0 || m.TotalVCores < 0 || m.AvailableVCores < 0) {
			err = fmt.Errorf("GET %s/ws/v1/cluster/metrics: negative totalMB %d, availableMB %d, totalVirtualCores %d or availableVirtualCores %d",
				w.rms[k].Base(), m.TotalMB, m.AvailableMB, m.TotalVCores, m.AvailableVCores)
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		total, free := Containers(m, w.cfg.Container)
		w.mu.Lock()
		w.last = Snapshot{Total: total, Free: min(free, total), RM: w.rms[k].Base(), At: w.cfg.Now()}
		w.ok, w.next, w.err = true, k, nil
		w.mu.Unlock()
		return nil
	}
	err := errors.Join(errs...)
	w.failures.Inc()
	w.mu.Lock()
	w.err = err
	w.next = (first + 1) % len(w.rms)
	w.mu.Unlock()
	return err
}

// Run refreshes every Refresh period until ctx ends, logging when reads
// start and stop failing (not every failure).
func (w *Watcher) Run(ctx context.Context) {
	t := time.NewTicker(w.cfg.Refresh)
	defer t.Stop()
	failing := false
	for {
		err := w.Refresh(ctx)
		switch {
		case err != nil && ctx.Err() == nil && !failing:
			w.cfg.Log.WithError(err).Warn("ResourceManager capacity: read failed; sca, dolly and ese size clones without it once the last reading is stale")
			failing = true
		case err == nil && failing:
			s, _, _ := w.Snapshot()
			w.cfg.Log.WithFields(logrus.Fields{"rm": s.RM, "containers": s.Total, "free": s.Free}).Info("ResourceManager capacity: reading again")
			failing = false
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Snapshot returns the latest reading, whether it is fresh enough to use
// (read within StaleAfter refresh periods), and the latest failure.
func (w *Watcher) Snapshot() (Snapshot, bool, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	fresh := w.ok && w.cfg.Now().Sub(w.last.At) <= StaleAfter*w.cfg.Refresh
	return w.last, fresh, w.err
}

// Capacity is the watcher as the policies read it
// (speculators.Capacity): the latest total and free containers while
// fresh.
func (w *Watcher) Capacity() (total, free int, ok bool) {
	s, fresh, _ := w.Snapshot()
	if !fresh {
		return 0, 0, false
	}
	return s.Total, s.Free, true
}

// Clients are the REST clients of the ResourceManagers at addrs (an HA
// list), sharing one HTTP client that authenticates with SPNEGO as kc when
// kc is set; timeout bounds each request (0: rest.DefaultTimeout).
func Clients(addrs []string, timeout time.Duration, kc *krb.Client, tr http.RoundTripper) ([]*rest.ResourceManager, error) {
	hc := &http.Client{Transport: SPNEGO(kc, tr)}
	rms := make([]*rest.ResourceManager, 0, len(addrs))
	for _, a := range addrs {
		rm, err := rest.NewResourceManager(a, timeout, hc)
		if err != nil {
			return nil, err
		}
		rms = append(rms, rm)
	}
	return rms, nil
}

// SPNEGO returns next with SPNEGO's Negotiate header, as client kc, added
// to every request; next itself when kc is nil (the RM's web API without
// Kerberos). next nil is http.DefaultTransport.
func SPNEGO(kc *krb.Client, next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	if kc == nil {
		return next
	}
	return spnegoTransport{kc: kc, next: next}
}

// spnegoTransport adds SPNEGO's Negotiate header to every request.
type spnegoTransport struct {
	kc   *krb.Client
	next http.RoundTripper
}

func (t spnegoTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if err := spnego.SetSPNEGOHeader(t.kc, r, ""); err != nil {
		return nil, fmt.Errorf("SPNEGO for %s: %w", r.URL.Host, err)
	}
	return t.next.RoundTrip(r)
}
