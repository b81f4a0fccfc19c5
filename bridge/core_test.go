package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	"github.com/sirupsen/logrus"

	"github.com/specbridge/specbridge/cfa"
	"github.com/specbridge/specbridge/cfa/analyzer"
	"github.com/specbridge/specbridge/internal/testclock"
	"github.com/specbridge/specbridge/speculators"
)

// The protocol's datadriven files (testdata/protocol) run against the
// session core: no socket, the server's clock a test clock. Commands:
//
//	server [max-sessions=N] [max-job-memory=N] [max-tasks=N] [analyzer]
//	    a new server (every session before is gone); analyzer embeds a
//	    fault analyzer (cfa.Service, in memory)
//	open NAME [remote=ADDR]       a connection that has not said hello
//	send NAME                     each input line is one frame the client sends
//	raw NAME too-large=N|binary=N a frame the transport could not take
//	advance MS                    the server's clock moves on
//	tick NAME                     the decide interval: the engine decides now
//	notice NAME node=N kind=K     the fault analyzer tells the session's job
//
// Each prints the frames the core sends, one JSON line each, then
// "closed CODE" when the session ends. Run with -rewrite to regenerate.
func TestProtocolFiles(t *testing.T) {
	datadriven.Walk(t, "testdata/protocol", func(t *testing.T, path string) {
		p := &protoScript{t: t}
		defer p.close()
		datadriven.RunTest(t, path, p.directive)
	})
}

type protoScript struct {
	t      *testing.T
	clock  *testclock.Clock
	srv    *Server
	svc    *cfa.Service
	cores  map[string]*core
	nextID uint64
}

func (p *protoScript) close() {
	if p.srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), waitFor)
		defer cancel()
		_ = p.srv.Shutdown(ctx)
	}
}

func (p *protoScript) directive(t *testing.T, td *datadriven.TestData) string {
	p.t = t
	arg := func(key string) (string, bool) {
		for i, a := range td.CmdArgs {
			if i == 0 && len(a.Vals) == 0 && td.Cmd != "server" {
				continue // the session's name
			}
			if a.Key == key {
				if len(a.Vals) == 0 {
					return "", true
				}
				return a.Vals[0], true
			}
		}
		return "", false
	}
	num := func(key string) int64 {
		v, _ := arg(key)
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			td.Fatalf(t, "%s=%q: %v", key, v, err)
		}
		return n
	}
	name := ""
	if len(td.CmdArgs) > 0 && len(td.CmdArgs[0].Vals) == 0 {
		name = td.CmdArgs[0].Key
	}
	if td.Cmd != "server" && p.srv == nil {
		p.newServer(Config{}, false)
	}
	c := p.cores[name]
	if c == nil && td.Cmd != "server" && td.Cmd != "open" && td.Cmd != "advance" {
		td.Fatalf(t, "no session %q (open it first)", name)
	}
	switch td.Cmd {
	case "server":
		var cfg Config
		if _, ok := arg("max-sessions"); ok {
			cfg.MaxSessions = int(num("max-sessions"))
		}
		if _, ok := arg("max-job-memory"); ok {
			cfg.MaxJobMemory = num("max-job-memory")
		}
		if _, ok := arg("max-tasks"); ok {
			cfg.MaxTasksPerJob = int(num("max-tasks"))
		}
		_, withAnalyzer := arg("analyzer")
		p.close()
		p.newServer(cfg, withAnalyzer)
		return ""
	case "open":
		remote, ok := arg("remote")
		if !ok {
			remote = "10.0.0.1:4000"
		}
		p.nextID++
		c := p.srv.newCore(context.Background(), p.nextID, remote)
		p.srv.mu.Lock()
		c.pending = true
		p.srv.pending++
		p.srv.mu.Unlock()
		p.cores[name] = c
		return ""
	case "send":
		var b strings.Builder
		for _, line := range strings.Split(td.Input, "\n") {
			if line = strings.TrimSpace(line); line == "" || c.closeCode != "" {
				continue
			}
			f, err := DecodeFrame([]byte(line))
			it := item{kind: itemFrame, frame: f, readAt: p.clock.Now()}
			if err != nil {
				it.kind, it.err = itemBadFrame, err
			}
			b.WriteString(p.run(c, func() error { return c.handle(it) }))
		}
		return b.String()
	case "raw":
		it := item{kind: itemBinary, readAt: p.clock.Now()}
		if _, ok := arg("too-large"); ok {
			it.kind, it.size = itemTooLarge, num("too-large")
		} else {
			it.size = num("binary")
		}
		return p.run(c, func() error { return c.handle(it) })
	case "advance":
		ms, err := strconv.Atoi(name)
		if err != nil {
			td.Fatalf(t, "advance MS: %v", err)
		}
		p.clock.Advance(time.Duration(ms) * time.Millisecond)
		return ""
	case "tick":
		return p.run(c, func() error { return c.Tick(p.clock.Now()) })
	case "notice":
		node, _ := arg("node")
		kindName, _ := arg("kind")
		kind := speculators.NodeFailed
		if kindName == "node-suspected" {
			kind = speculators.NodeSuspected
		}
		c.deliver(speculators.Event{Kind: kind, Node: speculators.NodeID(node)})
		return p.run(c, func() error { return c.Notices(p.clock.Now()) })
	}
	td.Fatalf(t, "unknown command %q", td.Cmd)
	return ""
}

