package xulau

// Forget clears what the record holds (copies asked for, tasks launched),
// so that a benchmark can make every Decide do the full work again.
func (c *Copies) Forget() {
	for ty := range c.asked {
		clear(c.asked[ty])
	}
	c.Launched = 0
}
