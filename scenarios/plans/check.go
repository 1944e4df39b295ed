package plans

import (
	"crypto/tls"
	"errors"
	"fmt"
	"maps"
	"math"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kaeload/kaeload/internal/numfmt"
	"github.com/kaeload/kaeload/results"
)

// Limits the compiler, Check and CheckWorker enforce, so that a typo cannot
// open 10^9 connections or wait a century. Each is far above a lab's use;
// the reasons a user reads are in the Limit values below.
const (
	// MaxConnections bounds one group's connections, MaxTotalConnections all
	// groups': each needs a source port towards the one target address.
	MaxConnections      = 65535
	MaxTotalConnections = 65535
	MaxThreads          = 4096 // one group's GOMAXPROCS
	MaxGroups           = 1024 // each one pinned worker process
	MaxRepeat           = 1000
	MaxDuration         = 24 * time.Hour
	MaxWarmup           = time.Hour
	MaxTimeout          = 10 * time.Minute
	MaxCooldown         = time.Hour
	// MaxCommandTimeout bounds command_timeout, server.ready and speed timeouts.
	MaxCommandTimeout = 24 * time.Hour
	MaxVariants       = 1000 // sweeps expanded
	// MaxVars bounds each vars and env mapping; a variant's merged Env has twice as many.
	MaxVars         = 100
	MaxSearchBudget = 10_000
	MaxCPUs         = 1 << 16 // CPU numbers are 0 to MaxCPUs-1
)

// CountLimit is the range 1..max of a count, with why max is what it is.
type CountLimit struct {
	max int
	why string
}

// Problem says what is wrong with n, or "" when it is within the limit.
func (l CountLimit) Problem(n int) string {
	switch {
	case n < 1:
		return fmt.Sprintf("must be at least 1, got %d", n)
	case n > l.max:
		return fmt.Sprintf("%d is more than the %d allowed (%s)", n, l.max, l.why)
	}
	return ""
}

// DurationLimit is a duration > 0 (>= 0 with zero) up to max, with why.
type DurationLimit struct {
	max  time.Duration
	zero bool
	why  string
}

// Problem says what is wrong with d, or "" when it is within the limit.
func (l DurationLimit) Problem(d time.Duration) string {
	switch {
	case l.zero && d < 0:
		return fmt.Sprintf("must not be negative, got %s", d)
	case !l.zero && d <= 0:
		return fmt.Sprintf("must be positive, got %s", d)
	case d > l.max:
		return fmt.Sprintf("%s is more than the %s allowed (%s)", shortDuration(d), shortDuration(l.max), l.why)
	}
	return ""
}

// The limits with their reasons: a scenario and a plan beyond one read alike.
var (
	ConnectionsLimit = CountLimit{MaxConnections, "each connection needs its own source port towards the target and an open file"}
	ThreadsLimit     = CountLimit{MaxThreads, "threads are the worker's GOMAXPROCS; beyond its CPUs they only time-share"}
	RepeatLimit      = CountLimit{MaxRepeat, "the statistics gain little beyond a few dozen windows per variant"}
	DurationBound    = DurationLimit{MaxDuration, false, "one measured window; use repeat for more windows"}
	WarmupBound      = DurationLimit{MaxWarmup, true, "warm-up only has to bring the server to a steady state"}
	TimeoutBound     = DurationLimit{MaxTimeout, false, "one request; a request that takes longer has failed"}
	CooldownBound    = DurationLimit{MaxCooldown, true, "a pause between measured windows"}
	CommandBound     = DurationLimit{MaxCommandTimeout, false, "a command or wait that takes longer has hung"}
)

// GroupsProblem says what is wrong with a number of groups, or "".
func GroupsProblem(n int) string {
	if n > MaxGroups {
		return fmt.Sprintf("%d groups, more than the %d allowed (each group is one pinned worker process)", n, MaxGroups)
	}
	return ""
}

// TotalProblem says what is wrong with the connections of all groups, or "".
func TotalProblem(total int) string {
	if total > MaxTotalConnections {
		return fmt.Sprintf("%d connections in all groups, more than the %d allowed (all groups dial the target from this machine, whose source address has at most %d ports towards it)",
			total, MaxTotalConnections, MaxTotalConnections)
	}
	return ""
}

// AutoMaxLimit and CalibrateLimit bound repeat: auto's max and calibrate.
var (
	AutoMaxLimit   = RangeLimit{2, MaxRepeat, "repetitions per variant; a comparison needs two on each side"}
	CalibrateLimit = RangeLimit{2, 100, "baseline windows measured to estimate the noise; two are the fewest that show it"}
)

