package main

import (
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/specbridge/specbridge/replay"
	"github.com/urfave/cli/v2"
)

// provenanceOf is what the report says was run: the command line as typed
// (the program named "specbridge", whatever path ran it; without the flags
// of notInProvenance), the --param
// overrides, the version, the seeds and the date (replay.Provenance says
// where the date comes from).
func provenanceOf(c *cli.Context) (*replay.Provenance, error) {
	words := []string{"specbridge"}
	args := os.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			for _, rest := range args[i:] {
				words = append(words, shellQuote(rest))
			}
			break
		}
		if takesValue, skip := notInProvenance[flagName(a)]; skip && strings.HasPrefix(a, "-") && a != "-" {
			if takesValue && !strings.Contains(a, "=") {
				i++
			}
			continue
		}
		words = append(words, shellQuote(a))
	}
	p := &replay.Provenance{Command: strings.Join(words, " "), Params: c.StringSlice("param"), Version: buildVersion(),
		Seeds: replay.SeedsText(c.Uint64("seed"), c.Int("runs"))}
	if c.Bool("no-date") {
		return p, nil
	}
	now := time.Now()
	if e := os.Getenv("SOURCE_DATE_EPOCH"); e != "" {
		secs, err := strconv.ParseInt(e, 10, 64)
		if err != nil || secs < 0 {
			return nil, usageError(c, "SOURCE_DATE_EPOCH %q: want seconds since 1970 (a whole number, 0 or more)", e)
		}
		now = time.Unix(secs, 0)
	}
	p.Date = now.UTC().Format("2006-01-02")
	return p, nil
}

// shellQuote quotes a word for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// notInProvenance are the flags that by design change nothing in the
// output (how many goroutines, progress, profiles, logs), left out of the
// provenance's command so that, as the output, it does not depend on them;
// the value says whether the flag takes one.
var notInProvenance = map[string]bool{"parallel": true, "quiet": false, "q": false, "progress-interval": true,
	"cpuprofile": true, "memprofile": true, "log-level": true, "log-format": true}
