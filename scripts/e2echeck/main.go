// Command e2echeck checks a MapReduce job history (.jhist) for the end-to-end
// scripts (scripts/e2e.sh): the job's final status, whether a speculative
// attempt was launched, and whether it finished sooner than another run. It
// reads the history with the same reader as `specbridge replay`
// (yarnclient/history), where an attempt is speculative when Hadoop recorded
// its avataar as SPECULATIVE.
//
//	go run ./scripts/e2echeck [flags] JOB.jhist
//
// It prints one summary line, then one line per speculative attempt, and exits
// with status 1 and a line starting "e2echeck: FAIL" when a check fails (2 on
// bad usage or an unreadable history).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/specbridge/specbridge/yarnclient/history"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("e2echeck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	status := fs.String("status", history.Succeeded, "required final job status (empty: any)")
	specMap := fs.Int("speculative-map", -1, "require a SPECULATIVE attempt of this map index (-1: not required)")
	noSpec := fs.Bool("no-speculative", false, "require that no attempt is SPECULATIVE")
	fasterThan := fs.String("faster-than", "", "require that this job's submit-to-finish time is shorter than this other .jhist's")
	field := fs.String("print", "", "print only this value: duration (s, submit to finish), am-start (s, submit to the first task attempt's start: the AM's start-up, which no policy changes), status, speculative (count), last-map-start (epoch ms at which the job's last map's first attempt started: across jobs, which one's maps the cluster placed first)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: e2echeck [flags] JOB.jhist")
		return 2
	}
	job, err := readJhist(fs.Arg(0))
	if err != nil {
		fmt.Fprintln(stderr, "e2echeck:", err)
		return 2
	}
	spec := speculative(job)
	switch *field {
	case "":
	case "duration":
		fmt.Fprintf(stdout, "%.1f\n", seconds(job))
		return 0
	case "am-start":
		fmt.Fprintf(stdout, "%.1f\n", amStart(job))
		return 0
	case "status":
		fmt.Fprintln(stdout, job.Status)
		return 0
	case "speculative":
		fmt.Fprintln(stdout, len(spec))
		return 0
	case "last-map-start":
		fmt.Fprintln(stdout, lastMapStart(job))
		return 0
	default:
		fmt.Fprintf(stderr, "e2echeck: -print %q: want duration, am-start, status, speculative or last-map-start\n", *field)
		return 2
	}

	fmt.Fprintf(stdout, "%s %s in %.1f s (submit to finish), %d tasks, %d attempts, %d speculative\n",
		job.ID, job.Status, seconds(job), len(job.Tasks), attempts(job), len(spec))
	for _, s := range spec {
		fmt.Fprintf(stdout, "  speculative %s on %s: started %.1f s after submit, %s after %.1f s\n",
			s.a.ID, s.a.Host, float64(s.a.Start-job.Submit)/1000, orRunning(s.a.Status), float64(s.a.Finish-s.a.Start)/1000)
	}

	var fails []string
	if *status != "" && job.Status != *status {
		fails = append(fails, fmt.Sprintf("job %s is %s, want %s", job.ID, orRunning(job.Status), *status))
	}
	if *specMap >= 0 {
		found := false
		for _, s := range spec {
			if s.t.Type == history.Map && s.t.Index == *specMap {
				found = true
			}
		}
		if !found {
			fails = append(fails, fmt.Sprintf("no SPECULATIVE attempt of map %d in %s", *specMap, job.ID))
		}
	}
	if *noSpec && len(spec) > 0 {
		fails = append(fails, fmt.Sprintf("%d SPECULATIVE attempts in %s, want none", len(spec), job.ID))
	}
	if *fasterThan != "" {
		other, err := readJhist(*fasterThan)
		if err != nil {
			fmt.Fprintln(stderr, "e2echeck:", err)
			return 2
		}
		if seconds(job) == 0 || seconds(other) == 0 {
			fails = append(fails, fmt.Sprintf("cannot compare %s and %s: a submit or finish time is missing", job.ID, other.ID))
		} else if seconds(job) >= seconds(other) {
			fails = append(fails, fmt.Sprintf("%s took %.1f s, not less than %s's %.1f s", job.ID, seconds(job), other.ID, seconds(other)))
		} else {
			fmt.Fprintf(stdout, "  %.1f s is %.1fx faster than %s's %.1f s\n", seconds(job), seconds(other)/seconds(job), other.ID, seconds(other))
		}
	}
	if len(fails) > 0 {
		fmt.Fprintln(stderr, "e2echeck: FAIL: "+strings.Join(fails, "; "))
		return 1
	}
	return 0
}

type specAttempt struct {
	t *history.Task
	a *history.Attempt
}

func speculative(job *history.Job) []specAttempt {
	var out []specAttempt
	for i := range job.Tasks {
		t := &job.Tasks[i]
		for j := range t.Attempts {
			if t.Attempts[j].Speculative {
				out = append(out, specAttempt{t, &t.Attempts[j]})
			}
		}
	}
	return out
}

func attempts(job *history.Job) int {
	n := 0
	for _, t := range job.Tasks {
		n += len(t.Attempts)
	}
	return n
}

// seconds is the job's submit-to-finish time.
func seconds(job *history.Job) float64 {
	if job.Finish == 0 || job.Submit == 0 {
		return 0
	}
	return float64(job.Finish-job.Submit) / 1000
}

func orRunning(s string) string {
	if s == "" {
		return "unfinished"
	}
	return s
}

// readJhist reads the job history file at path.
func readJhist(path string) (*history.Job, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	return history.ReadJhistFrom(f, path)
}

// lastMapStart is the epoch ms of the latest first start among the job's
// maps (0 without one).
func lastMapStart(job *history.Job) int64 {
	var last int64
	for _, t := range job.Tasks {
		if t.Type != history.Map {
			continue
		}
		var first int64
		for _, a := range t.Attempts {
			if a.Start > 0 && (first == 0 || a.Start < first) {
				first = a.Start
			}
		}
		last = max(last, first)
	}
	return last
}

// amStart is the time from the job's submit to its first task attempt's
// start, in seconds (0 when no attempt has a start).
func amStart(job *history.Job) float64 {
	var first int64
	for _, t := range job.Tasks {
		for _, a := range t.Attempts {
			if a.Start > 0 && (first == 0 || a.Start < first) {
				first = a.Start
			}
		}
	}
	if first == 0 || first < job.Submit {
		return 0
	}
	return float64(first-job.Submit) / 1000
}
