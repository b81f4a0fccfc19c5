package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/specbridge/specbridge/speculators"
	"github.com/xrash/smetrics"
)

func speculatorList(reg *speculators.Registry, flag string) ([]string, error) {
	if strings.TrimSpace(flag) == "" {
		return reg.Names(), nil
	}
	var out []string
	for _, name := range strings.Split(flag, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if _, ok := reg.Lookup(name); !ok {
			return nil, fmt.Errorf("--speculators: unknown policy %q%s (known: %s)", name, didYouMean(name, reg.Names()), strings.Join(reg.Names(), ", "))
		}
		out = append(out, name)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--speculators %q names no policy", flag)
	}
	return out, nil
}

// parseParams reads POLICY.NAME=VALUE overrides and checks each against the
// policy's declared parameters. A parameter of a policy that is not among
// chosen is an error: it would change nothing, which is never what was
// meant.
func parseParams(reg *speculators.Registry, chosen []string, flags []string) (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	given := map[string]string{} // POLICY.NAME (the parameter's own name) -> the flag that set it
	selected := map[string]bool{}
	for _, c := range chosen {
		selected[c] = true
	}
	for _, f := range flags {
		key, value, ok := strings.Cut(f, "=")
		policy, name, ok2 := strings.Cut(key, ".")
		if !ok || !ok2 || policy == "" || name == "" {
			return nil, fmt.Errorf("--param %q: want POLICY.NAME=VALUE, e.g. late.speculative-cap=0.2", f)
		}
		p, known := reg.Lookup(policy)
		if !known {
			return nil, fmt.Errorf("--param %s: unknown policy %q%s (known: %s)", f, policy, didYouMean(policy, reg.Names()), strings.Join(reg.Names(), ", "))
		}
		if !selected[policy] {
			return nil, fmt.Errorf("--param %s: policy %s is not selected (--speculators %s), so the parameter would change nothing; add %s to --speculators or drop the --param",
				f, policy, strings.Join(chosen, ","), policy)
		}
		var names []string
		found := false
		for _, s := range p.Params {
			names = append(names, s.Name)
			if s.Name == name || (s.HadoopKey != "" && s.HadoopKey == name) {
				found = true
				// A parameter set twice (by its name or its Hadoop key) is a
				// mistake either way: which value was meant?
				if first, twice := given[policy+"."+s.Name]; twice {
					return nil, fmt.Errorf("--param %s: %s.%s is already set by --param %s; give each parameter once", f, policy, s.Name, first)
				}
				given[policy+"."+s.Name] = f
			}
			if s.HadoopKey != "" {
				names = append(names, s.HadoopKey)
			}
		}
		if !found {
			return nil, fmt.Errorf("--param %s: policy %s has no parameter %q%s (specbridge speculators lists them)", f, policy, name, didYouMean(name, names))
		}
		if out[policy] == nil {
			out[policy] = map[string]string{}
		}
		out[policy][name] = value
	}
	// Each policy is built once with its overrides, so that a value out of
	// its range (late.speculative-cap=2) is refused here, before any input
	// is read, by the same check the policy makes in every simulation.
	policies := make([]string, 0, len(out))
	for policy := range out {
		policies = append(policies, policy)
	}
	sort.Strings(policies)
	for _, policy := range policies {
		kv := out[policy]
		if _, err := reg.Params(policy, kv); err != nil {
			return nil, fmt.Errorf("--param: %w", err)
		}
		if _, _, err := reg.New(policy, kv, 1); err != nil {
			return nil, fmt.Errorf("--param %s: %w", strings.Join(paramFlags(policy, kv), " --param "), err)
		}
	}
	return out, nil
}

// didYouMean returns ` (did you mean "x"?)` for the known word closest to
// got, or "" when none is close. Closeness is Jaro-Winkler similarity, the
// measure urfave/cli uses for its own flag and command suggestions.
func didYouMean(got string, known []string) string {
	best, score := "", 0.0
	for _, k := range known {
		if s := smetrics.JaroWinkler(strings.ToLower(got), strings.ToLower(k), 0.7, 4); s > score {
			best, score = k, s
		}
	}
	if score < 0.75 {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// paramFlags lists a policy's overrides as the POLICY.NAME=VALUE words that
// set them, sorted.
func paramFlags(policy string, kv map[string]string) []string {
	out := make([]string, 0, len(kv))
	for k, v := range kv {
		out = append(out, policy+"."+k+"="+v)
	}
	sort.Strings(out)
	return out
}
