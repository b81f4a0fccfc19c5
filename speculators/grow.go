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

// PerTask is a policy's state per task, indexed like Job.Tasks
// ([type][index]) and sized lazily to the job's task counts with Fit.
type PerTask[T any] [NumTaskTypes][]T

// Fit lengthens each type's slice to the job's task count (Grow): state
// already held is kept, new tasks start at the zero value.
func (s *PerTask[T]) Fit(job *Job) {
	for ty := range job.Tasks {
		s[ty] = Grow(s[ty], len(job.Tasks[ty]))
	}
}
