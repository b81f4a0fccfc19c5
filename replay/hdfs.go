package replay

import (
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/specbridge/specbridge/yarnclient/hdfs"
)

// hdfsSource is an input on HDFS: an hdfs:// file, or every .jhist and
// .json history below an hdfs:// directory (a JobHistory done directory).
// Its files are named by their hdfs:// URLs.
type hdfsSource struct {
	location string // as given
	u        hdfs.URL
	c        *hdfs.Client
}

// openHDFS connects to the NameNode of location with cfg.
func openHDFS(location string, cfg *hdfs.Config) (*hdfsSource, error) {
	u, err := cfg.ParseURL(location)
	if err != nil {
		return nil, err
	}
	c, err := cfg.Dial(u.NameNode)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", location, err)
	}
	return &hdfsSource{location: location, u: u, c: c}, nil
}

func (s *hdfsSource) Files() ([]string, bool, error) {
	files, err := s.c.Walk(s.u.Path)
	if err != nil {
		return nil, false, err
	}
	dir := len(files) != 1 || files[0] != s.u.Path
	var names []string
	for _, f := range files {
		if !dir || isHistoryFile(f) {
			names = append(names, s.name(f))
		}
	}
	if len(names) == 0 {
		return nil, false, noHistoryFiles(s.location)
	}
	return names, dir, nil
}

// name is the URL of the HDFS path p.
func (s *hdfsSource) name(p string) string { return hdfs.URL{NameNode: s.u.NameNode, Path: p}.String() }

// path is the HDFS path of the file name.
func (s *hdfsSource) path(name string) string {
	return strings.TrimPrefix(name, "hdfs://"+s.u.NameNode)
}

func (s *hdfsSource) Open(name string) (io.ReadCloser, error) { return s.c.Open(s.path(name)) }

func (s *hdfsSource) OpenSibling(name, base string) (io.ReadCloser, error) {
	return s.c.Open(path.Join(path.Dir(s.path(name)), base))
}

func (s *hdfsSource) Local(string) (string, bool) { return "", false }

func (s *hdfsSource) Close() error { return s.c.Close() }
