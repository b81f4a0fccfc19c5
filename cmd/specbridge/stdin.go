package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/specbridge/specbridge/yarnclient/hdfs"
	"github.com/specbridge/specbridge/yarnclient/history"
)

// isStream reports whether INPUT path is standard input ("-") or a file
// that can be read only once: a pipe or a character device (/dev/stdin,
// a process substitution's /dev/fd/N).
func isStream(path string) bool {
	if path == "-" {
		return true
	}
	st, err := os.Stat(path)
	return err == nil && st.Mode()&(os.ModeNamedPipe|os.ModeCharDevice|os.ModeSocket) != 0
}

// spool copies a stream INPUT to a temporary file and returns its path and
// a cleanup; any other path comes back as it is. The readers detect a
// format from an input's first bytes and read a file more than once (a
// SWIM trace's rows in every run), which a pipe cannot give them; the
// temporary file can. Choice: a file on disk rather than memory, since a
// history directory's worth of JSON can be large.
func spool(path string) (string, func(), error) {
	if !isStream(path) {
		return path, func() {}, nil
	}
	src := os.Stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return "", nil, err
		}
		defer f.Close()
		src = f
	}
	dir, err := os.MkdirTemp("", "specbridge-stdin-")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.RemoveAll(dir) }
	file := filepath.Join(dir, "stdin")
	dst, err := os.Create(file)
	if err == nil {
		_, err = io.Copy(dst, src)
		if cerr := dst.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		cleanup()
		return "", nil, fmt.Errorf("read %s: %w", inputName(path), err)
	}
	return file, cleanup, nil
}

// inputName is how errors and reports name INPUT: "stdin" for "-".
func inputName(path string) string {
	if path == "-" {
		return "stdin"
	}
	return path
}

// renamed is err with the spooled file's path replaced by the INPUT's
// name, so that an error names what the user gave.
func renamed(err error, file, path string) error {
	if err == nil || file == path {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), file, inputName(path)))
}

// formatHint explains a failed read under an explicit --format: when the
// file's content says it is of another format, the error says so and what
// to give instead, with the reader's own message after. Only a failed read
// is explained, so a file the detector misjudges still reads as told.
func formatHint(err error, file, path, format string) error {
	if err == nil || format == "" || hdfs.IsURL(file) {
		return err
	}
	f, oerr := os.Open(file)
	if oerr != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, history.DetectBytes)
	n, _ := io.ReadFull(f, head)
	got, derr := history.Detect(file, head[:n])
	if derr != nil || string(got) == format {
		return err
	}
	return fmt.Errorf("read %s: --format %s, but its content is %s: drop --format or give --format %s (the %s reader said: %v)",
		inputName(path), format, got, got, format, err)
}
