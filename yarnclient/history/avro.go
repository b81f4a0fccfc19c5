package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/hamba/avro/v2"
)

// Avro's JSON encoding writes a union value other than null as a one-key
// object naming the branch: {"string":"SPECULATIVE"}, {"long":5},
// {"org.apache.hadoop.mapreduce.jobhistory.JhCounters":{...}}. Hadoop 2.4
// writes most optional fields as plain values, Hadoop 2.7+ as unions; the
// types here accept both, and null.

// unwrapUnion returns the branch value of a one-key union object whose key
// is one of names, or raw unchanged.
func unwrapUnion(raw []byte, names ...string) []byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return raw
	}
	var branch map[string]json.RawMessage
	if json.Unmarshal(raw, &branch) != nil || len(branch) != 1 {
		return raw
	}
	for _, name := range names {
		if v, ok := branch[name]; ok {
			return v
		}
	}
	return raw
}

// unionValue decodes raw into v: a plain value, a union object whose key
// is one of names, or null (the zero value); what names the value's kind in
// the error.
func unionValue[V any](raw []byte, v *V, what string, names ...string) error {
	raw = unwrapUnion(raw, names...)
	var x V
	if string(raw) != "null" {
		if err := json.Unmarshal(raw, &x); err != nil {
			return fmt.Errorf("want %s or {%q:...}, got %.40s", what, names[0], raw)
		}
	}
	*v = x
	return nil
}

// avroString is a string that may be written plain, as {"string":...} or
// as null.
type avroString string

func (s *avroString) UnmarshalJSON(raw []byte) error {
	return unionValue(raw, (*string)(s), "a string", "string")
}

// avroLong is an integer that may be written plain, as {"long":...} or
// {"int":...}, or as null.
type avroLong int64

func (n *avroLong) UnmarshalJSON(raw []byte) error {
	return unionValue(raw, (*int64)(n), "an integer", "long", "int")
}

// jhCounters is Hadoop's JhCounters record, which may be plain, wrapped in
// a union branch, or null.
type jhCounters struct {
	Groups []struct {
		Name   string `json:"name"`
		Counts []struct {
			Name  string `json:"name"`
			Value int64  `json:"value"`
		} `json:"counts"`
	} `json:"groups"`
}

func (c *jhCounters) UnmarshalJSON(raw []byte) error {
	raw = unwrapUnion(raw, "JhCounters", "org.apache.hadoop.mapreduce.jobhistory.JhCounters")
	if string(raw) == "null" {
		*c = jhCounters{}
		return nil
	}
	type plain jhCounters // without this method
	var v plain
	if err := json.Unmarshal(raw, &v); err != nil {
		return fmt.Errorf("counters: %w", err)
	}
	*c = jhCounters(v)
	return nil
}

// flatten returns the counters as name -> value (see Attempt.Counters),
// or nil when there are none.
func (c jhCounters) flatten() map[string]int64 {
	var out map[string]int64
	for _, g := range c.Groups {
		for _, cnt := range g.Counts {
			if out == nil {
				out = make(map[string]int64)
			}
			if _, taken := out[cnt.Name]; taken {
				out[g.Name+"."+cnt.Name] = cnt.Value
				continue
			}
			out[cnt.Name] = cnt.Value
		}
	}
	return out
}

// Avro-Binary job histories (Hadoop 3's default) hold, after the header
// and schema lines, the events as Avro binary datums of that schema, back
// to back with nothing between them: Hadoop's EventWriter writes each
// Event with a BinaryEncoder straight onto the stream (not an Avro object
// container file: no magic, no sync markers, no blocks). The datums are
// decoded with github.com/hamba/avro/v2 into generic values (records as
// maps, non-null union branches as one-key maps named like Avro's JSON
// encoding does), which are then written out as JSON: each binary event
// becomes the same Avro-JSON event line the JSON reader handles, so both
// encodings share jhistParser.event and everything after it.

// Limits on what one datum may make the decoder allocate, so that a
// corrupt length cannot ask for gigabytes. Hadoop's longest strings are
// diagnostics (stack traces) and its longest arrays counter lists.
const (
	jhistMaxString = 8 << 20 // bytes in one string
	jhistMaxArray  = 1 << 20 // items in one array
)

// parseJhistSchema parses the schema line of an Avro-Binary file. Each
// file gets its own schema cache: named types of one file never leak into
// another's.
func parseJhistSchema(text []byte) (avro.Schema, error) {
	schema, err := avro.ParseBytesWithCache(text, "", &avro.SchemaCache{})
	if err != nil {
		return nil, fmt.Errorf("the Avro schema line does not parse: %w", err)
	}
	if schema.Type() != avro.Record {
		return nil, fmt.Errorf("the Avro schema is a %s, not an Event record", schema.Type())
	}
	return schema, nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}

// binaryEvents reads the datums after the schema line; start is the byte
// offset of the first in the file. Errors begin "event N at byte OFFSET".
func (p *jhistParser) binaryEvents(br *bufio.Reader, start int64) error {
	api := avro.Config{
		MaxByteSliceSize:  jhistMaxString,
		MaxSliceAllocSize: jhistMaxArray,
	}.Freeze()
	// A one-byte buffer: hamba's Reader then holds at most the byte it
	// has peeked, so the bytes read so far give each event's offset (the
	// bufio.Reader underneath does the real buffering).
	src := &countingReader{r: br}
	ar := avro.NewReader(src, 1, avro.WithReaderConfig(api))
	prev := int64(-1)
	for n := 1; ; n++ {
		ar.Error = nil
		ar.Peek()
		if ar.Error != nil {
			if errors.Is(ar.Error, io.EOF) {
				return nil
			}
			return fmt.Errorf("event %d at byte %d: %w", n, start+src.n, ar.Error)
		}
		at := start + src.n - 1 // the peeked byte starts this event
		if at == prev {
			return fmt.Errorf("event %d at byte %d: the schema's events take no bytes", n, at)
		}
		prev = at
		datum, err := decodeDatum(ar, p.schema)
		if err != nil {
			return fmt.Errorf("event %d at byte %d: %w", n, at, err)
		}
		if err := ar.Error; err != nil && !errors.Is(err, io.EOF) {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return fmt.Errorf("event %d at byte %d: truncated event: %w", n, at, err)
			}
			return fmt.Errorf("event %d at byte %d: %w", n, at, err)
		}
		if err := p.binaryEvent(datum); err != nil {
			return fmt.Errorf("event %d at byte %d: %w", n, at, err)
		}
	}
}

// decodeDatum decodes one datum into generic values. The decoder is a
// library reading untrusted bytes: a panic in it becomes an error rather
// than ending the program.
func decodeDatum(ar *avro.Reader, schema avro.Schema) (datum any, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("the Avro decoder failed: %v", v)
		}
	}()
	ar.ReadVal(schema, &datum)
	return datum, nil
}

// binaryEvent hands one decoded datum to the JSON event handler.
func (p *jhistParser) binaryEvent(datum any) error {
	if m, ok := datum.(map[string]any); ok {
		if typ, ok := m["type"].(string); ok && typ != "" && !jhistKnown(typ) {
			return nil // skipped either way; spare the conversion
		}
	}
	text, err := json.Marshal(datum)
	if err != nil {
		return fmt.Errorf("event does not convert to JSON: %w", err)
	}
	return p.event(text)
}
