package bridge

import (
	"bytes"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// A hand-rolled decoder for the hot frame shape, `events` (decoding was
// most of the bridge's CPU per event). It accepts only what it can decode
// exactly as encoding/json would into clientFrame, and gives up on anything
// else: any other frame type, escapes in a string it keeps, invalid UTF-8 in
// a string it keeps, a null where encoding/json would not simply leave the
// zero value, duplicate fields (encoding/json merges those), a field name
// that encoding/json would match case-insensitively, a number that does not
// fit its field, deep nesting, invalid JSON. DecodeFrame then decodes the
// frame with encoding/json, so the result of DecodeFrame never depends on
// which decoder ran (FuzzDecodeFrame checks both agree on every input).
//
// Strings it returns that the bridge only parses (attempt ids, fetch-failed
// task ids, unknown kinds and phases) share one copy of the frame per frame;
// strings an engine may keep (node, container) are copied on their own so
// that they do not hold a whole frame in memory.

// fastMaxDepth bounds the nesting of an unknown field's value the fast
// decoder skips; deeper values go to encoding/json.
const fastMaxDepth = 32

// eventsBuf is storage the fast decoder fills. A session hands it from the
// reader to run and back, so that a steady stream of batches decodes
// without allocating per event.
type eventsBuf struct {
	frame    Events
	events   []WireEvent
	times    []int64
	counters []Counters
}

// eventsBufs recycles decode storage between sessions: a pool, not a buffer
// per session, so that idle sessions hold none.
var eventsBufs = sync.Pool{New: func() any { return new(eventsBuf) }}

// keepEventsBuf is the most events a recycled buffer may have room for.
const keepEventsBuf = 1024

func getEventsBuf() *eventsBuf { return eventsBufs.Get().(*eventsBuf) }

// putEventsBuf recycles b; the frame decoded into it must no longer be used.
func putEventsBuf(b *eventsBuf) {
	if cap(b.events) > keepEventsBuf || cap(b.times) > keepEventsBuf || cap(b.counters) > keepEventsBuf {
		return
	}
	b.reset()
	eventsBufs.Put(b)
}

// reset drops every reference the buffer holds into the last frame, keeping
// its capacity.
func (b *eventsBuf) reset() {
	clear(b.events[:cap(b.events)])
	b.events = b.events[:0]
	b.times = b.times[:0]
	b.counters = b.counters[:0]
	b.frame = Events{}
}

// fastParser walks one frame. data and s hold the same bytes.
type fastParser struct {
	data []byte
	s    string
	i    int
	buf  *eventsBuf
}

// decodeEventsFast decodes data if it is an events frame of the usual shape,
// into buf (reset first). ok false means "use encoding/json", not "invalid".
func decodeEventsFast(data []byte, buf *eventsBuf) (*Events, bool) {
	// Cheap screen: every events frame names its type; this also keeps the
	// string copy below off frames of other types.
	if !bytes.Contains(data, []byte(`"events"`)) {
		return nil, false
	}
	buf.reset()
	p := fastParser{data: data, s: string(data), buf: buf}
	if !p.frame() {
		buf.reset()
		return nil, false
	}
	return &buf.frame, true
}

// Field bits for duplicate detection.
const (
	fType = 1 << iota
	fSeq
	fNow
	fEvents
)

// The JSON names of clientFrame, WireEvent and Counters, read from their
// tags: a field whose name folds to one of them but that the fast decoder
// does not decode (spelled otherwise, or added to the struct later) sends the
// frame to encoding/json rather than being skipped.
var (
	clientFrameFields = jsonNames(reflect.TypeFor[clientFrame]())
	wireEventFields   = jsonNames(reflect.TypeFor[WireEvent]())
	counterFields     = jsonNames(reflect.TypeFor[Counters]())
)

func jsonNames(t reflect.Type) []string {
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" {
			name = f.Name
		}
		names = append(names, name)
	}
	return names
}

func (p *fastParser) frame() bool {
	if !p.consume('{') {
		return false
	}
	var seen uint
	isEvents := false
	f := &p.buf.frame
	if !p.consume('}') {
		for {
			ks, ke, ok := p.key()
			if !ok {
				return false
			}
			var bit uint
			switch string(p.data[ks:ke]) {
			case "type":
				bit = fType
				p.ws()
				s, e, ok := p.str()
				if !ok || string(p.data[s:e]) != TypeEvents {
					return false
				}
				isEvents = true
			case "seq":
				bit = fSeq
				if !p.intField(&f.Seq) {
					return false
				}
			case "now":
				bit = fNow
				if !p.intField(&f.Now) {
					return false
				}
			case "events":
				bit = fEvents
				if !p.events() {
					return false
				}
			default:
				if !p.unknown(ks, ke, clientFrameFields) {
					return false
				}
			}
			if seen&bit != 0 {
				return false
			}
			seen |= bit
			if p.consume(',') {
				continue
			}
			if !p.consume('}') {
				return false
			}
			break
		}
	}
	p.ws()
	if p.i != len(p.data) || !isEvents {
		return false
	}
	f.Type = TypeEvents
	return true
}

