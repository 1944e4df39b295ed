package scenarios

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/kaeload/kaeload/scenarios/plans"
)

// BuiltinScenarioDir is the built-in variable holding the absolute
// directory of the scenario file: {scenario_dir}.
const BuiltinScenarioDir = "scenario_dir"

// varNameRE is what a variable or sweep key name looks like.
var varNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// tmplPart is a piece of a parsed template: literal text or a {name}.
type tmplPart struct {
	text string
	ref  bool // text is a variable name
}

// parseTemplate splits s into literal text and {name} references. "{{" and
// "}}" stand for literal braces; any other brace is an error.
func parseTemplate(s string) ([]tmplPart, error) {
	var parts []tmplPart
	var lit strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case (c == '{' || c == '}') && i+1 < len(s) && s[i+1] == c: // {{ or }}: a literal brace
			lit.WriteByte(c)
			i++
		case c == '}':
			return nil, fmt.Errorf("lone } in %q (write }} for a literal brace)", clipAt(s, 40))
		case c == '{':
			end := strings.IndexByte(s[i+1:], '}')
			if end < 0 || !varNameRE.MatchString(s[i+1:i+1+end]) {
				return nil, fmt.Errorf("%q is not a {name} reference (write {{ and }} for literal braces)", clipAt(s[i:], end+2))
			}
			if lit.Len() > 0 {
				parts = append(parts, tmplPart{text: lit.String()})
				lit.Reset()
			}
			parts = append(parts, tmplPart{text: s[i+1 : i+1+end], ref: true})
			i += end + 1
		default:
			lit.WriteByte(c)
		}
	}
	if lit.Len() > 0 {
		parts = append(parts, tmplPart{text: lit.String()})
	}
	return parts, nil
}

