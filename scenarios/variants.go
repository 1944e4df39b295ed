package scenarios

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"net"
	"net/url"
	"reflect"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kaeload/kaeload/internal/numfmt"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// Defaults and limits of server control, sweeps and speed commands.
const (
	DefaultReadyTimeout   = 30 * time.Second
	DefaultReadyInterval  = 100 * time.Millisecond
	DefaultCommandTimeout = 60 * time.Second // stop, reload and probes
	MaxSweepValues        = 1000             // of one swept parameter
	MaxProbes             = 100
	DefaultSpeedTimeout   = 10 * time.Minute
	MaxSpeed              = 100
)

// server resolves the server section's shared parts (host, ready, command
// timeout); commands, env and probes are resolved per variant.
func (c *compiler) server(t plans.Target) *plans.Server {
	ss := c.s.Server
	if ss == nil {
		return nil
	}
	srv := &plans.Server{Host: "local", CommandTimeout: DefaultCommandTimeout,
		Ready: plans.Ready{Kind: "tcp", Addr: t.Addr, Interval: DefaultReadyInterval, Timeout: DefaultReadyTimeout}}
	if ss.Host != nil {
		if h := c.host("server.host", *ss.Host); h != nil {
			srv.Host, srv.SSH = h.Name, h
		}
	}
	if t.Builtin != nil {
		c.errorf("server", "a server section needs target.url: the built-in target is started by kaeload itself")
	}
	opt(c, "server.command_timeout", ss.CommandTimeout, &srv.CommandTimeout, plans.CommandBound.Problem)
	rs, r := or(ss.Ready, ReadySpec{}), &srv.Ready
	var kinds []string
	var raw string
	for _, k := range []struct {
		name string
		v    *string
	}{{"tcp", rs.TCP}, {"tls", rs.TLS}, {"https", rs.HTTPS}} {
		if k.v != nil {
			kinds, raw = append(kinds, k.name), *k.v
		}
	}
	switch {
	case len(kinds) > 1:
		c.errorf("server.ready", "give one of tcp, tls and https, not %s", strings.Join(kinds, " and "))
	case len(kinds) == 1:
		r.Kind = kinds[0]
		path := "server.ready." + r.Kind
		addr, ok := c.expand(path, raw, c.top)
		if !ok {
			addr = ""
		}
		u, err := url.Parse(addr)
		host, port, herr := net.SplitHostPort(addr)
		n, perr := strconv.Atoi(port)
		switch {
		case !ok:
		case r.Kind == "https" && (err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == ""):
			c.errorf(path, "want an https:// URL such as https://127.0.0.1:443/, got %q", addr)
		case r.Kind != "https" && (herr != nil || host == "" || perr != nil || n < 1 || n > 65535):
			c.errorf(path, "want host:port such as 127.0.0.1:443, got %q", addr)
		}
		r.Addr, r.URL = addr, ""
		if r.Kind == "https" {
			r.Addr, r.URL = "", addr
		}
	}
	opt(c, "server.ready.timeout", rs.Timeout, &r.Timeout, plans.CommandBound.Problem)
	opt(c, "server.ready.interval", rs.Interval, &r.Interval, plans.CommandBound.Problem)
	c.probes(ss.Probes)
	return srv
}

// probes checks server.probes; each variant resolves them with its vars.
func (c *compiler) probes(probes []ProbeSpec) {
	if len(probes) > MaxProbes {
		c.errorf("server.probes", "%d probes, more than the %d allowed", len(probes), MaxProbes)
		return
	}
	for i, ps := range probes {
		path := fmt.Sprintf("server.probes[%d]", i)
		switch {
		case ps.Name == nil:
			c.missing(path, "name", " (it labels the reading in results)")
		case *ps.Name == "" || plans.HasControl(*ps.Name):
			c.errorf(path+".name", "%q is not a usable name (want non-empty text without control characters)", *ps.Name)
		default:
			same := func(o ProbeSpec) bool { return o.Name != nil && *o.Name == *ps.Name }
			if j := slices.IndexFunc(probes[:i], same); j >= 0 {
				c.errorf(path+".name", "%q already names server.probes[%d]", *ps.Name, j)
			}
		}
		if (ps.Command == nil && !c.leftOut(path+".command")) || ps.Command != nil && strings.TrimSpace(*ps.Command) == "" {
			c.errorf(path, "command is missing (want a shell command that prints a number)")
		}
		var se *syntax.Error
		switch re, err := regexp.Compile(or(ps.Pattern, "")); {
		case ps.Pattern == nil:
		case errors.As(err, &se):
			c.errorf(path+".pattern", "not a Go regular expression: %s: `%s`", se.Code, se.Expr)
		case err != nil:
			c.errorf(path+".pattern", "not a Go regular expression: %v", err)
		case re.NumSubexp() > 1: // one, around the number
			c.errorf(path+".pattern", "%d groups; want at most one, around the number (use (?:…) for grouping)", re.NumSubexp())
		}
	}
}

