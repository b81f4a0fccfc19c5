package lasertrain

import (
	"math"
	"math/rand/v2"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/yarnclient/history"
)

// Live, the shim sends an attempt's real counters with every report
// (records, bytes, CPU, GC, spills: java-shim Wire.java); the simulator
// fills only bytes read and CPU time. A network trained on simulated
// counters alone sees records and GC constant at zero and, live, extrapolates
// wildly from them (issue 25: the old bundled model estimated 73,000 s for
// maps of 200-600 s). So every row is given twice:
//
//   - as the simulator reports the attempt (what `replay` feeds the
//     networks);
//   - with the counters a live attempt would report at that progress: the
//     counters the history really carries for the job (every successful map
//     attempt's records, bytes, CPU, GC and spills, as rates per byte read
//     and per CPU second), applied to the bytes the simulated attempt has
//     read. A job whose history has no counters (a scenario, a SWIM trace)
//     gets rates drawn from a seeded source over the ranges below: the
//     re-simulation stands in only for what the history lacks.
//
// Choices for the drawn rates (ours; the paper's testbed ran WordCount only):
// 10 B to 1 KiB per input record, 0.1 to 10 output records per input record
// and 0.05 to 2 output bytes per input byte (log-uniform: map outputs from a
// filter to an exploding tokeniser), CPU 0.3 to 1.2 s per wall second,
// GC 0 to 12% of CPU time, 0 to 2.5 spilled records per output record; a
// map's split is 1 MiB to 1 GiB (log-uniform), a recorded attempt's split its
// bytes read.

// rates are one map attempt's counters per unit of what the simulator
// reports.
type rates struct {
	recPerByte, outRecPerByte, outBytesPerByte float64
	cpuPerWall, gcPerCPU, spillPerByte         float64
	split                                      float64 // bytes of the split
}

// countersOf lists, per history job id, the rates of its successful map
// attempts that carry counters.
func countersOf(jobs []*history.Job) map[string][]rates {
	out := map[string][]rates{}
	for _, j := range jobs {
		for _, t := range j.Tasks {
			if t.Type != history.Map {
				continue
			}
			for _, a := range t.Attempts {
				if a.Status != history.Succeeded || a.Counters == nil || a.Finish <= a.Start {
					continue
				}
				c := a.Counters
				in := c["HDFS_BYTES_READ"]
				if in <= 0 {
					in = c["BYTES_READ"]
				}
				wall := float64(a.Finish - a.Start)
				if in <= 0 || c["MAP_INPUT_RECORDS"] <= 0 {
					continue
				}
				b := float64(in)
				r := rates{recPerByte: float64(c["MAP_INPUT_RECORDS"]) / b, outRecPerByte: float64(max(c["MAP_OUTPUT_RECORDS"], 0)) / b,
					outBytesPerByte: float64(max(c["MAP_OUTPUT_BYTES"], 0)) / b, cpuPerWall: float64(max(c["CPU_MILLISECONDS"], 0)) / wall,
					spillPerByte: float64(max(c["SPILLED_RECORDS"], 0)) / b, split: b}
				if r.recPerByte > 1 || r.outRecPerByte > 10 || r.outBytesPerByte > 100 || r.spillPerByte > 30 || r.cpuPerWall > 64 {
					continue // not a plausible map (fewer bytes than records): skip it
				}
				if cpu := c["CPU_MILLISECONDS"]; cpu > 0 {
					r.gcPerCPU = float64(max(c["GC_TIME_MILLIS"], 0)) / float64(cpu)
				}
				out[j.ID] = append(out[j.ID], r)
			}
		}
	}
	return out
}

// drawRates draws one attempt's rates over the ranges of the package
// comment.
func drawRates(rng *rand.Rand) rates {
	logU := func(lo, hi float64) float64 {
		return math.Exp(math.Log(lo) + rng.Float64()*(math.Log(hi)-math.Log(lo)))
	}
	rec := 1 / logU(10, 1024)
	out := rec * logU(0.1, 10)
	return rates{recPerByte: rec, outRecPerByte: out, outBytesPerByte: logU(0.05, 2), cpuPerWall: 0.3 + 0.9*rng.Float64(),
		gcPerCPU: 0.12 * rng.Float64(), spillPerByte: out * 2.5 * rng.Float64(), split: logU(1<<20, 1<<30)}
}

// liveCounters are the counters a live attempt would report where the
// simulated attempt a reports its own, at elapsed wall seconds.
//
// The bytes read are the attempt's progress times the split size of the
// rates (a recorded attempt's, or drawn), not the simulated bytes: a
// scenario gives every map of a job a similar split, and bytes read would
// then say as much as progress, a coincidence no live cluster keeps.
func (r rates) liveCounters(a *speculators.Attempt, elapsed float64) speculators.Counters {
	b := a.Progress * r.split
	cpu := r.cpuPerWall * elapsed * 1000
	return speculators.Counters{InputBytes: int64(b), OutputBytes: int64(b * r.outBytesPerByte),
		InputRecords: int64(b * r.recPerByte), OutputRecords: int64(b * r.outRecPerByte),
		CPUMillis: int64(cpu), GCMillis: int64(cpu * r.gcPerCPU), SpilledRecords: int64(b * r.spillPerByte)}
}

// counterBook gives each simulated map the rates of its live counters: a
// real attempt's of its job when the history has any (map i takes attempt
// i mod n), else rates drawn from a source seeded by the seed, the job and
// the map.
//
// pool holds the rates of every input's recorded attempts: a map of a job
// without counters of its own takes a recorded attempt's rates half of the
// time (the counters the cluster's jobs really show), drawn ones otherwise
// (so that the networks also see the counters of jobs unlike the recorded
// ones).
type counterBook struct {
	real map[string][]rates
	pool []rates
	seed uint64
}

func (cb counterBook) rates(jobID string, job, task int) rates {
	if rs := cb.real[jobID]; len(rs) > 0 {
		return rs[task%len(rs)]
	}
	rng := rand.New(rand.NewPCG(cb.seed^0xc0a17e45, uint64(job)<<32|uint64(uint32(task))))
	if len(cb.pool) > 0 && rng.IntN(2) == 0 {
		r := cb.pool[rng.IntN(len(cb.pool))]
		return r
	}
	return drawRates(rng)
}

// withLiveCounters is a copy of a with the counters live would report.
func (cb counterBook) withLiveCounters(job *speculators.Job, jobIndex int, a *speculators.Attempt, now speculators.Time) *speculators.Attempt {
	b := *a
	b.Counters = cb.rates(job.Info.ID, jobIndex, int(a.ID.Task.Index)).liveCounters(a, float64(now-a.Start)/1000)
	return &b
}
