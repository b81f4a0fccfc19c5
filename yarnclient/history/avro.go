package history

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// avroLongs is an array of integers that may be written plain, as
// {"array":[...]} or as null.
type avroLongs []int64

func (v *avroLongs) UnmarshalJSON(raw []byte) error {
	return unionValue(raw, (*[]int64)(v), "an array of integers", "array")
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
