package sim

// attemptStore holds a run's attempt slots in blocks of a fixed size, so
// that an attempt's index names it for the whole run and the store grows a
// block at a time. A slice grown by append doubles its capacity and copies
// itself: with the 425,803 maps of the FB-2010 day's largest job in flight
// that was up to twice the slots' memory held at once, twice over when two
// simulations run side by side (docs/scale.md).
type attemptStore struct {
	blocks [][]attempt
	n      int32
}

// attemptBlockBits: 4,096 slots a block (about 600 KB).
const attemptBlockBits = 12

// at returns slot i, which add has handed out.
func (st *attemptStore) at(i int32) *attempt {
	return &st.blocks[i>>attemptBlockBits][i&(1<<attemptBlockBits-1)]
}

// len is the number of slots handed out.
func (st *attemptStore) len() int32 { return st.n }

// add hands out a new zeroed slot.
func (st *attemptStore) add() int32 {
	if int(st.n>>attemptBlockBits) == len(st.blocks) {
		st.blocks = append(st.blocks, make([]attempt, 1<<attemptBlockBits))
	}
	i := st.n
	st.n++
	return i
}
