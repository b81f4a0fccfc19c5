package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
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
