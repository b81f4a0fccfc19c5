package replay

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

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
	// swim, for an input read with LoadStreaming, holds a SWIM trace's
	// rows in place of Jobs (swimsource.go); hist a Rumen trace's or jhist
	// files' job headers (historysource.go).
	swim *swimSource
	hist *historySource
	// streamScenario: the scenario's jobs' tasks are drawn again at their
	// arrival (fromScenario), for an input read with LoadStreaming.
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

// LoadStreaming is LoadWithProgress for replays that read a job's tasks
// only when they need them: a local SWIM trace is kept as its rows
// (swimsource.go), a local Rumen trace, jhist file or directory of them
// as one header a job (historysource.go), and Jobs is nil for them; a
// scenario's jobs are drawn again at their arrival (fromScenario). HDFS
// inputs load as LoadWithProgress loads them.
func LoadStreaming(path string, format history.Format, swim history.SWIMModel, progress FileProgress) (*Input, error) {
	if hdfs.IsURL(path) {
		return LoadWithProgress(path, format, swim, progress)
	}
	st, err := os.Stat(path)
	if err != nil {
		return LoadWithProgress(path, format, swim, progress)
	}
	if st.IsDir() {
		return loadHistoryDir(path, format, swim, progress)
	}
	if format == "" {
		if format, err = detectFile(path); err != nil {
			return nil, err
		}
	}
	switch format {
	case history.FormatJhist, history.FormatRumen:
		return loadHistories(path, []string{path}, []history.Format{format}, nil)
	case history.FormatSWIM:
	default:
		in, err := loadFile(path, format, swim)
		if in != nil {
			in.streamScenario = in.Scenario != nil
		}
		return in, err
	}
	src, err := readSWIMSource(path, swim)
	if err != nil {
		return nil, err
	}
	if len(src.rows) == 0 {
		return nil, fmt.Errorf("read %s: no jobs", path)
	}
	in := &Input{Path: path, Format: format, swim: src}
	in.Nodes, in.NodesFrom = swimNodes(path)
	return in, nil
}

// loadHistoryDir is LoadStreaming of a local directory: streamed when
// every history file in it is a jhist or Rumen file (a SWIM or scenario
// file among them is read as LoadWithProgress reads it, with its errors).
func loadHistoryDir(path string, format history.Format, swim history.SWIMModel, progress FileProgress) (*Input, error) {
	files, err := historyFiles(path)
	if err != nil {
		return nil, err
	}
	formats := make([]history.Format, len(files))
	for i, f := range files {
		formats[i] = format
		if format == "" {
			if formats[i], err = detectFile(f); err != nil {
				return nil, err
			}
		}
		if formats[i] != history.FormatJhist && formats[i] != history.FormatRumen {
			return LoadWithProgress(path, format, swim, progress)
		}
	}
	return loadHistories(path, files, formats, progress)
}

// loadHistories reads jhist and Rumen files job by job into one streamed
// input named path, keeping each job's header (historySource.add).
func loadHistories(path string, files []string, formats []history.Format, progress FileProgress) (*Input, error) {
	if progress == nil {
		progress = func(int, int) {}
	}
	src := &historySource{}
	for i, f := range files {
		progress(i, len(files))
		before := len(src.jobs)
		if err := readHistoryFile(f, formats[i], src.add); err != nil {
			return nil, err
		}
		if len(src.jobs) == before {
			return nil, fmt.Errorf("read %s: no jobs", f)
		}
	}
	progress(len(files), len(files))
	src.finish()
	return &Input{Path: path, Format: formats[len(formats)-1], hist: src}, nil
}

// readHistoryFile calls add with each job of a jhist or Rumen file and
// where it was read, one job at a time.
func readHistoryFile(file string, format history.Format, add func(*history.Job, jobPlace) error) error {
	if format == history.FormatJhist {
		j, err := history.ReadJhist(file)
		if err != nil {
			return err
		}
		if err := attachConf(j, localSibling(file)); err != nil {
			return err
		}
		return add(j, jobPlace{file: file, format: format})
	}
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("read %s: %w", file, err)
	}
	defer f.Close()
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

// Load reads path, detecting its format from content unless format is set.
// A directory yields every history file below it, read as one input. An
// hdfs://host:port/path URL is read from HDFS the same way (histories
// only, not scenarios).
func Load(path string, format history.Format, swim history.SWIMModel) (*Input, error) {
	return LoadWithProgress(path, format, swim, nil)
}

// FileProgress is told, while a directory of histories is read, how many of
// its files are read so far, and how many it holds.
type FileProgress func(done, total int)

// LoadWithProgress is Load, reporting each file read of a directory (local
// or on HDFS) to progress, if not nil.
func LoadWithProgress(path string, format history.Format, swim history.SWIMModel, progress FileProgress) (*Input, error) {
	if progress == nil {
		progress = func(int, int) {}
	}
	if hdfs.IsURL(path) {
		return loadHDFS(path, format, swim, progress)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if !st.IsDir() {
		return loadFile(path, format, swim)
	}
	files, err := historyFiles(path)
	if err != nil {
		return nil, err
	}
	in := &Input{Path: path}
	for i, f := range files {
		progress(i, len(files))
		one, err := loadFile(f, format, swim)
		if err != nil {
			return nil, err
		}
		if one.Scenario != nil {
			return nil, fmt.Errorf("read %s: a scenario cannot be mixed with histories in a directory", f)
		}
		in.Format = one.Format
		in.Jobs = append(in.Jobs, one.Jobs...)
	}
	progress(len(files), len(files))
	return in, nil
}

// historyFiles lists the .jhist and .json files below the directory
// path, sorted.
func historyFiles(path string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".jhist") || strings.HasSuffix(p, ".json")) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("read %s: no .jhist or .json history files in the directory", path)
	}
	sort.Strings(files)
	return files, nil
}

func loadFile(path string, format history.Format, swim history.SWIMModel) (*Input, error) {
	if format == "" {
		var err error
		if format, err = detectFile(path); err != nil {
			return nil, err
		}
	}
	in := &Input{Path: path, Format: format}
	var err error
	switch format {
	case history.FormatScenario:
		in.Scenario, err = scenario.Read(path)
	case history.FormatJhist:
		var j *history.Job
		j, err = history.ReadJhist(path)
		if j != nil {
			in.Jobs = []*history.Job{j}
			err = attachConf(j, localSibling(path))
		}
	case history.FormatRumen:
		in.Jobs, err = history.ReadRumen(path)
	case history.FormatSWIM:
		in.Jobs, err = history.ReadSWIM(path, swim)
		in.Nodes, in.NodesFrom = swimNodes(path)
	default:
		return nil, fmt.Errorf("read %s: unknown format %q (jhist, rumen, swim, scenario)", path, format)
	}
	if err != nil {
		return nil, err
	}
	if in.Scenario == nil && len(in.Jobs) == 0 {
		return nil, fmt.Errorf("read %s: no jobs", path)
	}
	return in, nil
}

// detectFile detects a file's format from its first 4 KiB.
func detectFile(path string) (history.Format, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	head := make([]byte, 4096)
	n, err := io.ReadFull(bufio.NewReader(f), head)
	f.Close()
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	return history.Detect(path, head[:n])
}
