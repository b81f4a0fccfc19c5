package replay

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/specbridge/specbridge/sim"
	"github.com/specbridge/specbridge/yarnclient/history"
)

// historySource is a recorded input (a Rumen trace, jhist files, a
// directory of them) streamed: it holds one small header a job, and a
// job's tasks are read again from its file when the simulator needs them
// (sim.Job.Load), where an eager read (Load) holds every task, attempt, id
// and counter of the input for the whole replay.
//
// The input is read once, job by job, when it is opened (Load, Stream),
// for what a run needs before a job arrives and cannot learn later: the
// earliest submit (the run's time origin), each job's calibration, task
// counts and longest task, and the recorded hosts' busiest moments (the
// cluster, hostPeaks: two 16-byte edges an attempt). Each job read is let
// go at once. A run reads each job once more at its arrival, from the
// byte offset (Rumen) or the file (jhist) where the first read found it;
// a job whose file no longer holds it there is an error naming the file
// and line. Jobs that cannot be calibrated draw stragglers from one random
// stream in input order, so those (rare in a history: it has no recorded
// submit or finish) are also read once per workload build, as a SWIM
// trace's rows are derived (swimsource.go), to keep the stream's state at
// each job's start.
type historySource struct {
	// src is where the jobs are read again from (local: loadStreamed).
	src  Source
	jobs []recordedHead
	// origin is the earliest submit (epoch ms), 0 when none is known.
	origin int64
	hosts  hostPeaks
	// nodes is the cluster of the recorded hosts (finish), speeds their
	// measured speeds.
	nodes []sim.Node
	facts *nodeFacts
	// extra caches what the speed histories give (extraView), which no
	// seed changes: every run's workload shares it.
	extraMu sync.Mutex
	extra   *extraView
}

// extraView is what a replay's speed histories (ClusterOptions'
// SpeedHistories, --node-speeds-from) give the input's cluster: the
// nodes' speeds, the copy cost, and the nodes, every NodeManager the
// histories name among them (withClusterNodes).
type extraView struct {
	of         []*history.Job // the histories it was computed from
	noCopyCost bool
	speeds     *nodeSpeeds
	copyCost   copyCosts
	nodes      []sim.Node
}

// extraOf is the view of co's speed histories, computed at the first
// workload and kept while later ones ask for the same list (the same
// slice: one replay's options) and copy-cost setting. The median polish
// over every speed sample (nodespeed.go) is then done once per input, not
// once per seed.
func (s *historySource) extraOf(co ClusterOptions) *extraView {
	s.extraMu.Lock()
	defer s.extraMu.Unlock()
	if v := s.extra; v != nil && v.noCopyCost == co.NoCopyCost && len(v.of) == len(co.SpeedHistories) && &v.of[0] == &co.SpeedHistories[0] {
		return v
	}
	v := &extraView{of: co.SpeedHistories, noCopyCost: co.NoCopyCost, speeds: s.hosts.speeds(co.SpeedHistories)}
	if !co.NoCopyCost {
		v.copyCost = s.hosts.startup.copyCost(co.SpeedHistories)
	}
	nodes := slices.Clone(s.nodes)
	for i := range nodes {
		nodes[i].Slowdown = v.speeds.factorOf(nodes[i].Name)
	}
	v.nodes = withClusterNodes(nodes, co.SpeedHistories, v.speeds, s.origin)
	s.extra = v
	return v
}

// recordedHead is what a streamed workload keeps of one recorded job.
type recordedHead struct {
	at         jobPlace
	id, status string
	cal        calibration
	// header is a calibrated job's simulator job, Submit from time 0
	// (calibratedJob with origin 0), without its tasks (streamHeader).
	header sim.Job
	// timed: a job that cannot be calibrated has a timed task (others
	// are skipped, as FromHistory skips them).
	timed bool
	// set is the job's settings (jobconf.go), read with the job's
	// configuration when the input was opened.
	set jobSettings
}

// jobPlace is where a recorded job is read from.
type jobPlace struct {
	file   string
	format history.Format
	pos    history.RumenPos // Rumen: where the job's object starts
}