// run runs f on c as the transport would (then the work after the turn:
// the analyzer's calls) and prints what c sends.
func (p *protoScript) run(c *core, f func() error) string {
	err := f()
	if err == nil && p.srv.feedw != nil {
		err = c.afterTurn()
		if p.svc != nil {
			p.drain() // the feed writer has passed everything on
		}
	}
	var b strings.Builder
	for _, v := range c.out {
		data, merr := json.Marshal(v)
		if merr != nil {
			p.t.Fatal(merr)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	c.out = c.out[:0]
	if c.closeCode != "" {
		fmt.Fprintf(&b, "closed %s\n", c.closeCode)
	} else if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
	}
	return b.String()
}

// drain waits until the feed writer's queue is empty.
func (p *protoScript) drain() {
	done := make(chan error, 1)
	_ = p.srv.feedw.push(context.Background(), feedOp{kind: feedSync, done: done})
	<-done
}

func (p *protoScript) newServer(cfg Config, withAnalyzer bool) {
	p.clock = newFakeClock()
	log := logrus.New()
	log.SetOutput(io.Discard)
	cfg.Registry, cfg.Tokens, cfg.Log, cfg.Clock = testRegistry(p.t), []string{"other-token", testToken}, log, p.clock
	p.svc = nil
	if withAnalyzer {
		svc, err := cfa.NewService(cfa.ServiceConfig{Analyzer: analyzer.DefaultConfig(), Log: log, Now: p.clock.Now})
		if err != nil {
			p.t.Fatal(err)
		}
		p.svc, cfg.Feed = svc, svc
	}
	srv, err := NewServer(cfg)
	if err != nil {
		p.t.Fatal(err)
	}
	p.srv, p.cores, p.nextID = srv, map[string]*core{}, 0
}

// The session core's files import no network package: the transport shell
// (session.go, session_write.go, server.go) is the only code that touches
// connections.
func TestCoreImportsNoNetwork(t *testing.T) {
	core := []string{"core.go", "core_feed.go", "feed.go", "feedwriter.go", "hello.go", "live.go", "ids.go", "translate.go", "taskmodel.go",
		"limits.go", "protocol.go", "validate.go", "metrics.go"}
	fset := token.NewFileSet()
	for _, name := range core {
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly) // nil: the parser reads the file
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if path == "net" || strings.HasPrefix(path, "net/") || strings.Contains(path, "gorilla/websocket") {
				t.Errorf("%s imports %s: the session core must not touch connections", name, path)
			}
		}
	}
}

// A session whose loop does not drain the fault analyzer's notices keeps
// 4,096 of them; the next are dropped, counted and logged once, not
// silently.
func TestNoticeOverflowIsCounted(t *testing.T) {
	ts := startServer(t, nil)
	c := ts.newCore(context.Background(), 1, "10.0.0.1:1")
	c.noticeWake = make(chan struct{}, 1)
	for i := 0; i < maxQueuedNotices+5; i++ {
		c.deliver(speculators.Event{Kind: speculators.NodeFailed, Node: speculators.NodeID(fmt.Sprint("n", i))})
	}
	if n := metricValue(t, ts.http.URL, "specbridge_bridge_notices_dropped_total"); n != 5 {
		t.Fatalf("notices_dropped_total %v, want 5", n)
	}
	if len(c.notices) != maxQueuedNotices {
		t.Fatalf("%d notices kept, want %d", len(c.notices), maxQueuedNotices)
	}
}
