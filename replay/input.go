package replay

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/specbridge/specbridge/workload/scenario"
	"github.com/specbridge/specbridge/yarnclient/hdfs"
	"github.com/specbridge/specbridge/yarnclient/history"
)

// Input is one thing to replay: a scenario, or recorded jobs (a directory of
// histories is one input: its jobs ran on one cluster).
type Input struct {
	Path     string
	Format   history.Format
	Scenario *scenario.Scenario
	Jobs     []*history.Job
	// Nodes is the size of the cluster the input was recorded on when
	// the input tells it but names no hosts (a SWIM trace of known origin,
	// cluster.go), with NodesFrom saying how it is known; 0 otherwise.
	Nodes     int
	NodesFrom string
	// swim, for an input read with LoadOptions.Stream, holds a SWIM trace's
	// rows in place of Jobs (swimsource.go); hist a Rumen trace's or jhist
	// files' job headers (historysource.go).
	swim *swimSource
	hist *historySource
	// streamScenario: the scenario's jobs' tasks are drawn again at their
	// arrival (fromScenario), for an input read with LoadOptions.Stream.
	streamScenario bool
}

// JobCount is how many jobs the input holds (a scenario: 0).
func (in *Input) JobCount() int {
	switch {
	case in.swim != nil:
		return len(in.swim.rows)
	case in.hist != nil:
		return len(in.hist.jobs)
	}
	return len(in.Jobs)
}

// EachJob calls f with every recorded job of the input in input order,
// one at a time: a streamed input derives or reads each again and lets it
// go after f (decisions mode). A scenario has none.
func (in *Input) EachJob(f func(*history.Job) error) error {
	switch {
	case in.swim != nil:
		return in.swim.each(f)
	case in.hist != nil:
		return in.hist.each(f)
	}
	for _, j := range in.Jobs {
		if err := f(j); err != nil {
			return err
		}
	}
	return nil
}

// LoadOptions are Load's options; the zero value reads the input whole,
// detecting each file's format, with the default SWIM model.
type LoadOptions struct {
	// Format is the input's format; empty: detected from each file's
	// first bytes.
	Format history.Format
	// SWIM derives a SWIM trace's tasks; the zero value is
	// history.DefaultSWIMModel().
	SWIM history.SWIMModel
	// Progress, if not nil, is told each file read of a directory.
	Progress FileProgress
	// Stream reads a job's tasks only when a replay needs them: a local
	// SWIM trace is kept as its rows (swimsource.go), a local Rumen
	// trace, jhist file or directory of them as one header a job
	// (historysource.go), and Jobs is nil for them; a scenario's jobs are
	// drawn again at their arrival (fromScenario). Any other input (on
	// HDFS, a directory holding a SWIM trace) is read whole.
	Stream bool
	// HDFS reaches hdfs:// inputs; nil: the environment's configuration
	// (hdfs.EnvConf).
	HDFS *hdfs.Config
}

// FileProgress is told, while a directory of histories is read, how many of
// its files are read so far, and how many it holds.
type FileProgress func(done, total int)

// Load reads the input path (a file, or a directory whose history files
// are read as one input), detecting its format from content unless
// o.Format is set. An hdfs://host:port/path URL is read from HDFS the same
// way (histories only, not scenarios). Every file is listed and opened
// through the input's Source.
func Load(path string, o LoadOptions) (*Input, error) {
	if o.SWIM == (history.SWIMModel{}) {
		o.SWIM = history.DefaultSWIMModel()
	}
	if o.Progress == nil {
		o.Progress = func(int, int) {}
	}
	src, err := openSource(path, o.HDFS)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	files, dir, err := src.Files()
	if err != nil {
		return nil, err
	}
	if o.Stream {
		if in, err := loadStreamed(src, path, files, dir, o); in != nil || err != nil {
			return in, err
		}
	}
	if !dir {
		in, err := readFile(src, files[0], o.Format, o.SWIM)
		if in != nil {
			in.Path = path
			in.streamScenario = o.Stream && in.Scenario != nil
		}
		return in, err
	}
	in := &Input{Path: path}
	for i, f := range files {
		o.Progress(i, len(files))
		one, err := readFile(src, f, o.Format, o.SWIM)
		if err != nil {
			return nil, err
		}
		if one.Scenario != nil {
			return nil, fmt.Errorf("read %s: a scenario cannot be mixed with histories in a directory", f)
		}
		in.Format = one.Format
		in.Jobs = append(in.Jobs, one.Jobs...)
	}
	o.Progress(len(files), len(files))
	return in, nil
}

