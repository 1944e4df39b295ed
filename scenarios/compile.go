package scenarios

import (
	"cmp"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"math"
	"net"
	"net/url"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kaeload/kaeload/accel"
	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// Host is the machine a plan will run on: groups may only name its CPUs.
type Host struct {
	CPUs pinning.Set // those this process may run on
	// Planning makes "CPU does not exist" a warning, so that --dry-run can
	// show a plan meant for a bigger machine.
	Planning bool
}

// LocalHost describes this machine: its affinity mask, else 0..NumCPU-1.
func LocalHost() Host {
	cpus, err := pinning.Online()
	if err != nil || len(cpus) == 0 {
		cpus = pinning.Layout(1, runtime.NumCPU(), 0)[0] // 0..NumCPU-1
	}
	return Host{CPUs: cpus}
}

// Defaults of keys left out (the limits are package plans').
const (
	DefaultDuration      = 10 * time.Second
	DefaultWarmup        = 1 * time.Second
	DefaultTimeout       = 10 * time.Second // one request
	DefaultConnections   = 16               // per group
	DefaultAutoMax       = 10               // repeat: auto's repetitions per variant
	DefaultAutoCalibrate = 5                // and its baseline windows
	DefaultMaxErrors     = 0.01
)

// DefaultCurves are X25519 and P-256: Go's default would add the hybrid
// X25519MLKEM768 share, which costs client CPU and most servers lack.
var DefaultCurves = []uint16{uint16(tls.X25519), uint16(tls.CurveP256)}

// compiler collects every problem and warning while building a Plan.
type compiler struct {
	s       *Scenario
	errs    []*Error
	warns   []*Error
	top     scope             // top-level vars and built-ins, resolved
	userTop map[string]string // the top-level vars alone, resolved
	// secrets are the secret env values, expanded, and rawSecrets as
	// written; messages are scrubbed of both.
	secrets, rawSecrets map[string]bool
	search              *pendingSearch  // the searched entry, nil when none
	hosts               []plans.SSHHost // the ssh hosts named so far
	unresolved          []VariantSpec   // entries with a problem, whose variants may be missing
}

// posOf is where path's value came from, or its nearest ancestor's.
func (s *Scenario) posOf(path string) (Error, bool) {
	for p := path; ; p = parentPath(p) {
		if ps, ok := s.pos[p]; ok {
			return ps, true
		}
		if p == "" {
			return Error{}, false
		}
	}
}

// at makes an Error located at path's value (posOf).
func (c *compiler) at(path, format string, args ...any) *Error {
	e, _ := c.s.posOf(path)
	e.File, e.Path, e.Msg = c.s.file, path, fmt.Sprintf(format, args...)
	return &e
}

func (c *compiler) errorf(path, format string, args ...any) {
	c.errs = append(c.errs, c.at(path, format, args...))
}

// or is *p, or def when the key is left out.
func or[T any](p *T, def T) T {
	if p != nil {
		return *p
	}
	return def
}

// choice is the key's value when it is one of allowed, else def (when it
// is left out, or wrong: a problem that says what is wanted).
func choice[T ~string](c *compiler, path string, given *string, def T, want string, allowed ...T) T {
	switch {
	case given == nil:
		return def
	case slices.Contains(allowed, T(*given)):
		return T(*given)
	}
	c.errorf(path, "want %s, got %q", want, *given)
	return def
}

// opt sets *out to *in when the key is given, and records check's problem with it.
func opt[T any](c *compiler, path string, in, out *T, check func(T) string) {
	if in != nil {
		*out = *in
		c.problem(path, check(*in))
	}
}

// problem records msg at path unless it is "" (a limit's verdict).
func (c *compiler) problem(path, msg string) {
	if msg != "" {
		c.errs = append(c.errs, c.at(path, "%s", msg))
	}
}

func (c *compiler) warnf(path, format string, args ...any) {
	c.warns = append(c.warns, c.at(path, format, args...))
}

// tainted reports whether a problem at path may follow from a value Parse
// or Set left out (and reported): path is at or under it, or is its list
// entry's name (which sweep values make).
func (s *Scenario) tainted(path string) bool {
	for d := range s.dropped {
		if e, _, ok := strings.Cut(d, "]"); within(path, d) || ok && path == e+"].name" {
			return true
		}
	}
	return false
}

// missing reports that key, under at, is missing (help says what it wants),
// unless it was given but left out as wrong.
func (c *compiler) missing(at, key, help string) {
	if !c.leftOut(joinKey(at, key)) {
		c.errorf(at, "%s is missing%s", key, help)
	}
}

// leftOut reports whether the value at path was given but left out as
// wrong: checks that a required key is there skip it.
func (c *compiler) leftOut(path string) bool { return c.s.dropped[path] }

// within reports whether path is p or under it.
func within(path, p string) bool {
	return p == "" || path == p || strings.HasPrefix(path, p+".") || strings.HasPrefix(path, p+"[")
}

// parentPath strips the last key or index of a field path.
func parentPath(p string) string {
	if i := strings.LastIndexByte(p, '['); i >= 0 && strings.HasSuffix(p, "]") {
		return p[:i]
	}
	return p[:max(strings.LastIndexByte(p, '.'), 0)]
}

// tidy drops repeated problems (a template checked once per expansion)
// and orders the rest as they appear in the file; --set ones last.
func tidy(es []*Error) []*Error {
	seen := make(map[string]bool, len(es))
	out := slices.DeleteFunc(es, func(e *Error) bool {
		k := e.Error()
		dup := seen[k]
		seen[k] = true
		return dup
	})
	line := func(e *Error) int { return cmp.Or(e.Line, math.MaxInt) }
	slices.SortStableFunc(out, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(line(a), line(b)), cmp.Compare(a.Col, b.Col))
	})
	return out
}