// combo is one point of a sweep: its values by key, keys in order.
type combo struct {
	keys []string
	vals map[string]string
}

// String writes the combination as "a=1, b=x".
func (cb combo) String() string {
	return joinMap(cb.keys, ", ", func(k string) string { return k + "=" + cb.vals[k] })
}

// sweepValues checks one parameter and lists its values.
func (c *compiler) sweepValues(path string, p SweepParam) ([]string, bool) {
	fail := func(at, format string, args ...any) ([]string, bool) {
		c.errorf(at, format, args...)
		return nil, false
	}
	num := func(f float64) string { return numfmt.Num(f, -1) }
	if p.Range == nil {
		switch {
		case len(p.Values) == 0:
			return fail(path, "empty list (want values such as [0, 10, 33])")
		case len(p.Values) > MaxSweepValues:
			return fail(path, "%d values, more than the %d allowed", len(p.Values), MaxSweepValues)
		}
		ok := true
		for i, v := range p.Values {
			if j := slices.Index(p.Values[:i], v); j >= 0 {
				c.errorf(fmt.Sprintf("%s[%d]", path, i), "%q is listed twice (also [%d])", v, j)
				ok = false
			}
		}
		return p.Values, ok
	}
	r := p.Range
	ok := true
	for _, f := range []struct {
		key string
		v   *float64
	}{{"from", r.From}, {"to", r.To}, {"step", r.Step}} {
		switch {
		case f.v == nil:
			c.missing(path, f.key, " (want {from: 0, to: 100, step: 10})")
			ok = false
		case math.IsNaN(*f.v) || math.IsInf(*f.v, 0):
			c.errorf(path+"."+f.key, "want a finite number, got %v", *f.v)
			ok = false
		}
	}
	if !ok {
		return nil, false
	}
	from, to, step := *r.From, *r.To, *r.Step
	count := math.Floor((to-from)/step+1e-9) + 1
	switch {
	case step <= 0:
		return fail(path+".step", "must be positive, got %s", num(step))
	case from > to:
		return fail(path+".from", "%s is above to %s", num(from), num(to))
	case count > MaxSweepValues:
		return fail(path, "from %s to %s in steps of %s is %.0f values, more than the %d allowed", num(from), num(to), num(step), count, MaxSweepValues)
	}
	digits := max(decimals(from), decimals(step))
	vals := make([]string, 0, int(count))
	for i := range int(count) {
		v := num(numfmt.Round(from+float64(i)*step, digits))
		if len(vals) > 0 && vals[len(vals)-1] == v {
			return fail(path+".step", "%s is too small to tell the values apart", num(step))
		}
		vals = append(vals, v)
	}
	return vals, true
}

// decimals is the number of digits after the point in f's shortest form.
func decimals(f float64) int {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return min(len(s)-i-1, 15)
	}
	return 0
}

// combos expands a variant's sweep into its combinations, first key
// slowest; nil when the variant is not swept.
func (c *compiler) combos(path string, sw Sweep) ([]combo, bool) {
	switch {
	case sw == nil:
		return nil, true
	case len(sw) == 0:
		c.errorf(path, "empty sweep (want e.g. {ratio: [0, 10, 33]}, or leave sweep out)")
		return nil, false
	}
	ok, total := true, 1
	keys := make([]string, len(sw)) // filled in as the combinations grow
	out := []combo{{keys: keys, vals: map[string]string{}}}
	for i, p := range sw {
		keys[i] = p.Key
		vals, good := c.sweepValues(path+"."+p.Key, p)
		ok = ok && good
		if total *= max(len(vals), 1); total > plans.MaxVariants {
			c.errorf(path, "expands to more than %d variants", plans.MaxVariants)
			return nil, false
		}
		var next []combo
		for _, cb := range out {
			for _, v := range vals {
				m := maps.Clone(cb.vals)
				m[p.Key] = v
				next = append(next, combo{keys: keys, vals: m})
			}
		}
		out = next
	}
	c.checkVarNames(path, "sweep key", keys)
	if !ok {
		return nil, false
	}
	return out, true
}

