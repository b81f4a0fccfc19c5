package bridge

import (
	"fmt"
	"sync"
	"unicode/utf8"
)

// Bounds on a hello's names and numbers. Every count, size and name a hello
// carries is checked against them (checkHello) before anything is
// allocated from it: the job's task slots are allocated from maps and
// reduces, so those are checked for range and for overflow of their sum.
const (
	// MaxNameBytes bounds the job id, user, queue and speculator names. A
	// Hadoop job id is 30-odd bytes; 255 leaves room for any real name.
	MaxNameBytes = 255
	// MaxParams bounds a hello's policy parameters; MaxParamBytes each name
	// and value.
	MaxParams     = 64
	MaxParamBytes = 1024
	// MaxSlots bounds the cluster's containers a hello may claim (a YARN
	// cluster of 100,000 nodes with 100 containers each is 10^7).
	MaxSlots = 1 << 24
)

// Memory budget (Config.MaxJobMemory): what a job's session is estimated to
// hold, from its task counts. Choice: 256 bytes a task (an engine's job
// takes 96 bytes a task as built, measured for every policy at 101,000
// tasks; its attempts, their reports and the policies' per-task state take
// more as the job runs) plus 64 KiB a session (buffers, maps, the dashboard's
// view). The estimate is what the server reserves; it is not measured
// afterwards.
const (
	estimatedBytesPerTask    = 256
	estimatedBytesPerSession = 64 << 10
	// DefaultMaxJobMemory: 4 GiB, 64 jobs at the per-job task limit
	// (DefaultMaxTasksPerJob), or tens of thousands of ordinary ones.
	DefaultMaxJobMemory = 4 << 30
)

// jobMemory is the memory a job of maps and reduces (already checked) is
// estimated to take.
func jobMemory(maps, reduces int) int64 {
	return estimatedBytesPerSession + estimatedBytesPerTask*(int64(maps)+int64(reduces))
}

// mib is n bytes in MiB, for messages.
func mib(n int64) float64 { return float64(n) / (1 << 20) }

// checkHello checks everything in h that does not need the server's state
// beyond its configuration: counts and sizes (for range, and their sums for
// overflow), names (for length and UTF-8), times. It runs after the token
// check and before anything is allocated from h. It returns the error
// code and text of the refusal, or "" and the job's key.
func checkHello(h *Hello, maxTasks int) (jobKey, string, string) {
	bad := func(format string, args ...any) (jobKey, string, string) {
		return "", CodeBadJob, fmt.Sprintf(format, args...)
	}
	for _, n := range []struct{ what, v string }{{"job id", h.Job}, {"user", h.User}, {"queue", h.Queue}, {"speculator", h.Speculator}} {
		if len(n.v) > MaxNameBytes {
			return bad("%s of %d bytes is over the limit of %d bytes", n.what, len(n.v), MaxNameBytes)
		}
		if !utf8.ValidString(n.v) {
			return bad("%s is not valid UTF-8", n.what)
		}
	}
	if len(h.Params) > MaxParams {
		return "", CodeBadParameter, fmt.Sprintf("%d params: at most %d", len(h.Params), MaxParams)
	}
	for k, v := range h.Params {
		if len(k) > MaxParamBytes || len(v) > MaxParamBytes {
			return "", CodeBadParameter, fmt.Sprintf("param %q: names and values are at most %d bytes", truncate(k, 64), MaxParamBytes)
		}
	}
	key, err := parseJobID(h.Job)
	if err != nil {
		return bad("%v", err)
	}
	// Each count is checked alone first, so that the sum cannot overflow.
	if h.Maps < 0 || h.Reduces < 0 || h.Maps > maxTasks || h.Reduces > maxTasks-h.Maps {
		return bad("%d maps and %d reduces: counts must be >= 0 and total at most %d", h.Maps, h.Reduces, maxTasks)
	}
	if h.MapInputBytes != nil && len(h.MapInputBytes) != h.Maps {
		return bad("%d map_input_bytes for %d maps: want one per map, or none", len(h.MapInputBytes), h.Maps)
	}
	if h.ReduceInputBytes != nil && len(h.ReduceInputBytes) != h.Reduces {
		return bad("%d reduce_input_bytes for %d reduces: want one per reduce, or none", len(h.ReduceInputBytes), h.Reduces)
	}
	for _, sizes := range [][]int64{h.MapInputBytes, h.ReduceInputBytes} {
		for i, b := range sizes {
			if b < 0 {
				return bad("input size %d of task %d is negative", b, i)
			}
		}
	}
	if h.Slots < 0 || h.Slots > MaxSlots {
		return bad("slots %d: want the cluster's containers (at most %d), or 0 (or absent) when unknown", h.Slots, MaxSlots)
	}
	if h.ErrorBound < 0 || h.ErrorBound >= 1 || h.Deadline < 0 || h.Deadline > MaxTime {
		return bad("approximation bounds deadline %d, error_bound %g: want 0 <= deadline <= %d (0: none) and 0 <= error_bound < 1", h.Deadline, h.ErrorBound, int64(MaxTime))
	}
	if h.Start < 0 || h.Start > MaxTime || h.Now < 0 || h.Now > MaxTime {
		return bad("start %d, now %d: want ms since the epoch, 0 to %d", h.Start, h.Now, int64(MaxTime))
	}
	return key, "", ""
}

// memoryBudget is the server's budget of estimated job memory
// (Config.MaxJobMemory): a hello reserves its job's estimate, and the
// session's end gives it back. A hello that does not fit is refused with
// CodeMemoryBudget rather than let the process run out of memory.
type memoryBudget struct {
	mu       sync.Mutex
	limit    int64
	reserved int64
}

// reserve takes n bytes if they fit, and reports whether they did and
// what is reserved now.
func (b *memoryBudget) reserve(n int64) (bool, int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n > b.limit-b.reserved {
		return false, b.reserved
	}
	b.reserved += n
	return true, b.reserved
}

// release gives n bytes back and returns what is reserved now.
func (b *memoryBudget) release(n int64) int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reserved -= n
	return b.reserved
}