// Compile checks the scenario against the format and the host and resolves
// it into a Plan; every problem comes back at once (errors.Join of *Error).
func (s *Scenario) Compile(h Host) (*plans.Plan, error) {
	c := &compiler{s: s, secrets: map[string]bool{}, rawSecrets: map[string]bool{}}
	p := &plans.Plan{Source: s.file}
	if s.Version != nil && *s.Version != 1 {
		c.errorf("version", "unsupported version %d (this kaeload reads version 1)", *s.Version)
	}
	p.Name = c.name()
	c.topVars()
	conn := c.connection()
	p.Target = c.target(conn)
	p.Load = c.load(conn, h)
	c.remoteTarget(p.Target, p.Load.Groups)
	c.repetitions(p)
	p.Order = choice(c, "order", s.Order, results.OrderRandomized, "randomized (randomized blocks, the default), interleaved or sequential",
		results.OrderRandomized, results.OrderSequential, results.OrderInterleaved)
	opt(c, "cooldown", s.Cooldown, &p.Cooldown, plans.CooldownBound.Problem)
	p.Metrics = c.metrics()
	p.Quiet = c.quiet()
	c.capacity(p)
	p.Profile = c.profile()
	p.Server = c.server(p.Target)
	p.Accelerator = c.accelerator(p.Target)
	p.Variants, p.Baseline = c.variants()
	if p.Server != nil && s.Server != nil {
		switch {
		case s.Server.Info != nil:
			p.Server.Info = s.Server.Info
		case slices.ContainsFunc(p.Variants, func(v plans.Variant) bool { return strings.Contains(v.Start, "nginx") }):
			p.Server.Info = plans.NginxInfo
		}
	}
	p.Search = c.searchPlan(p)
	c.speed()
	if len(p.Variants) > 0 {
		p.Thresholds = c.thresholds(p.Variants, cmp.Or(p.Baseline, p.Variants[0].Name))
	}
	p.SSHOptions = c.sshOptions()
	p.Binaries = c.binaries()
	p.Hosts = c.hosts
	c.scrub()
	p.Secrets = plans.SortSecrets(c.secrets)
	return c.finish(p)
}

