// Package hadoopid reads Hadoop's job ids the one way both of their
// readers need: the bridge (an AM's hello and every task and attempt id
// after it) and the fault analyzer's API (the {job} of its paths, which
// names the job's records in its store).
package hadoopid

import "strings"

// JobKey returns the "<cluster timestamp>_<number>" of the job id
// "job_<cluster timestamp>_<number>", both parts decimal digits, and
// whether s is such an id.
func JobKey(s string) (string, bool) {
	rest, ok := strings.CutPrefix(s, "job_")
	cluster, num, ok2 := strings.Cut(rest, "_")
	if !ok || !ok2 || !Digits(cluster) || !Digits(num) {
		return "", false
	}
	return rest, true
}

// Digits reports whether s is one or more ASCII decimal digits (no sign,
// no space: what the parts of Hadoop's ids are).
func Digits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
