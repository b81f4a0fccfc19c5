package lineread

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	br := bufio.NewReaderSize(strings.NewReader("a\n"+strings.Repeat("b", 100)+"\nc"), 16)
	if l, err := Read(br, 200); string(l) != "a\n" || err != nil {
		t.Fatalf("%q %v", l, err)
	}
	if l, err := Read(br, 200); len(l) != 101 || err != nil {
		t.Fatalf("%d %v", len(l), err)
	}
	if l, err := Read(br, 200); string(l) != "c" || err != io.EOF {
		t.Fatalf("%q %v", l, err)
	}
	br = bufio.NewReaderSize(strings.NewReader(strings.Repeat("x", 1000)), 16)
	if _, err := Read(br, 100); !errors.Is(err, ErrTooLong) || !strings.Contains(err.Error(), "100") {
		t.Fatalf("long line: %v", err)
	}
}
