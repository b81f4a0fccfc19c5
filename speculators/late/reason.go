package late

import (
	"math"
	"strconv"

	"github.com/specbridge/specbridge/speculators"
)

// reasonFor says in words why c was chosen, e.g.
// "time left 142s (progress 0.31 at 0.0021/s, below 25th pct 0.004/s)".
// It appends into a reused buffer so that the only allocation is the string.
func (p *policy) reasonFor(c candidate, threshold float64, now speculators.Time) string {
	b := p.reason[:0]
	b = append(b, "time left "...)
	switch {
	case math.IsInf(c.timeLeft, 1):
		b = append(b, "unbounded"...)
	case c.timeLeft < 100:
		b = strconv.AppendFloat(b, c.timeLeft, 'f', 1, 64)
		b = append(b, 's')
	default:
		b = strconv.AppendFloat(b, c.timeLeft, 'f', 0, 64)
		b = append(b, 's')
	}
	b = append(b, " (progress "...)
	b = strconv.AppendFloat(b, c.attempt.Progress, 'f', 2, 64)
	b = append(b, " at "...)
	b = strconv.AppendFloat(b, c.rate, 'g', 3, 64)
	b = append(b, "/s after "...)
	b = strconv.AppendInt(b, c.attempt.Elapsed(now)/1000, 10)
	b = append(b, "s, below "...)
	b = append(b, p.pctLabel...)
	b = append(b, ' ')
	b = strconv.AppendFloat(b, threshold, 'g', 3, 64)
	b = append(b, "/s)"...)
	p.reason = b
	return string(b)
}

// ordinal writes a percentile the way people say it: 25th, 1st, 22nd, 12.5th.
func ordinal(pct float64) string {
	s := strconv.FormatFloat(pct, 'g', -1, 64)
	if pct != math.Trunc(pct) {
		return s + "th"
	}
	n := int64(pct) % 100
	switch {
	case n >= 11 && n <= 13:
		return s + "th"
	case n%10 == 1:
		return s + "st"
	case n%10 == 2:
		return s + "nd"
	case n%10 == 3:
		return s + "rd"
	}
	return s + "th"
}