// RangeLimit is a whole number from min to max, with what it counts.
type RangeLimit struct {
	min, max int
	what     string
}

// Problem says what is wrong with n, or "".
func (l RangeLimit) Problem(n int) string {
	if n < l.min || n > l.max {
		return fmt.Sprintf("want %d to %d (%s), got %d", l.min, l.max, l.what, n)
	}
	return ""
}

// EffectProblem says what is wrong with an effect or margin (what), or "".
func EffectProblem(f float64, what string) string {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0) || f <= 0:
		return fmt.Sprintf("%s must be more than 0%%, got %s", what, numfmt.Percent(f))
	case f > 0.5:
		return fmt.Sprintf("%s is a difference in percent of the baseline's req/s: more than 50%% is no test of a difference, got %s", what, numfmt.Percent(f))
	}
	return ""
}

// MaxErrorsProblem says what is wrong with an error share, or "".
func MaxErrorsProblem(f float64) string {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return fmt.Sprintf("want a share from 0%% to 100%%, got %v", f)
	case f < 0:
		return fmt.Sprintf("must not be negative, got %s", numfmt.Percent(f))
	case f > 1:
		return fmt.Sprintf("%s is more than 100%% (the share of all requests that may fail)", numfmt.Percent(f))
	}
	return ""
}

// HasControl reports whether s holds a control character.
func HasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f })
}

// UsableName reports whether s can name a results directory: not empty,
// without slashes or control characters.
func UsableName(s string) bool { return s != "" && !HasControl(s) && !strings.ContainsAny(s, "/\\") }

// shortDuration writes d without zero minutes and seconds: 24h, 10m, 1h30m.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// Error is one problem Check or CheckWorker found, at a field path
// ("load.groups[1].threads"; "" = the whole plan).
type Error struct {
	Path string
	Msg  string
}

// Error formats the problem as "path: message".
func (e *Error) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// checker collects a Plan's problems as *Error values.
type checker struct {
	errs []error
}

func (k *checker) add(path, format string, args ...any) {
	k.errs = append(k.errs, &Error{Path: path, Msg: fmt.Sprintf(format, args...)})
}

// problem records msg at path unless it is "".
func (k *checker) problem(path, msg string) {
	if msg != "" {
		k.errs = append(k.errs, &Error{Path: path, Msg: msg})
	}
}

// CheckWorker checks what a worker receives, possibly from another machine:
// target, load and its group g (not l.Groups). A Plan that passes Check passes it.
func CheckWorker(t Target, l Load, g Group) error {
	k := &checker{}
	k.target(t, true)
	k.load(l)
	k.group("group", g)
	return errors.Join(k.errs...)
}

