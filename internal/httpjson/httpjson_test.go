package httpjson

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestDo(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/echo":
			if r.Header.Get("Authorization") != "Bearer s3cret" || r.Header.Get("Content-Type") != "application/json" {
				http.Error(w, "bad headers", http.StatusUnauthorized)
				return
			}
			body, _ := io.ReadAll(r.Body)
			_, _ = w.Write([]byte(`{"method":"` + r.Method + `","got":` + string(body) + `}`))
		case "/fail":
			http.Error(w, "  disk full  ", http.StatusServiceUnavailable)
		case "/big":
			_, _ = w.Write([]byte(`{"x":"` + strings.Repeat("a", 100) + `"}`))
		}
	}))
	defer srv.Close()
	ctx := context.Background()

	var out struct {
		Method string
		Got    map[string]int
	}
	err := Do(ctx, srv.Client(), Request{Method: http.MethodPost, URL: srv.URL + "/echo", Token: "s3cret", Body: map[string]int{"a": 1}}, &out)
	if err != nil || out.Method != "POST" || out.Got["a"] != 1 {
		t.Fatalf("echo: %+v, %v", out, err)
	}

	err = Do(ctx, srv.Client(), Request{URL: srv.URL + "/fail"}, nil)
	var se *StatusError
	if !errors.As(err, &se) || se.Status != http.StatusServiceUnavailable {
		t.Fatalf("fail: %v, want a StatusError 503", err)
	}
	if want := "GET " + srv.URL + "/fail: HTTP 503: disk full"; err.Error() != want {
		t.Errorf("fail: %q, want %q", err, want)
	}

	var big map[string]string
	err = Do(ctx, srv.Client(), Request{URL: srv.URL + "/big", MaxAnswer: 10}, &big)
	var syntax *json.SyntaxError
	if !errors.As(err, &syntax) || !strings.Contains(err.Error(), srv.URL+"/big: decode JSON") {
		t.Errorf("a cut answer: %v, want a decode error naming the URL", err)
	}

	if err := Do(ctx, srv.Client(), Request{URL: srv.URL + "/echo", Body: func() {}}, nil); err == nil || !strings.Contains(err.Error(), "encode JSON") {
		t.Errorf("unencodable body: %v", err)
	}
}
