// Package hdfs is specbridge's access to HDFS, over
// github.com/colinmarc/hdfs/v2: parse an hdfs://host:port/path URL, list a
// directory, read a file, write a file atomically (a temporary name, then a
// rename over the target) and append to a file.
//
// Addresses follow the cluster's configuration (Config, conf.go:
// --hadoop-conf, HADOOP_CONF_DIR), which callers pass in: hdfs:///path is on fs.defaultFS, hdfs://nameservice/path
// on an HA nameservice's NameNodes with failover between them. The user is
// HADOOP_USER_NAME, else the OS user, as Hadoop's own client does with
// simple authentication; with hadoop.security.authentication=kerberos, the
// principal of a keytab or of the ticket cache (conf.go). The package
// must not interpret what it reads or writes: that belongs to callers
// (replay, the fault analyzer's store).
package hdfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"os/user"
	"path"
	"sort"
	"strings"
	"time"

	gohdfs "github.com/colinmarc/hdfs/v2"
)

// URL is a parsed hdfs:// address.
type URL struct {
	NameNode string // host:port, a host, or an HA nameservice (Addresses resolves it)
	Path     string // absolute, cleaned
}

func (u URL) String() string { return "hdfs://" + u.NameNode + u.Path }

// Join returns the URL of name under u.
func (u URL) Join(name string) URL { return URL{NameNode: u.NameNode, Path: path.Join(u.Path, name)} }

// IsURL reports whether s is an hdfs:// URL.
func IsURL(s string) bool { return strings.HasPrefix(s, "hdfs://") }

// ParseURL reads hdfs://host:port/path, hdfs://nameservice/path, or
// hdfs:///path (on fs.defaultFS of the cluster's configuration, which must
// then be found).
func (cfg *Config) ParseURL(s string) (URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return URL{}, fmt.Errorf("HDFS URL %q: %w", s, err)
	}
	if u.Scheme != "hdfs" {
		return URL{}, fmt.Errorf("HDFS URL %q: want hdfs://namenode-host:port/path, hdfs://nameservice/path or hdfs:///path", s)
	}
	if u.Host == "" {
		c, err := cfg.conf()
		if err == nil {
			u.Host, err = defaultFS(c)
		}
		if err != nil {
			return URL{}, fmt.Errorf("HDFS URL %q: %w", s, err)
		}
	}
	p := path.Clean("/" + u.Path)
	return URL{NameNode: u.Host, Path: p}, nil
}

// User is the HDFS user: HADOOP_USER_NAME, else the OS user.
func User() (string, error) {
	if u := os.Getenv("HADOOP_USER_NAME"); u != "" {
		return u, nil
	}
	u, err := user.Current()
	if err != nil {
		return "", fmt.Errorf("HDFS user: set HADOOP_USER_NAME: %w", err)
	}
	return u.Username, nil
}

// Client is a connection to one NameNode. It is safe for concurrent use as
// far as the underlying client is (colinmarc/hdfs serialises NameNode RPCs).
type Client struct {
	nn       string
	c        *gohdfs.Client
	failover failoverPolicy   // waiting out an HA failover (failover.go)
	hooks    *FaultHooks      // Config.Hooks; nil in production
	Now      func() time.Time // for atomic-write temporary names; time.Now by default
}

// Dial connects to nn (host:port, a host or an HA nameservice: Addresses)
// as User(), or with Kerberos when the cluster's configuration says so.
func (cfg *Config) Dial(nn string) (*Client, error) {
	addrs, err := cfg.Addresses(nn)
	if err != nil {
		return nil, fmt.Errorf("HDFS %s: %w", nn, err)
	}
	c0, _ := cfg.conf() // an error is Addresses' to report; host:port needs none
	opts := gohdfs.ClientOptionsFromConf(c0.Map())
	opts.Addresses = addrs
	opts.KerberosClient = nil
	kc, kuser, err := kerberos(c0)
	if err != nil {
		return nil, fmt.Errorf("HDFS %s: %w", nn, err)
	}
	usr := kuser
	if kc != nil {
		opts.KerberosClient = kc
		if opts.KerberosServicePrincipleName == "" {
			return nil, fmt.Errorf("HDFS %s: Kerberos needs dfs.namenode.kerberos.principal in hdfs-site.xml", nn)
		}
	} else if usr, err = User(); err != nil {
		return nil, err
	}
	opts.User = usr
	c, err := gohdfs.NewClient(opts)
	if err != nil {
		return nil, fmt.Errorf("connect to HDFS %s (%s) as %s: %w", nn, strings.Join(addrs, ", "), usr, err)
	}
	return &Client{nn: nn, c: c, failover: policyFromConf(c0, len(addrs)), hooks: cfg.hooks(), Now: time.Now}, nil
}

// DialURL parses s (ParseURL) and connects to its NameNode (Dial).
func (cfg *Config) DialURL(s string) (*Client, URL, error) {
	u, err := cfg.ParseURL(s)
	if err != nil {
		return nil, URL{}, err
	}
	c, err := cfg.Dial(u.NameNode)
	return c, u, err
}

// Close ends the connection.
func (c *Client) Close() error { return c.c.Close() }

func (c *Client) url(p string) string { return "hdfs://" + c.nn + p }

// Entry is one directory entry.
type Entry struct {
	Name    string
	Size    int64
	Dir     bool
	ModTime time.Time
}

