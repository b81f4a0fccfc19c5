// Package rmorder gives jobs on a cluster the order that some policies give
// them in replay. A policy that orders jobs (speculators.JobPrioritizer:
// Xu and Lau's sca, sda and ese, and auto's order) is asked, in the
// simulator, for each running job's Priority, and every free slot goes to
// the job with the lowest one among those with something to place, before
// any job whose policy has no opinion. On a cluster the ResourceManager's
// scheduler places containers; the capacity scheduler serves a leaf queue's
// applications by application priority first (the higher number first),
// then in submission order. An Orderer collects the priorities the bridge's
// sessions publish after every decide, ranks the jobs, maps the ranks onto
// the cluster's priority levels (the best job the highest level; jobs whose
// policies do not order stay at the level they were submitted with,
// normally 0, behind them, as in the simulator) and sets each job's
// application priority through the RM's REST API when its level changes.
//
// What differs from the simulator, and why (the choices this package
// makes):
//   - The order is re-read every Interval (5 s), not at every scheduling
//     pass: each change is a write to the RM, which a busy cluster's RM
//     should not take at the rate of container allocations. MaxUpdates bounds
//     the writes of one round; the best-ranked jobs are written first.
//   - Levels are few (yarn.cluster.max-application-priority, often 10), so
//     with more ordered jobs than levels the ranks share levels in equal
//     bands, and YARN orders a band by submission. Jobs with equal
//     priorities share a level, and YARN's submission order breaks the tie,
//     as the simulator's submit order does.
//   - Only the capacity scheduler orders by application priority; under the
//     fair scheduler the levels are set and have no effect, and the job
//     order is replay only (docs/operations.md, "Job order through YARN
//     application priorities").
//
// The RM may refuse a change (400, 403, 404, 409: an application it no
// longer knows; ACLs: the caller must own the application or be a YARN
// admin when yarn.acl.enable is true, and a queue's priority ACL): the job is
// then left alone until the bridge forgets it, and the refusal is logged
// once. An error that may pass (5xx, 408, 429) is asked again next round,
// and the jobs ranked below it are still written; an RM that does not
// answer, or does not take the caller (401, 407), ends the round. Nothing
// here can fail a job: the worst case is the order YARN would have used
// anyway.
package rmorder

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	krb "github.com/jcmturner/gokrb5/v8/client"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/sirupsen/logrus"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/yarnclient/rest"
	"github.com/specbridge/specbridge/yarnclient/rmcapacity"
)

// DefaultInterval is how often the order is written.
const DefaultInterval = 5 * time.Second

// DefaultMaxUpdates bounds the priority changes of one round.
const DefaultMaxUpdates = 100

// MaxLevelsKey is the cluster's key for the highest application priority;
// YARN's default, 0, keeps every application at 0 (priorities off).
const MaxLevelsKey = "yarn.cluster.max-application-priority"

// Config configures an Orderer.
type Config struct {
	// RMs are the ResourceManagers' web addresses, in the order to try
	// them (HA); at least one.
	RMs []string
	// User is sent as user.name (the caller under simple authentication);
	// empty sends none (the RM's static web user, or the SPNEGO principal).
	User string
	// Levels is the number of priority levels to use, 1..Levels; 0 reads
	// the RM's yarn.cluster.max-application-priority (again every round
	// while it reads 0 or fails).
	Levels int
	// Interval is the period of Run (DefaultInterval when 0).
	Interval time.Duration
	// MaxUpdates bounds the changes of one round (DefaultMaxUpdates when 0).
	MaxUpdates int
	// Timeout bounds one request (rest.DefaultTimeout when 0).
	Timeout time.Duration
	// Kerberos, if set, authenticates every request with SPNEGO.
	Kerberos *krb.Client
	// Transport is the HTTP transport (http.DefaultTransport when nil).
	Transport http.RoundTripper
	Log       logrus.FieldLogger
}

// entry is one published job.
type entry struct {
	owner any
	pri   speculators.Priority
	seq   uint64 // order of the job's first publication: the tie-break
}