// checkEnvKeys reports names that cannot be environment variables and
// mapping-form entries without a value.
func (c *compiler) checkEnvKeys(prefix string, env map[string]EnvValue) bool {
	if len(env) > plans.MaxVars {
		c.errorf(prefix, "%d entries, more than the %d allowed", len(env), plans.MaxVars)
		return false
	}
	ok := true
	for _, k := range sortedKeys(env) {
		e := env[k]
		switch {
		case e.Value == nil:
			c.missing(prefix+"."+k, "value", " (want {value: …, secret: true})")
			ok = false
		case k == "" || strings.ContainsAny(k, "=\x00") || strings.ContainsRune(*e.Value, 0):
			c.errorf(prefix+"."+k, "%q is not a valid environment variable (no '=' or NUL)", k)
			ok = false
		}
		if e.secret() && e.Value != nil {
			c.rawSecrets[*e.Value] = true
		}
	}
	return ok
}

// named is a variant name already taken, for duplicate messages.
type named struct {
	index int
	combo string
}

// variants resolves variants and baseline: sweeps expanded, {vars}
// replaced, server commands, env and probes filled in per variant.
func (c *compiler) variants() ([]plans.Variant, string) {
	serverEnvOK := c.variantsServer()
	specs := c.s.Variants
	if len(specs) == 0 {
		specs = []VariantSpec{{Name: new("default")}}
	}
	out, full := c.expandEntries(specs, serverEnvOK)
	if full {
		return out, "" // more than MaxVariants: Compile fails
	}
	if len(out) == 0 {
		out = []plans.Variant{{Name: "default"}}
	}
	return out, c.baseline(out)
}

// variantsServer checks what the variant entries need of the server
// section, and reports whether server.env can be used.
func (c *compiler) variantsServer() bool {
	s := c.s
	if s.Variants != nil && len(s.Variants) == 0 {
		c.errorf("variants", "empty list (leave variants out to measure one configuration)")
	}
	ss := s.Server
	if ss == nil {
		// Speed commands or an accelerated built-in target take env, vars and
		// sweep (an accelerator a search); a variant's other keys need a server.
		accel := s.Target != nil && s.Target.Builtin != nil && s.Target.Builtin.Accel != nil
		speed := s.Speed != nil || accel
		exempt := map[string]bool{"name": true, "env": speed, "vars": speed, "sweep": speed, "search": accel}
		for i, vs := range s.Variants {
			v := reflect.ValueOf(vs)
			for _, f := range fieldsOf(v.Type()) {
				if !exempt[f.key] && !v.Field(f.index).IsNil() && !c.leftOut("server") {
					c.errorf(fmt.Sprintf("variants[%d].%s", i, f.key), "variants set %s but there is no server section to start the server with (add server: {start: …, stop: …})", f.key)
					return true
				}
			}
		}
		return true
	}
	ok := c.checkEnvKeys("server.env", ss.Env)
	if ss.Start != nil || c.leftOut("server.start") {
		return ok // checked, expanded, per variant
	}
	// Every variant needs a start command: server.start, or each its own.
	missing, given := -1, false
	for i, vs := range s.Variants {
		switch {
		case vs.Start != nil || c.leftOut(fmt.Sprintf("variants[%d].start", i)):
			given = true
		case missing < 0:
			missing = i
		}
	}
	switch {
	case missing < 0 && given:
	case given:
		c.errorf(fmt.Sprintf("variants[%d]", missing), "start is missing: give server.start, or a start command for every variant")
	default:
		c.errorf("server", "start is missing (want the shell command that starts the server, e.g. nginx -c /etc/nginx/nginx.conf)")
	}
	return ok
}