// clipAt shortens s to about n bytes (at least 12) for a message.
func clipAt(s string, n int) string {
	if n = max(n, 12); len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// templateRefs lists the names a template refers to ("" on a parse error).
func templateRefs(s string) []string {
	parts, _ := parseTemplate(s) // nil on an error
	var refs []string
	for _, p := range parts {
		if p.ref {
			refs = append(refs, p.text)
		}
	}
	return refs
}

// scope is what {name} resolves to: layers of literal values by name, the
// innermost first, and the names whose definition was itself broken
// (already reported, not to be reported again where they are used).
type scope struct {
	vals   map[string]string
	broken map[string]bool
	parent *scope
	// partial marks a layer whose definitions Parse or Set left out in
	// part (vars: or a sweep in error): a name it does not know may be one
	// of those, and is treated as broken.
	partial bool
}

// with returns a scope whose values over and broken names hide s's. The
// maps are referenced, not copied: later changes to them are seen.
func (s scope) with(over map[string]string, broken map[string]bool) scope {
	return scope{vals: over, broken: broken, parent: &s}
}

// lookup finds name in the innermost layer defining it; broken is true
// when that definition could not be resolved.
func (s *scope) lookup(name string) (val string, ok, broken bool) {
	partial := false
	for l := s; l != nil; l = l.parent {
		if l.broken[name] {
			return "", false, true
		}
		if v, ok := l.vals[name]; ok {
			return v, true, false
		}
		partial = partial || l.partial
	}
	return "", false, partial
}

// incomplete returns s marked partial when any value under one of the
// field paths was left out by Parse or Set.
func (c *compiler) incomplete(s scope, paths ...string) scope {
	for d := range c.s.dropped {
		s.partial = s.partial || slices.ContainsFunc(paths, func(p string) bool { return within(d, p) })
	}
	return s
}

// known lists the names a scope defines, sorted.
func (s scope) known() string {
	seen := map[string]bool{}
	for l := &s; l != nil; l = l.parent {
		maps.Copy(seen, l.broken)
		for k := range l.vals {
			seen[k] = true
		}
	}
	return strings.Join(sortedKeys(seen), ", ")
}

// expand replaces every {name} in s. ok is false when a problem was
// reported (at path) or a referenced variable was itself broken.
func (c *compiler) expand(path, s string, sc scope) (string, bool) {
	return c.expandAs(path, s, sc, false)
}

// expandAs is expand; for a secret s, messages quote none of it.
func (c *compiler) expandAs(path, s string, sc scope, secret bool) (string, bool) {
	if !strings.ContainsAny(s, "{}") {
		return s, true
	}
	parts, err := parseTemplate(s)
	if err != nil {
		if secret {
			err = fmt.Errorf("the secret value has a brace that is not a {name} reference (write {{ and }} for literal braces)")
		}
		c.errorf(path, "%v", err)
		return s, false
	}
	var b strings.Builder
	for _, p := range parts {
		v, ok, broken := p.text, true, false
		if p.ref {
			v, ok, broken = sc.lookup(p.text)
		}
		switch {
		case broken:
			return s, false
		case !ok:
			name := "{" + p.text + "}"
			if secret {
				name = "in the secret value"
			}
			c.errorf(path, "unknown variable %s (known: %s; write {{ for a literal brace)", name, sc.known())
			return s, false
		}
		b.WriteString(v)
	}
	return b.String(), true
}

// resolveVars resolves a layer of vars (templates that may refer to each
// other and to base) into literal values, reporting problems at
// prefix.name. Names that could not be resolved are returned as broken;
// those that cannot be defined (checkVarNames), left out or swept are skipped.
func (c *compiler) resolveVars(prefix string, vars map[string]string, left map[string]bool,
	swept map[string]string, base scope) (map[string]string, map[string]bool) {
	defs := maps.Clone(vars)
	maps.DeleteFunc(defs, func(k, _ string) bool {
		_, s := swept[k]
		return s || left[k] || !varNameRE.MatchString(k) || k == BuiltinScenarioDir
	})
	out := make(map[string]string, len(defs))
	broken := make(map[string]bool)
	state := make(map[string]int) // 1 resolving, 2 done
	sc := base.with(out, broken)
	var resolve func(name string, chain []string) bool
	resolve = func(name string, chain []string) bool {
		switch state[name] {
		case 1:
			cycle := append(slices.Clone(chain[slices.Index(chain, name):]), name)
			c.errorf(prefix+"."+chain[len(chain)-1], "vars refer to each other in a cycle: %s", strings.Join(cycle, " → "))
			return false
		case 2:
			return !broken[name]
		}
		state[name] = 1
		chain = append(chain, name)
		path := prefix + "." + name
		refs := templateRefs(defs[name])
		ok := true
		for _, r := range refs {
			if _, own := defs[r]; own {
				ok = resolve(r, chain) && ok
			}
		}
		if ok {
			var v string
			v, ok = c.expand(path, defs[name], sc)
			out[name] = v
		}
		if !ok {
			delete(out, name)
			broken[name] = true
		}
		state[name] = 2
		return ok
	}
	for _, name := range sortedKeys(defs) {
		resolve(name, nil)
	}
	return out, broken
}

// checkVarNames reports var (or sweep key) names that cannot be written
// as {name} or that take the built-in's name.
func (c *compiler) checkVarNames(prefix, what string, names []string) {
	for _, k := range names {
		switch {
		case !varNameRE.MatchString(k):
			c.errorf(prefix+"."+k, "%s name %q cannot be written as {name} (want letters, digits and _, not starting with a digit)", what, k)
		case k == BuiltinScenarioDir:
			c.errorf(prefix+"."+k, "%s is built in (the scenario file's directory); choose another name", k)
		}
	}
}

// topVars resolves the top-level vars over the built-ins and stores the
// scope every field of the scenario may use.
func (c *compiler) topVars() {
	c.top = scope{vals: map[string]string{BuiltinScenarioDir: c.s.abs}}
	if c.s.abs == "" {
		c.top.vals[BuiltinScenarioDir] = absDir(c.s.file)
	}
	c.top = c.incomplete(c.top, "vars")
	if len(c.s.Vars) == 0 {
		return
	}
	if len(c.s.Vars) > plans.MaxVars {
		c.errorf("vars", "%d vars, more than the %d allowed", len(c.s.Vars), plans.MaxVars)
		return
	}
	c.checkVarNames("vars", "var", sortedKeys(c.s.Vars))
	left := c.leftOutVars("vars")
	base := c.top.with(nil, left)
	vals, broken := c.resolveVars("vars", c.s.Vars, left, nil, base)
	c.userTop = vals
	c.top = base.with(vals, broken)
}

// leftOutVars returns the vars under prefix whose value Parse or Set left
// out: broken, so that where they are used nothing more is reported.
func (c *compiler) leftOutVars(prefix string) map[string]bool {
	left := make(map[string]bool)
	for d := range c.s.dropped {
		if k, ok := strings.CutPrefix(d, prefix+"."); ok {
			left[k] = true
		}
	}
	return left
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
