package replay

import (
	"reflect"
	"strings"
	"testing"
)

// TestFigureColumnsAreTheJSONNames holds the figure columns to the
// Figures struct: every float field is a column, under its JSON name, in
// the struct's order; each column reads its own field; the CSV header and
// record follow them after jobs and tasks.
func TestFigureColumnsAreTheJSONNames(t *testing.T) {
	ty := reflect.TypeOf(Figures{})
	var want []string
	for i := 0; i < ty.NumField(); i++ {
		if f := ty.Field(i); f.Type.Kind() == reflect.Float64 {
			want = append(want, strings.Split(f.Tag.Get("json"), ",")[0])
		}
	}
	if got := FiguresCSVHeader(); !reflect.DeepEqual(got, append([]string{"jobs", "tasks"}, want...)) {
		t.Fatalf("CSV header %v, want jobs, tasks and the Figures' float fields %v", got, want)
	}
	f := Figures{Jobs: 3, Tasks: 4}
	for i, c := range figureColumns {
		*c.field(&f) = float64(i) + 0.5
	}
	v := reflect.ValueOf(f)
	k := 0
	for j := 0; j < ty.NumField(); j++ {
		if ty.Field(j).Type.Kind() != reflect.Float64 {
			continue
		}
		if got := v.Field(j).Float(); got != float64(k)+0.5 {
			t.Errorf("field %s holds %v, want column %d's %v", ty.Field(j).Name, got, k, float64(k)+0.5)
		}
		k++
	}
	rec := f.CSVRecord()
	if rec[0] != "3" || rec[1] != "4" || rec[2] != "0.5" || rec[len(rec)-1] != FormatNumber(float64(len(want))-0.5) {
		t.Errorf("CSV record %v", rec)
	}
}