// expandEntries expands the entries into variants with unique names, at
// most MaxVariants (full); an entry with a problem goes to c.unresolved.
func (c *compiler) expandEntries(specs []VariantSpec, serverEnvOK bool) (out []plans.Variant, full bool) {
	first := make(map[string]named) // where each name was first given
	for i, vs := range specs {
		path := fmt.Sprintf("variants[%d]", i)
		if len(c.s.Variants) == 0 {
			path = "variants"
		}
		combos, envOK, whole := c.entry(path, vs, serverEnvOK)
		if whole && vs.Search != nil {
			c.search.First = len(out)
		}
		for _, cb := range combos {
			if len(out) >= plans.MaxVariants {
				c.errorf("variants", "more than %d variants (sweeps expanded)", plans.MaxVariants)
				if !whole {
					c.unresolved = append(c.unresolved, vs)
				}
				c.unresolved = append(c.unresolved, specs[i+1:]...)
				return out, true
			}
			v, ok := c.variant(path, vs, cb, envOK)
			if prev, dup := first[v.Name]; ok && dup {
				c.duplicateName(path, v.Name, cb, prev)
				ok = false
			}
			if !ok {
				whole = false
				continue
			}
			first[v.Name] = named{i, cb.String()}
			out = append(out, v)
			if vs.Search != nil {
				c.search.Points++
			}
		}
		if !whole {
			c.unresolved = append(c.unresolved, vs)
		}
	}
	return out, false
}

// entry checks the entry vs and returns its sweep's (or search's)
// combinations, one per variant ({} for neither); ok is false when it gives none.
func (c *compiler) entry(path string, vs VariantSpec, serverEnvOK bool) (combos []combo, envOK, ok bool) {
	switch {
	case vs.Name == nil:
		c.missing(path, "name", "")
		return nil, false, false
	case *vs.Name == "":
		c.errorf(path+".name", "must not be empty")
		return nil, false, false
	}
	envOK = c.checkEnvKeys(path+".env", vs.Env) && serverEnvOK
	sweep, sweepPath := vs.Sweep, path+".sweep"
	if vs.Search != nil {
		var good bool
		if sweep, good = c.searchSweep(path, vs); !good {
			return nil, envOK, false
		}
		sweepPath = path + ".search"
	}
	combos, ok = c.combos(sweepPath, sweep)
	if !ok {
		return nil, envOK, false
	}
	if sweep != nil {
		refs := templateRefs(*vs.Name)
		for _, k := range combos[0].keys {
			if !slices.Contains(refs, k) {
				c.errorf(path+".name", "%q does not use sweep key {%s}, so the swept variants would share a name (write e.g. %s-{%s})", *vs.Name, k, strings.TrimRight(*vs.Name, "-"), k)
				ok = false
			}
		}
	}
	// vars: how many, their names, and that none is also a sweep key.
	if len(vs.Vars) > plans.MaxVars {
		c.errorf(path+".vars", "%d vars, more than the %d allowed", len(vs.Vars), plans.MaxVars)
		return nil, envOK, false
	}
	varNames := sortedKeys(vs.Vars)
	c.checkVarNames(path+".vars", "var", varNames)
	for _, k := range varNames {
		if len(combos) > 0 && slices.Contains(combos[0].keys, k) {
			c.errorf(path+".vars."+k, "%s is also a sweep key of this variant; the sweep's values would always win", k)
		}
	}
	if !ok {
		return nil, envOK, false
	}
	if combos == nil {
		combos = []combo{{}}
	}
	return combos, envOK, true
}

// duplicateName reports that name, of the variant of combination cb of
// the entry at path, was given already by the entry prev.
func (c *compiler) duplicateName(path, name string, cb combo, prev named) {
	desc, prevDesc := "", ""
	if cb.keys != nil {
		desc = " (" + cb.String() + ")"
	}
	if prev.combo != "" {
		prevDesc = " with " + prev.combo
	}
	at := "" // where prev's name came from
	switch ps, ok := c.s.posOf(fmt.Sprintf("variants[%d].name", prev.index)); {
	case !ok:
	case ps.Set != "":
		at = " (--set " + ps.Set + ")"
	case ps.Flag != "":
		at = " (" + ps.Flag + ")"
	default:
		at = fmt.Sprintf(" (line %d)", ps.Line)
	}
	c.errorf(path+".name", "%q%s already names variants[%d]%s%s", name, desc, prev.index, prevDesc, at)
}

