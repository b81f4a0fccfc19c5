//go:build race

package bridge

// raceEnabled: the race detector slows every process about tenfold.
const raceEnabled = true