// Check checks a Plan against the invariants the compiler guarantees, every
// problem joined; the runner checks plans built by other means with it.
func (p *Plan) Check() error {
	if p == nil {
		return &Error{Msg: "nil plan"}
	}
	k := &checker{}
	if !UsableName(p.Name) {
		k.add("name", "%q is not a usable name (want non-empty text without slashes or control characters)", p.Name)
	}
	k.target(p.Target, p.Target.Builtin == nil)
	k.load(p.Load)
	switch n := len(p.Load.Groups); {
	case n == 0:
		k.add("load.groups", "no groups")
	case n > MaxGroups:
		k.problem("load.groups", GroupsProblem(n))
	default:
		total := 0
		for i, g := range p.Load.Groups {
			k.group(fmt.Sprintf("load.groups[%d]", i), g)
			if ConnectionsLimit.Problem(g.Connections) == "" {
				total += g.Connections
			}
		}
		k.problem("load.groups", TotalProblem(total))
	}
	k.problem("repeat", RepeatLimit.Problem(p.Repeat))
	if a := p.Auto; a != nil {
		k.problem("repeat.effect", EffectProblem(a.Effect, "the effect"))
		k.problem("repeat.max", AutoMaxLimit.Problem(a.Max))
		k.problem("repeat.calibrate", CalibrateLimit.Problem(a.Calibrate))
	}
	if p.Equivalence != 0 { // 0: a plan built before equivalence existed
		k.problem("equivalence", EffectProblem(p.Equivalence, "the equivalence margin"))
	}
	switch p.Order {
	case "", results.OrderRandomized, results.OrderSequential, results.OrderInterleaved:
	default:
		k.add("order", "%q, want %s, %s or %s", p.Order, results.OrderRandomized, results.OrderInterleaved, results.OrderSequential)
	}
	k.problem("cooldown", CooldownBound.Problem(p.Cooldown))
	k.problem("max_errors", MaxErrorsProblem(p.MaxErrors))
	if m := p.Metrics; m != nil {
		k.problem("metrics.listen", ListenProblem(m.Listen))
		k.problem("metrics.wait", MetricsWaitBound.Problem(m.Wait))
		k.problem("metrics.linger", MetricsWaitBound.Problem(m.Linger))
	}
	if q := p.Quiet; q != nil {
		k.problem("quiet.max_other", MaxOtherProblem(q.MaxOther))
		k.problem("quiet.for", QuietBound.Problem(q.For))
		k.problem("quiet.timeout", QuietBound.Problem(q.Timeout))
	}
	if a := p.Accelerator; a != nil && (!(a.Capacity > 0) || math.IsInf(a.Capacity, 0)) {
		k.add("accelerator.capacity", "%v, want a positive number of signatures per second", a.Capacity)
	}
	k.variants(p)
	k.search(p)
	if s := p.Server; s != nil {
		if s.Host != "local" && (s.SSH == nil || s.SSH.Name != s.Host) {
			k.add("server.host", "%q, want local or the name of server.ssh", s.Host)
		}
		r := s.Ready
		switch r.Kind {
		case "tcp", "tls":
			if r.Addr == "" && p.Target.Builtin == nil { // a built-in target's is filled in by WithAddr
				k.add("server.ready.addr", "empty (a %s probe needs the host:port to dial)", r.Kind)
			}
		case "https":
			if r.URL == "" {
				k.add("server.ready.url", "empty (an https probe needs the URL to fetch)")
			}
		default:
			k.add("server.ready.kind", "%q, want tcp, tls or https", r.Kind)
		}
		k.problem("server.ready.timeout", CommandBound.Problem(r.Timeout))
		k.problem("server.ready.interval", CommandBound.Problem(r.Interval))
		k.problem("server.command_timeout", CommandBound.Problem(s.CommandTimeout))
	}
	return errors.Join(k.errs...)
}

// target checks a Target; needAddr when it must have an address to dial.
func (k *checker) target(t Target, needAddr bool) {
	switch {
	case t.Addr != "":
		host, port, err := net.SplitHostPort(t.Addr)
		n, perr := strconv.Atoi(port)
		if err != nil || host == "" || perr != nil || n < 1 || n > 65535 {
			k.add("target.addr", "%q is not host:port with a port from 1 to 65535", t.Addr)
		}
	case needAddr:
		k.add("target.addr", "empty (want the host:port to dial)")
	}
	switch {
	case len(t.Request) == 0:
		k.add("target.request", "empty (want the HTTP/1.1 request to send)")
	case !strings.Contains(string(t.Request), "\r\n\r\n"):
		k.add("target.request", "no end of headers (CR LF CR LF)")
	}
	if t.TLS == nil {
		return
	}
	s := t.TLS
	versionsOK := true
	for _, v := range []struct {
		path string
		v    uint16
	}{{"target.tls.min_version", s.MinVersion}, {"target.tls.max_version", s.MaxVersion}} {
		if v.v != tls.VersionTLS12 && v.v != tls.VersionTLS13 {
			k.add(v.path, "%s, want 1.2 (0x0303) or 1.3 (0x0304)", VersionName(v.v))
			versionsOK = false
		}
	}
	if versionsOK && s.MinVersion > s.MaxVersion {
		k.add("target.tls.min_version", "%s is above max_version %s", VersionName(s.MinVersion), VersionName(s.MaxVersion))
	}
	suites := append(tls.CipherSuites(), tls.InsecureCipherSuites()...)
	for i, id := range s.CipherSuites {
		j := slices.IndexFunc(suites, func(cs *tls.CipherSuite) bool { return cs.ID == id })
		if j < 0 || slices.Equal(suites[j].SupportedVersions, []uint16{tls.VersionTLS13}) {
			k.add(fmt.Sprintf("target.tls.cipher_suites[%d]", i), "0x%04x is not a TLS 1.2 suite Go implements", id)
		}
	}
	for i, id := range s.Curves {
		if !slices.Contains(Curves, tls.CurveID(id)) {
			k.add(fmt.Sprintf("target.tls.curves[%d]", i), "%d is not a curve Go implements", id)
		}
	}
	if s.Verify && s.ServerName == "" {
		k.add("target.tls.server_name", "verify needs a server name to check the certificate against")
	}
}

