package archtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/specbridge/specbridge"

// rule is one row of docs/architecture.md's package map. A package follows
// the rule whose pattern matches it most closely: an exact name beats a
// subtree ("speculators/..." is speculators and every package under it).
type rule struct {
	pkg string
	// doc is how the package map names the row (its first cell).
	doc string
	// internal and thirdParty are what the package may import directly:
	// patterns of the module's packages, and module path prefixes; "*"
	// allows anything.
	internal, thirdParty []string
	// denyStd lists standard-library packages it must not import directly.
	denyStd []string
	// denyDeps lists patterns of the module's packages it must not depend
	// on at all, directly or through others.
	denyDeps []string
}

var (
	noIO       = []string{"os", "io/fs", "bufio", "path/filepath", "net", "net/http", "os/exec", "syscall"}
	noIOnoTime = append(slices.Clone(noIO), "time")
	pure       = append(slices.Clone(noIOnoTime), "sync")
	gonum      = "gonum.org/v1/gonum"
	upper      = []string{"cfa/...", "sim", "bridge", "replay/...", "sweep", "store/...", "yarnclient/...", "workload/...", "cmd/...", "internal/..."}
)

// rules mirrors docs/architecture.md's package map.
var rules = []rule{
	{pkg: "speculators", doc: "`speculators`", denyStd: pure, denyDeps: upper},
	{pkg: "speculators/...", doc: "`speculators/<policy>`", internal: []string{"speculators/..."}, thirdParty: []string{gonum},
		denyStd: noIOnoTime, denyDeps: upper},
	{pkg: "speculators/detect", doc: "`speculators/detect`", internal: []string{"speculators"}, denyStd: noIOnoTime, denyDeps: upper},
	{pkg: "speculators/all", doc: "`speculators/all`", internal: []string{"speculators/...", "models"}, denyStd: noIOnoTime, denyDeps: upper},
	{pkg: "models", doc: "`models`", internal: []string{"speculators/..."}, denyStd: noIO, denyDeps: upper},
	{pkg: "speculators/spectest", doc: "`speculators/spectest`", internal: []string{"speculators/..."},
		thirdParty: []string{gonum, "github.com/cockroachdb/datadriven"}, denyStd: noIOnoTime, denyDeps: upper},
	{pkg: "cfa/analyzer", doc: "`cfa/analyzer`", internal: []string{"speculators", "speculators/detect"}, denyStd: pure,
		denyDeps: []string{"cfa", "sim", "bridge", "replay/...", "store/...", "yarnclient/...", "workload/...", "cmd/...", "internal/..."}},
	{pkg: "cfa", doc: "`cfa`", internal: []string{"cfa/analyzer", "speculators", "speculators/detect", "yarnclient/hdfs", "yarnclient/rest",
		"store/dirlock", "internal/authguard", "internal/hadoopid", "internal/httpjson", "internal/tokens"},
		thirdParty: []string{"github.com/prometheus/client_golang", "github.com/sirupsen/logrus"},
		denyDeps:   []string{"bridge", "sim", "replay/..."}},
	{pkg: "sim", doc: "`sim`", internal: []string{"speculators/...", "cfa/analyzer"}, thirdParty: []string{gonum},
		denyDeps: []string{"cfa", "bridge", "yarnclient/...", "replay/...", "store/..."}},
	{pkg: "bridge", doc: "`bridge`", internal: []string{"speculators/...", "internal/authguard", "internal/hadoopid", "internal/tokens"},
		thirdParty: []string{"github.com/gorilla/websocket", "github.com/go-json-experiment/json", "github.com/prometheus/client_golang", "github.com/sirupsen/logrus"},
		denyDeps:   []string{"cfa/...", "sim", "replay/..."}},
	{pkg: "store/...", doc: "`store/grassamples`", internal: []string{"speculators/...", "internal/lineread"},
		thirdParty: []string{"github.com/sirupsen/logrus"}, denyDeps: []string{"bridge", "sim", "cfa/..."}},
	{pkg: "yarnclient/history", doc: "`yarnclient/history`", internal: []string{"internal/lineread", "internal/hadoopconf"}, thirdParty: []string{"github.com/hamba/avro"}},
	{pkg: "yarnclient/hdfs", doc: "`yarnclient/hdfs`", internal: []string{"internal/hadoopconf"}, thirdParty: []string{"github.com/colinmarc/hdfs", "github.com/jcmturner/gokrb5"}},
	{pkg: "yarnclient/rest", doc: "`yarnclient/rest`", internal: []string{"internal/httpjson"}},
	{pkg: "yarnclient/rmcapacity", doc: "`yarnclient/rmcapacity`", internal: []string{"yarnclient/rest", "internal/hadoopconf"},
		thirdParty: []string{"github.com/jcmturner/gokrb5", "github.com/prometheus/client_golang", "github.com/sirupsen/logrus"},
		denyDeps:   []string{"bridge", "cfa/...", "sim", "replay/..."}},
	{pkg: "yarnclient/rmcapacity/rmtest", doc: "`yarnclient/rmcapacity/rmtest`"},
	{pkg: "yarnclient/rmorder", doc: "`yarnclient/rmorder`", internal: []string{"yarnclient/rest", "yarnclient/rmcapacity", "speculators"},
		thirdParty: []string{"github.com/jcmturner/gokrb5", "github.com/prometheus/client_golang", "github.com/sirupsen/logrus"},
		denyDeps:   []string{"bridge", "cfa/...", "sim", "replay/..."}},
	{pkg: "workload/...", doc: "`workload/scenario`", internal: []string{"yarnclient/history"}, thirdParty: []string{gonum, "gopkg.in/yaml.v3"},
		denyDeps: []string{"sim", "bridge", "cfa/..."}},
	{pkg: "replay", doc: "`replay`", internal: []string{"sim", "speculators/...", "cfa/analyzer", "workload/...", "yarnclient/history", "yarnclient/hdfs", "store/...",
		"internal/inorder"},
		thirdParty: []string{gonum}, denyDeps: []string{"bridge", "cfa"}},
	{pkg: "replay/report", doc: "`replay/report`", internal: []string{"replay", "sim", "speculators/..."}, thirdParty: []string{gonum, "gonum.org/v1/plot"},
		denyDeps: []string{"bridge", "cfa"}},
	{pkg: "conformance", doc: "`conformance`", internal: []string{"bridge", "sim", "speculators"}, denyDeps: []string{"cfa", "replay/..."}},
	{pkg: "lasertrain", doc: "`lasertrain`", internal: []string{"replay", "sim", "speculators/...", "models", "yarnclient/history"}, thirdParty: []string{gonum},
		denyDeps: []string{"bridge", "cfa"}},
	{pkg: "sweep", doc: "`sweep`", internal: []string{"replay", "speculators", "yarnclient/history", "yarnclient/hdfs", "internal/inorder"},
		denyDeps: []string{"bridge", "cfa"}},
	{pkg: "cmd/...", doc: "`cmd/specbridge`", internal: []string{"*"}, thirdParty: []string{"*"}},
	{pkg: "internal/itest", doc: "`internal/itest`", internal: []string{"yarnclient/hdfs", "internal/httpjson"}},
	{pkg: "internal/authguard", doc: "`internal/authguard`", thirdParty: []string{"github.com/sirupsen/logrus"}},
	{pkg: "internal/lineread", doc: "`internal/lineread`"},
	{pkg: "internal/hadoopconf", doc: "`internal/hadoopconf`", denyDeps: upper},
	{pkg: "internal/hadoopid", doc: "`internal/hadoopid`", denyStd: pure, denyDeps: upper},
	{pkg: "internal/tokens", doc: "`internal/tokens`", denyDeps: upper},
	{pkg: "internal/httpjson", doc: "`internal/httpjson`"},
	{pkg: "internal/inorder", doc: "`internal/inorder`", denyStd: noIOnoTime, denyDeps: upper},
	{pkg: "internal/testclock", doc: "`internal/testclock`"},
	{pkg: "internal/hammer", doc: "`internal/hammer`", denyDeps: upper},
	{pkg: "internal/browsertest", doc: "`internal/browsertest`", thirdParty: []string{"github.com/chromedp/chromedp", "github.com/chromedp/cdproto"}},
	{pkg: "internal/dashboard", doc: "`internal/dashboard`", internal: []string{"bridge", "cfa", "cfa/analyzer", "speculators", "internal/tokens", "internal/authguard"}},
	{pkg: "internal/policydoc", doc: "`internal/policydoc`", internal: []string{"speculators/..."}},
	{pkg: "internal/archtest", doc: "`internal/archtest`"},
	{pkg: "scripts/e2echeck", doc: "`scripts/e2echeck`", internal: []string{"yarnclient/history"}},
	{pkg: "deploy", doc: "`deploy`", internal: []string{"internal/itest"}},
}