// read reads the job again from src, checking that it is the one first
// read there.
func (h *recordedHead) read(src Source) (*history.Job, error) {
	f, err := src.Open(h.at.file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var j *history.Job
	if h.at.format != history.FormatRumen {
		j, err = history.ReadJhistFrom(f, h.at.file)
	} else if rs, ok := f.(io.ReadSeeker); ok {
		j, err = history.ReadRumenJobAt(rs, h.at.file, h.at.pos)
	} else {
		err = fmt.Errorf("read %s line %d: the file cannot be read again from there (not seekable)", h.at.file, h.at.pos.Line)
	}
	if err != nil {
		return nil, err
	}
	if j.ID != h.id {
		return nil, fmt.Errorf("read %s%s: job %s, where %s was when the input was opened (the file changed?)", h.at.file, h.at.line(), j.ID, h.id)
	}
	return j, nil
}

// line names a Rumen job's line in errors.
func (p jobPlace) line() string {
	if p.format == history.FormatRumen {
		return fmt.Sprintf(" line %d", p.pos.Line)
	}
	return ""
}

// add keeps j's header, read at place at.
func (s *historySource) add(j *history.Job, at jobPlace) error {
	set, err := readSettings(j)
	if err != nil {
		return err
	}
	if sub := submitOf(j); sub > 0 && (s.origin == 0 || sub < s.origin) {
		s.origin = sub
	}
	s.hosts.add(j)
	h := recordedHead{at: at, id: j.ID, status: j.Status, cal: calibrate(j), set: set}
	if h.cal.ok {
		full := calibratedJob(j, h.cal, &h.set, 0, nil) // the header: task counts and longest work
		h.header = streamHeader(&full)
	} else {
		_, h.timed = uncalibratedJob(j, &h.set, 0)
	}
	s.jobs = append(s.jobs, h)
	return nil
}

// finish infers the cluster once every job is added, and lets the
// hosts' edges go (their speed and start-up samples stay, for
// SpeedHistories).
func (s *historySource) finish() {
	s.nodes, s.facts = s.hosts.nodes(nil)
	s.hosts = hostPeaks{ports: s.hosts.ports, speed: s.hosts.speed, startup: s.hosts.startup}
}

// workload is FromHistory over the input's jobs, streamed: the same
// workload, but each job is a header whose tasks Load reads from the
// job's file at its arrival.
func (s *historySource) workload(co ClusterOptions, seed uint64) (*Workload, error) {
	origin := s.origin
	model, pcg, rs, err := stragglerDraws(co, seed)
	if err != nil {
		return nil, err
	}
	nodes, facts := slices.Clone(s.nodes), s.facts.forCluster(co)
	if len(co.SpeedHistories) > 0 {
		v := s.extraOf(co)
		f := *facts
		f.speeds, f.copyCost = v.speeds, v.copyCost
		facts = &f
		nodes = slices.Clone(v.nodes)
	}
	w := &Workload{}
	uncalibrated := false
	for i := range s.jobs {
		h := &s.jobs[i]
		if h.cal.ok {
			sj := h.header // built without facts: no copy cost yet
			facts.applyCopyCost(&sj)
			sj.Submit -= origin
			if sj.Deadline > 0 {
				sj.Deadline -= origin
			}
			sj.Load = func(j *sim.Job) error {
				rj, err := h.read(s.src)
				if err != nil {
					return err
				}
				full := calibratedJob(rj, h.cal, &h.set, origin, facts)
				j.Maps, j.Reduces = full.Maps, full.Reduces
				return nil
			}
			w.addRecorded(sj, h.cal.overhead(), RecordedJob{ID: h.id, Status: h.status, Time: h.cal.recorded}, &h.set)
			continue
		}
		if !h.timed {
			continue
		}
		uncalibrated = true
		at := *pcg
		full, err := h.uncalibrated(s.src, origin, model, rs)
		if err != nil {
			return nil, err
		}
		sj := streamHeader(&full)
		sj.Load = func(j *sim.Job) error {
			p := at
			full, err := h.uncalibrated(s.src, origin, model, rand.New(&p))
			j.Maps, j.Reduces = full.Maps, full.Reduces
			return err
		}
		w.addRecorded(sj, 0, RecordedJob{ID: h.id, Status: h.status}, &h.set)
	}
	if len(w.Jobs) == 0 {
		return nil, errNoTimedJob
	}
	w.cluster(nodes, co, seed, model, rs, uncalibrated)
	// A history that names its NodeManagers (a .jhist, a Rumen trace of
	// one) is of a YARN cluster: copies go where its AM places them. A
	// trace without hosts (SWIM) is of the JobTracker's Hadoop.
	w.Config.YARNPlacement = len(nodes) > 0
	w.applyCrashes(facts.crashed, origin)
	return w, nil
}

// uncalibrated reads an uncalibrated job again and builds it as
// FromHistory does, its stragglers drawn with rs.
func (h *recordedHead) uncalibrated(src Source, origin int64, model StragglerModel, rs *rand.Rand) (sim.Job, error) {
	rj, err := h.read(src)
	if err != nil {
		return sim.Job{}, err
	}
	full, _ := uncalibratedJob(rj, &h.set, origin)
	if !model.Off {
		model.stretch(rs, &full)
	}
	return full, nil
}

// each calls f with every job of the input in order, read again one at a
// time (decisions mode).
func (s *historySource) each(f func(*history.Job) error) error {
	for i := range s.jobs {
		j, err := s.jobs[i].read(s.src)
		if err == nil && s.jobs[i].at.format != history.FormatRumen {
			// A .jhist holds no configuration: the one kept beside it is
			// read again with it, as when the input was opened (decisions
			// mode reads the job's deadline from it). A simulation's reads
			// need not: the job's settings are in its header.
			err = attachConf(j, siblingOf(s.src, s.jobs[i].at.file))
		}
		if err != nil {
			return err
		}
		if err := f(j); err != nil {
			return err
		}
	}
	return nil
}
