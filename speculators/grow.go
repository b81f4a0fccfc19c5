package speculators

// Grow returns s lengthened with zero values to n elements, or s itself when
// it is that long already: how a policy sizes its per-task state to a job's
// task counts, lazily, so that it needs no job at construction.
func Grow[T any](s []T, n int) []T {
	if len(s) < n {
		s = append(s, make([]T, n-len(s))...)
	}
	return s
}
