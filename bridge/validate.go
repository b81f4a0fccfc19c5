package bridge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxTime bounds every time a client sends (ms since the epoch on the AM's
// clock): the end of year 9999. Larger ones would overflow the durations
// policies compute (time differences, weighted in reasons and rates);
// negative ones are never a time.
const MaxTime = 253_402_300_799_999

// timeFields are the fields that hold times.
var timeFields = map[string]bool{"time": true, "now": true, "start": true, "deadline": true, "last_report": true, "finish": true}

// clientKeys maps each field name of the frames clients send, lower-cased,
// to its spelling; mapKeys are fields whose values are maps with keys of
// the client's choosing (not checked for case).
var clientKeys, mapKeys = protocolKeys()

func protocolKeys() (map[string]string, map[string]bool) {
	keys, maps := map[string]string{}, map[string]bool{}
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			keys[strings.ToLower(name)] = name
			if f.Type.Kind() == reflect.Map {
				maps[name] = true
			}
			walk(f.Type)
		}
	}
	walk(reflect.TypeOf(clientFrame{}))
	return keys, maps
}

// errInvalidFrame is wrapped by validateFrame's errors.
var errInvalidFrame = errors.New("invalid frame")

// validateFrame checks what a lenient decoder would accept silently, and
// names the field: strings (values and keys) that are not valid UTF-8,
// a key given twice in one object, a key in the wrong letter case
// ("Time" for "time"; encoding/json would take it), and times outside
// [0, MaxTime]. It runs before decoding and does not depend on the
// decoder; syntax errors are left to the decoder to report.
func validateFrame(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type level struct {
		object bool
		keys   map[string]bool
		key    string // the current key (object) while its value is read
		index  int    // the current index (array)
		path   string
		isMap  bool // a map of the client's keys (params)
	}
	stack := []*level{{path: ""}}
	at := func() string { // the path of the value being read
		l := stack[len(stack)-1]
		switch {
		case len(stack) == 1:
			return "frame"
		case l.object:
			if l.path == "" {
				return l.key
			}
			return l.path + "." + l.key
		default:
			return fmt.Sprintf("%s[%d]", l.path, l.index)
		}
	}
	done := func() { // a value of the current level ended
		l := stack[len(stack)-1]
		if l.object {
			l.key = ""
		} else {
			l.index++
		}
	}
	prev := int64(0)
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return nil // the decoder reports syntax errors
		}
		raw := data[prev:dec.InputOffset()]
		prev = dec.InputOffset()
		l := stack[len(stack)-1]
		if l.object && l.key == "" {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				done()
				continue
			}
			key, _ := tok.(string)
			where := l.path
			if where == "" {
				where = "frame"
			}
			if !utf8.Valid(raw) {
				return fmt.Errorf("%w: %s: a field name is not valid UTF-8", errInvalidFrame, where)
			}
			if l.keys[key] {
				return fmt.Errorf("%w: %s: field %q given twice", errInvalidFrame, where, truncate(key, 32))
			}
			l.keys[key] = true
			if !l.isMap {
				if want, ok := clientKeys[strings.ToLower(key)]; ok && want != key {
					return fmt.Errorf("%w: %s: field %q must be spelled %q", errInvalidFrame, where, truncate(key, 32), want)
				}
			}
			l.key = key
			continue
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{':
				stack = append(stack, &level{object: true, keys: map[string]bool{}, path: at(), isMap: l.object && mapKeys[l.key]})
			case '[':
				stack = append(stack, &level{path: at()})
			default: // ']'
				stack = stack[:len(stack)-1]
				done()
			}
			continue
		case string:
			if !utf8.Valid(raw) {
				return fmt.Errorf("%w: %s: not valid UTF-8", errInvalidFrame, at())
			}
		case json.Number:
			if l.object && timeFields[l.key] {
				t, err := strconv.ParseInt(v.String(), 10, 64)
				if err != nil || t < 0 || t > MaxTime {
					return fmt.Errorf("%w: %s: time %s out of range (want 0 to %d ms since the epoch)", errInvalidFrame, at(), truncate(v.String(), 32), int64(MaxTime))
				}
			}
		}
		done()
	}
}