// repetitions resolves equivalence, repeat, seed, max_errors and exclude_flagged.
func (c *compiler) repetitions(p *plans.Plan) {
	s := c.s
	p.Equivalence = results.DefaultEquivalence
	opt(c, "equivalence", (*float64)(s.Equivalence), &p.Equivalence, func(f float64) string {
		return plans.EffectProblem(f, "the equivalence margin")
	})
	p.Repeat = 1
	if s.Repeat != nil {
		switch r := s.Repeat; {
		case r.Count != nil:
			p.Repeat = *r.Count
			c.problem("repeat", plans.RepeatLimit.Problem(p.Repeat))
		case r.Auto != nil: // the effect defaults to the margin: detect a difference that large
			a := &plans.AutoRepeat{Effect: p.Equivalence, Max: DefaultAutoMax, Calibrate: DefaultAutoCalibrate}
			opt(c, "repeat.effect", (*float64)(r.Auto.Effect), &a.Effect, func(f float64) string {
				return plans.EffectProblem(f, "the effect")
			})
			opt(c, "repeat.max", r.Auto.Max, &a.Max, plans.AutoMaxLimit.Problem)
			opt(c, "repeat.calibrate", r.Auto.Calibrate, &a.Calibrate, plans.CalibrateLimit.Problem)
			p.Auto, p.Repeat = a, a.Max
		}
	}
	if s.Seed != nil {
		p.Seed, p.SeedSet = *s.Seed, true
	}
	p.MaxErrors = DefaultMaxErrors
	opt(c, "max_errors", (*float64)(s.MaxErrors), &p.MaxErrors, plans.MaxErrorsProblem)
	if s.ExcludeFlagged != nil {
		p.ExcludeFlagged = *s.ExcludeFlagged
		if p.ExcludeFlagged < 0 || p.ExcludeFlagged > plans.MaxExcludeFlagged {
			c.problem("exclude_flagged", fmt.Sprintf("want 0 to %d windows per variant, got %d", plans.MaxExcludeFlagged, p.ExcludeFlagged))
		}
	}
}

// finish returns p with its warnings, or every problem in file order,
// Parse's among them but not those that only follow from a value left out.
func (c *compiler) finish(p *plans.Plan) (*plans.Plan, error) {
	errs := slices.DeleteFunc(c.errs, func(e *Error) bool { return c.s.tainted(e.Path) })
	for _, e := range c.s.parseErrs {
		if ps, ok := c.s.posOf(e.Path); ok && ps.Flag != "" { // FromFlag said so since
			r := *e
			r.Flag, e = ps.Flag, &r
		}
		errs = append(errs, e)
	}
	if errs = tidy(errs); len(errs) > 0 {
		joined := make([]error, len(errs))
		for i, e := range errs {
			joined[i] = e
		}
		return nil, errors.Join(joined...)
	}
	for _, w := range tidy(c.warns) {
		p.Warnings = append(p.Warnings, w.Error())
	}
	return p, nil
}

// speed checks the speed section; its commands are expanded per variant.
func (c *compiler) speed() {
	const want = "want a benchmark command such as openssl speed -seconds 3 rsa2048"
	specs := c.s.Speed
	switch {
	case specs != nil && len(specs) == 0:
		c.errorf("speed", "empty list (want entries such as {command: openssl speed -seconds 3 rsa2048}, or leave speed out)")
	case len(specs) > MaxSpeed:
		c.errorf("speed", "%d commands, more than the %d allowed", len(specs), MaxSpeed)
		return
	}
	for i, sp := range specs {
		path := fmt.Sprintf("speed[%d]", i)
		switch {
		case sp.Command == nil:
			c.missing(path, "command", " ("+want+")")
		case sp.Command != nil && strings.TrimSpace(*sp.Command) == "":
			c.errorf(path+".command", "must not be empty (%s)", want)
		}
		if sp.Timeout != nil {
			c.problem(path+".timeout", plans.CommandBound.Problem(*sp.Timeout))
		}
	}
}

func (c *compiler) name() string {
	base := filepath.Base(c.s.file)
	name := strings.TrimSuffix(base, filepath.Ext(base))
	if name == "" || name == "." || name == string(filepath.Separator) {
		name = "scenario"
	}
	switch name = or(c.s.Name, name); {
	case name == "":
		c.errorf("name", "must not be empty (leave it out to use the file name)")
	case strings.ContainsAny(name, "/\\") || plans.HasControl(name):
		c.errorf("name", "%q may not contain slashes or control characters (it names the results directory)", name)
	}
	return name
}

func (c *compiler) connection() plans.Connection {
	var given *string
	if c.s.Load != nil {
		given = c.s.Load.Connection
	}
	return choice(c, "load.connection", given, plans.Close, "close or keep-alive", plans.Close, plans.KeepAlive)
}

