package history

import (
	"bytes"
	"encoding/json"
	"fmt"
	"iter"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hamba/avro/v2"
)

// The Avro-Binary tests re-encode the Avro-JSON samples: each JSON event
// is parsed against the file's schema into the generic values hamba/avro
// encodes, and written as a binary datum, as Hadoop 3's EventWriter does.

// avroJSONValue converts a value decoded from Avro's JSON encoding
// (numbers as json.Number) into what hamba/avro encodes for schema s.
func avroJSONValue(s avro.Schema, v any) (any, error) {
	switch s.Type() {
	case avro.Ref:
		return avroJSONValue(s.(*avro.RefSchema).Schema(), v)
	case avro.Null:
		if v != nil {
			return nil, fmt.Errorf("want null, got %v", v)
		}
		return nil, nil
	case avro.Int, avro.Long, avro.Float, avro.Double:
		n, ok := v.(json.Number)
		if !ok {
			return nil, fmt.Errorf("want a number, got %v", v)
		}
		return avroNumber(s.Type(), n)
	case avro.String, avro.Enum, avro.Boolean:
		return v, nil
	case avro.Bytes:
		return []byte(v.(string)), nil
	case avro.Array:
		in, _ := v.([]any)
		out := make([]any, len(in))
		return out, avroJSONValues(s.(*avro.ArraySchema).Items(), slices.All(in), func(i int, x any) { out[i] = x })
	case avro.Map:
		in, _ := v.(map[string]any)
		out := make(map[string]any, len(in))
		return out, avroJSONValues(s.(*avro.MapSchema).Values(), maps.All(in), func(k string, x any) { out[k] = x })
	case avro.Record:
		in, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("want an object, got %v", v)
		}
		out := make(map[string]any, len(in))
		for _, f := range s.(*avro.RecordSchema).Fields() {
			x, err := avroJSONValue(f.Type(), in[f.Name()])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f.Name(), err)
			}
			out[f.Name()] = x
		}
		return out, nil
	case avro.Union:
		if v == nil {
			return nil, nil
		}
		branch, ok := v.(map[string]any)
		if !ok || len(branch) != 1 {
			return nil, fmt.Errorf("want a one-key union object, got %v", v)
		}
		for name, x := range branch {
			for _, t := range s.(*avro.UnionSchema).Types() {
				if n, ok := t.(avro.NamedSchema); ok && n.FullName() == name || string(t.Type()) == name {
					val, err := avroJSONValue(t, x)
					return map[string]any{name: val}, err
				}
			}
			return nil, fmt.Errorf("no union branch %s", name)
		}
	}
	return nil, fmt.Errorf("schema type %s not handled", s.Type())
}

// avroNumber is n as hamba/avro encodes a number of type t.
func avroNumber(t avro.Type, n json.Number) (any, error) {
	switch t {
	case avro.Int:
		i, err := n.Int64()
		return int(i), err
	case avro.Long:
		return n.Int64()
	case avro.Float:
		f, err := n.Float64()
		return float32(f), err
	}
	return n.Float64()
}

// avroJSONValues converts the elements of an array or the values of a map,
// all of schema s, handing each to set.
func avroJSONValues[K comparable](s avro.Schema, in iter.Seq2[K, any], set func(K, any)) error {
	for k, x := range in {
		y, err := avroJSONValue(s, x)
		if err != nil {
			return err
		}
		set(k, y)
	}
	return nil
}

// jhistToBinary re-encodes an Avro-JSON .jhist as Avro-Binary.
func jhistToBinary(t testing.TB, data []byte) []byte {
	t.Helper()
	bin, _ := jhistToBinaryStarts(t, data)
	return bin
}