// loadStreamed is Load with o.Stream of a local input whose files are all
// jhist or Rumen files (streamed by historySource), or of one SWIM trace
// (swimSource); nil, nil for any other input, read whole.
func loadStreamed(src Source, path string, files []string, dir bool, o LoadOptions) (*Input, error) {
	if _, local := src.Local(path); !local {
		return nil, nil
	}
	formats := make([]history.Format, len(files))
	for i, f := range files {
		formats[i] = o.Format
		if formats[i] == "" {
			var err error
			if formats[i], err = detectFile(src, f); err != nil {
				return nil, err
			}
		}
		if formats[i] == history.FormatSWIM && !dir {
			return loadSWIMRows(src, f, o.SWIM)
		}
		if formats[i] != history.FormatJhist && formats[i] != history.FormatRumen {
			return nil, nil
		}
	}
	if !dir {
		o.Progress = func(int, int) {}
	}
	return loadHistories(src, path, files, formats, o.Progress)
}

// loadSWIMRows is a SWIM trace streamed: its rows (swimSource).
func loadSWIMRows(src Source, name string, swim history.SWIMModel) (*Input, error) {
	s, err := readSWIMSource(src, name, swim)
	if err != nil {
		return nil, err
	}
	if len(s.rows) == 0 {
		return nil, fmt.Errorf("read %s: no jobs", name)
	}
	in := &Input{Path: name, Format: history.FormatSWIM, swim: s}
	in.Nodes, in.NodesFrom = swimNodes(name)
	return in, nil
}

// loadHistories reads jhist and Rumen files job by job into one streamed
// input named path, keeping each job's header (historySource.add).
func loadHistories(src Source, path string, files []string, formats []history.Format, progress FileProgress) (*Input, error) {
	hs := &historySource{src: src}
	for i, f := range files {
		progress(i, len(files))
		before := len(hs.jobs)
		if err := readHistoryFile(src, f, formats[i], hs.add); err != nil {
			return nil, err
		}
		if len(hs.jobs) == before {
			return nil, fmt.Errorf("read %s: no jobs", f)
		}
	}
	progress(len(files), len(files))
	hs.finish()
	return &Input{Path: path, Format: formats[len(formats)-1], hist: hs}, nil
}

// readHistoryFile calls add with each job of a jhist or Rumen file and
// where it was read, one job at a time.
func readHistoryFile(src Source, file string, format history.Format, add func(*history.Job, jobPlace) error) error {
	f, err := src.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	if format == history.FormatJhist {
		j, err := history.ReadJhistFrom(f, file)
		if err != nil {
			return err
		}
		if err := attachConf(j, siblingOf(src, file)); err != nil {
			return err
		}
		return add(j, jobPlace{file: file, format: format})
	}
	rr := history.NewRumenReader(f, file)
	for {
		j, pos, err := rr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := add(j, jobPlace{file: file, format: format, pos: pos}); err != nil {
			return err
		}
	}
}

// readScenario reads a scenario file of src, which must be local: a
// scenario's SWIM traces are read from beside it.
func readScenario(src Source, r io.Reader, name string) (*scenario.Scenario, error) {
	local, ok := src.Local(name)
	if !ok {
		return nil, fmt.Errorf("read %s: %s files are not read from HDFS (histories only: jhist, rumen, swim)", name, history.FormatScenario)
	}
	s, err := scenario.ReadFrom(r, local)
	if err != nil {
		return nil, err
	}
	if err := s.LoadTraces(filepath.Dir(local)); err != nil {
		return nil, err
	}
	return s, nil
}