var tokenRE = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

// target resolves the target section and renders the request.
func (c *compiler) target(conn plans.Connection) plans.Target {
	ts := c.s.Target
	var t plans.Target
	if ts == nil {
		c.missing("", "target", " (want target: {url: https://host/path} or target: {builtin: {cert: rsa2048}})")
		return t
	}
	u := urlParts{scheme: "https", reqURI: "/", hostHeader: "localhost", hostname: "localhost"}
	switch {
	case ts.URL != nil && ts.Builtin != nil:
		c.errorf("target.builtin", "give url or builtin, not both")
	case ts.URL == nil && ts.Builtin == nil:
		if c.leftOut("target.url") || c.leftOut("target.builtin") {
			break
		}
		c.errorf("target", "want url (the server under test) or builtin (kaeload's own server)")
	case ts.Builtin != nil: // an accelerator: package accel's defaults with the keys given over them
		bs, b := ts.Builtin, &plans.Builtin{Cert: "rsa2048"}
		if bs.Accel != nil {
			cfg := accel.Defaults()
			for _, k := range sortedKeys(bs.Accel) {
				if err := accel.Set(&cfg, k, bs.Accel[k]); err != nil {
					c.errorf("target.builtin.accel."+k, "%v", err)
				}
			}
			b.Accel, b.Cert = &cfg, "ecdsa-p256" // its real signature is cheaper than offload-cpu
		}
		if b.Cert = or(bs.Cert, b.Cert); !slices.Contains(plans.BuiltinCerts, b.Cert) {
			c.errorf("target.builtin.cert", "unknown certificate kind %q (want one of %s)", b.Cert, strings.Join(plans.BuiltinCerts, ", "))
		}
		t.Builtin = b
	default:
		raw, ok := c.expand("target.url", *ts.URL, c.top)
		t.URL = raw
		if !ok {
			break
		}
		if !c.targetURL(raw, &u, &t) {
			return t
		}
	}
	if t.Method = or(ts.Method, "GET"); !tokenRE.MatchString(t.Method) {
		c.errorf("target.method", "%q is not an HTTP method (want e.g. GET or POST)", t.Method)
	}
	t.Request = c.request(t.Method, u.reqURI, u.hostHeader, ts.Headers, or(ts.Body, ""), conn)
	if u.scheme == "http" {
		if ts.TLS != nil {
			c.errorf("target.tls", "TLS settings on an http:// URL (use https:// or remove tls)")
		}
		return t
	}
	t.TLS = c.tls(ts.TLS, u.hostname, t.Builtin != nil)
	return t
}

// urlParts are the pieces of target.url the request and TLS need.
type urlParts struct {
	scheme, reqURI, hostHeader, hostname string
}

// targetURL checks target.url into u and t.Addr; false when the target is
// unusable (a text that is not a URL leaves both as they are).
func (c *compiler) targetURL(raw string, u *urlParts, t *plans.Target) bool {
	pu, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		c.errorf("target.url", "%q is not a URL: %v (want e.g. https://10.0.0.2:443/index.html)", raw, err)
		return true
	}
	u.scheme = strings.ToLower(pu.Scheme)
	port := pu.Port()
	switch {
	case u.scheme != "https" && u.scheme != "http":
		c.errorf("target.url", "want an https:// or http:// URL, got %q", raw)
		return false
	case pu.Hostname() == "":
		c.errorf("target.url", "%q has no host", raw)
		return false
	case pu.User != nil:
		c.errorf("target.url", "%q holds credentials, which are not sent; use an Authorization header", raw)
		return false
	case port == "":
		port = map[string]string{"https": "443", "http": "80"}[u.scheme]
	default:
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			c.errorf("target.url", "%q: port %q is not a number from 1 to 65535", raw, port)
			return false
		}
	}
	u.hostname, u.hostHeader, u.reqURI = pu.Hostname(), pu.Host, pu.RequestURI()
	t.Addr = net.JoinHostPort(u.hostname, port)
	if h, _, err := net.SplitHostPort(t.Addr); err != nil || h != u.hostname {
		c.errorf("target.url", "%q: %q is not a host name or IP address", raw, u.hostname)
		return false
	}
	return true
}