// baseline resolves the baseline: the scenario's, or else the first
// variant not searched ("" when all are: the search's first measured value).
func (c *compiler) baseline(out []plans.Variant) string {
	if c.s.Baseline != nil {
		baseline := *c.s.Baseline
		if !slices.ContainsFunc(out, func(v plans.Variant) bool { return v.Name == baseline }) && !c.mayName(baseline) {
			names := joinMap(out, ", ", func(v plans.Variant) string { return v.Name })
			c.errorf("baseline", "%q names no variant (variants: %s)", baseline, names)
		}
		return baseline
	}
	if c.search != nil && c.search.First == 0 {
		if n := c.search.Points; n < len(out) {
			return out[n].Name
		}
		return ""
	}
	return out[0].Name
}

// mayName reports whether an entry with a problem might have named name.
func (c *compiler) mayName(name string) bool {
	if c.leftOut("variants") {
		return true
	}
	for _, vs := range c.unresolved {
		if vs.Name == nil || strings.ContainsAny(*vs.Name, "{}") || *vs.Name == name {
			return true
		}
	}
	return false
}

// variant resolves the variant of entry vs with the sweep values of cb;
// envOK says whether its env (and server.env) can be expanded.
func (c *compiler) variant(path string, vs VariantSpec, cb combo, envOK bool) (plans.Variant, bool) {
	sc, local := c.variantScope(path, vs, cb)
	name, ok := c.variantName(path, *vs.Name, sc)
	expand := func(p, s string) string {
		out, good := c.expand(p, s, sc)
		ok = ok && good
		return out
	}
	v := plans.Variant{Name: name}
	if cb.keys != nil {
		v.Series, v.Sweep = *vs.Name, cb.vals
	}
	vars := map[string]string{}
	for _, m := range []map[string]string{c.userTop, local, cb.vals} {
		maps.Copy(vars, m)
	}
	if len(vars) > 0 {
		v.Vars = vars
	}
	for i, sp := range c.s.Speed {
		if i < MaxSpeed && sp.Command != nil && strings.TrimSpace(*sp.Command) != "" {
			command := expand(fmt.Sprintf("speed[%d].command", i), *sp.Command)
			v.Speed = append(v.Speed, plans.Speed{Command: command, Timeout: or(sp.Timeout, DefaultSpeedTimeout)})
		}
	}
	if envOK {
		var good bool
		v.Env, v.SecretEnv, good = c.variantEnv(path, vs, sc)
		ok = ok && good
	}
	ss := c.s.Server
	if ss == nil {
		return v, ok
	}
	// start, stop and reload: the entry's own, or else the server section's.
	for _, k := range []struct {
		key         string
		server, own *string
		out         *string
	}{
		{"start", ss.Start, vs.Start, &v.Start},
		{"stop", ss.Stop, vs.Stop, &v.Stop},
		{"reload", ss.Reload, vs.Reload, &v.Reload},
	} {
		p, src := "server."+k.key, k.server
		if k.own != nil {
			p, src = path+"."+k.key, k.own
		}
		if src == nil {
			continue
		}
		*k.out = expand(p, *src)
		switch {
		case k.key != "start":
		case strings.TrimSpace(*src) == "":
			c.errorf(p, "must not be empty (want the shell command that starts the server)")
			ok = false
		case ok && strings.TrimSpace(*k.out) == "":
			c.errorf(p, "%q expands to an empty command", *src)
			ok = false
		}
	}
	for i, ps := range ss.Probes {
		if ps.Name != nil && ps.Command != nil {
			command := expand(fmt.Sprintf("server.probes[%d].command", i), *ps.Command)
			v.Probes = append(v.Probes, plans.Probe{Name: *ps.Name, Command: command, Pattern: or(ps.Pattern, "")})
		}
	}
	return v, ok
}

