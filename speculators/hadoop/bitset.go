package hadoop

import "math/bits"

// bitset is a set of task indices.
type bitset []uint64

func (b bitset) set(i int, on bool) {
	if on {
		b[i/64] |= 1 << (i % 64)
	} else {
		b[i/64] &^= 1 << (i % 64)
	}
}

// each calls f with every index in b or in also (nil: none), ascending.
// f may change either set; a word's members are read before its first call.
func (b bitset) each(also bitset, f func(i int)) {
	for k := range b {
		w := b[k]
		if also != nil {
			w |= also[k]
		}
		for w != 0 {
			f(k*64 + bits.TrailingZeros64(w))
			w &= w - 1
		}
	}
}