// request renders the HTTP/1.1 request: request line, Host, the scenario's
// headers in order, Connection (unless given), Content-Length, body.
func (c *compiler) request(method, reqURI, host string, headers Pairs, body string, conn plans.Connection) []byte {
	seen := make(map[string]string)
	hasConn := false
	var b strings.Builder
	for _, h := range headers {
		path := "target.headers." + h.Key
		lk := strings.ToLower(h.Key)
		other, dup := seen[lk]
		switch {
		case !tokenRE.MatchString(h.Key):
			c.errorf(path, "%q is not a valid header name", h.Key)
		case strings.ContainsAny(h.Value, "\r\n\x00"):
			c.errorf(path, "header value may not contain CR, LF or NUL")
		case dup:
			c.errorf(path, "header given twice (also as %s)", other)
		case lk == "host":
			seen[lk], host = h.Key, h.Value
		case lk == "content-length" || lk == "transfer-encoding":
			seen[lk] = h.Key
			c.errorf(path, "set by kaeload from body; leave it out")
		default:
			seen[lk] = h.Key
			if lk == "connection" {
				hasConn = true
				if got := strings.ToLower(strings.TrimSpace(h.Value)); got != string(conn) {
					c.errorf(path, "%q contradicts load.connection %s (leave the header out; kaeload sends Connection: %s)", h.Value, conn, conn)
				}
			}
			b.WriteString(h.Key + ": " + h.Value + "\r\n")
		}
	}
	if !hasConn {
		b.WriteString("Connection: " + string(conn) + "\r\n")
	}
	if body != "" || method == "POST" || method == "PUT" || method == "PATCH" {
		b.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\n")
	}
	return []byte(method + " " + reqURI + " HTTP/1.1\r\nHost: " + host + "\r\n" + b.String() + "\r\n" + body)
}

// tls resolves target.tls for an https target.
func (c *compiler) tls(ts *TLSSpec, hostname string, builtin bool) *plans.TLS {
	if ts == nil {
		ts = &TLSSpec{}
	}
	t := &plans.TLS{MinVersion: tls.VersionTLS12, MaxVersion: tls.VersionTLS13}
	versionsOK := true // else checks that compare with them are skipped
	for _, v := range []struct {
		key string
		in  *string
		out *uint16
	}{{"min_version", ts.MinVersion, &t.MinVersion}, {"max_version", ts.MaxVersion, &t.MaxVersion}} {
		if v.in == nil {
			continue
		}
		if n, known := parseVersion(*v.in); known {
			*v.out = n
		} else {
			versionsOK = false
			c.errorf("target.tls."+v.key, "want \"1.2\" or \"1.3\", got %q", *v.in)
		}
	}
	if versionsOK && t.MinVersion > t.MaxVersion {
		c.errorf("target.tls.min_version", "%s is above max_version %s", plans.VersionName(t.MinVersion), plans.VersionName(t.MaxVersion))
		versionsOK = false
	}
	c.ciphers(ts.Ciphers, t, versionsOK)
	c.curves(ts.Curves, t, versionsOK)
	t.Resumption, t.Verify = or(ts.Resumption, false), or(ts.Verify, false)
	if builtin && t.Verify {
		c.errorf("target.tls.verify", "the built-in target's certificate is self-signed; verify must be false")
	}
	switch file := or(ts.CA, ""); {
	case ts.CA == nil:
	case !t.Verify:
		c.errorf("target.tls.ca", "ca is only used with verify: true")
	default:
		if !filepath.IsAbs(file) {
			file = filepath.Join(filepath.Dir(c.s.file), file) // relative to the scenario
		}
		pem, err := readSmallFile(file, 1<<20)
		switch {
		case err != nil:
			c.errorf("target.tls.ca", "read CA file: %v", err)
		case !x509.NewCertPool().AppendCertsFromPEM(pem):
			c.errorf("target.tls.ca", "%s holds no PEM certificate", file)
		default:
			t.CAPEM = pem
		}
	}
	t.ServerName = or(ts.ServerName, hostname)
	if ts.ServerName != nil && (plans.HasControl(t.ServerName) || strings.ContainsAny(t.ServerName, " /")) {
		c.errorf("target.tls.server_name", "%q is not a host name", t.ServerName)
	}
	if t.Verify && t.ServerName == "" {
		c.errorf("target.tls.server_name", "verify needs a server name to check the certificate against")
	}
	return t
}

