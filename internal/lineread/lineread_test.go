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

func TestLines(t *testing.T) {
	l := NewLines(strings.NewReader("ab\n\ncd\nrest"), 10)
	for i, want := range []string{"ab\n", "\n", "cd\n"} {
		if b, err := l.Next(); string(b) != want || err != nil || l.N != i+1 {
			t.Fatalf("line %d: %q %v (N %d), want %q", i+1, b, err, l.N, want)
		}
	}
	if l.Offset != 7 {
		t.Errorf("offset %d after three lines, want 7", l.Offset)
	}
	rest, err := io.ReadAll(l.Rest())
	if string(rest) != "rest" || err != nil {
		t.Errorf("rest %q %v", rest, err)
	}
	if b, err := l.Next(); len(b) != 0 || err != io.EOF || l.N != 4 {
		t.Errorf("at the end: %q %v (N %d)", b, err, l.N)
	}
	l = NewLines(strings.NewReader(strings.Repeat("x", 20)+"\n"), 10)
	if _, err := l.Next(); !errors.Is(err, ErrTooLong) || l.N != 1 {
		t.Errorf("long line: %v (N %d)", err, l.N)
	}
}
