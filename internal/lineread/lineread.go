// Package lineread reads lines with a length limit, so that a file with
// one huge line (damage, or not the format at all) costs at most the limit
// in memory, not the line. It must not interpret the lines.
package lineread

import (
	"bufio"
	"errors"
	"fmt"
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
