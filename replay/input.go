package replay

import (
	"bufio"
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
	// rows in place of Jobs (swimsource.go).
	swim *swimSource
}

// JobCount is how many jobs the input holds (a scenario: 0).
func (in *Input) JobCount() int {
	if in.swim != nil {
		return len(in.swim.rows)
	}
	return len(in.Jobs)
}

// LoadStreaming is LoadWithProgress for simulate mode: a local SWIM trace
// is kept as its rows and each job's tasks exist only while the workload is
// built (swimsource.go), so Jobs is nil for it; other inputs load as
// LoadWithProgress loads them.
func LoadStreaming(path string, format history.Format, swim history.SWIMModel, progress FileProgress) (*Input, error) {
	if hdfs.IsURL(path) {
		return LoadWithProgress(path, format, swim, progress)
	}
	if st, err := os.Stat(path); err != nil || st.IsDir() {
		return LoadWithProgress(path, format, swim, progress)
	}
	if format == "" {
		var err error
		if format, err = detectFile(path); err != nil {
			return nil, err
		}
	}
	if format != history.FormatSWIM {
		return loadFile(path, format, swim)
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
	var files []string
	err = filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
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