// load checks a Load's mode and durations (not its groups).
func (k *checker) load(l Load) {
	if l.Connection != Close && l.Connection != KeepAlive {
		k.add("load.connection", "%q, want %s or %s", l.Connection, Close, KeepAlive)
	}
	k.problem("load.duration", DurationBound.Problem(l.Duration))
	k.problem("load.warmup", WarmupBound.Problem(l.Warmup))
	k.problem("load.timeout", TimeoutBound.Problem(l.Timeout))
	if l.Interval != 0 {
		k.problem("load.interval", results.IntervalProblem(l.Interval))
	}
	k.rate(l)
}

// group checks one Group, its problems located under path.
func (k *checker) group(path string, g Group) {
	k.problem(path+".threads", ThreadsLimit.Problem(g.Threads))
	k.problem(path+".connections", ConnectionsLimit.Problem(g.Connections))
	if g.Rate != 0 {
		k.problem(path+".rate", RateProblem(g.Rate))
	}
	for i, c := range g.CPUs {
		switch {
		case c < 0 || c >= MaxCPUs:
			k.add(path+".cpus", "CPU %d is out of range (0 to %d)", c, MaxCPUs-1)
			return
		case i > 0 && c <= g.CPUs[i-1]:
			k.add(path+".cpus", "not sorted without repeats (%d after %d)", c, g.CPUs[i-1])
			return
		}
	}
}

// variants checks the variants, the baseline and the speed commands.
func (k *checker) variants(p *Plan) {
	switch n := len(p.Variants); {
	case n == 0:
		k.add("variants", "no variants")
		return
	case n > MaxVariants:
		k.add("variants", "%d variants, more than the %d allowed", n, MaxVariants)
		return
	}
	seen := make(map[string]int, len(p.Variants))
	for i, v := range p.Variants {
		path := fmt.Sprintf("variants[%d]", i)
		if !UsableName(v.Name) {
			k.add(path+".name", "%q is not a usable name (want non-empty text without slashes or control characters)", v.Name)
		} else if j, dup := seen[v.Name]; dup {
			k.add(path+".name", "%q already names variants[%d]", v.Name, j)
		} else {
			seen[v.Name] = i
		}
		if len(v.Env) > 2*MaxVars {
			k.add(path+".env", "%d entries, more than the %d allowed", len(v.Env), 2*MaxVars)
		} else {
			for _, key := range slices.Sorted(maps.Keys(v.Env)) {
				if key == "" || strings.ContainsAny(key, "=\x00") || strings.ContainsRune(v.Env[key], 0) {
					k.add(path+".env."+key, "%q is not a valid environment variable (no '=' or NUL)", key)
				}
			}
		}
		for _, key := range v.SecretEnv {
			if _, ok := v.Env[key]; !ok {
				k.add(path+".secret_env", "%q is not in env", key)
			}
		}
		if p.Server != nil && strings.TrimSpace(v.Start) == "" {
			k.add(path+".start", "empty (a plan with a server needs a start command for every variant)")
		}
		for j, s := range v.Speed {
			sp := fmt.Sprintf("%s.speed[%d]", path, j)
			if strings.TrimSpace(s.Command) == "" {
				k.add(sp+".command", "empty")
			}
			k.problem(sp+".timeout", CommandBound.Problem(s.Timeout))
		}
	}
	if _, ok := seen[p.Baseline]; p.Baseline != "" && !ok {
		k.add("baseline", "%q names no variant", p.Baseline)
	}
}

// search checks that a Search's grid is in the plan and carries its key.
func (k *checker) search(p *Plan) {
	s := p.Search
	if s == nil {
		return
	}
	if s.First < 0 || s.Points < 1 || s.First+s.Points > len(p.Variants) {
		k.add("search", "variants %d to %d, but the plan has %d", s.First, s.First+s.Points-1, len(p.Variants))
		return
	}
	for i := s.First; i < s.First+s.Points; i++ {
		if _, ok := p.Variants[i].Sweep[s.Key]; !ok {
			k.add(fmt.Sprintf("variants[%d].sweep", i), "no value of the searched key %q", s.Key)
		}
	}
	if s.Budget < 1 || s.Budget > MaxSearchBudget {
		k.add("search.budget", "%d, want 1 to %d windows", s.Budget, MaxSearchBudget)
	}
	switch s.Maximize {
	case results.ObjectiveRate, results.ObjectiveRatePerCPU, results.ObjectiveP99:
	default:
		k.add("search.maximize", "%q, want %q, %q or %q", s.Maximize, results.ObjectiveRate, results.ObjectiveRatePerCPU, results.ObjectiveP99)
	}
}
