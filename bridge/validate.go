package bridge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
			if f.Anonymous && name == "" { // an embedded frame: its fields are the frame's
				walk(f.Type)
				continue
			}
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
// decoder: one pass over the bytes, allocating only for an error; syntax
// errors are left to the decoder to report.
func validateFrame(data []byte) error {
	v := vscan{data: data}
	v.ws()
	err := v.value(nil)
	if err == errSyntax {
		return nil
	}
	return err
}

// errSyntax stops the scan: the decoder reports it.
var errSyntax = errors.New("syntax")

type pathElem struct {
	key   []byte
	index int // -1: an object's key
}

type vscan struct {
	data []byte
	i    int
	path []pathElem
}

func (v *vscan) where() string {
	var b strings.Builder
	for _, e := range v.path {
		if e.index >= 0 {
			fmt.Fprintf(&b, "[%d]", e.index)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.Write(e.key)
	}
	if b.Len() == 0 {
		return "frame"
	}
	return b.String()
}

func (v *vscan) fail(format string, args ...any) error {
	return fmt.Errorf("%w: %s: "+format, append([]any{errInvalidFrame, v.where()}, args...)...)
}

func (v *vscan) ws() {
	for v.i < len(v.data) {
		switch v.data[v.i] {
		case ' ', '\t', '\n', '\r':
			v.i++
		default:
			return
		}
	}
}

// value scans one value; key is the field holding it ("" in an array or
// at the top).
func (v *vscan) value(key []byte) error {
	if len(v.path) > 64 {
		return errSyntax // deeper than any frame: the decoder judges it
	}
	if v.i >= len(v.data) {
		return errSyntax
	}
	switch c := v.data[v.i]; {
	case c == '{':
		return v.object(mapKeys[string(key)])
	case c == '[':
		return v.array()
	case c == '"':
		raw, err := v.str()
		if err != nil {
			return err
		}
		if !utf8.Valid(raw) {
			return v.fail("not valid UTF-8")
		}
		return nil
	default:
		start := v.i
		for v.i < len(v.data) {
			c := v.data[v.i]
			if c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				break
			}
			v.i++
		}
		tok := v.data[start:v.i]
		if len(tok) == 0 {
			return errSyntax
		}
		if timeFields[string(key)] && (tok[0] == '-' || tok[0] >= '0' && tok[0] <= '9') {
			t, err := strconv.ParseInt(string(tok), 10, 64)
			if err != nil || t < 0 || t > MaxTime {
				return v.fail("time %s out of range (want 0 to %d ms since the epoch)", truncate(string(tok), 32), int64(MaxTime))
			}
		}
		return nil
	}
}

// str scans a string and returns its raw bytes (escapes undecoded).
func (v *vscan) str() ([]byte, error) {
	v.i++ // the opening quote
	start := v.i
	for v.i < len(v.data) {
		switch v.data[v.i] {
		case '\\':
			v.i += 2
		case '"':
			raw := v.data[start:v.i]
			v.i++
			return raw, nil
		default:
			v.i++
		}
	}
	return nil, errSyntax
}

func (v *vscan) object(isMap bool) error {
	v.i++
	v.ws()
	if v.i < len(v.data) && v.data[v.i] == '}' {
		v.i++
		return nil
	}
	var seen [16][]byte // keys so far (a map past 16)
	n := 0
	var many map[string]bool
	for {
		v.ws()
		if v.i >= len(v.data) || v.data[v.i] != '"' {
			return errSyntax
		}
		raw, err := v.str()
		if err != nil {
			return err
		}
		if !utf8.Valid(raw) {
			return v.fail("a field name is not valid UTF-8")
		}
		key := raw
		if bytes.IndexByte(raw, '\\') >= 0 {
			var k string
			if json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &k) != nil {
				return errSyntax
			}
			key = []byte(k)
		}
		dup := false
		if many != nil {
			dup = many[string(key)]
			many[string(key)] = true
		} else {
			for _, k := range seen[:n] {
				if bytes.Equal(k, key) {
					dup = true
				}
			}
			if n < len(seen) {
				seen[n] = key
				n++
			} else {
				many = map[string]bool{string(key): true}
				for _, k := range seen {
					many[string(k)] = true
				}
			}
		}
		if dup {
			return v.fail("field %q given twice", truncate(string(key), 32))
		}
		if !isMap && foldable(key) {
			if want, ok := clientKeys[string(key)]; !ok {
				for _, want = range clientKeys {
					if strings.EqualFold(string(key), want) {
						return v.fail("field %q must be spelled %q", truncate(string(key), 32), want)
					}
				}
			} else if want != string(key) {
				return v.fail("field %q must be spelled %q", truncate(string(key), 32), want)
			}
		}
		v.ws()
		if v.i >= len(v.data) || v.data[v.i] != ':' {
			return errSyntax
		}
		v.i++
		v.ws()
		v.path = append(v.path, pathElem{key: key, index: -1})
		if err := v.value(key); err != nil {
			return err
		}
		if done, err := v.next('}'); err != nil || done {
			return err
		}
	}
}

// next ends an object member or array element: it leaves the element's
// path, then takes ',' (more to come) or close (the end, done).
func (v *vscan) next(close byte) (done bool, err error) {
	v.path = v.path[:len(v.path)-1]
	v.ws()
	if v.i >= len(v.data) {
		return false, errSyntax
	}
	switch v.data[v.i] {
	case ',':
		v.i++
		return false, nil
	case close:
		v.i++
		return true, nil
	}
	return false, errSyntax
}

func (v *vscan) array() error {
	v.i++
	v.ws()
	if v.i < len(v.data) && v.data[v.i] == ']' {
		v.i++
		return nil
	}
	for idx := 0; ; idx++ {
		v.ws()
		v.path = append(v.path, pathElem{index: idx})
		if err := v.value(nil); err != nil {
			return err
		}
		if done, err := v.next(']'); err != nil || done {
			return err
		}
	}
}

// foldable reports whether key could match a protocol field only by case
// folding: it holds an upper-case ASCII letter or a non-ASCII byte (as
// encoding/json folds "ſ" to "s" and "K" (Kelvin) to "k").
func foldable(key []byte) bool {
	for _, c := range key {
		if c >= 'A' && c <= 'Z' || c >= 0x80 {
			return true
		}
	}
	return false
}
