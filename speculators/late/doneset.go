package late

import "slices"

// doneSet is the multiset of one task type's succeeded tasks' progress
// rates, the part of Decide's percentile sample that only grows (a rate is
// removed only when its task's success is lost). Most of it is kept sorted
// so that Decide's percentile (speculators.PercentileMerged) reads it by
// binary search instead of copying and selecting over every rate of a big
// job each second; the rates added since the last merge wait unsorted in
// recent, which Decide adds to the running tasks' rates.
//
// Merging costs O(len(sorted)), so it waits until recent holds a
// sixteenth of sorted (at least mergeMin): each rate is then moved about
// sixteen times in all, and a Decide reads at most a sixteenth of the
// set's rates one by one. A NaN never enters sorted (PercentileMerged's
// condition); it stays in recent, where Percentile's NaN rules see it.
type doneSet struct {
	sorted []float64 // ascending, no NaN
	recent []float64 // in no particular order
	merged []float64 // scratch for merge
}

// mergeMin is the least number of rates recent holds before a merge.
const mergeMin = 32

func (d *doneSet) reset() {
	d.sorted, d.recent = d.sorted[:0], d.recent[:0]
}

func (d *doneSet) add(x float64) {
	d.recent = append(d.recent, x)
	if len(d.recent) >= max(mergeMin, len(d.sorted)/16) {
		d.merge()
	}
}

// remove takes one rate equal to x out of the set (x was added).
func (d *doneSet) remove(x float64) {
	for k, y := range d.recent {
		if y == x || (x != x && y != y) {
			last := len(d.recent) - 1
			d.recent[k] = d.recent[last]
			d.recent = d.recent[:last]
			return
		}
	}
	if k, ok := slices.BinarySearch(d.sorted, x); ok {
		d.sorted = slices.Delete(d.sorted, k, k+1)
	}
}

// merge moves recent's rates but NaNs into sorted.
func (d *doneSet) merge() {
	nan := 0
	for k, x := range d.recent {
		if x != x {
			d.recent[nan], d.recent[k] = d.recent[k], d.recent[nan]
			nan++
		}
	}
	add := d.recent[nan:]
	if len(add) == 0 {
		return
	}
	slices.Sort(add)
	out := slices.Grow(d.merged[:0], len(d.sorted)+len(add))
	i, j := 0, 0
	for i < len(d.sorted) && j < len(add) {
		if add[j] < d.sorted[i] {
			out = append(out, add[j])
			j++
		} else {
			out = append(out, d.sorted[i])
			i++
		}
	}
	out = append(out, d.sorted[i:]...)
	out = append(out, add[j:]...)
	d.sorted, d.merged = out, d.sorted
	d.recent = d.recent[:nan]
}

// values is every rate of the set, in no particular order (tests).
func (d *doneSet) values() []float64 {
	return append(slices.Clone(d.sorted), d.recent...)
}
