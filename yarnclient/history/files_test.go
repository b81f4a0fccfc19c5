package history

import (
	"fmt"
	"io"
	"os"
)

// The tests read fixture files through the stream readers, named by path,
// as a caller with a local file does.

func readJhistFile(path string) (*Job, error) { return openAndRead(path, ReadJhistFrom) }

func readRumenFile(path string) ([]*Job, error) { return openAndRead(path, ReadRumenFrom) }

func readSWIMFile(path string, m SWIMModel) ([]*Job, error) {
	return openAndRead(path, func(r io.Reader, name string) ([]*Job, error) { return ReadSWIMFrom(r, name, m) })
}

// openAndRead opens path and reads it with read (ReadJhistFrom, ...), which
// names it in errors and as the jobs' Source.
func openAndRead[T any](path string, read func(r io.Reader, name string) (T, error)) (T, error) {
	f, err := os.Open(path)
	if err != nil {
		var none T
		return none, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	return read(f, path)
}
