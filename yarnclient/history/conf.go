package history

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/specbridge/specbridge/internal/hadoopconf"
)

// A job's configuration (issue 30): JobHistory keeps it beside the job's
// history as <job id>_conf.xml, in the intermediate directory
// (done_intermediate/<user>/) and in the done directory
// (done/<yyyy>/<mm>/<dd>/<serial>/) alike; a Rumen trace carries it as a
// job's jobProperties. Only the keys the replay takes are kept (ConfKept),
// so a job holds a few dozen short strings whatever its file held.

// MaxConfBytes bounds a conf.xml: a job's configuration is some hundreds of
// kB (Hadoop 3's defaults with a job's own keys are ~ 250 kB); a file over
// this is refused.
const MaxConfBytes = hadoopconf.MaxBytes

// MaxConfValue bounds one kept value: the replay reads numbers, booleans
// and policy names; a kept key with a longer value is an error.
const MaxConfValue = 4096

// maxConfKept bounds how many kept keys one configuration may hold (the
// specbridge.* prefix is open-ended).
const maxConfKept = 1024

// Conf is the kept part of one job's configuration: its Source names where
// it was read (the conf.xml's name, or a Rumen file's name with
// " jobProperties").
type Conf = hadoopconf.Conf

// confLimits keeps the keys the replay reads, bounded.
var confLimits = hadoopconf.Limits{Keep: ConfKept, MaxValue: MaxConfValue, MaxKeys: maxConfKept}

// ConfFileName is the name of job id's configuration file beside its
// history.
func ConfFileName(jobID string) string { return jobID + "_conf.xml" }

// ShimSpeculatorKey is the property naming the AM's speculator class
// (Hadoop's MRJobConfig.MR_AM_JOB_SPECULATOR); ShimSpeculatorClass is the
// shim's, under which the job's specbridge.speculator decided.
const (
	ShimSpeculatorKey   = "yarn.app.mapreduce.am.job.speculator.class"
	ShimSpeculatorClass = "org.specbridge.shim.BridgeSpeculator"
)

// ConfKept reports whether the replay reads key: the task and speculation
// keys of MapReduce (new names and their Hadoop 1 names), container sizes,
// and specbridge's own.
func ConfKept(key string) bool {
	for _, p := range []string{"mapreduce.map.", "mapreduce.reduce.", "mapreduce.job.speculative.", "specbridge.",
		"mapred.map.", "mapred.reduce.", "mapred.task.timeout", "mapreduce.task.timeout",
		"mapreduce.job.reduce.slowstart.", "mapred.reduce.slowstart.", ShimSpeculatorKey} {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// ReadConf reads a job's conf.xml (of at most MaxConfBytes) with the
// module's one reader of Hadoop configuration XML (internal/hadoopconf),
// keeping the keys ConfKept names, each value within MaxConfValue, at most
// 1,024 of them; a later property overrides an earlier one unless that was
// final, as in Hadoop. name is the file's name in errors and Conf.Source;
// malformed XML, a property without a name, a value or key over the bounds
// and a file over the limit are errors naming the file and, where known,
// the line.
func ReadConf(r io.Reader, name string) (*Conf, error) {
	return hadoopconf.Read(r, name, confLimits)
}

// rumenConf keeps the kept keys of a Rumen job's jobProperties (strings;
// a number or boolean is taken as written, other values are skipped); nil
// when none is kept. source names the trace.
func rumenConf(props map[string]json.RawMessage, source string) (*Conf, error) {
	c := hadoopconf.New(source+" jobProperties", confLimits)
	for _, k := range slices.Sorted(maps.Keys(props)) {
		raw := props[k]
		if !ConfKept(k) {
			continue
		}
		var v any
		if len(raw) > 2*MaxConfValue || json.Unmarshal(raw, &v) != nil {
			return nil, fmt.Errorf("%s: %s: value of %d bytes is not a short string, number or boolean", c.Source, k, len(raw))
		}
		var s string
		switch x := v.(type) {
		case string:
			s = x
		case bool, float64:
			s = strings.TrimSpace(string(raw))
		default:
			continue
		}
		if err := c.Set(k, strings.TrimSpace(s)); err != nil {
			return nil, err
		}
	}
	if c.Len() == 0 {
		return nil, nil
	}
	return c, nil
}

// ConfFromMap is the configuration m (a scenario job group's conf: map),
// named source in errors. Every key must be one the replay reads
// (ConfKept): another is a mistake the replay would ignore in silence.
func ConfFromMap(source string, m map[string]string) (*Conf, error) {
	c := hadoopconf.New(source, confLimits)
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !ConfKept(k) {
			return nil, fmt.Errorf("%s: key %.60q is not one the replay reads (mapreduce.map.*, mapreduce.reduce.*, mapreduce.task.timeout, mapreduce.job.speculative.*, mapreduce.job.reduce.slowstart.completedmaps, specbridge.*)", source, k)
		}
		if err := c.Set(k, strings.TrimSpace(m[k])); err != nil {
			return nil, err
		}
	}
	return c, nil
}
