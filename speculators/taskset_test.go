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
