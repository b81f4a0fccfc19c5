package speculators

import (
	"reflect"
	"testing"
)

// Each visits the union of two sets once each, ascending, across words.
func TestTaskSetEach(t *testing.T) {
	a, b := NewTaskSet(200), NewTaskSet(200)
	for _, i := range []int{3, 64, 199} {
		a.Set(i, true)
	}
	for _, i := range []int{3, 70, 130} {
		b.Set(i, true)
	}
	a.Set(199, false)
	var got []int
	a.Each(b, func(i int) { got = append(got, i) })
	if want := []int{3, 64, 70, 130}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Each = %v, want %v", got, want)
	}
	got = got[:0]
	a.Each(nil, func(i int) { got = append(got, i) })
	if want := []int{3, 64}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Each without a second set = %v, want %v", got, want)
	}
}

// Next walks a set ascending across words and says -1 past its end.
func TestTaskSetNext(t *testing.T) {
	s := NewTaskSet(300)
	for _, i := range []int{0, 63, 64, 200, 299} {
		s.Set(i, true)
	}
	var got []int
	for i := s.Next(0); i >= 0; i = s.Next(i + 1) {
		got = append(got, i)
	}
	if want := []int{0, 63, 64, 200, 299}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Next walk = %v, want %v", got, want)
	}
	if s.Next(201) != 299 || s.Next(300) != -1 || s.Next(-1) != -1 || NewTaskSet(0).Next(0) != -1 {
		t.Fatalf("Next(201) %d, Next(300) %d, Next(-1) %d", s.Next(201), s.Next(300), s.Next(-1))
	}
}