// ciphers resolves target.tls.ciphers. Only TLS 1.2 suites restrict what
// Go offers, so listing TLS 1.3 ones draws a warning.
func (c *compiler) ciphers(names []string, t *plans.TLS, versionsOK bool) {
	if names != nil && len(names) == 0 {
		c.errorf("target.tls.ciphers", "empty list (leave ciphers out for Go's defaults)")
	}
	listed := make(map[uint16]int)
	has12, has13 := false, false
	for i, name := range names {
		path := fmt.Sprintf("target.tls.ciphers[%d]", i)
		info, ok := lookupSuite(name)
		j, dup := listed[info.id]
		switch {
		case !ok:
			hint := ""
			if strings.Contains(name, ":") {
				hint = "; write one suite per list item"
			}
			c.errorf(path, "unknown cipher suite %q (want a name Go implements, in OpenSSL form such as ECDHE-RSA-AES128-GCM-SHA256 or IANA form such as TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256%s)", name, hint)
			continue
		case dup:
			c.errorf(path, "%s is listed twice (also ciphers[%d])", name, j)
			continue
		}
		listed[info.id] = i
		switch {
		case info.tls13:
			if versionsOK && t.MaxVersion < tls.VersionTLS13 {
				c.errorf(path, "%s is a TLS 1.3 suite but max_version is %s", name, plans.VersionName(t.MaxVersion))
			}
			has13 = true
		default:
			if versionsOK && t.MinVersion == tls.VersionTLS13 {
				c.errorf(path, "%s is a TLS 1.2 suite but min_version is 1.3, so it can never be used", name)
			}
			if info.insecure {
				c.warnf(path, "%s is an insecure suite, offered only because it is listed", name)
			}
			has12 = true
			t.CipherSuites = append(t.CipherSuites, info.id)
		}
	}
	if has13 && versionsOK && t.MaxVersion == tls.VersionTLS13 {
		msg := "Go's crypto/tls always offers all three TLS 1.3 suites (TLS_AES_128_GCM_SHA256, TLS_AES_256_GCM_SHA384, TLS_CHACHA20_POLY1305_SHA256), so listing TLS 1.3 suites restricts nothing"
		if !has12 && t.MinVersion < tls.VersionTLS13 {
			msg += "; TLS 1.2 handshakes use Go's default suites"
		}
		c.warnf("target.tls.ciphers", "%s", msg)
	}
}

// curves resolves target.tls.curves (default DefaultCurves).
func (c *compiler) curves(names []string, t *plans.TLS, versionsOK bool) {
	if names == nil {
		t.Curves = slices.Clone(DefaultCurves)
	} else if len(names) == 0 {
		c.errorf("target.tls.curves", "empty list (leave curves out for the default X25519, P-256)")
	}
	for i, name := range names {
		path := fmt.Sprintf("target.tls.curves[%d]", i)
		switch id, ok := curveNames[strings.ToUpper(name)]; {
		case !ok:
			c.errorf(path, "unknown curve %q (want one of %s)", name, curveList)
		case slices.Contains(t.Curves, uint16(id)):
			c.errorf(path, "%s is listed twice", name)
		default:
			t.Curves = append(t.Curves, uint16(id))
		}
	}
	classic := slices.ContainsFunc(t.Curves, func(id uint16) bool { return !isHybrid(tls.CurveID(id)) })
	if len(t.Curves) > 0 && !classic && versionsOK && t.MaxVersion < tls.VersionTLS13 {
		c.errorf("target.tls.curves", "only post-quantum hybrid groups are listed, which need TLS 1.3, but max_version is %s", plans.VersionName(t.MaxVersion))
	}
}

