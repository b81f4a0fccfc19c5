package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/specbridge/specbridge/replay"
	"golang.org/x/term"
)

// progress reports a replay's progress on stderr: a bar with rate and ETA
// (schollz/progressbar) when stderr is a terminal, otherwise a plain line
// every interval, which logs and CI keep readable; nothing with --quiet. A
// replay that ends within one interval prints no line.
type progress struct {
	quiet    bool
	tty      bool
	w        io.Writer
	interval time.Duration
	bar      *progressbar.ProgressBar
	start    time.Time
	last     time.Time
}

func newProgress(quiet bool, interval time.Duration) *progress {
	if interval <= 0 {
		interval = 5 * time.Second
	}
	return &progress{quiet: quiet, tty: term.IsTerminal(int(os.Stderr.Fd())), w: os.Stderr, interval: interval}
}

// reading reports the files of a directory of histories as they are read.
func (p *progress) reading(path string) replay.FileProgress {
	if p.quiet {
		return nil
	}
	p.begin()
	return func(done, total int) {
		if p.tty {
			p.setBar(int64(total), int64(done), "reading "+path, "files")
			return
		}
		p.line(func() string {
			return fmt.Sprintf("replay: reading %s: %d of %d files, %s elapsed", path, done, total, since(p.start))
		})
	}
}

// simulating reports the simulations of one input.
func (p *progress) simulating(path string) func(replay.Progress) {
	if p.quiet {
		return nil
	}
	p.begin()
	return func(r replay.Progress) {
		if p.tty {
			total, done := int64(r.AllJobs), int64(r.AllDone)
			p.setBar(total, done, fmt.Sprintf("%s: run %d/%d, %s", path, r.Run+1, r.Runs, r.Name), "jobs")
			return
		}
		p.line(func() string {
			f := r.Fraction()
			left := "unknown"
			if f > 0 {
				left = time.Duration(float64(time.Since(p.start)) * (1 - f) / f).Round(time.Second).String()
			}
			return fmt.Sprintf("replay: %s: %.0f%% (run %d of %d, %s: policy %d of %d, %d of %d jobs), %s elapsed, about %s left",
				path, 100*f, r.Run+1, r.Runs, r.Name, r.Policy+1, r.Policies, r.JobsDone, r.Jobs, since(p.start), left)
		})
	}
}

func (p *progress) begin() {
	if p.start.IsZero() {
		p.start = time.Now()
		p.last = p.start
	}
}

// line prints msg() once an interval has passed since the last line.
func (p *progress) line(msg func() string) {
	if now := time.Now(); now.Sub(p.last) >= p.interval {
		p.last = now
		fmt.Fprintln(p.w, msg())
	}
}

func (p *progress) setBar(total, done int64, what, unit string) {
	if p.bar == nil || p.bar.GetMax64() != total {
		if p.bar != nil {
			p.bar.Finish()
		}
		p.bar = progressbar.NewOptions64(total, progressbar.OptionSetWriter(p.w), progressbar.OptionSetDescription(what),
			progressbar.OptionShowIts(), progressbar.OptionSetItsString(unit), progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true), progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionClearOnFinish(), progressbar.OptionSetWidth(30))
	}
	p.bar.Describe(what)
	p.bar.Set64(done)
}

// done ends the current bar (an input's simulations are over).
func (p *progress) done() {
	if p.bar != nil {
		p.bar.Finish()
		p.bar = nil
	}
}

func (p *progress) close() { p.done() }

func since(t time.Time) string { return time.Since(t).Round(time.Second).String() }

// say prints a line of what was done (an input simulated, the files
// written), terminal or not, unless --quiet: the last interval's progress
// line ("96% ... about 0s left") is otherwise all a log would keep.
func (p *progress) say(format string, args ...any) {
	if p.quiet {
		return
	}
	p.done()
	fmt.Fprintf(p.w, format+"\n", args...)
}