// match reports whether pkg (module-relative) matches pattern, and how
// closely (longer is closer; an exact name beats any subtree).
func match(pattern, pkg string) (bool, int) {
	if pattern == "*" {
		return true, 0
	}
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		if pkg == base || strings.HasPrefix(pkg, base+"/") {
			return true, len(base)
		}
		return false, 0
	}
	return pattern == pkg, len(pattern) + 1000
}

func matchAny(patterns []string, pkg string) bool {
	for _, p := range patterns {
		if ok, _ := match(p, pkg); ok {
			return true
		}
	}
	return false
}

func ruleFor(pkg string) *rule {
	var best *rule
	bestScore := -1
	for i := range rules {
		if ok, score := match(rules[i].pkg, pkg); ok && score > bestScore {
			best, bestScore = &rules[i], score
		}
	}
	return best
}

type listed struct {
	path          string
	imports, deps []string
}

// list runs `go list` over the module: every package's direct (non-test)
// imports and all its dependencies.
func list(t *testing.T, root string) []listed {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}\t{{join .Imports \" \"}}\t{{join .Deps \" \"}}", "./...")
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./... in %s: %v (the test needs the go command)", root, err)
	}
	var pkgs []listed
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			t.Fatalf("go list printed %q", line)
		}
		pkgs = append(pkgs, listed{path: f[0], imports: strings.Fields(f[1]), deps: strings.Fields(f[2])})
	}
	return pkgs
}