// Orderer keeps the published priorities and writes them to the RM. Create
// it with New, pass it to the bridge (bridge.Config.JobOrder) and run Run in
// a goroutine.
type Orderer struct {
	cfg Config
	rms []*rest.ResourceManager

	mu   sync.Mutex
	jobs map[string]*entry // by application id
	seq  uint64

	// Owned by the goroutine that calls Round.
	levels     int             // resolved levels (0: not yet, or off)
	offSaid    bool            // the "priorities off" warning was logged
	cappedSaid bool            // the "lower priority than asked" warning was logged
	next       int             // index of the RM to ask first
	set        map[string]int  // the level last written, by application
	refused    map[string]bool // applications the RM refused (logged once)

	levelsNow atomic.Int64 // levels, for the gauge
	// What Describe shows, set by Round (mu).
	lastAt   time.Time
	lastErr  error
	lastOff  bool // the cluster's levels read 0
	totalSet int
	lastRM   string // the RM that took the last write

	ordered, levelGauge prometheus.GaugeFunc
	updates, refusals   prometheus.Counter
	failures, retries   prometheus.Counter
}

// New checks cfg and returns an Orderer that has written nothing yet.
func New(cfg Config) (*Orderer, error) {
	if len(cfg.RMs) == 0 {
		return nil, errors.New("job order: no ResourceManager address")
	}
	if cfg.Levels < 0 {
		return nil, fmt.Errorf("job order: %d priority levels: want 0 (the cluster's %s) or more", cfg.Levels, MaxLevelsKey)
	}
	if cfg.Interval < 0 || cfg.MaxUpdates < 0 {
		return nil, fmt.Errorf("job order: interval %s and max updates %d: want both positive (or 0 for the default)", cfg.Interval, cfg.MaxUpdates)
	}
	if cfg.Interval == 0 {
		cfg.Interval = DefaultInterval
	}
	if cfg.MaxUpdates == 0 {
		cfg.MaxUpdates = DefaultMaxUpdates
	}
	if cfg.Log == nil {
		cfg.Log = logrus.StandardLogger()
	}
	o := &Orderer{cfg: cfg, jobs: map[string]*entry{}, set: map[string]int{}, refused: map[string]bool{}}
	var err error
	if o.rms, err = rmcapacity.Clients(cfg.RMs, cfg.Timeout, cfg.Kerberos, cfg.Transport); err != nil {
		return nil, fmt.Errorf("job order: %w", err)
	}
	o.ordered = prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "specbridge_rm_job_order_jobs",
		Help: "running jobs whose policies order jobs, whose YARN application priorities the sidecar sets (serve --rm-job-order)"}, func() float64 {
		o.mu.Lock()
		defer o.mu.Unlock()
		return float64(len(o.jobs))
	})
	o.levelGauge = prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "specbridge_rm_job_order_levels",
		Help: "application priority levels the job order uses (0: not known yet, or priorities off on the cluster)"}, func() float64 {
		return float64(o.levelsNow.Load())
	})
	o.updates = prometheus.NewCounter(prometheus.CounterOpts{Name: "specbridge_rm_job_order_updates_total",
		Help: "application priorities the sidecar set on the ResourceManager"})
	o.refusals = prometheus.NewCounter(prometheus.CounterOpts{Name: "specbridge_rm_job_order_refusals_total",
		Help: "application priority changes the ResourceManager refused (the job is left alone)"})
	o.failures = prometheus.NewCounter(prometheus.CounterOpts{Name: "specbridge_rm_job_order_failures_total",
		Help: "rounds of the job order that ended early: no ResourceManager answered, or none took the caller (401, 407)"})
	o.retries = prometheus.NewCounter(prometheus.CounterOpts{Name: "specbridge_rm_job_order_retries_total",
		Help: "application priority changes the ResourceManager answered with an error that may pass (5xx, 408, 429), asked again next round"})
	return o, nil
}

// Collectors are the orderer's metrics, for /metrics.
func (o *Orderer) Collectors() []prometheus.Collector {
	return []prometheus.Collector{o.ordered, o.levelGauge, o.updates, o.refusals, o.failures, o.retries}
}

// Publish records the priority of application app, as the session owner
// read it from its job's policy. A later owner replaces an earlier one (a
// new session of the job took over).
func (o *Orderer) Publish(app string, owner any, p speculators.Priority) {
	o.mu.Lock()
	defer o.mu.Unlock()
	e := o.jobs[app]
	if e == nil {
		o.seq++
		e = &entry{seq: o.seq}
		o.jobs[app] = e
	}
	e.owner, e.pri = owner, p
}

// Forget drops application app if owner is the session that last published
// it (its job ended, or the session closed).
func (o *Orderer) Forget(app string, owner any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if e := o.jobs[app]; e != nil && e.owner == owner {
		delete(o.jobs, app)
	}
}

