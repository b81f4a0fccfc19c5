// Package httpjson makes one HTTP request whose body and answer are JSON:
// the shared machinery of the module's HTTP clients (the REST clients of
// yarnclient/rest, the fault analyzer's cfa.Remote). Every error names the
// method and the URL. It must not retry, cache or interpret an answer
// beyond its status and JSON: what a failure means is the caller's call.
package httpjson

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Request is one call.
type Request struct {
	Method string // GET when empty
	URL    string
	// Token, if set, is sent as "Authorization: Bearer Token".
	Token string
	// Body, if not nil, is encoded as JSON and sent as the request body.
	Body any
	// MaxAnswer caps how much of the answer is read (all of it when 0).
	MaxAnswer int64
}

// StatusError is a non-2xx answer; Body holds the answer's first bytes (at
// most MaxAnswer).
type StatusError struct {
	Method, URL string
	Status      int
	Body        []byte
}

// maxErrorText bounds how much of an answer's body an error quotes.
const maxErrorText = 1024

func (e *StatusError) Error() string {
	msg := e.Body[:min(len(e.Body), maxErrorText)]
	if s := strings.TrimSpace(string(msg)); s != "" {
		return fmt.Sprintf("%s %s: HTTP %d: %s", e.Method, e.URL, e.Status, s)
	}
	return fmt.Sprintf("%s %s: HTTP %d", e.Method, e.URL, e.Status)
}

// Do sends r with hc and decodes a 2xx answer into out (unless out is nil).
// A non-2xx answer is a *StatusError.
func Do(ctx context.Context, hc *http.Client, r Request, out any) error {
	if r.Method == "" {
		r.Method = http.MethodGet
	}
	fail := func(what string, err error) error { return fmt.Errorf("%s %s: %s%w", r.Method, r.URL, what, err) }
	var body io.Reader
	if r.Body != nil {
		b, err := json.Marshal(r.Body)
		if err != nil {
			return fail("encode JSON: ", err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, r.URL, body)
	if err != nil {
		return fail("", err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.Token != "" {
		req.Header.Set("Authorization", "Bearer "+r.Token)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return fail("", err)
	}
	defer resp.Body.Close()
	var answer io.Reader = resp.Body
	if r.MaxAnswer > 0 {
		answer = io.LimitReader(resp.Body, r.MaxAnswer)
	}
	data, err := io.ReadAll(answer)
	if err != nil {
		return fail("read body: ", err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return &StatusError{Method: r.Method, URL: r.URL, Status: resp.StatusCode, Body: data}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fail("decode JSON: ", err)
	}
	return nil
}