// List returns dir's entries sorted by name.
func (c *Client) List(dir string) ([]Entry, error) {
	var infos []os.FileInfo
	err := c.retry(func() (err error) { infos, err = c.c.ReadDir(dir); return err })
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", c.url(dir), err)
	}
	out := make([]Entry, 0, len(infos))
	for _, fi := range infos {
		out = append(out, Entry{Name: fi.Name(), Size: fi.Size(), Dir: fi.IsDir(), ModTime: fi.ModTime()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Walk returns the paths of every file below dir (dir itself if it is a
// file) whose name ends in one of suffixes (all files if none), sorted.
func (c *Client) Walk(dir string, suffixes ...string) ([]string, error) {
	var files []string
	err := c.retry(func() error {
		files = files[:0]
		return c.c.Walk(dir, func(p string, fi fs.FileInfo, err error) error {
			if err != nil || fi.IsDir() {
				return err
			}
			if len(suffixes) == 0 {
				files = append(files, p)
			}
			for _, s := range suffixes {
				if strings.HasSuffix(p, s) {
					files = append(files, p)
					break
				}
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("walk %s: %w", c.url(dir), err)
	}
	sort.Strings(files)
	return files, nil
}

// stat is Stat across a failover.
func (c *Client) stat(p string) (fi os.FileInfo, err error) {
	err = c.retry(func() error { fi, err = c.c.Stat(p); return err })
	return fi, err
}

// Exists reports whether p exists.
func (c *Client) Exists(p string) (bool, error) {
	_, err := c.stat(p)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("stat %s: %w", c.url(p), err)
	}
	return true, nil
}

// Size returns p's length, 0 if it does not exist.
func (c *Client) Size(p string) (int64, error) {
	fi, err := c.stat(p)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("stat %s: %w", c.url(p), err)
	}
	return fi.Size(), nil
}

// Open opens p for reading. The reader has every block's location from the
// NameNode at open, and reads from the DataNodes: a NameNode failover
// after Open does not touch it.
func (c *Client) Open(p string) (io.ReadCloser, error) {
	var f *gohdfs.FileReader
	err := c.retry(func() (err error) { f, err = c.c.Open(p); return err })
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", c.url(p), err)
	}
	if h := c.hooks; h != nil && h.Read != nil {
		return &hookedReader{ReadCloser: f, path: p, hook: h.Read}, nil
	}
	return f, nil
}

// ReadFile returns the whole of p.
func (c *Client) ReadFile(p string) ([]byte, error) {
	r, err := c.Open(p)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", c.url(p), errors.Unwrap(err))
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", c.url(p), err)
	}
	return b, nil
}

// MkdirAll creates dir and its parents.
func (c *Client) MkdirAll(dir string) error {
	if err := c.retry(func() error { return c.c.MkdirAll(dir, 0o755) }); err != nil {
		return fmt.Errorf("mkdir %s: %w", c.url(dir), err)
	}
	return nil
}

// Remove deletes the file p; a missing file is not an error.
func (c *Client) Remove(p string) error {
	err := c.retry(func() error { return c.c.Remove(p) })
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", c.url(p), err)
	}
	return nil
}

// Rename moves from to to, replacing to if it exists (HDFS rename2 with
// OVERWRITE, atomic on the NameNode).
func (c *Client) Rename(from, to string) error {
	if err := c.retry(func() error { return c.c.Rename(from, to) }); err != nil {
		return fmt.Errorf("rename %s to %s: %w", c.url(from), to, err)
	}
	return nil
}

// WriteFile writes data to p atomically: readers see the old content or
// the new, never a part. The data goes to a temporary name in the same
// directory, is closed (acknowledged by the DataNodes and completed on the
// NameNode), then renamed over p.
func (c *Client) WriteFile(p string, data []byte) error {
	tmp := fmt.Sprintf("%s.tmp-%d", p, c.Now().UnixNano())
	if err := c.write(tmp, data, false); err != nil {
		_ = c.c.Remove(tmp) // best effort: the write already failed
		return err
	}
	return c.Rename(tmp, p)
}

// Create writes data to a new file p and fails (wrapping os.ErrExist) if p
// exists: the NameNode decides, so of two racing creators one wins.
func (c *Client) Create(p string, data []byte) error { return c.write(p, data, false) }

// Append adds data to the end of p, creating it if missing, and returns
// once the DataNodes have acknowledged it and the NameNode has completed
// the file: after a crash, the file reads back whole up to the last Append
// that returned.
func (c *Client) Append(p string, data []byte) error {
	ok, err := c.Exists(p)
	if err != nil {
		return err
	}
	return c.write(p, data, ok)
}

func (c *Client) write(p string, data []byte, appending bool) error {
	var (
		w   *gohdfs.FileWriter
		err error
	)
	err = c.retry(func() (err error) {
		if appending {
			w, err = c.c.Append(p)
		} else {
			w, err = c.c.Create(p)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("open %s for writing: %w", c.url(p), err)
	}
	if _, err := w.Write(data); err != nil {
		_ = w.Close() // the write error is the one to report
		return fmt.Errorf("write %s: %w", c.url(p), err)
	}
	if h := c.hooks; h != nil && h.BeforeComplete != nil {
		h.BeforeComplete(p)
	}
	return c.closeWriter(w, p)
}

// closeWriter closes w, retrying while the NameNode reports the last block
// still replicating (what Hadoop's Java client does), for up to 30 s, and
// across a failover (failoverPolicy). Close again after a NameNode error
// is safe: the DataNode pipeline, once finished, is not written again, and
// the last block is updated and the file completed on the NameNode that is
// active now.
func (c *Client) closeWriter(w *gohdfs.FileWriter, p string) error {
	deadline := time.Now().Add(30 * time.Second)
	wait := 10 * time.Millisecond
	return c.retry(func() error {
		for {
			err := w.Close()
			if err == nil {
				return nil
			}
			if !gohdfs.IsErrReplicating(err) || time.Now().After(deadline) {
				return fmt.Errorf("close %s: %w", c.url(p), err)
			}
			time.Sleep(wait) // backing off between polls of the NameNode's completion
			wait = min(2*wait, time.Second)
		}
	})
}
