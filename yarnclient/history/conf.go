package history

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
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
const MaxConfBytes = 16 << 20

// MaxConfValue bounds one kept value: the replay reads numbers, booleans
// and policy names; a kept key with a longer value is an error.
const MaxConfValue = 4096

// maxConfKept bounds how many kept keys one configuration may hold (the
// specbridge.* prefix is open-ended).
const maxConfKept = 1024

// Conf is the kept part of one job's configuration.
type Conf struct {
	// Source names where it was read: the conf.xml's name, or a Rumen
	// file's name with " jobProperties".
	Source string
	vals   map[string]confVal
}

type confVal struct {
	v     string
	line  int // 0: not known (Rumen)
	final bool
}

// Get is key's value.
func (c *Conf) Get(key string) (string, bool) {
	if c == nil {
		return "", false
	}
	v, ok := c.vals[key]
	return v.v, ok
}

// Where names where key was set: the source and, in a conf.xml, the line
// of its <property>.
func (c *Conf) Where(key string) string {
	if v, ok := c.vals[key]; ok && v.line > 0 {
		return fmt.Sprintf("%s line %d", c.Source, v.line)
	}
	return c.Source
}

// Keys lists the kept keys, sorted.
func (c *Conf) Keys() []string {
	if c == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(c.vals))
}

// set keeps key = v read at line, as Hadoop's Configuration does: a later
// property of the same name wins unless the earlier one was final.
func (c *Conf) set(key, v string, line int, final bool) error {
	if old, ok := c.vals[key]; ok && old.final {
		return nil
	}
	at := c.Source
	if line > 0 {
		at = fmt.Sprintf("read %s line %d", c.Source, line)
	}
	if len(v) > MaxConfValue {
		return fmt.Errorf("%s: %s: value of %d bytes, over %d", at, key, len(v), MaxConfValue)
	}
	if _, ok := c.vals[key]; !ok && len(c.vals) >= maxConfKept {
		return fmt.Errorf("%s: over %d kept keys (mapreduce.map.*, mapreduce.reduce.*, specbridge.*, ...)", at, maxConfKept)
	}
	c.vals[key] = confVal{v: v, line: line, final: final}
	return nil
}

// ConfFileName is the name of job id's configuration file beside its
// history.
func ConfFileName(jobID string) string { return jobID + "_conf.xml" }

// ConfKept reports whether the replay reads key: the task and speculation
// keys of MapReduce (new names and their Hadoop 1 names), container sizes,
// and specbridge's own.
// ShimSpeculatorKey is the property naming the AM's speculator class
// (Hadoop's MRJobConfig.MR_AM_JOB_SPECULATOR); ShimSpeculatorClass is the
// shim's, under which the job's specbridge.speculator decided.
const (
	ShimSpeculatorKey   = "yarn.app.mapreduce.am.job.speculator.class"
	ShimSpeculatorClass = "org.specbridge.shim.BridgeSpeculator"
)

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

// ReadConf reads a Hadoop configuration file (<configuration> of
// <property> with <name>, <value>, optional <final> and <source>, as
// Hadoop's Configuration.writeXml writes a job's conf.xml) of at most
// MaxConfBytes, keeping the keys ConfKept names; name is the file's name in
// errors and Conf.Source. Malformed XML, a property without a name, a
// kept value over MaxConfValue and a file over the limit are errors naming
// the file and, where known, the line.
func ReadConf(r io.Reader, name string) (*Conf, error) {
	lr := &io.LimitedReader{R: r, N: MaxConfBytes + 1}
	over := func() error { return fmt.Errorf("read %s: configuration over %d bytes", name, MaxConfBytes) }
	dec := xml.NewDecoder(lr)
	dec.Strict = true
	c := &Conf{Source: name, vals: map[string]confVal{}}
	root := false
	for {
		line, _ := dec.InputPos()
		tok, err := dec.Token()
		if lr.N <= 0 {
			return nil, over()
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			line, _ := dec.InputPos()
			return nil, fmt.Errorf("read %s line %d: %w", name, line, err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if !root {
			if se.Name.Local != "configuration" {
				return nil, fmt.Errorf("read %s line %d: root element <%s>, want <configuration>", name, line, se.Name.Local)
			}
			root = true
			continue
		}
		if se.Name.Local != "property" {
			continue
		}
		var p struct {
			Name   string   `xml:"name"`
			Value  string   `xml:"value"`
			Final  string   `xml:"final"`
			Source []string `xml:"source"`
		}
		if err := dec.DecodeElement(&p, &se); err != nil {
			if lr.N <= 0 {
				return nil, over()
			}
			return nil, fmt.Errorf("read %s line %d: property: %w", name, line, err)
		}
		key := strings.TrimSpace(p.Name)
		if key == "" {
			return nil, fmt.Errorf("read %s line %d: property without a name", name, line)
		}
		if !ConfKept(key) {
			continue
		}
		final := strings.TrimSpace(p.Final)
		if final != "" && final != "true" && final != "false" {
			return nil, fmt.Errorf("read %s line %d: %s: <final>%.40q</final> is not true or false", name, line, key, final)
		}
		if err := c.set(key, strings.TrimSpace(p.Value), line, final == "true"); err != nil {
			return nil, err
		}
	}
	if !root {
		return nil, fmt.Errorf("read %s: no <configuration> element", name)
	}
	return c, nil
}

// rumenConf keeps the kept keys of a Rumen job's jobProperties (strings;
// a number or boolean is taken as written, other values are skipped); nil
// when none is kept. source names the trace.
func rumenConf(props map[string]json.RawMessage, source string) (*Conf, error) {
	c := &Conf{Source: source + " jobProperties", vals: map[string]confVal{}}
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
		if err := c.set(k, strings.TrimSpace(s), 0, false); err != nil {
			return nil, err
		}
	}
	if len(c.vals) == 0 {
		return nil, nil
	}
	return c, nil
}

// ConfFromMap is the configuration m (a scenario job group's conf: map),
// named source in errors. Every key must be one the replay reads
// (ConfKept): another is a mistake the replay would ignore in silence.
func ConfFromMap(source string, m map[string]string) (*Conf, error) {
	c := &Conf{Source: source, vals: map[string]confVal{}}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !ConfKept(k) {
			return nil, fmt.Errorf("%s: key %.60q is not one the replay reads (mapreduce.map.*, mapreduce.reduce.*, mapreduce.task.timeout, mapreduce.job.speculative.*, mapreduce.job.reduce.slowstart.completedmaps, specbridge.*)", source, k)
		}
		if err := c.set(k, strings.TrimSpace(m[k]), 0, false); err != nil {
			return nil, err
		}
	}
	return c, nil
}