// ranked is one job of a round, in order.
type ranked struct {
	app string
	e   entry
}

// Round writes the current order once: it ranks the published jobs, maps
// them onto the levels and sets, best first and at most MaxUpdates, the
// priority of each job whose level changed since it was last set. It
// returns the number set; the error is a round that no RM answered (or the
// cluster's levels could not be read).
func (o *Orderer) Round(ctx context.Context) (n int, err error) {
	defer func() {
		o.mu.Lock()
		o.lastAt, o.lastErr, o.totalSet = time.Now(), err, o.totalSet+n
		o.mu.Unlock()
	}()
	levels, err := o.resolveLevels(ctx)
	o.mu.Lock()
	o.lastOff = err == nil && levels == 0
	o.mu.Unlock()
	if err != nil || levels == 0 {
		return 0, err
	}
	o.mu.Lock()
	jobs := make([]ranked, 0, len(o.jobs))
	for app, e := range o.jobs {
		jobs = append(jobs, ranked{app: app, e: *e})
	}
	o.mu.Unlock()
	slices.SortFunc(jobs, func(a, b ranked) int {
		if c := speculators.ComparePriority(a.e.pri, b.e.pri); c != 0 {
			return c
		}
		return cmp.Compare(a.e.seq, b.e.seq)
	})
	pris := make([]speculators.Priority, len(jobs))
	live := make(map[string]bool, len(jobs))
	for i, j := range jobs {
		pris[i] = j.e.pri
		live[j.app] = true
	}
	maps.DeleteFunc(o.set, func(app string, _ int) bool { return !live[app] })
	maps.DeleteFunc(o.refused, func(app string, _ bool) bool { return !live[app] })
	lv := speculators.PriorityLevels(pris, levels)
	done := 0
	for i, j := range jobs {
		if done >= o.cfg.MaxUpdates {
			break
		}
		if o.refused[j.app] {
			continue
		}
		if l, ok := o.set[j.app]; ok && l == lv[i] {
			continue
		}
		got, err := o.put(ctx, j.app, lv[i])
		switch {
		case err == nil:
			o.set[j.app] = lv[i]
			o.updates.Inc()
			done++
			o.cfg.Log.WithFields(logrus.Fields{"app": j.app, "level": lv[i], "rank": i + 1, "ordered": len(jobs)}).Debug("job order: priority set")
			if got != lv[i] && !o.cappedSaid {
				o.cappedSaid = true
				o.cfg.Log.WithFields(logrus.Fields{"app": j.app, "asked": lv[i], "got": got}).Warn("job order: the ResourceManager set a lower priority than asked (the cluster's maximum is lower than --rm-job-order-levels?); the top ranks share it")
			}
		case refused(err):
			o.refused[j.app] = true
			o.refusals.Inc()
			o.cfg.Log.WithField("app", j.app).WithError(err).Warn("job order: the ResourceManager refused the application's priority; the job keeps YARN's order")
		case passing(err):
			o.retries.Inc() // asked again next round; the jobs below it are still written
			o.cfg.Log.WithField("app", j.app).WithError(err).Debug("job order: the ResourceManager answered the priority with an error; asked again next round")
		default:
			o.failures.Inc()
			return done, err
		}
	}
	return done, nil
}

// refused reports whether err is the ResourceManager's refusal of this
// application's change, which asking again would not change: a malformed
// request (400), the caller not allowed to change it (403: ACLs, a queue's
// acl_application_max_priority), an application it does not know (404), a
// conflict with its state (409).
func refused(err error) bool {
	var se *rest.StatusError
	if !errors.As(err, &se) {
		return false
	}
	switch se.Status {
	case http.StatusBadRequest, http.StatusForbidden, http.StatusNotFound, http.StatusConflict:
		return true
	}
	return false
}

// passing reports whether err is an answer about this application that may
// pass (the RM's internal error, 5xx; a timeout, 408; throttling, 429): the
// change is asked again next round. Anything else that is not a refusal (no
// RM answered; the caller not authenticated, 401 or 407) ends the round.
func passing(err error) bool {
	var se *rest.StatusError
	return errors.As(err, &se) && (se.Status >= 500 || se.Status == http.StatusRequestTimeout || se.Status == http.StatusTooManyRequests)
}

