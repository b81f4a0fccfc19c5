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

	"github.com/specbridge/specbridge/yarnclient/hdfs"
	"github.com/specbridge/specbridge/yarnclient/history"
)

// Source is where an input's files are read from: the local file system
// (localSource) or HDFS (hdfsSource, hdfs.go). Load lists and opens an
// input's files through it alone, and every format's reader (readFile)
// takes what Open gives and the file's name, wherever the file is.
type Source interface {
	// Files lists the input's files by name: the input itself when it is
	// a file; the .jhist and .json history files below it, sorted, when
	// it is a directory (dir true). A name is a local path or an hdfs://
	// URL; it names the file in errors and is its jobs' Source.
	Files() (files []string, dir bool, err error)
	// Open opens the file name (one that Files gave).
	Open(name string) (io.ReadCloser, error)
	// OpenSibling opens the file called base in the directory of the file
	// name: the job's configuration beside a .jhist (job_..._conf.xml in a
	// JobHistory done directory). A missing sibling is an error that
	// errors.Is(err, fs.ErrNotExist).
	OpenSibling(name, base string) (io.ReadCloser, error)
	// Local is name's path on the local file system and true, for what
	// only a local file allows (a scenario's traces beside it, reading a
	// job again at its offset: streaming); "" and false on HDFS.
	Local(name string) (string, bool)
	// Close lets the source's connection go.
	Close() error
}

// openSource opens the input path: an hdfs:// URL on HDFS, reached with
// cfg (nil: hdfs.EnvConf), else a local path.
func openSource(path string, cfg *hdfs.Config) (Source, error) {
	if hdfs.IsURL(path) {
		if cfg == nil {
			cfg = hdfs.EnvConf()
		}
		return openHDFS(path, cfg)
	}
	return localSource{path: path}, nil
}

// localSource is an input on the local file system.
type localSource struct{ path string }

func (s localSource) Files() ([]string, bool, error) {
	st, err := os.Stat(s.path)
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", s.path, err)
	}
	if !st.IsDir() {
		return []string{s.path}, false, nil
	}
	files, err := historyFiles(s.path)
	return files, true, err
}

func (localSource) Open(name string) (io.ReadCloser, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return f, nil
}

func (s localSource) OpenSibling(name, base string) (io.ReadCloser, error) {
	return s.Open(filepath.Join(filepath.Dir(name), base))
}

func (localSource) Local(name string) (string, bool) { return name, true }

func (localSource) Close() error { return nil }

// historyFiles lists the .jhist and .json files below the directory
// path, sorted.
func historyFiles(path string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && isHistoryFile(p) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(files) == 0 {
		return nil, noHistoryFiles(path)
	}
	sort.Strings(files)
	return files, nil
}

// isHistoryFile: a directory's files read as histories are its .jhist and
// .json files.
func isHistoryFile(name string) bool {
	return strings.HasSuffix(name, ".jhist") || strings.HasSuffix(name, ".json")
}

func noHistoryFiles(dir string) error {
	return fmt.Errorf("read %s: no .jhist or .json history files in the directory", dir)
}

// readBuffer is the buffer a file is read through (and its format
// detected from).
const readBuffer = 64 << 10

// readFile reads the file name of src with the reader of its format,
// detected from its first bytes unless format is set: one input of a
// scenario, or of the file's jobs.
func readFile(src Source, name string, format history.Format, swim history.SWIMModel) (*Input, error) {
	f, err := src.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, readBuffer)
	if format == "" {
		if format, err = detect(br, name); err != nil {
			return nil, err
		}
	}
	in := &Input{Path: name, Format: format}
	switch format {
	case history.FormatScenario:
		in.Scenario, err = readScenario(src, br, name)
	case history.FormatJhist:
		var j *history.Job
		j, err = history.ReadJhistFrom(br, name)
		if j != nil {
			in.Jobs = []*history.Job{j}
			err = attachConf(j, siblingOf(src, name))
		}
	case history.FormatRumen:
		in.Jobs, err = history.ReadRumenFrom(br, name)
	case history.FormatSWIM:
		in.Jobs, err = history.ReadSWIMFrom(br, name, swim)
		in.Nodes, in.NodesFrom = swimNodes(name)
	default:
		return nil, fmt.Errorf("read %s: unknown format %q (jhist, rumen, swim, scenario)", name, format)
	}
	if err != nil {
		return nil, err
	}
	if in.Scenario == nil && len(in.Jobs) == 0 {
		return nil, fmt.Errorf("read %s: no jobs", name)
	}
	return in, nil
}

// detect detects a file's format from its first history.DetectBytes.
func detect(br *bufio.Reader, name string) (history.Format, error) {
	head, err := br.Peek(history.DetectBytes)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return "", fmt.Errorf("read %s: %w", name, err)
	}
	return history.Detect(name, head)
}

// detectFile is detect of the file name of src.
func detectFile(src Source, name string) (history.Format, error) {
	f, err := src.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return detect(bufio.NewReaderSize(f, history.DetectBytes), name)
}
