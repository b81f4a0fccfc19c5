// Package lineread reads lines with a length limit, so that a file with
// one huge line (damage, or not the format at all) costs at most the limit
// in memory, not the line. It must not interpret the lines.
package lineread

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// ErrTooLong is wrapped by the error for a line over the limit.
var ErrTooLong = errors.New("line too long")

// Read returns the next line of br with its '\n' (without one at the end
// of the input, with io.EOF), or an error wrapping ErrTooLong once more
// than max bytes have been read without a newline.
func Read(br *bufio.Reader, max int) ([]byte, error) {
	var out []byte
	for {
		frag, err := br.ReadSlice('\n')
		if len(out)+len(frag) > max {
			return nil, fmt.Errorf("%w: longer than %d bytes", ErrTooLong, max)
		}
		if err == nil && out == nil {
			return append([]byte(nil), frag...), nil
		}
		out = append(out, frag...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return out, err
		}
	}
}

// Lines reads the lines of a stream one by one with Read, numbering them
// and counting their bytes.
type Lines struct {
	br  *bufio.Reader
	max int
	// N is the 1-based number of the line Next returned last; Offset is
	// the bytes Next has returned in all, where the next line starts.
	N      int
	Offset int64
}

// NewLines reads r in lines of at most max bytes.
func NewLines(r io.Reader, max int) *Lines {
	return &Lines{br: bufio.NewReaderSize(r, 64<<10), max: max}
}

// Next returns the next line as Read does: with its '\n', a last one
// without it with io.EOF (empty at the end of the input).
func (l *Lines) Next() ([]byte, error) {
	b, err := Read(l.br, l.max)
	l.N++
	l.Offset += int64(len(b))
	return b, err
}

// Rest reads what follows the lines Next returned (a binary part after a
// text header).
func (l *Lines) Rest() io.Reader { return l.br }