// variantScope is the scope a variant's {vars} resolve in: top-level vars,
// the entry's vars (local), then the sweep values.
func (c *compiler) variantScope(path string, vs VariantSpec, cb combo) (sc scope, local map[string]string) {
	left := c.leftOutVars(path + ".vars")
	defined := []string{path + ".vars", path + ".sweep", path + ".search"}
	if len(c.s.Variants) == 0 {
		defined = append(defined, "variants") // the default variant: variants left out?
	}
	base := c.incomplete(c.top.with(nil, left), defined...)
	sc = base.with(cb.vals, nil)
	if len(vs.Vars) == 0 {
		return sc, nil
	}
	local, broken := c.resolveVars(path+".vars", vs.Vars, left, cb.vals, sc)
	return base.with(local, broken).with(cb.vals, nil), local
}

// variantName expands the entry's name template and checks the result
// can name a results directory.
func (c *compiler) variantName(path, template string, sc scope) (string, bool) {
	name, ok := c.expand(path+".name", template, sc)
	if ok && !plans.UsableName(name) {
		what := "%q may not contain slashes or control characters"
		if name == "" {
			what = "%q: the name must not be empty"
		}
		c.errorf(path+".name", what, name)
		ok = false
	}
	return name, ok
}

// variantEnv expands the entry's env over server.env, and lists the secret
// keys; a key secret in server.env stays secret when a variant overrides it.
func (c *compiler) variantEnv(path string, vs VariantSpec, sc scope) (env map[string]string, secretKeys []string, ok bool) {
	var serverEnv map[string]EnvValue
	if ss := c.s.Server; ss != nil {
		serverEnv = ss.Env
	}
	ok = true
	secret := map[string]bool{}
	for _, layer := range []struct {
		prefix string
		env    map[string]EnvValue
	}{{"server.env", serverEnv}, {path + ".env", vs.Env}} {
		for _, k := range sortedKeys(layer.env) {
			e := layer.env[k]
			secret[k] = secret[k] || e.secret()
			p := layer.prefix + "." + k
			if _, ok := c.s.pos[p+".value"]; ok {
				p += ".value"
			}
			val, good := c.expandAs(p, *e.Value, sc, secret[k])
			if good && strings.ContainsRune(val, 0) {
				c.errorf(p, "the value contains NUL (from a {var}), which an environment cannot hold")
				good = false
			}
			ok = ok && good
			if env == nil {
				env = make(map[string]string)
			}
			env[k] = val
			if secret[k] && val != "" {
				c.secrets[val] = true
			}
		}
	}
	maps.DeleteFunc(secret, func(_ string, s bool) bool { return !s })
	return env, sortedKeys(secret), ok
}

// metrics resolves the metrics section; nil when it is left out.
func (c *compiler) metrics() *plans.Metrics {
	ms := c.s.Metrics
	if ms == nil {
		return nil
	}
	m := &plans.Metrics{}
	opt(c, "metrics.listen", ms.Listen, &m.Listen, plans.ListenProblem)
	if ms.Listen == nil {
		c.errorf("metrics", "listen is missing (want listen: 127.0.0.1:9464, or 127.0.0.1:0 for a free port)")
	}
	opt(c, "metrics.wait", ms.Wait, &m.Wait, plans.MetricsWaitBound.Problem)
	opt(c, "metrics.linger", ms.Linger, &m.Linger, plans.MetricsWaitBound.Problem)
	return m
}

// quiet resolves the quiet section; nil when there is none.
func (c *compiler) quiet() *plans.Quiet {
	qs := c.s.Quiet
	if qs == nil {
		return nil
	}
	q := plans.DefaultQuiet
	opt(c, "quiet.max_other", (*float64)(qs.MaxOther), &q.MaxOther, plans.MaxOtherProblem)
	opt(c, "quiet.for", qs.For, &q.For, plans.QuietBound.Problem)
	opt(c, "quiet.timeout", qs.Timeout, &q.Timeout, plans.QuietBound.Problem)
	return &q
}

// scrub replaces the secret values (as written and expanded) in every
// problem and warning, --set texts included: a message never shows a
// secret, even one quoting a value that holds it through a {var}.
func (c *compiler) scrub() {
	set := maps.Clone(c.secrets)
	maps.Copy(set, c.rawSecrets)
	redact := (&plans.Plan{Secrets: plans.SortSecrets(set)}).Redact
	for _, es := range [][]*Error{c.errs, c.warns} {
		for _, e := range es {
			e.Msg, e.Set = redact(e.Msg), redact(e.Set)
		}
	}
}
