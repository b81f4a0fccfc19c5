package policydoc

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specbridge/specbridge/speculators"
	"github.com/specbridge/specbridge/speculators/all/alltest"
)

// The shipped registry and docs/policies/ agree: docs/policies.md is what
// they generate now, every shipped policy has a hand-written fragment, and
// every fragment names a shipped policy (a renamed policy leaves no orphan
// behind).
func TestShippedPoliciesPage(t *testing.T) {
	reg := alltest.Registry(t)
	t.Run("current", func(t *testing.T) {
		want, err := Generate(reg, "../../docs/policies")
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile("../../docs/policies.md")
		if err != nil {
			t.Fatalf("%v; generate it with: %s", err, Command)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("docs/policies.md is not current (the registry or a fragment in docs/policies/ changed); regenerate it from the repository's root with:\n  %s", Command)
		}
	})
	t.Run("every policy has a fragment", func(t *testing.T) {
		files, _ := filepath.Glob("../../docs/policies/*.md")
		have := map[string]bool{}
		for _, f := range files {
			have[strings.TrimSuffix(filepath.Base(f), ".md")] = true
		}
		for _, name := range reg.Names() {
			if !have[name] {
				t.Errorf("policy %s has no docs/policies/%s.md", name, name)
			}
			delete(have, name)
		}
		delete(have, strings.TrimSuffix(GuideFile, ".md"))
		for name := range have {
			t.Errorf("docs/policies/%s.md names no registered policy", name)
		}
	})
}

func TestStubGuideAndParameters(t *testing.T) {
	reg := speculators.NewRegistry()
	for _, p := range []speculators.Policy{
		{Name: "alpha", Doc: "first policy", New: newNothing,
			Params: []speculators.ParamSpec{{Name: "cap", Kind: speculators.Float, Default: 0.25, Doc: "a | cap", HadoopKey: "x.y.cap"}}},
		{Name: "beta", Doc: "second policy.", New: newNothing},
	} {
		if err := reg.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, GuideFile), []byte("Pick alpha.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "alpha.md"), []byte("# alpha\n\nAlpha copies slow tasks.\n"), 0o644)
	out, err := Generate(reg, dir)
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{
		"Pick alpha.",
		"## alpha\n\nfirst policy.\n\nAlpha copies slow tasks.",
		"| `alpha.cap` | `0.25` | float | a \\| cap; also `x.y.cap` |",
		"## beta\n\nsecond policy.\n\nNo description yet: write `docs/policies/beta.md`",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("generated page lacks %q:\n%s", want, s)
		}
	}
	if strings.Index(s, "Pick alpha.") > strings.Index(s, "## Every policy") {
		t.Error("the guide does not open the page")
	}
	if strings.Contains(s, "# alpha\n\n# alpha") {
		t.Error("a fragment's own heading was kept")
	}
}

func newNothing(speculators.Params, speculators.Env) (speculators.Speculator, error) { return nil, nil }
