// Package rest holds small clients for Hadoop's REST APIs: the YARN
// ResourceManager (cluster info, the node list), a NodeManager (node info) and
// the MapReduce JobHistory server (jobs, tasks, attempts). Every call takes a
// context and runs under the client's timeout; every error names the URL.
//
// It decodes only the fields specbridge uses and ignores the rest, so that it
// keeps working across Hadoop 3.x releases. It must not retry, cache or hold
// state between calls: callers (the fault analyzer's gatherer, scripts)
// decide how often to ask and what a failure means.
package rest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/specbridge/specbridge/internal/httpjson"
)

// DefaultTimeout bounds one request when the caller gives no timeout.
const DefaultTimeout = 10 * time.Second

// maxBody caps how much of a response is read: a large cluster's node list
// is a few MB; anything far beyond that is not a Hadoop answer.
const maxBody = 64 << 20

// Client is the shared HTTP machinery of the RM, NM and JHS clients.
type Client struct {
	base    string // scheme://host:port, no trailing slash
	http    *http.Client
	timeout time.Duration
}

// newAPI is the constructor of each API's client (ResourceManager,
// NodeManager, JobHistory): a Client for base, as newClient builds it,
// wrapped in the API's type.
func newAPI[API ~struct{ Client }](base string, timeout time.Duration, hc *http.Client) (*API, error) {
	c, err := newClient(base, timeout, hc)
	if err != nil {
		return nil, err
	}
	return &API{c}, nil
}

// ResourceManager is a client of the RM's REST API (/ws/v1/cluster).
type ResourceManager struct{ Client }

// NewResourceManager returns a client for the RM web address base
// ("http://rm:8088"); timeout bounds each request (0: DefaultTimeout); hc may
// be nil.
func NewResourceManager(base string, timeout time.Duration, hc *http.Client) (*ResourceManager, error) {
	return newAPI[ResourceManager](base, timeout, hc)
}

// NodeManager is a client of one NM's REST API (/ws/v1/node).
type NodeManager struct{ Client }

// NewNodeManager returns a client for the NM web address base
// ("http://host:8042", or the RM's nodeHTTPAddress "host:8042").
func NewNodeManager(base string, timeout time.Duration, hc *http.Client) (*NodeManager, error) {
	return newAPI[NodeManager](base, timeout, hc)
}

// JobHistory is a client of the MapReduce JobHistory server's REST API
// (/ws/v1/history/mapreduce).
type JobHistory struct{ Client }

// NewJobHistory returns a client for the JHS web address base
// ("http://jhs:19888").
func NewJobHistory(base string, timeout time.Duration, hc *http.Client) (*JobHistory, error) {
	return newAPI[JobHistory](base, timeout, hc)
}

