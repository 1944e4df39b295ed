package scenarios

import (
	"fmt"
	"math"
	"net"
	"net/url"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Defaults and limits of server control and sweeps, applied by Compile.
const (
	// DefaultReadyTimeout bounds the wait for a started server.
	DefaultReadyTimeout = 30 * time.Second
	// DefaultReadyInterval is the pause between readiness attempts.
	DefaultReadyInterval = 100 * time.Millisecond
	// DefaultCommandTimeout bounds stop, reload and probe commands.
	DefaultCommandTimeout = 60 * time.Second
	// MaxSweepValues bounds one swept parameter's values.
	MaxSweepValues = 1000
	// MaxVariants bounds the variants of a plan, sweeps expanded.
	MaxVariants = 1000
	// MaxVars bounds each vars mapping (top-level, per variant) and each
	// env mapping (server, per variant).
	MaxVars = 100
	// MaxProbes bounds server.probes.
	MaxProbes = 100
	// DefaultSpeedTimeout bounds a speed command without its own timeout.
	DefaultSpeedTimeout = 10 * time.Minute
	// MaxSpeed bounds the speed section's commands.
	MaxSpeed = 100
)

// schedule resolves order and cooldown.
func (c *compiler) schedule() (Order, time.Duration) {
	s := c.s
	order := Randomized
	if s.Order != nil {
		switch o := Order(*s.Order); o {
		case Randomized, Sequential, Interleaved:
			order = o
		default:
			c.errorf("order", "want randomized (randomized blocks, the default), interleaved or sequential, got %q", *s.Order)
		}
	}
	var cool time.Duration
	if s.Cooldown != nil {
		cool = *s.Cooldown
		c.problem("cooldown", cooldownBound.problem(cool))
	}
	return order, cool
}

// server resolves the server section's shared parts (host, ready, command
// timeout); commands, env and probes are resolved per variant.
func (c *compiler) server(t Target) *Server {
	ss := c.s.Server
	if ss == nil {
		return nil
	}
	srv := &Server{Host: "local", CommandTimeout: DefaultCommandTimeout,
		Ready: Ready{Kind: "tcp", Addr: t.Addr, Interval: DefaultReadyInterval, Timeout: DefaultReadyTimeout}}
	if ss.Host != nil {
		if h := c.host("server.host", *ss.Host); h != nil {
			srv.Host, srv.SSH = h.Name, h
		}
	}
	if t.Builtin != nil {
		c.errorf("server", "a server section needs target.url: the built-in target is started by kaeload itself")
	}
	if ss.CommandTimeout != nil {
		srv.CommandTimeout = *ss.CommandTimeout
		c.problem("server.command_timeout", commandBound.problem(srv.CommandTimeout))
	}
	if rs := ss.Ready; rs != nil {
		var kinds []string
		for _, k := range []struct {
			name string
			v    *string
		}{{"tcp", rs.TCP}, {"tls", rs.TLS}, {"https", rs.HTTPS}} {
			if k.v != nil {
				kinds = append(kinds, k.name)
			}
		}
		switch len(kinds) {
		case 0:
		case 1:
			srv.Ready.Kind = kinds[0]
			path := "server.ready." + kinds[0]
			switch kinds[0] {
			case "tcp":
				srv.Ready.Addr = c.readyAddr(path, *rs.TCP)
			case "tls":
				srv.Ready.Addr = c.readyAddr(path, *rs.TLS)
			case "https":
				srv.Ready.Addr = ""
				srv.Ready.URL = c.readyURL(path, *rs.HTTPS)
			}
		default:
			c.errorf("server.ready", "give one of tcp, tls and https, not %s", strings.Join(kinds, " and "))
		}
		if rs.Timeout != nil {
			srv.Ready.Timeout = *rs.Timeout
			c.problem("server.ready.timeout", commandBound.problem(srv.Ready.Timeout))
		}
		if rs.Interval != nil {
			srv.Ready.Interval = *rs.Interval
			c.problem("server.ready.interval", commandBound.problem(srv.Ready.Interval))
		}
	}
	if len(ss.Probes) > MaxProbes {
		c.errorf("server.probes", "%d probes, more than the %d allowed", len(ss.Probes), MaxProbes)
		ss = &ServerSpec{}
	}
	for i, ps := range ss.Probes {
		path := fmt.Sprintf("server.probes[%d]", i)
		switch {
		case ps.Name == nil && c.leftOut(path+".name"):
		case ps.Name == nil:
			c.errorf(path, "name is missing (it labels the reading in results)")
		case *ps.Name == "" || hasControl(*ps.Name):
			c.errorf(path+".name", "%q is not a usable name (want non-empty text without control characters)", *ps.Name)
		default:
			for j := range i {
				if o := ss.Probes[j].Name; o != nil && *o == *ps.Name {
					c.errorf(path+".name", "%q already names server.probes[%d]", *ps.Name, j)
					break
				}
			}
		}
		if (ps.Command == nil && !c.leftOut(path+".command")) || ps.Command != nil && strings.TrimSpace(*ps.Command) == "" {
			c.errorf(path, "command is missing (want a shell command that prints a number)")
		}
		if ps.Pattern != nil {
			re, err := regexp.Compile(*ps.Pattern)
			switch {
			case err != nil:
				msg := err.Error()
				var se *syntax.Error
				if e, ok := err.(*syntax.Error); ok {
					se = e
					msg = fmt.Sprintf("%s: `%s`", se.Code, se.Expr)
				}
				c.errorf(path+".pattern", "not a Go regular expression: %s", msg)
			case re.NumSubexp() > 1:
				c.errorf(path+".pattern", "%d groups; want at most one, around the number (use (?:…) for grouping)", re.NumSubexp())
			}
		}
	}
	return srv
}

// readyAddr expands and checks a host:port for the ready probe.
func (c *compiler) readyAddr(path, raw string) string {
	addr, ok := c.expand(path, raw, c.top)
	if !ok {
		return ""
	}
	host, port, err := net.SplitHostPort(addr)
	n, perr := strconv.Atoi(port)
	if err != nil || host == "" || perr != nil || n < 1 || n > 65535 {
		c.errorf(path, "want host:port such as 127.0.0.1:443, got %q", addr)
	}
	return addr
}

// readyURL expands and checks the URL of an https ready probe.
func (c *compiler) readyURL(path, raw string) string {
	s, ok := c.expand(path, raw, c.top)
	if !ok {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		c.errorf(path, "want an https:// URL such as https://127.0.0.1:443/, got %q", s)
	}
	return s
}

// combo is one point of a sweep: its values by key, keys in order.
type combo struct {
	keys []string
	vals map[string]string
}

// String writes the combination as "a=1, b=x".
func (cb combo) String() string {
	parts := make([]string, len(cb.keys))
	for i, k := range cb.keys {
		parts[i] = k + "=" + cb.vals[k]
	}
	return strings.Join(parts, ", ")
}

// sweepValues checks one parameter and lists its values.
func (c *compiler) sweepValues(path string, p SweepParam) ([]string, bool) {
	if p.Range == nil {
		if len(p.Values) == 0 {
			c.errorf(path, "empty list (want values such as [0, 10, 33])")
			return nil, false
		}
		if len(p.Values) > MaxSweepValues {
			c.errorf(path, "%d values, more than the %d allowed", len(p.Values), MaxSweepValues)
			return nil, false
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
			if !c.leftOut(path + "." + f.key) {
				c.errorf(path, "%s is missing (want {from: 0, to: 100, step: 10})", f.key)
			}
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
	switch {
	case step <= 0:
		c.errorf(path+".step", "must be positive, got %s", formatNum(step, -1))
		return nil, false
	case from > to:
		c.errorf(path+".from", "%s is above to %s", formatNum(from, -1), formatNum(to, -1))
		return nil, false
	}
	count := math.Floor((to-from)/step+1e-9) + 1
	if count > MaxSweepValues {
		c.errorf(path, "from %s to %s in steps of %s is %.0f values, more than the %d allowed", formatNum(from, -1), formatNum(to, -1), formatNum(step, -1), count, MaxSweepValues)
		return nil, false
	}
	digits := max(decimals(from), decimals(step))
	vals := make([]string, 0, int(count))
	for i := range int(count) {
		v := formatNum(roundTo(from+float64(i)*step, digits), -1)
		if len(vals) > 0 && vals[len(vals)-1] == v {
			c.errorf(path+".step", "%s is too small to tell the values apart", formatNum(step, -1))
			return nil, false
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

// roundTo rounds f to digits decimals, dropping float noise such as the
// 0.30000000000000004 of 3 × 0.1.
func roundTo(f float64, digits int) float64 {
	p := math.Pow10(digits)
	if r := math.Round(f*p) / p; !math.IsInf(r, 0) && !math.IsNaN(r) {
		return r
	}
	return f
}

// formatNum writes f with digits decimals (-1: shortest); integers have no ".0".
func formatNum(f float64, digits int) string {
	s := strconv.FormatFloat(f, 'f', digits, 64)
	if s == "-0" {
		s = "0"
	}
	return s
}

// combos expands a variant's sweep into its combinations, first key
// slowest; nil when the variant is not swept.
func (c *compiler) combos(path string, sw Sweep) ([]combo, bool) {
	if sw == nil {
		return nil, true
	}
	if len(sw) == 0 {
		c.errorf(path, "empty sweep (want e.g. {ratio: [0, 10, 33]}, or leave sweep out)")
		return nil, false
	}
	ok := true
	lists := make([][]string, len(sw))
	keys := make([]string, len(sw))
	total := 1
	for i, p := range sw {
		keys[i] = p.Key
		vals, good := c.sweepValues(path+"."+p.Key, p)
		ok = ok && good
		lists[i] = vals
		total *= max(len(vals), 1)
		if total > MaxVariants {
			c.errorf(path, "expands to more than %d variants", MaxVariants)
			return nil, false
		}
	}
	names := make([]string, len(keys))
	copy(names, keys)
	c.checkVarNames(path, "sweep key", names)
	if !ok {
		return nil, false
	}
	out := []combo{{keys: keys, vals: map[string]string{}}}
	for i, list := range lists {
		var next []combo
		for _, cb := range out {
			for _, v := range list {
				m := make(map[string]string, i+1)
				for k, x := range cb.vals {
					m[k] = x
				}
				m[keys[i]] = v
				next = append(next, combo{keys: keys, vals: m})
			}
		}
		out = next
	}
	return out, true
}

// where says where a field path's value came from, for messages that name
// a second position: "line 12" or "--set path=value".
func (c *compiler) where(path string) string {
	for p := path; ; p = parentPath(p) {
		if ps, ok := c.s.pos[p]; ok {
			switch {
			case ps.set != "":
				return "--set " + ps.set
			case ps.flag != "":
				return ps.flag
			}
			return fmt.Sprintf("line %d", ps.line)
		}
		if p == "" {
			return ""
		}
	}
}

// variantServerKeys are the variant fields that need a server section.
// With a speed section, env, vars and sweep need none: they shape the
// speed commands' runs.
func variantServerKeys(vs VariantSpec, speed bool) []string {
	var keys []string
	if vs.Env != nil && !speed {
		keys = append(keys, "env")
	}
	if vs.Vars != nil && !speed {
		keys = append(keys, "vars")
	}
	if vs.Start != nil {
		keys = append(keys, "start")
	}
	if vs.Stop != nil {
		keys = append(keys, "stop")
	}
	if vs.Reload != nil {
		keys = append(keys, "reload")
	}
	if vs.Sweep != nil && !speed {
		keys = append(keys, "sweep")
	}
	if vs.Search != nil {
		keys = append(keys, "search")
	}
	return keys
}

// checkEnvKeys reports names that cannot be environment variables and
// mapping-form entries without a value.
func (c *compiler) checkEnvKeys(prefix string, env map[string]EnvValue) bool {
	if len(env) > MaxVars {
		c.errorf(prefix, "%d entries, more than the %d allowed", len(env), MaxVars)
		return false
	}
	ok := true
	for _, k := range sortedKeys(env) {
		e := env[k]
		switch {
		case e.Value == nil:
			if !c.leftOut(prefix + "." + k + ".value") {
				c.errorf(prefix+"."+k, "value is missing (want {value: …, secret: true})")
			}
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
func (c *compiler) variants() ([]Variant, string) {
	s := c.s
	if s.Variants != nil && len(s.Variants) == 0 {
		c.errorf("variants", "empty list (leave variants out to measure one configuration)")
	}
	ss := s.Server
	if ss == nil && !c.leftOut("server") {
		for i, vs := range s.Variants {
			if keys := variantServerKeys(vs, s.Speed != nil); len(keys) > 0 {
				c.errorf(fmt.Sprintf("variants[%d].%s", i, keys[0]), "variants set %s but there is no server section to start the server with (add server: {start: …, stop: …})", keys[0])
				break
			}
		}
	}
	var serverEnvOK bool
	if ss != nil {
		serverEnvOK = c.checkEnvKeys("server.env", ss.Env)
		c.checkStart(ss)
	}
	specs := s.Variants
	if len(specs) == 0 {
		specs = []VariantSpec{{Name: new("default")}}
	}
	var out []Variant
	first := make(map[string]named)
	// An entry with a problem may lack some of its variants, whose names
	// the checks of baseline and thresholds then do not know (mayName).
	whole := make([]bool, len(specs))
	note := func() {
		for i, ok := range whole {
			if !ok {
				c.unresolved = append(c.unresolved, specs[i])
			}
		}
		whole = nil
	}
	defer note() // the early return
	for i, vs := range specs {
		path := fmt.Sprintf("variants[%d]", i)
		if len(s.Variants) == 0 {
			path = "variants"
		}
		switch {
		case vs.Name == nil:
			if !c.leftOut(path + ".name") {
				c.errorf(path, "name is missing")
			}
			continue
		case *vs.Name == "":
			c.errorf(path+".name", "must not be empty")
			continue
		}
		envOK := c.checkEnvKeys(path+".env", vs.Env) && (ss == nil || serverEnvOK)
		sweep, sweepPath := vs.Sweep, path+".sweep"
		if vs.Search != nil {
			var good bool
			if sweep, good = c.searchSweep(path, vs); !good {
				continue
			}
			sweepPath = path + ".search"
		}
		combos, ok := c.combos(sweepPath, sweep)
		if !ok {
			continue
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
		if len(vs.Vars) > MaxVars {
			c.errorf(path+".vars", "%d vars, more than the %d allowed", len(vs.Vars), MaxVars)
			continue
		}
		varNames := sortedKeys(vs.Vars)
		c.checkVarNames(path+".vars", "var", varNames)
		for _, k := range varNames {
			if len(combos) > 0 && slices.Contains(combos[0].keys, k) {
				c.errorf(path+".vars."+k, "%s is also a sweep key of this variant; the sweep's values would always win", k)
			}
		}
		if !ok {
			continue
		}
		if combos == nil {
			combos = []combo{{}}
		}
		if vs.Search != nil {
			c.search.first = len(out)
		}
		whole[i] = true
		for _, cb := range combos {
			if len(out) >= MaxVariants {
				c.errorf("variants", "more than %d variants (sweeps expanded)", MaxVariants)
				return out, ""
			}
			v, ok := c.variant(path, vs, cb, envOK)
			if !ok {
				whole[i] = false
				continue
			}
			if prev, dup := first[v.Name]; dup {
				desc, prevDesc := "", ""
				if cb.keys != nil {
					desc = " (" + cb.String() + ")"
				}
				if prev.combo != "" {
					prevDesc = " with " + prev.combo
				}
				at := c.where(fmt.Sprintf("variants[%d].name", prev.index))
				if at != "" {
					at = " (" + at + ")"
				}
				c.errorf(path+".name", "%q%s already names variants[%d]%s%s", v.Name, desc, prev.index, prevDesc, at)
				whole[i] = false
				continue
			}
			first[v.Name] = named{i, comboString(cb)}
			out = append(out, v)
			if vs.Search != nil {
				c.search.points++
			}
		}
	}
	note()
	if len(out) == 0 {
		out = []Variant{{Name: "default"}}
	}
	baseline := out[0].Name
	if c.search != nil && c.search.first == 0 {
		// The searched values are measured only if the search picks
		// them: the first other variant is the baseline, or, without
		// one, the first value the search measures (Run.Baseline "").
		baseline = ""
		if n := c.search.points; n < len(out) {
			baseline = out[n].Name
		}
	}
	if s.Baseline != nil {
		baseline = *s.Baseline
		if !slices.ContainsFunc(out, func(v Variant) bool { return v.Name == baseline }) && !c.mayName(baseline) {
			names := make([]string, len(out))
			for i, v := range out {
				names[i] = v.Name
			}
			c.errorf("baseline", "%q names no variant (variants: %s)", baseline, strings.Join(names, ", "))
		}
	}
	return out, baseline
}

// mayName reports whether a variant entry with a problem (already
// reported) might have been named name: its name was left out, is a
// template, or is name.
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

func comboString(cb combo) string {
	if cb.keys == nil {
		return ""
	}
	return cb.String()
}

// checkStart requires a start command for every variant: server.start, or
// each variant's own.
func (c *compiler) checkStart(ss *ServerSpec) {
	if ss.Start != nil || c.leftOut("server.start") {
		return // checked, expanded, per variant
	}
	missing := -1
	given := false
	for i, vs := range c.s.Variants {
		if vs.Start == nil && !c.leftOut(fmt.Sprintf("variants[%d].start", i)) {
			if missing < 0 {
				missing = i
			}
		} else {
			given = true
		}
	}
	switch {
	case missing < 0 && given:
	case given:
		c.errorf(fmt.Sprintf("variants[%d]", missing), "start is missing: give server.start, or a start command for every variant")
	default:
		c.errorf("server", "start is missing (want the shell command that starts the server, e.g. nginx -c /etc/nginx/nginx.conf)")
	}
}

// variant resolves one variant (one sweep combination of an entry).
func (c *compiler) variant(path string, vs VariantSpec, cb combo, envOK bool) (Variant, bool) {
	ss := c.s.Server
	// The variant's vars left out by Parse or Set are broken here.
	left := c.leftOutVars(path + ".vars")
	defined := []string{path + ".vars", path + ".sweep", path + ".search"}
	if len(c.s.Variants) == 0 {
		defined = append(defined, "variants") // the default variant: variants left out?
	}
	base := c.incomplete(c.top.with(nil, left), defined...)
	sc := base.with(cb.vals, nil)
	var local map[string]string
	if len(vs.Vars) > 0 {
		defs := make(map[string]string)
		for k, v := range vs.Vars {
			if _, swept := cb.vals[k]; !swept && varNameRE.MatchString(k) && k != BuiltinScenarioDir && !left[k] {
				defs[k] = v
			}
		}
		var broken map[string]bool
		local, broken = c.resolveVars(path+".vars", defs, sc)
		sc = base.with(local, broken).with(cb.vals, nil)
	}
	ok := true
	var v Variant
	name, good := c.expand(path+".name", *vs.Name, sc)
	ok = ok && good
	if good && (name == "" || hasControl(name) || strings.ContainsAny(name, "/\\")) {
		what := "%q may not contain slashes or control characters"
		if name == "" {
			what = "%q: the name must not be empty"
		}
		c.errorf(path+".name", what, name)
		ok = false
	}
	v.Name = name
	if cb.keys != nil {
		v.Series = *vs.Name
		v.Sweep = cb.vals
	}
	if vars := mergeMaps(c.userTop, local, cb.vals); len(vars) > 0 {
		v.Vars = vars
	}
	for i, sp := range c.s.Speed {
		if i >= MaxSpeed || sp.Command == nil || strings.TrimSpace(*sp.Command) == "" {
			continue
		}
		command, good := c.expand(fmt.Sprintf("speed[%d].command", i), *sp.Command, sc)
		ok = ok && good
		timeout := DefaultSpeedTimeout
		if sp.Timeout != nil {
			timeout = *sp.Timeout
		}
		v.Speed = append(v.Speed, Speed{Command: command, Timeout: timeout})
	}
	var serverEnv map[string]EnvValue
	if ss != nil {
		serverEnv = ss.Env
	}
	if envOK {
		secret := map[string]bool{}
		for _, layer := range []struct {
			prefix string
			env    map[string]EnvValue
		}{{"server.env", serverEnv}, {path + ".env", vs.Env}} {
			for _, k := range sortedKeys(layer.env) {
				e := layer.env[k]
				// A key marked secret in server.env stays secret when a
				// variant gives it another value.
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
				if v.Env == nil {
					v.Env = make(map[string]string)
				}
				v.Env[k] = val
				if secret[k] && val != "" {
					c.secrets[val] = true
				}
			}
		}
		for _, k := range sortedKeys(v.Env) {
			if secret[k] {
				v.SecretEnv = append(v.SecretEnv, k)
			}
		}
	}
	if ss == nil {
		return v, ok
	}
	cmd := func(key string, server, own *string) string {
		p, src := "server."+key, server
		if own != nil {
			p, src = path+"."+key, own
		}
		if src == nil {
			return ""
		}
		out, good := c.expand(p, *src, sc)
		ok = ok && good
		return out
	}
	v.Start = cmd("start", ss.Start, vs.Start)
	if start := ss.Start; vs.Start != nil || start != nil {
		p := "server.start"
		if vs.Start != nil {
			p, start = path+".start", vs.Start
		}
		switch {
		case strings.TrimSpace(*start) == "":
			c.errorf(p, "must not be empty (want the shell command that starts the server)")
			ok = false
		case ok && strings.TrimSpace(v.Start) == "":
			c.errorf(p, "%q expands to an empty command", *start)
			ok = false
		}
	}
	v.Stop = cmd("stop", ss.Stop, vs.Stop)
	v.Reload = cmd("reload", ss.Reload, vs.Reload)
	for i, ps := range ss.Probes {
		if ps.Name == nil || ps.Command == nil {
			continue
		}
		command, good := c.expand(fmt.Sprintf("server.probes[%d].command", i), *ps.Command, sc)
		ok = ok && good
		p := Probe{Name: *ps.Name, Command: command}
		if ps.Pattern != nil {
			p.Pattern = *ps.Pattern
		}
		v.Probes = append(v.Probes, p)
	}
	return v, ok
}

// mergeMaps merges maps, later ones winning; nil when all are empty.
func mergeMaps(ms ...map[string]string) map[string]string {
	var out map[string]string
	for _, m := range ms {
		for k, v := range m {
			if out == nil {
				out = make(map[string]string)
			}
			out[k] = v
		}
	}
	return out
}