// load resolves the load section.
func (c *compiler) load(conn plans.Connection, h Host) plans.Load {
	ls := c.s.Load
	if ls == nil {
		ls = &LoadSpec{}
	}
	l := plans.Load{Connection: conn, Duration: DefaultDuration, Warmup: DefaultWarmup, Timeout: DefaultTimeout, Interval: results.DefaultInterval}
	opt(c, "load.duration", ls.Duration, &l.Duration, plans.DurationBound.Problem)
	opt(c, "load.warmup", ls.Warmup, &l.Warmup, plans.WarmupBound.Problem)
	opt(c, "load.timeout", ls.Timeout, &l.Timeout, plans.TimeoutBound.Problem)
	opt(c, "load.interval", ls.Interval, &l.Interval, results.IntervalProblem)
	switch {
	case ls.Groups != nil && ls.Layout != nil:
		c.errorf("load.layout", "give groups or layout, not both")
	case ls.Groups != nil:
		l.Groups = c.groups(ls.Groups, h)
	case ls.Layout != nil:
		l.Groups = c.layout(ls.Layout, h)
	default:
		l.Groups = []plans.Group{{Threads: defaultThreads(h), Connections: DefaultConnections}}
	}
	c.rate(ls, &l)
	return l
}

// hostCPU is one CPU of one host ("" = this machine).
type hostCPU struct {
	host string
	cpu  int
}

// cpuList is a group's CPU list parsed, and the CPUs this host lacks.
type cpuList struct {
	set, missing pinning.Set
	err          error
}

// groups resolves load.groups and warns of groups that share CPUs.
func (c *compiler) groups(specs []GroupSpec, h Host) []plans.Group {
	if len(specs) == 0 {
		c.errorf("load.groups", "empty list (give at least one group, or leave groups out for one unpinned group)")
	}
	if msg := plans.GroupsProblem(len(specs)); msg != "" {
		c.problem("load.groups", msg)
		return nil
	}
	var out []plans.Group
	total := 0                         // connections of the groups within the per-group limit
	owner := make(map[hostCPU]int)     // CPU of a host -> first group pinned to it
	parsed := make(map[string]cpuList) // groups often repeat a list
	for i, gs := range specs {
		path := fmt.Sprintf("load.groups[%d]", i)
		g := c.group(path, gs, h, parsed)
		if plans.ConnectionsLimit.Problem(g.Connections) == "" {
			total += g.Connections
		}
		var shared pinning.Set
		var others []int
		for _, cpu := range g.CPUs {
			key := hostCPU{cpu: cpu}
			if g.Host != nil {
				key.host = g.Host.Name
			}
			if j, ok := owner[key]; ok {
				shared, others = append(shared, cpu), append(others, j)
			} else {
				owner[key] = i
			}
		}
		if len(shared) > 0 {
			slices.Sort(others)
			names := joinMap(slices.Compact(others), ", ", func(j int) string {
				return fmt.Sprintf("load.groups[%d]", j)
			})
			c.warnf(path+".cpus", "CPU %s also in %s: overlapping groups compete for those CPUs", shared, names)
		}
		out = append(out, g)
	}
	c.problem("load.groups", plans.TotalProblem(total))
	return out
}

// group resolves one entry of load.groups; parsed caches CPU lists.
func (c *compiler) group(path string, gs GroupSpec, h Host, parsed map[string]cpuList) plans.Group {
	var g plans.Group
	if gs.Host != nil {
		g.Host = c.host(path+".host", *gs.Host)
	}
	if gs.CPUs != nil {
		cc, ok := parsed[*gs.CPUs]
		if !ok {
			if cc.set, cc.err = pinning.Parse(*gs.CPUs); cc.err == nil {
				cc.missing = cc.set.Missing(h.CPUs)
			}
			parsed[*gs.CPUs] = cc
		}
		switch {
		case cc.err != nil:
			c.errorf(path+".cpus", "%v", cc.err)
		case g.Host != nil:
			g.CPUs = slices.Clone(cc.set) // another machine's CPUs: its worker checks them
		case len(cc.missing) > 0:
			c.missingCPUs(path+".cpus", "", cc.missing, h)
			if h.Planning {
				g.CPUs = slices.Clone(cc.set)
			}
		default:
			g.CPUs = slices.Clone(cc.set)
		}
	}
	def := min(len(g.CPUs), plans.MaxThreads)
	if gs.CPUs == nil {
		def = defaultThreads(h)
	}
	g.Threads = c.count(path+".threads", gs.Threads, def, plans.ThreadsLimit)
	g.Connections = c.count(path+".connections", gs.Connections, DefaultConnections, plans.ConnectionsLimit)
	c.checkThreads(path+".threads", g.Threads, len(g.CPUs))
	return g
}