// Describe is the job order's line on the dashboard: the jobs ordered, the
// levels, how many priorities were set, and the last round's time or
// failure.
func (o *Orderer) Describe() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	switch {
	case o.lastAt.IsZero():
		return "not written yet"
	case o.lastErr != nil:
		return fmt.Sprintf("failing (last round %s): %v; jobs keep the priorities last set", o.lastAt.UTC().Format("15:04:05"), o.lastErr)
	case o.lastOff:
		return MaxLevelsKey + " is 0 on the cluster (priorities off): jobs keep YARN's order"
	}
	to := ""
	if o.lastRM != "" {
		to = " on " + o.lastRM
	}
	return fmt.Sprintf("%d jobs ordered over %d priority levels, %d priorities set%s (last round %s)",
		len(o.jobs), o.levelsNow.Load(), o.totalSet, to, o.lastAt.UTC().Format("15:04:05"))
}

// put sets app's priority on the first ResourceManager that takes it.
func (o *Orderer) put(ctx context.Context, app string, level int) (int, error) {
	var got int
	err := o.ask(func(rm *rest.ResourceManager) error {
		var err error
		got, err = rm.SetAppPriority(ctx, app, level, o.cfg.User)
		if err == nil {
			o.mu.Lock()
			o.lastRM = rm.Base()
			o.mu.Unlock()
		}
		return err
	})
	return got, err
}

// ask calls f with the ResourceManagers in turn, from the one that answered
// last, until one succeeds or refuses (HA: a standby or a down RM gives
// another error, and the next is asked); the error names every RM's.
func (o *Orderer) ask(f func(*rest.ResourceManager) error) error {
	var errs []error
	for i := range o.rms {
		k := (o.next + i) % len(o.rms)
		err := f(o.rms[k])
		if err == nil || refused(err) {
			o.next = k
			return err
		}
		errs = append(errs, err)
	}
	o.next = (o.next + 1) % len(o.rms)
	return errors.Join(errs...)
}

// resolveLevels returns the levels to use: the cluster's maximum priority,
// or Config.Levels when that is lower or the maximum cannot be read (read
// every round until it is; 0 on the cluster means priorities are off, which
// is logged once and writes nothing).
func (o *Orderer) resolveLevels(ctx context.Context) (int, error) {
	if o.levels > 0 {
		return o.levels, nil
	}
	clusterMax := 0
	err := o.ask(func(rm *rest.ResourceManager) error {
		v, err := rm.ConfValue(ctx, MaxLevelsKey)
		if err != nil {
			return err
		}
		if clusterMax, err = strconv.Atoi(strings.TrimSpace(v)); err != nil {
			return fmt.Errorf("%s/conf: %s is %q, not a number", rm.Base(), MaxLevelsKey, v)
		}
		return nil
	})
	n := clusterMax
	switch {
	case err != nil && o.cfg.Levels > 0:
		n = o.cfg.Levels
		o.cfg.Log.WithError(err).Info("job order: the cluster's " + MaxLevelsKey + " could not be read; using --rm-job-order-levels")
	case err != nil:
		o.failures.Inc()
		return 0, fmt.Errorf("job order: the cluster's priority levels: %w", err)
	case clusterMax <= 0:
		if !o.offSaid {
			o.cfg.Log.Warn("job order: " + MaxLevelsKey + " is 0 on the cluster (application priorities off): jobs keep YARN's order; set it above 0")
			o.offSaid = true
		}
		return 0, nil
	case o.cfg.Levels > 0:
		n = min(o.cfg.Levels, clusterMax)
	}
	o.levels = min(n, speculators.MaxPriorityLevels)
	o.levelsNow.Store(int64(o.levels))
	o.cfg.Log.WithField("levels", o.levels).Info("job order: setting the application priorities of jobs whose policies order them")
	return o.levels, nil
}

// Run writes the order every Interval until ctx ends, logging when rounds
// start and stop failing (not every failure).
func (o *Orderer) Run(ctx context.Context) {
	t := time.NewTicker(o.cfg.Interval)
	defer t.Stop()
	failing := false
	for {
		_, err := o.Round(ctx)
		switch {
		case err != nil && ctx.Err() == nil && !failing:
			o.cfg.Log.WithError(err).Warn("job order: no ResourceManager answered; jobs keep the priorities last set until one does")
			failing = true
		case err == nil && failing:
			o.cfg.Log.Info("job order: the ResourceManager answers again")
			failing = false
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
