package replay

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/specbridge/specbridge/yarnclient/hdfs"
	"github.com/specbridge/specbridge/yarnclient/history"
)

// loadHDFS reads an hdfs:// file, or every .jhist and .json history below
// an hdfs:// directory (a JobHistory done directory), as one input.
func loadHDFS(location string, format history.Format, swim history.SWIMModel, progress FileProgress) (*Input, error) {
	u, err := hdfs.ParseURL(location)
	if err != nil {
		return nil, err
	}
	c, err := hdfs.Dial(u.NameNode)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", location, err)
	}
	defer c.Close()
	files, err := c.Walk(u.Path)
	if err != nil {
		return nil, err
	}
	isDir := len(files) != 1 || files[0] != u.Path
	if isDir {
		var hist []string
		for _, f := range files {
			if strings.HasSuffix(f, ".jhist") || strings.HasSuffix(f, ".json") {
				hist = append(hist, f)
			}
		}
		if len(hist) == 0 {
			return nil, fmt.Errorf("read %s: no .jhist or .json history files in the directory", location)
		}
		files = hist
	}
	in := &Input{Path: location}
	for i, f := range files {
		progress(i, len(files))
		jobs, got, err := readHDFSFile(c, hdfs.URL{NameNode: u.NameNode, Path: f}.String(), f, format, swim)
		if err != nil {
			return nil, err
		}
		in.Format = got
		in.Jobs = append(in.Jobs, jobs...)
	}
	progress(len(files), len(files))
	if len(in.Jobs) == 0 {
		return nil, fmt.Errorf("read %s: no jobs", location)
	}
	return in, nil
}

func readHDFSFile(c *hdfs.Client, name, p string, format history.Format, swim history.SWIMModel) ([]*history.Job, history.Format, error) {
	f, err := c.Open(p)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	if format == "" {
		head, err := br.Peek(history.DetectBytes)
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
			return nil, "", fmt.Errorf("read %s: %w", name, err)
		}
		if format, err = history.Detect(name, head); err != nil {
			return nil, "", err
		}
	}
	switch format {
	case history.FormatJhist:
		j, err := history.ReadJhistFrom(br, name)
		if err != nil {
			return nil, "", err
		}
		if err := attachConf(j, hdfsSibling(c, p)); err != nil {
			return nil, "", err
		}
		return []*history.Job{j}, format, nil
	case history.FormatRumen:
		jobs, err := history.ReadRumenFrom(br, name)
		return jobs, format, err
	case history.FormatSWIM:
		jobs, err := history.ReadSWIMFrom(br, name, swim)
		return jobs, format, err
	}
	return nil, "", fmt.Errorf("read %s: %s files are not read from HDFS (histories only: jhist, rumen, swim)", name, format)
}

// hdfsSibling opens files beside the HDFS file p.
func hdfsSibling(c *hdfs.Client, p string) func(string) (io.ReadCloser, error) {
	return func(base string) (io.ReadCloser, error) { return c.Open(path.Join(path.Dir(p), base)) }
}