// defaultThreads is an unpinned group's threads: the host's CPU count.
func defaultThreads(h Host) int {
	return min(max(1, len(h.CPUs)), plans.MaxThreads)
}

// count resolves an optional count with a default and a limit.
func (c *compiler) count(path string, v *int, def int, limit plans.CountLimit) int {
	if v != nil {
		c.problem(path, limit.Problem(*v))
	}
	return or(v, def)
}

// checkThreads warns when a pinned group has more threads than CPUs.
func (c *compiler) checkThreads(path string, threads, cpus int) {
	if cpus > 0 && threads > cpus {
		c.warnf(path, "%d threads on %d CPUs: the extra threads time-share the group's CPUs", threads, cpus)
	}
}

// missingCPUs reports CPUs the host lacks; what says what needs them.
func (c *compiler) missingCPUs(path, what string, missing pinning.Set, h Host) {
	verb := "does"
	if len(missing) > 1 {
		verb = "do"
	}
	has := "has " + h.CPUs.String()
	if len(h.CPUs) == 0 {
		has = "reports no CPUs"
	}
	msg := fmt.Sprintf("%sCPU %s %s not exist (this machine %s)", what, missing, verb, has)
	if h.Planning {
		c.warnf(path, "%s: the run would fail here", msg)
	} else {
		c.errorf(path, "%s", msg)
	}
}

// layout expands load.layout into groups.
func (c *compiler) layout(ly *LayoutSpec, h Host) []plans.Group {
	const path = "load.layout"
	ok := true
	need := func(v *int, key, what string, min int) int {
		switch {
		case v == nil && min > 0:
			c.missing(path, key, " (want "+what+")")
			ok = false
		case v != nil && (*v < min || *v > plans.MaxCPUs):
			c.errorf(path+"."+key, "must be from %d to %d, got %d", min, plans.MaxCPUs, *v)
			ok = false
		}
		return or(v, 0)
	}
	groups := need(ly.Groups, "groups", "the number of groups, e.g. 11", 1)
	if msg := plans.GroupsProblem(groups); msg != "" && groups <= plans.MaxCPUs {
		c.problem(path+".groups", msg)
		ok = false
	}
	per := need(ly.CPUsPerGroup, "cpus_per_group", "the CPUs in each group, e.g. 10", 1)
	first := need(ly.FirstCPU, "first_cpu", "", 0)
	threads := c.count(path+".threads", ly.Threads, min(max(per, 1), plans.MaxThreads), plans.ThreadsLimit)
	conns := c.count(path+".connections", ly.Connections, DefaultConnections, plans.ConnectionsLimit)
	if !ok {
		return nil
	}
	if msg := plans.TotalProblem(groups * conns); msg != "" && plans.ConnectionsLimit.Problem(conns) == "" {
		c.problem(path, fmt.Sprintf("%d groups × %d connections = %s", groups, conns, msg))
		return nil
	}
	if end := first + groups*per; end > plans.MaxCPUs {
		c.errorf(path, "%d groups of %d CPUs from CPU %d end at CPU %d, beyond the largest CPU number %d", groups, per, first, end-1, plans.MaxCPUs-1)
		return nil
	}
	all := slices.Concat(pinning.Layout(groups, per, first)...)
	hosts := []*plans.SSHHost{nil} // this machine
	if ly.Hosts != nil {
		if hosts = c.layoutHosts(ly.Hosts); hosts == nil {
			return nil
		}
	}
	local := slices.Contains(hosts, nil) // remote CPUs are checked by their workers
	if missing := all.Missing(h.CPUs); len(missing) > 0 && local {
		c.missingCPUs(path, fmt.Sprintf("%d groups of %d CPUs from CPU %d need CPU %s; ", groups, per, first, all), missing, h)
		if !h.Planning {
			return nil
		}
	}
	c.checkThreads(path+".threads", threads, per)
	var out []plans.Group
	for _, host := range hosts {
		for _, set := range pinning.Layout(groups, per, first) {
			out = append(out, plans.Group{CPUs: set, Threads: threads, Connections: conns, Host: host})
		}
	}
	if msg := plans.GroupsProblem(len(out)); msg != "" {
		c.problem(path+".hosts", fmt.Sprintf("%d hosts × %d groups: %s", len(hosts), groups, msg))
		return nil
	}
	return out
}
