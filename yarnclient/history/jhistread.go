package history

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/hamba/avro/v2"

	"github.com/specbridge/specbridge/internal/lineread"
)

// jhistHeader is the first line of every Avro-JSON job-history file;
// jhistBinaryHeader that of an Avro-Binary one.
const (
	jhistHeader       = "Avro-Json"
	jhistBinaryHeader = "Avro-Binary"
)

// ReadJhistFrom reads one job from a MapReduce job-history stream (a
// .jhist file) as written by the ApplicationMaster, in Avro's JSON
// encoding (a line "Avro-Json", a line holding the Avro schema, then one
// JSON event per line) or in its binary encoding (a line "Avro-Binary",
// the schema line, then the events as Avro binary datums of that schema,
// back to back; Hadoop 3's default,
// mapreduce.jobhistory.jhist.format=binary). Both the 0.23 and 2.x/3.x
// layouts are read. name is used in errors and as the Job's Source; the
// caller opens the file, local or on HDFS (replay.Source).
//
// Events used: JOB_SUBMITTED, JOB_INITED, JOB_INFO_CHANGED,
// JOB_QUEUE_CHANGED, JOB_STATUS_CHANGED, JOB_FINISHED, JOB_FAILED,
// JOB_KILLED, JOB_ERROR, TASK_STARTED, TASK_FINISHED, TASK_FAILED and
// MAP_/REDUCE_ATTEMPT_STARTED/FINISHED/FAILED/KILLED. Other event types,
// and every event of a setup or cleanup task, are skipped. Malformed JSON,
// a missing header, a truncated final line and an event whose task or
// attempt id does not parse are errors naming the line. An Avro-Binary
// file has no lines past the schema: its errors name the event (counted
// from 1) and the byte offset in the file where that event starts; a
// datum cut short by the end of the file is such an error.
//
// A line longer than MaxJhistLine is an error: the reader holds at most
// that much of it in memory.
func ReadJhistFrom(r io.Reader, name string) (*Job, error) {
	p := jhistParser{job: &Job{Source: name}, tasks: map[string]*Task{}}
	lines := lineread.NewLines(r, MaxJhistLine)
	for {
		text, readErr := lines.Next()
		line := lines.N
		if errors.Is(readErr, lineread.ErrTooLong) {
			return nil, fmt.Errorf("read %s line %d: %w (a job history event line is a few KB; the file is damaged or not a job history)", name, line, readErr)
		}
		if readErr != nil && !errors.Is(readErr, io.EOF) {
			return nil, fmt.Errorf("read %s line %d: %w", name, line, readErr)
		}
		atEOF := readErr != nil
		if atEOF && len(text) == 0 {
			if line <= 2 {
				return nil, fmt.Errorf("read %s line %d: unexpected end of file: no %s", name, line, map[int]string{1: "Avro-Json or Avro-Binary header", 2: "schema"}[line])
			}
			break
		}
		if err := p.line(line, bytes.TrimSpace(text)); err != nil {
			if atEOF && text[len(text)-1] != '\n' {
				return nil, fmt.Errorf("read %s line %d: truncated final line: %w", name, line, err)
			}
			return nil, fmt.Errorf("read %s line %d: %w", name, line, err)
		}
		if line == 2 && p.schema != nil {
			if err := p.binaryEvents(lines.Rest(), lines.Offset); err != nil {
				return nil, fmt.Errorf("read %s %w", name, err)
			}
			break
		}
		if atEOF {
			break
		}
	}
	return p.finish(), nil
}

// MaxJhistLine bounds a jhist line (the Avro-Json header and schema lines
// included): Hadoop's event lines are a few KB, its schema about 30 KB, a
// JOB_FINISHED line with every counter group well under 1 MB.
const MaxJhistLine = 16 << 20

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
func (p *jhistParser) binaryEvents(r io.Reader, start int64) error {
	api := avro.Config{
		MaxByteSliceSize:  jhistMaxString,
		MaxSliceAllocSize: jhistMaxArray,
	}.Freeze()
	// A one-byte buffer: hamba's Reader then holds at most the byte it
	// has peeked, so the bytes read so far give each event's offset (the
	// lineread.Lines underneath does the real buffering).
	src := &countingReader{r: r}
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