// jhistToBinaryStarts is jhistToBinary that also returns the byte offset
// at which each event's datum starts.
func jhistToBinaryStarts(t testing.TB, data []byte) ([]byte, []int) {
	t.Helper()
	var starts []int
	lines := bytes.Split(data, []byte("\n"))
	if string(bytes.TrimSpace(lines[0])) != jhistHeader {
		t.Fatalf("not Avro-Json: %.20q", lines[0])
	}
	schemaText := bytes.TrimSpace(lines[1])
	schema, err := avro.ParseBytesWithCache(schemaText, "", &avro.SchemaCache{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	out.WriteString(jhistBinaryHeader + "\n")
	out.Write(schemaText)
	out.WriteString("\n")
	for i, line := range lines[2:] {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("line %d: %v", i+3, err)
		}
		val, err := avroJSONValue(schema, v)
		if err != nil {
			t.Fatalf("line %d: %v", i+3, err)
		}
		datum, err := avro.Marshal(schema, val)
		if err != nil {
			t.Fatalf("line %d: encode: %v", i+3, err)
		}
		starts = append(starts, out.Len())
		out.Write(datum)
	}
	return out.Bytes(), starts
}

func TestReadJhistBinaryMatchesJSON(t *testing.T) {
	for _, src := range []string{jhist24, jhistSpec} {
		t.Run(filepath.Base(src), func(t *testing.T) {
			data := readFile(t, src)
			bin := jhistToBinary(t, data)
			path := filepath.Join(t.TempDir(), "job.jhist")
			if err := os.WriteFile(path, bin, 0o644); err != nil {
				t.Fatal(err)
			}
			if f, err := Detect(path, bin[:min(len(bin), DetectBytes)]); err != nil || f != FormatJhist {
				t.Errorf("Detect = %q, %v", f, err)
			}
			want, err := readJhistFile(src)
			if err != nil {
				t.Fatal(err)
			}
			got, err := readJhistFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got.Source != path {
				t.Errorf("Source = %q", got.Source)
			}
			got.Source = want.Source
			if !reflect.DeepEqual(got, want) {
				t.Errorf("binary read differs:\n got %+v\nwant %+v", *got, *want)
			}
			if len(got.Tasks) == 0 {
				t.Error("no tasks")
			}
		})
	}
}

func TestReadJhistBinaryTruncated(t *testing.T) {
	// The offsets come from the encoder: re-encoding a decoded generic
	// value to measure a datum is not stable (a union's branch can be
	// chosen differently), which made this test flaky.
	bin, starts := jhistToBinaryStarts(t, readFile(t, jhist24))
	last := starts[len(starts)-1]
	path := filepath.Join(t.TempDir(), "cut.jhist")
	if err := os.WriteFile(path, bin[:len(bin)-5], 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := readJhistFile(path)
	want := fmt.Sprintf("read %s event %d at byte %d: truncated event", path, len(starts), last)
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error %v, want prefix %q", err, want)
	}
}

func TestReadJhistBinaryErrors(t *testing.T) {
	bin := jhistToBinary(t, readFile(t, jhist24))
	schemaEnd := bytes.IndexByte(bin[len(jhistBinaryHeader)+1:], '\n') + len(jhistBinaryHeader) + 2
	cases := []struct {
		name, in, want string
	}{
		{"header only", jhistBinaryHeader + "\n", "read bad.jhist line 2: unexpected end of file: no schema"},
		{"bad schema", jhistBinaryHeader + "\n{\"type\":\"nope\"}\n", "read bad.jhist line 2: the Avro schema line does not parse"},
		{"not a record", jhistBinaryHeader + "\n{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]}\n", "read bad.jhist line 2: the Avro schema is a enum"},
		{"bad enum", string(bin[:schemaEnd]) + "\x7e", fmt.Sprintf("read bad.jhist event 1 at byte %d: ", schemaEnd)},
		{"empty events", jhistBinaryHeader + "\n{\"type\":\"record\",\"name\":\"E\",\"fields\":[]}\n\x00", "read bad.jhist event 1 at byte 53: event has no type"},
		{"huge string", string(bin[:schemaEnd]) + "\x00\x00\xfe\xff\xff\xff\x0f", "greater than"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadJhistFrom(strings.NewReader(c.in), "bad.jhist")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
	// The header and schema alone are a job with no events.
	job, err := ReadJhistFrom(bytes.NewReader(bin[:schemaEnd]), "empty.jhist")
	if err != nil || len(job.Tasks) != 0 {
		t.Fatalf("job %+v, %v", job, err)
	}
}