// newClient checks base ("http://host:port"; a bare "host:port" gets http).
func newClient(base string, timeout time.Duration, hc *http.Client) (Client, error) {
	if base == "" {
		return Client{}, errors.New("empty REST address")
	}
	if !strings.Contains(base, "://") {
		base = "http://" + base
	}
	u, err := url.Parse(base)
	if err != nil {
		return Client{}, fmt.Errorf("REST address %q: %w", base, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return Client{}, fmt.Errorf("REST address %q: want http://host:port or https://host:port", base)
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if hc == nil {
		hc = http.DefaultClient
	}
	return Client{base: strings.TrimRight(u.Scheme+"://"+u.Host+u.Path, "/"), http: hc, timeout: timeout}, nil
}

// Base returns the address requests go to.
func (c Client) Base() string { return c.base }

// StatusError is a non-2xx answer. Hadoop's JSON RemoteException, when the
// body holds one, is in Message.
type StatusError struct {
	Method  string // GET when empty
	URL     string
	Status  int
	Message string
}

func (e *StatusError) Error() string {
	m := e.Method
	if m == "" {
		m = http.MethodGet
	}
	if e.Message != "" {
		return fmt.Sprintf("%s %s: HTTP %d: %s", m, e.URL, e.Status, e.Message)
	}
	return fmt.Sprintf("%s %s: HTTP %d", m, e.URL, e.Status)
}

// IsNotFound reports whether err is an HTTP 404 from a Hadoop REST API.
func IsNotFound(err error) bool {
	var se *StatusError
	return errors.As(err, &se) && se.Status == http.StatusNotFound
}

// get fetches path (with query) and decodes the JSON answer into out.
func (c Client) get(ctx context.Context, path string, out any) error {
	return c.do(ctx, http.MethodGet, path, nil, out)
}

// do sends method to path (with query) with body as JSON (none when nil)
// and decodes the JSON answer into out (unless out is nil).
func (c Client) do(ctx context.Context, method, path string, body, out any) error {
	u := c.base + path
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	err := httpjson.Do(ctx, c.http, httpjson.Request{Method: method, URL: u, Body: body, MaxAnswer: maxBody}, out)
	var se *httpjson.StatusError
	if errors.As(err, &se) {
		var re struct {
			RemoteException struct {
				Exception, Message string
			}
		}
		_ = json.Unmarshal(se.Body, &re) // best effort: the status alone is the error
		msg := re.RemoteException.Message
		if re.RemoteException.Exception != "" {
			msg = re.RemoteException.Exception + ": " + msg
		}
		return &StatusError{Method: method, URL: u, Status: se.Status, Message: msg}
	}
	return err
}

// decodeList reads Hadoop's JSON wrapper of a list, e.g. the value of
// "nodes" in {"nodes":{"node":[...]}}. Jersey writes an empty list as "" or
// null instead of an object, and some versions write a one-element list as
// an object; all of these are accepted.
func decodeList[T any](data json.RawMessage, key string) ([]T, error) {
	s := strings.TrimSpace(string(data))
	if s == "" || s == "null" || s == `""` {
		return nil, nil
	}
	var wrap map[string]json.RawMessage
	if err := json.Unmarshal(data, &wrap); err != nil {
		return nil, fmt.Errorf("list of %s: %w", key, err)
	}
	raw := strings.TrimSpace(string(wrap[key]))
	if raw == "" || raw == "null" || raw == `""` {
		return nil, nil
	}
	if strings.HasPrefix(raw, "{") {
		var one T
		if err := json.Unmarshal([]byte(raw), &one); err != nil {
			return nil, fmt.Errorf("list of %s: %w", key, err)
		}
		return []T{one}, nil
	}
	var many []T
	if err := json.Unmarshal([]byte(raw), &many); err != nil {
		return nil, fmt.Errorf("list of %s: %w", key, err)
	}
	return many, nil
}

// getList fetches path and decodes {outer:{inner:[...]}}.
func getList[T any](ctx context.Context, c Client, path, outer, inner string) ([]T, error) {
	var wrap map[string]json.RawMessage
	if err := c.get(ctx, path, &wrap); err != nil {
		return nil, err
	}
	out, err := decodeList[T](wrap[outer], inner)
	if err != nil {
		return nil, fmt.Errorf("GET %s%s: %w", c.base, path, err)
	}
	return out, nil
}

// getObject fetches path and decodes the object under key of its answer,
// {key:{...}} (the zero T without one).
func getObject[T any](ctx context.Context, c Client, path, key string) (T, error) {
	var wrap map[string]json.RawMessage
	var out T
	if err := c.get(ctx, path, &wrap); err != nil {
		return out, err
	}
	if raw, ok := wrap[key]; ok {
		if err := json.Unmarshal(raw, &out); err != nil {
			return out, fmt.Errorf("GET %s%s: decode JSON: %w", c.base, path, err)
		}
	}
	return out, nil
}

// pathEscape escapes one path segment (a job, task or attempt id).
func pathEscape(s string) string { return url.PathEscape(s) }

// ConfValue returns the daemon's running value of a configuration key, as
// its /conf?name=KEY page reports it (every Hadoop daemon's web server has
// one), unexpanded: "${other.key}/x" stays as written.
func (c Client) ConfValue(ctx context.Context, key string) (string, error) {
	var out struct {
		Property struct {
			Key   string `json:"key"`
			Value string `json:"value"`
		} `json:"property"`
	}
	if err := c.get(ctx, "/conf?name="+url.QueryEscape(key), &out); err != nil {
		return "", err
	}
	if out.Property.Key != key {
		return "", fmt.Errorf("GET %s/conf?name=%s: no such key", c.base, key)
	}
	return out.Property.Value, nil
}