// internalPath returns p relative to the module, if it is the module's.
func internalPath(p string) (string, bool) {
	if p == module {
		return "", true
	}
	return strings.CutPrefix(p, module+"/")
}

func standard(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return !strings.Contains(first, ".")
}

func TestImportRules(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range list(t, root) {
		pkg, ok := internalPath(p.path)
		if !ok {
			t.Errorf("go list named %s, outside the module", p.path)
			continue
		}
		r := ruleFor(pkg)
		if r == nil {
			t.Errorf("%s is in no row of docs/architecture.md's package map (add it there and to rules here)", pkg)
			continue
		}
		for _, imp := range p.imports {
			switch in, isInternal := internalPath(imp); {
			case isInternal:
				if !matchAny(r.internal, in) {
					t.Errorf("%s imports %s; its row (%s) allows %v", pkg, in, r.doc, r.internal)
				}
			case standard(imp):
				if slices.Contains(r.denyStd, imp) {
					t.Errorf("%s imports %s, which its row (%s) forbids", pkg, imp, r.doc)
				}
			default:
				allowed := false
				for _, m := range r.thirdParty {
					allowed = allowed || m == "*" || imp == m || strings.HasPrefix(imp, m+"/")
				}
				if !allowed {
					t.Errorf("%s imports %s; its row (%s) allows the modules %v", pkg, imp, r.doc, r.thirdParty)
				}
			}
		}
		for _, d := range p.deps {
			if in, isInternal := internalPath(d); isInternal && matchAny(r.denyDeps, in) {
				t.Errorf("%s depends on %s (directly or through another package), which its row (%s) forbids", pkg, in, r.doc)
			}
		}
	}
}

// The test's table and the doc's package map name the same rows.
func TestRulesMatchTheDoc(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, line := range strings.Split(string(doc), "\n") {
		if cell, ok := strings.CutPrefix(line, "| `"); ok {
			first, _, _ := strings.Cut("`"+cell, " |")
			first, _, _ = strings.Cut(first, " (")
			rows = append(rows, first)
		}
	}
	for _, r := range rules {
		if !slices.Contains(rows, r.doc) {
			t.Errorf("rule %s: docs/architecture.md has no package-map row %s", r.pkg, r.doc)
		}
	}
	for _, row := range rows {
		found := false
		for _, r := range rules {
			found = found || r.doc == row
		}
		if !found {
			t.Errorf("docs/architecture.md's row %s has no rule in this test", row)
		}
	}
}