func (p *fastParser) events() bool {
	p.ws()
	if p.lit("null") {
		return true
	}
	if !p.consume('[') {
		return false
	}
	b := p.buf
	if b.events == nil {
		// encoding/json decodes [] to an empty, non-nil slice.
		b.events = make([]WireEvent, 0, max(4, bytes.Count(p.data, []byte(`"kind"`))))
	}
	if !p.consume(']') {
		for {
			b.events = append(b.events, WireEvent{})
			if !p.event(&b.events[len(b.events)-1]) {
				return false
			}
			if p.consume(',') {
				continue
			}
			if !p.consume(']') {
				return false
			}
			break
		}
	}
	b.frame.Events = b.events
	return true
}

// Field bits of an event.
const (
	eKind = 1 << iota
	eTime
	eAttempt
	eNode
	eContainer
	eSpeculative
	eProgress
	ePhase
	eCounters
	eFetchFailed
	eTaskType
	eCount
	eDeadline
	eErrorBound
)

func (p *fastParser) event(w *WireEvent) bool {
	if !p.consume('{') {
		return false
	}
	if p.consume('}') {
		return true
	}
	var seen uint
	for {
		ks, ke, ok := p.key()
		if !ok {
			return false
		}
		var bit uint
		switch string(p.data[ks:ke]) {
		case "kind":
			bit = eKind
			ok = p.strField(&w.Kind, internKind)
		case "time":
			bit = eTime
			ok = p.timeField(&w.Time)
		case "attempt":
			bit = eAttempt
			ok = p.strField(&w.Attempt, nil)
		case "node":
			bit = eNode
			ok = p.strField(&w.Node, strings.Clone)
		case "container":
			bit = eContainer
			ok = p.strField(&w.Container, strings.Clone)
		case "speculative":
			bit = eSpeculative
			ok = p.boolField(&w.Speculative)
		case "progress":
			bit = eProgress
			ok = p.floatField(&w.Progress)
		case "phase":
			bit = ePhase
			ok = p.strField(&w.Phase, internPhase)
		case "counters":
			bit = eCounters
			ok = p.countersField(&w.Counters)
		case "fetch_failed_maps":
			bit = eFetchFailed
			ok = p.stringsField(&w.FetchFailedMaps)
		case "task_type":
			bit = eTaskType
			ok = p.strField(&w.TaskType, internTaskType)
		case "count":
			bit = eCount
			var n int64
			ok = p.intField(&n)
			w.Count = int(n)
		case "deadline":
			bit = eDeadline
			ok = p.intField(&w.Deadline)
		case "error_bound":
			bit = eErrorBound
			ok = p.floatField(&w.ErrorBound)
		default:
			ok = p.unknown(ks, ke, wireEventFields)
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
		if p.consume(',') {
			continue
		}
		return p.consume('}')
	}
}

func (p *fastParser) countersField(dst **Counters) bool {
	p.ws()
	if p.lit("null") {
		return true
	}
	if !p.consume('{') {
		return false
	}
	b := p.buf
	if len(b.counters) == cap(b.counters) {
		// A new slab: the counters already handed out keep the old one.
		b.counters = make([]Counters, 0, max(8, 2*cap(b.counters)))
	}
	b.counters = append(b.counters, Counters{})
	c := &b.counters[len(b.counters)-1]
	*dst = c
	if p.consume('}') {
		return true
	}
	var seen uint
	for {
		ks, ke, ok := p.key()
		if !ok {
			return false
		}
		var field *int64
		var bit uint
		switch string(p.data[ks:ke]) {
		case "input_bytes":
			field, bit = &c.InputBytes, 1
		case "output_bytes":
			field, bit = &c.OutputBytes, 2
		case "input_records":
			field, bit = &c.InputRecords, 4
		case "output_records":
			field, bit = &c.OutputRecords, 8
		case "cpu_ms":
			field, bit = &c.CPUMillis, 16
		case "gc_ms":
			field, bit = &c.GCMillis, 32
		case "spilled_records":
			field, bit = &c.SpilledRecords, 64
		}
		if field != nil {
			ok = p.intField(field)
		} else {
			ok = p.unknown(ks, ke, counterFields)
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
		if p.consume(',') {
			continue
		}
		return p.consume('}')
	}
}

func (p *fastParser) stringsField(dst *[]string) bool {
	p.ws()
	if p.lit("null") {
		return true
	}
	if !p.consume('[') {
		return false
	}
	out := []string{}
	if !p.consume(']') {
		for {
			p.ws()
			s, e, ok := p.str()
			if !ok {
				return false
			}
			out = append(out, p.s[s:e])
			if p.consume(',') {
				continue
			}
			if !p.consume(']') {
				return false
			}
			break
		}
	}
	*dst = out
	return true
}

// key reads an object key and its colon; keys with escapes or non-ASCII
// bytes are left to encoding/json (it folds them).
func (p *fastParser) key() (int, int, bool) {
	p.ws()
	s, e, ok := p.str()
	if !ok {
		return 0, 0, false
	}
	for j := s; j < e; j++ {
		if p.data[j] >= utf8.RuneSelf {
			return 0, 0, false
		}
	}
	return s, e, p.consume(':')
}

// unknown skips the value of a field the struct does not have, unless
// encoding/json would match its name to one of fields case-insensitively.
func (p *fastParser) unknown(ks, ke int, fields []string) bool {
	name := p.s[ks:ke]
	for _, f := range fields {
		if strings.EqualFold(name, f) {
			return false
		}
	}
	return p.skip(0)
}

// strField reads a string or null; intern, if set, maps the frame's bytes
// to the string kept (nil keeps a substring of the frame copy).
func (p *fastParser) strField(dst *string, intern func(string) string) bool {
	p.ws()
	if p.lit("null") {
		return true
	}
	s, e, ok := p.str()
	if !ok {
		return false
	}
	if intern != nil {
		*dst = intern(p.s[s:e])
	} else {
		*dst = p.s[s:e]
	}
	return true
}

func (p *fastParser) timeField(dst **int64) bool {
	p.ws()
	if p.lit("null") {
		*dst = nil
		return true
	}
	var v int64
	if !p.intField(&v) {
		return false
	}
	b := p.buf
	if len(b.times) == cap(b.times) {
		b.times = make([]int64, 0, max(16, 2*cap(b.times)))
	}
	b.times = append(b.times, v)
	*dst = &b.times[len(b.times)-1]
	return true
}

func (p *fastParser) intField(dst *int64) bool {
	p.ws()
	if p.lit("null") {
		return true
	}
	s, e, isInt, ok := p.number()
	if !ok || !isInt {
		return false
	}
	v, ok := parseInt64(p.data[s:e])
	if !ok {
		return false
	}
	*dst = v
	return true
}

func (p *fastParser) floatField(dst *float64) bool {
	p.ws()
	if p.lit("null") {
		return true
	}
	s, e, _, ok := p.number()
	if !ok {
		return false
	}
	v, err := strconv.ParseFloat(p.s[s:e], 64)
	if err != nil {
		return false
	}
	*dst = v
	return true
}

func (p *fastParser) boolField(dst *bool) bool {
	p.ws()
	switch {
	case p.lit("null"):
	case p.lit("true"):
		*dst = true
	case p.lit("false"):
		*dst = false
	default:
		return false
	}
	return true
}

// parseInt64 parses what number() accepted as an integer: -?[0-9]+.
func parseInt64(b []byte) (int64, bool) {
	neg := b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) > 18 { // may not fit; let strconv's rules (via encoding/json) decide
		return 0, false
	}
	var n int64
	for _, c := range b {
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

func (p *fastParser) ws() {
	for p.i < len(p.data) && p.data[p.i] <= ' ' {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// consume skips white space and then c if it is next.
func (p *fastParser) consume(c byte) bool {
	p.ws()
	if p.i < len(p.data) && p.data[p.i] == c {
		p.i++
		return true
	}
	return false
}

// lit consumes the literal word if it is next.
func (p *fastParser) lit(word string) bool {
	if strings.HasPrefix(p.s[p.i:], word) {
		p.i += len(word)
		return true
	}
	return false
}

// str reads a string with no escapes and valid UTF-8 and returns the bounds
// of its contents.
func (p *fastParser) str() (int, int, bool) {
	if p.i >= len(p.data) || p.data[p.i] != '"' {
		return 0, 0, false
	}
	start := p.i + 1
	j := start
	for j < len(p.data) && plainByte[p.data[j]] {
		j++
	}
	if j < len(p.data) && p.data[j] == '"' {
		p.i = j + 1
		return start, j, true
	}
	ascii := true
	for ; j < len(p.data); j++ {
		c := p.data[j]
		switch {
		case c == '"':
			if !ascii && !utf8.Valid(p.data[start:j]) {
				return 0, 0, false // encoding/json would substitute U+FFFD
			}
			p.i = j + 1
			return start, j, true
		case c == '\\' || c < 0x20:
			return 0, 0, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return 0, 0, false
}

// plainByte holds the bytes a JSON string may hold as they are, in ASCII.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// number reads a JSON number and says whether it is an integer (no fraction,
// no exponent).
func (p *fastParser) number() (start, end int, isInt, ok bool) {
	d := p.data
	j := p.i
	start = j
	if j < len(d) && d[j] == '-' {
		j++
	}
	switch {
	case j < len(d) && d[j] == '0':
		j++
	case j < len(d) && d[j] >= '1' && d[j] <= '9':
		for j < len(d) && d[j] >= '0' && d[j] <= '9' {
			j++
		}
	default:
		return 0, 0, false, false
	}
	isInt = true
	if j < len(d) && d[j] == '.' {
		isInt = false
		j++
		k := j
		for j < len(d) && d[j] >= '0' && d[j] <= '9' {
			j++
		}
		if j == k {
			return 0, 0, false, false
		}
	}
	if j < len(d) && (d[j] == 'e' || d[j] == 'E') {
		isInt = false
		j++
		if j < len(d) && (d[j] == '+' || d[j] == '-') {
			j++
		}
		k := j
		for j < len(d) && d[j] >= '0' && d[j] <= '9' {
			j++
		}
		if j == k {
			return 0, 0, false, false
		}
	}
	p.i = j
	return start, j, isInt, true
}

// skip validates and skips any JSON value.
func (p *fastParser) skip(depth int) bool {
	if depth > fastMaxDepth {
		return false
	}
	p.ws()
	if p.i >= len(p.data) {
		return false
	}
	switch c := p.data[p.i]; {
	case c == '"':
		return p.skipString()
	case c == '{':
		p.i++
		if p.consume('}') {
			return true
		}
		for {
			p.ws()
			if !p.skipString() || !p.consume(':') || !p.skip(depth+1) {
				return false
			}
			if p.consume(',') {
				continue
			}
			return p.consume('}')
		}
	case c == '[':
		p.i++
		if p.consume(']') {
			return true
		}
		for {
			if !p.skip(depth + 1) {
				return false
			}
			if p.consume(',') {
				continue
			}
			return p.consume(']')
		}
	case c == '-' || (c >= '0' && c <= '9'):
		_, _, _, ok := p.number()
		return ok
	default:
		return p.lit("true") || p.lit("false") || p.lit("null")
	}
}

// skipString skips a string, escapes and all, checking only what JSON's
// grammar requires.
func (p *fastParser) skipString() bool {
	d := p.data
	if p.i >= len(d) || d[p.i] != '"' {
		return false
	}
	for j := p.i + 1; j < len(d); j++ {
		switch c := d[j]; {
		case c == '"':
			p.i = j + 1
			return true
		case c < 0x20:
			return false
		case c == '\\':
			j++
			if j >= len(d) {
				return false
			}
			switch d[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(d) {
					return false
				}
				for k := j + 1; k <= j+4; k++ {
					if !isHex(d[k]) {
						return false
					}
				}
				j += 4
			default:
				return false
			}
		}
	}
	return false
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// internKind returns the constant for a known event kind, so that the
// common kinds do not keep the frame's copy alive.
func internKind(s string) string {
	switch s {
	case "attempt-started":
		return "attempt-started"
	case "attempt-status":
		return "attempt-status"
	case "attempt-succeeded":
		return "attempt-succeeded"
	case "attempt-failed":
		return "attempt-failed"
	case "attempt-killed":
		return "attempt-killed"
	case "container-needs":
		return "container-needs"
	case "node-suspected":
		return "node-suspected"
	case "node-failed":
		return "node-failed"
	case "node-resumed":
		return "node-resumed"
	case "job-bounds":
		return "job-bounds"
	}
	return s
}

func internPhase(s string) string {
	switch s {
	case "":
		return ""
	case "MAP":
		return "MAP"
	case "SHUFFLE":
		return "SHUFFLE"
	case "SORT":
		return "SORT"
	case "REDUCE":
		return "REDUCE"
	}
	return s
}

func internTaskType(s string) string {
	switch s {
	case "map":
		return "map"
	case "reduce":
		return "reduce"
	case "MAP":
		return "MAP"
	case "REDUCE":
		return "REDUCE"
	case "m":
		return "m"
	case "r":
		return "r"
	}
	return strings.Clone(s)
}
