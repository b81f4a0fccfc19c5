package replay

import (
	"reflect"
	"strconv"
	"strings"
)

// figureColumns is Figures' measured columns, in the order every output
// writes them (replay's CSV, sweep's CSV): its float64 fields in the
// struct's order, each under its JSON name. The struct is the one table:
// averaging over runs and rounding walk these columns too, so a float
// field added to Figures is averaged, rounded and written everywhere.
// Jobs and Tasks, whole numbers counted rather than measured, lead the
// CSV (FiguresCSVHeader).
var figureColumns = func() []figureColumn {
	ty := reflect.TypeFor[Figures]()
	var out []figureColumn
	for i := range ty.NumField() {
		if f := ty.Field(i); f.Type.Kind() == reflect.Float64 {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			out = append(out, figureColumn{name: name, index: i})
		}
	}
	return out
}()

// figureColumn is one measured column: its name and its field's index in
// Figures.
type figureColumn struct {
	name  string
	index int
}

// field is where c's value lives in f.
func (c figureColumn) field(f *Figures) *float64 {
	return reflect.ValueOf(f).Elem().Field(c.index).Addr().Interface().(*float64)
}

// FiguresCSVHeader names the Figures' CSV columns: jobs, tasks, then the
// measured ones in figureColumns' order.
func FiguresCSVHeader() []string {
	out := []string{"jobs", "tasks"}
	for _, c := range figureColumns {
		out = append(out, c.name)
	}
	return out
}

// CSVRecord is f's values in FiguresCSVHeader's order (shortest decimal
// form, as every CSV of the project writes numbers).
func (f *Figures) CSVRecord() []string {
	out := []string{strconv.Itoa(f.Jobs), strconv.Itoa(f.Tasks)}
	for _, c := range figureColumns {
		out = append(out, FormatNumber(*c.field(f)))
	}
	return out
}

// measured is every measured figure of f, in figureColumns' order.
func (f *Figures) measured() []*float64 {
	out := make([]*float64, len(figureColumns))
	for i, c := range figureColumns {
		out[i] = c.field(f)
	}
	return out
}

// FormatNumber writes x in its shortest decimal form: the CSV outputs' one
// number format.
func FormatNumber(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
