// Package hadoopconf reads Hadoop configuration XML: a <configuration> of
// <property> elements with <name>, <value>, optional <final> and <source>,
// as Hadoop's Configuration.writeXml writes a job's conf.xml and as a
// cluster's *-site.xml files are written by hand. It is the one reader of
// that format in the module: yarnclient/history keeps a job's configuration
// with it (the replay's keys only, bounded), yarnclient/rmcapacity and
// yarnclient/hdfs a cluster's site files (every key, ReadDir).
//
// Precedence is Hadoop's Configuration's: of two properties of the same
// name, read from one file or from files read in turn into one Conf, the
// later wins unless the earlier was final.
package hadoopconf

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// MaxBytes bounds one file: a job's configuration is some hundreds of kB
// (Hadoop 3's defaults with a job's own keys are ~ 250 kB), a site file a
// few tens of kB; a file over this is refused.
const MaxBytes = 16 << 20

// Limits says what a Conf keeps and how much of it.
type Limits struct {
	// Keep reports whether a key read from a file is kept; nil keeps
	// every key. Set does not ask it: its callers choose their keys.
	Keep func(key string) bool
	// MaxValue bounds one kept value in bytes, MaxKeys the number of kept
	// keys; a value or key over them is an error. 0: no bound but the
	// file's size.
	MaxValue, MaxKeys int
}

// Conf is the kept properties of one or more configuration sources.
type Conf struct {
	// Source names what it was read from (a file's name, or a Rumen
	// trace's jobProperties) in errors and in Where.
	Source string
	lim    Limits
	vals   map[string]value
}

type value struct {
	v     string
	src   string // the file it was read from
	line  int    // 0: not known (not read from XML)
	final bool
}

// New is an empty Conf named source, keeping what lim says.
func New(source string, lim Limits) *Conf {
	return &Conf{Source: source, lim: lim, vals: map[string]value{}}
}

// Read reads one file, of at most MaxBytes, into a new Conf named name (see
// Conf.Read).
func Read(r io.Reader, name string, lim Limits) (*Conf, error) {
	c := New(name, lim)
	if err := c.Read(r, name); err != nil {
		return nil, err
	}
	return c, nil
}

// ReadDir reads the named files of the configuration directory dir in
// turn (the ones that exist, as Hadoop skips a missing *-site.xml) into one
// Conf named dir, each of at most MaxBytes, so that a later file's
// properties override an earlier one's unless those are final. found is
// how many of the files existed. A dir that is not a directory, a file
// that does not open and any error of Read are errors naming the file.
func ReadDir(dir string, lim Limits, files ...string) (c *Conf, found int, err error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, 0, fmt.Errorf("reading the Hadoop configuration %s: %w", dir, err)
	}
	if !st.IsDir() {
		return nil, 0, fmt.Errorf("reading the Hadoop configuration %s: not a directory", dir)
	}
	c = New(dir, lim)
	for _, name := range files {
		p := filepath.Join(dir, name)
		f, err := os.Open(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, 0, fmt.Errorf("reading the Hadoop configuration %s: %w", p, err)
		}
		err = c.Read(f, p)
		_ = f.Close()
		if err != nil {
			return nil, 0, fmt.Errorf("reading the Hadoop configuration: %w", err)
		}
		found++
	}
	return c, found, nil
}

// Map is the kept properties, key to value.
func (c *Conf) Map() map[string]string {
	if c == nil {
		return nil
	}
	m := make(map[string]string, len(c.vals))
	for k, v := range c.vals {
		m[k] = v.v
	}
	return m
}

// Get is key's value.
func (c *Conf) Get(key string) (string, bool) {
	if c == nil {
		return "", false
	}
	v, ok := c.vals[key]
	return v.v, ok
}

// Where names where key was set: the file and, when read from XML, the
// line of its <property>; else the Conf's Source.
func (c *Conf) Where(key string) string {
	if c == nil {
		return ""
	}
	if v, ok := c.vals[key]; ok && v.line > 0 {
		return fmt.Sprintf("%s line %d", v.src, v.line)
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

// Len is the number of kept keys.
func (c *Conf) Len() int {
	if c == nil {
		return 0
	}
	return len(c.vals)
}

// Set keeps key = v from a source other than XML (no line, not final),
// within the Limits' bounds, unless an earlier value of key was final.
func (c *Conf) Set(key, v string) error {
	return c.set(key, v, c.Source, 0, false)
}

// set keeps key = v read from src at line, as Hadoop's Configuration does:
// a later property of the same name wins unless the earlier one was final.
func (c *Conf) set(key, v, src string, line int, final bool) error {
	old, had := c.vals[key]
	if had && old.final {
		return nil
	}
	at := src
	if line > 0 {
		at = fmt.Sprintf("read %s line %d", src, line)
	}
	if c.lim.MaxValue > 0 && len(v) > c.lim.MaxValue {
		return fmt.Errorf("%s: %s: value of %d bytes, over %d", at, key, len(v), c.lim.MaxValue)
	}
	if !had && c.lim.MaxKeys > 0 && len(c.vals) >= c.lim.MaxKeys {
		return fmt.Errorf("%s: over %d kept keys", at, c.lim.MaxKeys)
	}
	c.vals[key] = value{v: v, src: src, line: line, final: final}
	return nil
}

// Read reads one file of at most MaxBytes into c, keeping the keys
// Limits.Keep names, with names and values trimmed of white space. name is
// the file's name in errors and in Where. Its properties override c's
// unless those are final, so files read in turn stack as Hadoop's
// resources do. Malformed XML (entities and a DTD's definitions
// included), a root other than <configuration>, a property without a
// name, a <final> other than true or false, a value or a key over the
// Limits and a file over MaxBytes are errors naming the file and, where
// known, the line; c may then hold part of the file.
func (c *Conf) Read(r io.Reader, name string) error {
	lr := &io.LimitedReader{R: r, N: MaxBytes + 1}
	over := func() error { return fmt.Errorf("read %s: configuration over %d bytes", name, MaxBytes) }
	dec := xml.NewDecoder(lr)
	dec.Strict = true
	root := false
	for {
		line, _ := dec.InputPos()
		tok, err := dec.Token()
		if lr.N <= 0 {
			return over()
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			line, _ := dec.InputPos()
			return fmt.Errorf("read %s line %d: %w", name, line, err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if !root {
			if se.Name.Local != "configuration" {
				return fmt.Errorf("read %s line %d: root element <%s>, want <configuration>", name, line, se.Name.Local)
			}
			root = true
			continue
		}
		if se.Name.Local != "property" {
			continue
		}
		var p struct { // <source> and other elements are passed over
			Name  string `xml:"name"`
			Value string `xml:"value"`
			Final string `xml:"final"`
		}
		if err := dec.DecodeElement(&p, &se); err != nil {
			if lr.N <= 0 {
				return over()
			}
			return fmt.Errorf("read %s line %d: property: %w", name, line, err)
		}
		key := strings.TrimSpace(p.Name)
		if key == "" {
			return fmt.Errorf("read %s line %d: property without a name", name, line)
		}
		if c.lim.Keep != nil && !c.lim.Keep(key) {
			continue
		}
		final := strings.TrimSpace(p.Final)
		if final != "" && final != "true" && final != "false" {
			return fmt.Errorf("read %s line %d: %s: <final>%.40q</final> is not true or false", name, line, key, final)
		}
		if err := c.set(key, strings.TrimSpace(p.Value), name, line, final == "true"); err != nil {
			return err
		}
	}
	if !root {
		return fmt.Errorf("read %s: no <configuration> element", name)
	}
	return nil
}
