package replay

import (
	"reflect"
	"strings"
	"testing"
)

// TestFigureColumnsAreTheJSONNames holds the one table of figure columns to
// the Figures struct: every float field is in it, under its JSON name, in
// the struct's order, and each column reads its own field.
func TestFigureColumnsAreTheJSONNames(t *testing.T) {
	ty := reflect.TypeOf(Figures{})
	var want []string
	for i := 0; i < ty.NumField(); i++ {
		if f := ty.Field(i); f.Type.Kind() == reflect.Float64 {
			want = append(want, strings.Split(f.Tag.Get("json"), ",")[0])
		}
	}
	var got []string
	for _, c := range figureColumns {
		got = append(got, c.name)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("figure columns %v, want the Figures' float fields %v", got, want)
	}
	for i, c := range figureColumns {
		var f Figures
		*c.field(&f) = 1
		v := reflect.ValueOf(f)
		if v.FieldByIndex(ty.Field(0).Index).Int() != 0 {
			t.Fatalf("column %s writes jobs", c.name)
		}
		n := 0
		for j := 0; j < ty.NumField(); j++ {
			if ty.Field(j).Type.Kind() == reflect.Float64 && v.Field(j).Float() == 1 {
				if strings.Split(ty.Field(j).Tag.Get("json"), ",")[0] != c.name {
					t.Errorf("column %d (%s) reads field %s", i, c.name, ty.Field(j).Name)
				}
				n++
			}
		}
		if n != 1 {
			t.Errorf("column %s sets %d fields, want 1", c.name, n)
		}
	}
}
