package scenarios

import (
	"cmp"
	"crypto/tls"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"
	"unicode/utf8"

	"github.com/kaeload/kaeload/accel"
	"github.com/kaeload/kaeload/internal/numfmt"
	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// rowFunc writes one "key<TAB>text" row of Describe's table.
type rowFunc func(k, format string, args ...any)

// Describe writes the compiled plan for people, as `kaeload validate` and
// `run --dry-run` show it, secret values as plans.SecretPlaceholder.
func Describe(w io.Writer, p *plans.Plan) {
	orig := p
	p = p.Redacted()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	row := func(k, format string, args ...any) { fmt.Fprintf(tw, "%s\t%s\n", k, fmt.Sprintf(format, args...)) }
	src := ""
	if p.Source != "" {
		src = " (" + p.Source + ")"
	}
	row("scenario", "%s%s", p.Name, src)
	describeTarget(row, p.Target, p.Accelerator)
	describeLoad(row, p)
	tw.Flush()
	describeGroups(w, p)
	if len(p.Hosts) > 0 {
		names := joinMap(p.Hosts, ", ", func(h plans.SSHHost) string { return h.Name })
		row("ssh", "%s: one connection per host, BatchMode", names)
		if len(p.SSHOptions) > 0 {
			row("", "options %s", joinMap(p.SSHOptions, " ", func(o plans.SSHOption) string {
				return o.Key + "=" + o.Value
			}))
		}
		for _, k := range sortedKeys(p.Binaries) {
			row("", "binary for %s: %s", k, p.Binaries[k])
		}
	}
	describeRate(row, p)
	tw.Flush()
	describeVariants(row, p, orig)
	describeSchedule(row, p)
	row("duration", "%s", p.Duration())
	if pr := p.Profile; pr != nil {
		where := "on this machine"
		if p.Server != nil && p.Server.SSH != nil {
			where = "on " + p.Server.Host + " over ssh"
		}
		row("profile", "perf record -e cpu-clock -F %d -g on the server's processes %s, every window", pr.Rate, where)
		row("", "crypto libraries: %s", strings.Join(pr.Crypto, ", "))
	}
	for i, th := range p.Thresholds {
		what := "every variant"
		if th.Metric == results.MetricVs {
			what = th.Variant + " against " + th.Against
		}
		row(first(i, "thresholds"), "%s (%s; crossed: exit status 99)", th.Expr, what)
	}
	for i, warn := range p.Warnings {
		row(first(i, "warnings"), "%s", warn)
	}
	tw.Flush()
}

// describeTarget writes the target, the accelerator, the request and the TLS settings.
func describeTarget(row rowFunc, t plans.Target, acc *plans.Accelerator) {
	switch {
	case t.Builtin != nil && t.Addr == "":
		row("target", "built-in HTTPS server, %s certificate, on a free loopback port", t.Builtin.Cert)
	case t.Builtin != nil:
		row("target", "built-in HTTPS server, %s certificate, at %s", t.Builtin.Cert, t.Addr)
	default:
		row("target", "%s (dial %s)", t.URL, t.Addr)
	}
	if t.Builtin != nil && t.Builtin.Accel != nil {
		row("accelerator", "%s (env per variant: %s, %s)", accel.String(*t.Builtin.Accel), accel.RatioEnv, accel.SpecEnv)
	}
	switch a := acc; {
	case a == nil:
	case a.Speed == "":
		row("accelerator", "device capacity %s signatures/s, for the soft-ratio prediction", numfmt.Num(a.Capacity, 1))
	default:
		row("accelerator", "device capacity %s signatures/s (%s, %s), for the soft-ratio prediction",
			numfmt.Num(a.Capacity, 1), a.Speed, a.Figure)
	}
	head, body, _ := strings.Cut(string(t.Request), "\r\n\r\n")
	lines := strings.Split(head, "\r\n")
	row("request", "%s (%d bytes)", lines[0], len(t.Request))
	for _, l := range lines[1:] {
		row("", "  %s", l)
	}
	if body != "" {
		row("", "  body: %d bytes", len(body))
	}
	if t.TLS != nil {
		describeTLS(row, t.TLS)
	}
}

// describeLoad writes the load, the repetitions and the verdicts' rules.
func describeLoad(row rowFunc, p *plans.Plan) {
	l := p.Load
	if a := p.Auto; a != nil {
		row("load", "connection %s, warmup %s, duration %s, timeout %s, repeat auto", l.Connection, l.Warmup, l.Duration, l.Timeout)
		row("repeat", "auto: first %d windows of the baseline estimate the noise; then enough repetitions per variant to detect ±%s at 80%% power, at most %d (listed below as %d)", a.Calibrate, numfmt.Percent(a.Effect), a.Max, a.Max)
	} else {
		row("load", "connection %s, warmup %s, duration %s, timeout %s, repeat %d", l.Connection, l.Warmup, l.Duration, l.Timeout, p.Repeat)
	}
	if p.Equivalence > 0 {
		row("compare", "t-test on ln(req/s) against the baseline, Holm-adjusted over the comparisons; equivalence margin ±%s", numfmt.Percent(p.Equivalence))
	}
	row("errors", "at most %s per repetition (errors / (responses + errors)); more marks the repetition failed", numfmt.Percent(p.MaxErrors))
	conns := 0
	for _, g := range l.Groups {
		conns += g.Connections
	}
	row("groups", "%d, %d connections in all", len(l.Groups), conns)
}

// describeGroups writes the worker groups as a right-aligned table.
func describeGroups(w io.Writer, p *plans.Plan) {
	gw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	row := func(group, host, cpus, threads, conns, rate string) {
		line := "  " + group + "\t"
		if len(p.Hosts) > 0 {
			line += host + "\t"
		}
		line += cpus + "\t" + threads + "\t" + conns + "\t"
		if p.Load.Rate > 0 {
			line += rate + "\t"
		}
		fmt.Fprintln(gw, line)
	}
	row("group", "host", "cpus", "threads", "connections", "rate/s")
	for i, g := range p.Load.Groups {
		cpus, host := "unpinned", "local"
		if len(g.CPUs) > 0 {
			cpus = pinning.Set(g.CPUs).String()
		}
		if g.Host != nil {
			host = g.Host.Name
		}
		row(strconv.Itoa(i), host, cpus, strconv.Itoa(g.Threads), strconv.Itoa(g.Connections),
			numfmt.Num(g.Rate, 1))
	}
	gw.Flush()
}

func describeTLS(row rowFunc, t *plans.TLS) {
	versions := plans.VersionName(t.MinVersion)
	if t.MaxVersion != t.MinVersion {
		versions += "-" + plans.VersionName(t.MaxVersion)
	}
	ciphers := "Go defaults"
	if len(t.CipherSuites) > 0 {
		ciphers = joinMap(t.CipherSuites, " ", opensslName)
		if t.MaxVersion == tls.VersionTLS13 {
			ciphers += " (TLS 1.2; TLS 1.3 offers all its suites)"
		}
	}
	onOff := map[bool]string{true: "on", false: "off"}
	verify := onOff[t.Verify]
	if t.Verify && len(t.CAPEM) > 0 {
		verify += " (scenario CA)"
	}
	row("tls", "versions %s, ciphers %s, curves %s", versions, ciphers, joinMap(t.Curves, " ", curveName))
	row("", "resumption %s, verify %s, server name %s",
		onOff[t.Resumption], verify, cmp.Or(t.ServerName, "(none)"))
}

// serverKeys are the per-variant server settings Describe lists.
var serverKeys = []string{"start", "stop", "reload", "probes"}

// serverField is v's value of one of serverKeys, as text.
func serverField(v plans.Variant, key string) string {
	return map[string]string{
		"start": v.Start, "stop": v.Stop, "reload": v.Reload, "probes": probesText(v.Probes),
	}[key]
}

// describeVariants writes the server section and the variants: what every
// variant shares once, then each variant's own. What they share is found
// in orig, not the redacted p, so that different secrets are not one.
func describeVariants(row rowFunc, p, orig *plans.Plan) {
	defer describeSpeed(row, p)
	vs := p.Variants
	if p.Server == nil {
		for i, v := range vs {
			row(first(i, "variants"), "%s%s", v.Name, baselineMark(p, i))
			if env := pairsText(v.Env); env != "" && p.Target.Builtin != nil && p.Target.Builtin.Accel != nil {
				row("", "  env     %s (the built-in target's)", env)
			} else if env != "" {
				row("", "  env     %s (speed commands only)", env)
			}
		}
		return
	}
	s, r := p.Server, p.Server.Ready
	row("server", "%s; ready when %s %s answers (every %s, up to %s); stop, reload and probes time out after %s",
		s.Host, r.Kind, cmp.Or(r.URL, r.Addr), r.Interval, r.Timeout, s.CommandTimeout)
	shared := map[string]bool{}
	for _, k := range serverKeys {
		shared[k] = !slices.ContainsFunc(vs[1:], func(v plans.Variant) bool { return serverField(v, k) != serverField(vs[0], k) })
		if shared[k] && serverField(vs[0], k) != "" {
			row("  "+k, "%s", serverField(vs[0], k))
		}
	}
	var commonEnv, commonVars map[string]string
	if len(vs) > 1 {
		commonEnv = commonPairs(orig.Variants, func(v plans.Variant) map[string]string { return v.Env })
		commonVars = commonPairs(orig.Variants, func(v plans.Variant) map[string]string { return v.Vars })
	}
	if len(commonEnv) > 0 {
		row("  env", "%s (every variant)", pairsText(only(vs[0].Env, commonEnv)))
	}
	if len(commonVars) > 0 {
		row("  vars", "%s", pairsText(only(vs[0].Vars, commonVars)))
	}
	for i, v := range vs {
		if p.Searched(i) && i > p.Search.First {
			continue // one searched value stands for all
		}
		series := "" // the sweep or search the variant comes from
		switch sr := p.Search; {
		case p.Searched(i):
			series = fmt.Sprintf("  [search %s: %s over %d values %s … %s; shown for %s]",
				sr.Series, sr.Key, sr.Points, sr.Value(p, 0), sr.Value(p, sr.Points-1), pairsText(v.Sweep))
		case v.Series != "":
			series = "  [" + v.Series + ": " + pairsText(v.Sweep) + "]"
		}
		row(first(i, "variants"), "%s%s%s", v.Name, baselineMark(p, i), series)
		row("", "  env     %s", cmp.Or(pairsText(v.Env, commonEnv), "(none added)"))
		if vars := pairsText(v.Vars, commonVars, v.Sweep); vars != "" {
			row("", "  vars    %s", vars)
		}
		for _, k := range serverKeys {
			if !shared[k] && serverField(v, k) != "" {
				row("", "  %-7s %s", k, serverField(v, k))
			}
		}
	}
}

// baselineMark is " (baseline)" for the baseline variant i, else "".
func baselineMark(p *plans.Plan, i int) string {
	if p.Variants[i].Name == p.Baseline || p.Baseline == "" && i == 0 {
		return " (baseline)"
	}
	return ""
}

// describeSpeed writes the speed commands: once when every variant runs
// the same ones, else per variant.
func describeSpeed(row rowFunc, p *plans.Plan) {
	text := func(v plans.Variant) []string {
		out := make([]string, len(v.Speed))
		for i, s := range v.Speed {
			out[i] = fmt.Sprintf("%s  (timeout %s)", s.Command, s.Timeout)
		}
		return out
	}
	vs := p.Variants
	if !slices.ContainsFunc(vs, func(v plans.Variant) bool { return len(v.Speed) > 0 }) {
		return
	}
	when := "once per variant, with its env, while the server is stopped"
	if p.Server == nil {
		when = "once per variant, with its env"
	}
	row("speed", "%s", when)
	shared := !slices.ContainsFunc(vs, func(v plans.Variant) bool { return !slices.Equal(text(v), text(vs[0])) })
	if shared {
		vs = vs[:1]
	}
	for _, v := range vs {
		indent := "  "
		if !shared {
			row("", "  %s:", v.Name)
			indent = "    "
		}
		for _, l := range text(v) {
			row("", "%s%s", indent, l)
		}
	}
}

// maxListedSteps bounds the steps Describe lists one by one; a longer
// schedule shows its first 190 and last 10 steps around a count.
const maxListedSteps = 200

// describeSchedule writes the order of the measured windows.
func describeSchedule(row rowFunc, p *plans.Plan) {
	cool := "no cooldown"
	if p.Cooldown > 0 {
		cool = "cooldown " + p.Cooldown.String() + " between windows"
	}
	window := fmt.Sprintf("warm-up %s, measure %s", p.Load.Warmup, p.Load.Duration)
	if slices.ContainsFunc(p.Variants, func(v plans.Variant) bool { return len(v.Probes) > 0 }) {
		window = fmt.Sprintf("warm-up %s, read probes, measure %s, read probes", p.Load.Warmup, p.Load.Duration)
	}
	if q := p.Quiet; q != nil {
		window = fmt.Sprintf("wait until others take under %s of the CPUs for %s (at most %s), %s", numfmt.Percent(q.MaxOther), q.For, q.Timeout, window)
	}
	order := cmp.Or(p.Order, results.OrderSequential)
	restart, end := "the server is not restarted by kaeload", "; stop at the end"
	switch {
	case p.Server == nil:
		end = ""
	case p.Order == results.OrderInterleaved || p.Order == results.OrderRandomized:
		restart = "before every window: stop, start with the variant's env, wait until ready"
	default:
		restart = "before each variant's first window: stop, start with its env, wait until ready"
	}
	row("order", "%s, %s; %s", order, cool, restart)
	row("", "each window: %s%s", window, end)
	switch {
	case p.Order == results.OrderRandomized && p.SeedSet:
		row("", "randomized blocks: every round runs each variant once, in a random order per round; seed %d", p.Seed)
	case p.Order == results.OrderRandomized:
		row("", "randomized blocks: every round runs each variant once, in a random order per round; no seed given: each run draws one, prints and stores it (replay with --seed N); listed as seed 0 would order")
	case p.Order == results.OrderSequential && len(p.Variants) > 1:
		row("", "sequential: drift of the machine over time is not controlled (each variant's windows run together)")
	}
	if sr := p.Search; sr != nil {
		budget := fmt.Sprintf("%d windows", sr.Budget)
		if sr.BudgetTime > 0 {
			budget = fmt.Sprintf("%s = %d windows of %s", sr.BudgetTime, sr.Budget, p.Load.Warmup+p.Load.Duration+p.Cooldown)
		}
		row("search", "%s: %s over %d values (%s … %s), maximize %s, budget %s (the full grid: %d windows); after the other variants' windows",
			sr.Series, sr.Key, sr.Points, sr.Value(p, 0), sr.Value(p, sr.Points-1), sr.Maximize, budget, sr.Points)
		row("", "each window: the value the search picks from the windows so far; the server restarted with its env")
		row("", "worst case: %s of windows, plus server restarts", sr.WorstCase(p))
	}
	describeSteps(row, p)
}

// describeSteps lists the steps, several to a line of at most 90 bytes.
func describeSteps(row rowFunc, p *plans.Plan) {
	var line strings.Builder
	n := 0
	flush := func() {
		if line.Len() > 0 {
			row(first(n, "schedule"), "%s", line.String())
			n++
			line.Reset()
		}
	}
	steps := p.Steps()
	for i, st := range steps {
		if len(steps) > maxListedSteps && i >= maxListedSteps-10 && i < len(steps)-10 {
			if i == maxListedSteps-10 {
				flush()
				row(first(n, "schedule"), "… %d more steps …", len(steps)-maxListedSteps)
				n++
			}
			continue
		}
		item := fmt.Sprintf("%d. %s rep %d/%d", i+1, p.Variants[st.Variant].Name, st.Rep+1, p.Repeat)
		if line.Len() > 0 && line.Len()+2+len(item) > 90 {
			flush()
		}
		if line.Len() > 0 {
			line.WriteString("  ")
		}
		line.WriteString(item)
	}
	flush()
}

// first returns k for the first row of a block and "" for the others.
func first(i int, k string) string {
	if i == 0 {
		return k
	}
	return ""
}

// commonPairs returns the entries every variant's map holds with the same value.
func commonPairs(vs []plans.Variant, get func(plans.Variant) map[string]string) map[string]string {
	out := maps.Clone(get(vs[0]))
	for _, v := range vs[1:] {
		maps.DeleteFunc(out, func(k, val string) bool { x, ok := get(v)[k]; return !ok || x != val })
	}
	return out
}

// pairsText writes m as sorted "k=v" pairs, leaving out the keys of skip
// (what every variant shares, a variant's sweep values).
func pairsText(m map[string]string, skip ...map[string]string) string {
	var out []string
	for _, k := range sortedKeys(m) {
		if slices.ContainsFunc(skip, func(s map[string]string) bool { _, ok := s[k]; return ok }) {
			continue
		}
		v := m[k]
		if !utf8.ValidString(v) || strings.ContainsFunc(v, unicode.IsControl) {
			v = strconv.Quote(v) // so that "a\nB=evil" cannot print as a second variable
		}
		out = append(out, k+"="+v)
	}
	return strings.Join(out, " ")
}

// only returns the entries of m whose keys keys has.
func only(m, keys map[string]string) map[string]string {
	out := make(map[string]string, len(keys))
	for k := range keys {
		if v, ok := m[k]; ok {
			out[k] = v
		}
	}
	return out
}

// probesText writes probes as "name: command (pattern `re`)", "; " between.
func probesText(ps []plans.Probe) string {
	return joinMap(ps, "; ", func(p plans.Probe) string {
		if p.Pattern != "" {
			return p.Name + ": " + p.Command + " (pattern `" + p.Pattern + "`)"
		}
		return p.Name + ": " + p.Command
	})
}

// joinMap joins f of each x with sep.
func joinMap[T any](xs []T, sep string, f func(T) string) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return strings.Join(out, sep)
}
