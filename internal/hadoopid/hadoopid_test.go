package hadoopid

import "testing"

func TestJobKey(t *testing.T) {
	for s, want := range map[string]string{
		"job_1700000000000_0001":   "1700000000000_0001",
		"job_1_2":                  "1_2",
		"job_1700000000000_":       "",
		"job__0001":                "",
		"job_17x_0001":             "",
		"job_1700000000000_0001_m": "",
		"task_1700000000000_0001":  "",
		"job_+1_2":                 "",
		"job_1700000000000":        "",
		"":                         "",
	} {
		got, ok := JobKey(s)
		if got != want || ok != (want != "") {
			t.Errorf("JobKey(%q) = %q, %v; want %q", s, got, ok, want)
		}
	}
}

func TestDigits(t *testing.T) {
	for s, want := range map[string]bool{"0": true, "0123456789": true, "": false, "1a": false, "-1": false, " 1": false, "١": false} {
		if got := Digits(s); got != want {
			t.Errorf("Digits(%q) = %v, want %v", s, got, want)
		}
	}
}
