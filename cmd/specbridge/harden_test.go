package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// Issue 24, item 6: a keep-alive connection that idles is closed after
// --http-idle-timeout, on serve and on cfa alike.
func TestHTTPIdleConnectionsAreClosed(t *testing.T) {
	check := func(addr string) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := io.WriteString(conn, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		br := bufio.NewReader(conn)
		resp, err := http.ReadResponse(br, nil)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("GET /healthz: %v %v", resp, err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		start := time.Now()
		if _, err := br.ReadByte(); err != io.EOF {
			t.Fatalf("idle keep-alive connection: %v after %s, want it closed (EOF)", err, time.Since(start))
		}
	}
	runServeFor(t, []string{"--http-idle-timeout", "200ms"}, func(u string) { check(strings.TrimSuffix(strings.TrimPrefix(u, "ws://"), "/v1/am")) })
	if err := runInProcess(t, CFACommand(), []string{"--token-file", tokenFile(t, "cfa-token-0123456789"), "--store", t.TempDir(), "--http-idle-timeout", "200ms"}, check); err != nil {
		t.Fatal(err)
	}
}

// Issue 24, item 8: HEAD /healthz needs no token on either server and is
// no failed login (the address's budget is intact after 30 of them).
func TestHealthzHeadNeedsNoToken(t *testing.T) {
	check := func(base, apiPath, token string) {
		for i := 0; i < 30; i++ {
			if code, _ := httpDo(t, "HEAD", base+"/healthz", "", ""); code != 200 {
				t.Fatalf("HEAD /healthz: %d, want 200", code)
			}
		}
		if code, _ := get(t, base+apiPath, "wrong-token"); code != 401 {
			t.Errorf("a wrong token after 30 HEADs: %d, want 401 (not limited)", code)
		}
		if code, _ := get(t, base+apiPath, token); code != 200 {
			t.Errorf("the right token: %d", code)
		}
	}
	runServeFor(t, nil, func(u string) { check(httpBase(u), "/dashboard/state", serveTestToken) })
	tok := "cfa-token-0123456789"
	if err := runInProcess(t, CFACommand(), []string{"--token-file", tokenFile(t, tok), "--store", t.TempDir()}, func(addr string) { check("http://"+addr, "/v1/nodes", tok) }); err != nil {
		t.Fatal(err)
	}
}

// Issue 24, item 5: dashboard logins are limited and logged; the
// address's good client (its token worked there) is not locked out.
func TestDashboardLoginsAreLimited(t *testing.T) {
	runServeFor(t, nil, func(u string) {
		base := httpBase(u)
		if code, _ := get(t, base+"/dashboard/state", serveTestToken); code != 200 {
			t.Fatalf("the good token: %d", code)
		}
		codes := map[int]int{}
		for i := 0; i < 15; i++ {
			resp, err := http.PostForm(base+"/login", url.Values{"token": {"guess-" + strings.Repeat("x", i)}})
			if err != nil {
				t.Fatal(err)
			}
			_ = resp.Body.Close()
			codes[resp.StatusCode]++
		}
		if codes[401] != 10 || codes[429] != 5 {
			t.Errorf("15 wrong logins answered %v, want 10 x 401 then 5 x 429", codes)
		}
		if code, _ := get(t, base+"/dashboard/state", serveTestToken); code != 200 {
			t.Errorf("the good client after the guesses: %d, want 200", code)
		}
	})
}

// Issue 24, item 6: an open /dashboard/events stream ends once its token
// is taken out of the token file by SIGHUP.
func TestDashboardStreamEndsWhenItsTokenIsRevoked(t *testing.T) {
	hook := logHook(t)
	viewers := tokenFile(t, "viewer-1-0123456789")
	err := runInProcess(t, ServeCommand(), []string{"--token-file", tokenFile(t, serveTestToken), "--dashboard-token-file", viewers}, func(addr string) {
		req, _ := http.NewRequest("GET", "http://"+addr+"/dashboard/events", nil)
		req.Header.Set("Authorization", "Bearer viewer-1-0123456789")
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("events stream: %v %v", resp, err)
		}
		defer resp.Body.Close()
		br := bufio.NewReader(resp.Body)
		if line, err := br.ReadString('\n'); err != nil || !strings.HasPrefix(line, "data: ") {
			t.Fatalf("first push: %q %v", line, err)
		}
		writeFile(t, viewers, "viewer-2-0123456789\n")
		hup(t, hook, "serve")
		ended := make(chan error, 1)
		go func() {
			_, err := io.Copy(io.Discard, br)
			ended <- err
		}()
		select {
		case err := <-ended:
			if err != nil {
				t.Fatalf("stream ended with %v, want a clean end", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the stream of a revoked token still runs 10 s after SIGHUP")
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}
