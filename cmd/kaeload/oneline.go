package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/scenarios"
	"github.com/kaeload/kaeload/scenarios/plans"
	"gopkg.in/yaml.v3"
)

// oneLine holds the flags of one-line mode ("kaeload run URL -c 200 -d
// 60s"), which writes a scenario from them: the YAML text that
// --print-scenario shows is what is compiled, through the same path as a
// scenario file, so a quick test grows into a file without a difference.
type oneLine struct {
	name       string
	conns      optInt
	threads    optInt
	duration   optDuration
	warmup     optDuration
	cpus       string
	groups     int
	perGroup   int
	firstCPU   int
	headers    stringsFlag
	keepalive  bool
	tlsVersion string
	ciphers    string
	curves     string
	insecure   bool
	print      bool
	profile    bool
}

// oneLineFlags are the flags that only one-line mode takes.
var oneLineFlags = map[string]bool{
	"c": true, "t": true, "d": true, "warmup": true, "cpus": true, "groups": true, "cpus-per-group": true, "first-cpu": true,
	"H": true, "keepalive": true, "tls-version": true, "ciphers": true, "curves": true, "insecure": true, "name": true, "print-scenario": true,
	"server-profile": true,
}

// register adds the one-line flags to fs.
func (o *oneLine) register(fs *flag.FlagSet) {
	fs.StringVar(&o.name, "name", "oneline", "URL mode: the run's name")
	fs.Var(&o.conns, "c", "URL mode: `n` concurrent connections per group (default 16)")
	fs.Var(&o.threads, "t", "URL mode: `n` threads (GOMAXPROCS) per group (default: the group's CPU count)")
	fs.Var(&o.duration, "d", "URL mode: the measured window, a `duration` (default 10s; a bare number is seconds, as in wrk: -d 60)")
	fs.Var(&o.warmup, "warmup", "URL mode: load before the window, not counted, a `duration` (default 1s; a bare number is seconds)")
	fs.StringVar(&o.cpus, "cpus", "", `URL mode: one worker group per CPU list, lists separated by commas; "+" joins ranges within a group ("0-9,10-19": two groups; "0-3+8-11": one)`)
	fs.IntVar(&o.groups, "groups", 0, "URL mode: this many groups of --cpus-per-group consecutive CPUs from --first-cpu")
	fs.IntVar(&o.perGroup, "cpus-per-group", 0, "URL mode: CPUs per group, with --groups")
	fs.IntVar(&o.firstCPU, "first-cpu", 0, "URL mode: the first group's first CPU, with --groups")
	fs.Var(&o.headers, "H", `URL mode: a request header "Name: value" (repeatable)`)
	fs.BoolVar(&o.keepalive, "keepalive", false, "URL mode: reuse connections (keep-alive) instead of a new connection and handshake per request")
	fs.StringVar(&o.tlsVersion, "tls-version", "", "URL mode: TLS version: 1.2, 1.3 or 1.2-1.3 (default 1.2-1.3)")
	fs.StringVar(&o.ciphers, "ciphers", "", "URL mode: TLS 1.2 cipher suites, comma-separated, OpenSSL or IANA names")
	fs.StringVar(&o.curves, "curves", "", "URL mode: key-exchange groups, comma-separated (default X25519,P-256)")
	fs.BoolVar(&o.insecure, "insecure", false, "URL mode: do not verify the server's certificate (kaeload's default; accepted for curl and hey habits)")
	fs.BoolVar(&o.print, "print-scenario", false, "URL mode: print the scenario the flags make (YAML) and exit")
	fs.BoolVar(&o.profile, "server-profile", false, "URL mode: profile the server listening on the URL's port (on this machine) with perf during the window (server.profile: true)")
}

// optInt is a number flag that knows whether it was given: "-c 0" must
// reach the checks (and be refused there, naming the flag) rather than
// read as "not given, use the default".
type optInt struct {
	n   int
	set bool
}

func (o *optInt) String() string {
	if o == nil || !o.set {
		return ""
	}
	return strconv.Itoa(o.n)
}

func (o *optInt) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("want a whole number")
	}
	o.n, o.set = n, true
	return nil
}

// ptr is the value for the generated scenario: nil when not given.
func (o *optInt) ptr() *int {
	if !o.set {
		return nil
	}
	n := o.n
	return &n
}

// optDuration is a duration flag that knows whether it was given, as
// optInt.
type optDuration struct {
	d   time.Duration
	set bool
}

func (o *optDuration) String() string {
	if o == nil || !o.set {
		return ""
	}
	return o.d.String()
}

// Set takes a Go duration ("30s", "2m") or, as wrk's -d does, a bare
// number of seconds ("60", "0.5").
func (o *optDuration) Set(s string) error {
	d, err := parseFlagDuration(s)
	if err != nil {
		return err
	}
	o.d, o.set = d, true
	return nil
}

// parseFlagDuration reads a duration flag's value: a Go duration or a
// bare, non-negative number of seconds.
func parseFlagDuration(s string) (time.Duration, error) {
	if d, err := time.ParseDuration(s); err == nil {
		return d, nil
	}
	if sec, err := strconv.ParseFloat(s, 64); err == nil && sec >= 0 && sec <= float64(math.MaxInt64/int64(time.Second)) && !strings.ContainsAny(s, "eEpPxX_+") {
		return time.Duration(sec * float64(time.Second)), nil
	}
	return 0, fmt.Errorf("want a duration such as 30s or 2m, or a number of seconds such as 60")
}

// isURL reports whether a run's argument is a URL rather than a file.
func isURL(arg string) bool {
	return strings.HasPrefix(arg, "https://") || strings.HasPrefix(arg, "http://")
}

// The generated scenario, in the order a person would write it.
type olScenario struct {
	Name   string    `yaml:"name"`
	Target olTarget  `yaml:"target"`
	Load   olLoad    `yaml:"load"`
	Server *olServer `yaml:"server,omitempty"`
}

// olServer is the server section --server-profile writes: a server
// kaeload does not start, profiled.
type olServer struct {
	Profile bool `yaml:"profile"`
}

type olTarget struct {
	URL     string     `yaml:"url"`
	Headers *yaml.Node `yaml:"headers,omitempty"`
	TLS     *olTLS     `yaml:"tls,omitempty"`
}

type olTLS struct {
	MinVersion string   `yaml:"min_version,omitempty"`
	MaxVersion string   `yaml:"max_version,omitempty"`
	Ciphers    []string `yaml:"ciphers,omitempty"`
	Curves     []string `yaml:"curves,omitempty"`
	Verify     *bool    `yaml:"verify,omitempty"`
}

type olLoad struct {
	Connection string    `yaml:"connection"`
	Duration   string    `yaml:"duration,omitempty"`
	Warmup     string    `yaml:"warmup,omitempty"`
	Groups     []olGroup `yaml:"groups,omitempty"`
	Layout     *olLayout `yaml:"layout,omitempty"`
}

type olGroup struct {
	CPUs        string `yaml:"cpus,omitempty"`
	Threads     *int   `yaml:"threads,omitempty"`
	Connections *int   `yaml:"connections,omitempty"`
}

type olLayout struct {
	Groups       int  `yaml:"groups"`
	CPUsPerGroup int  `yaml:"cpus_per_group"`
	FirstCPU     int  `yaml:"first_cpu,omitempty"`
	Threads      *int `yaml:"threads,omitempty"`
	Connections  *int `yaml:"connections,omitempty"`
}

// splitList splits a comma-separated flag value, dropping blanks.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// origin is a field path of the generated scenario and the flag that set
// it, as the user would write it: problems there name the flag.
type origin struct{ path, flag string }

// flagArg writes a flag and its value as typed on a command line.
func flagArg(name, value string) string {
	if value == "" || strings.ContainsAny(value, " \t\"'\\$`*?;&|<>()") {
		value = strconv.Quote(value)
	}
	return name + " " + value
}

// durationArg writes d as a person would: 100h, not 100h0m0s.
func durationArg(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// joinFlags joins the flags that are given ("" entries are not).
func joinFlags(flags ...string) string {
	var given []string
	for _, f := range flags {
		if f != "" {
			given = append(given, f)
		}
	}
	return strings.Join(given, " ")
}

// scenarioYAML writes the scenario the flags describe for url, and where
// each of its values came from, from the general path to the particular
// (scenarios.Scenario.FromFlag). Values are checked by Compile, as a
// file's would be; only what the flags themselves cannot say (a header
// without a colon, --cpus with --groups) is an error here.
func (o *oneLine) scenarioYAML(url string) (string, []origin, error) {
	sc := olScenario{Name: o.name, Target: olTarget{URL: url}, Load: olLoad{Connection: "close"}}
	from := []origin{{"", "URL mode"}, {"name", flagArg("--name", o.name)}, {"target", "URL"}}
	// The flags as typed; "" when not given (or at their default).
	arg := func(given bool, name, value string) string {
		if !given {
			return ""
		}
		return flagArg(name, value)
	}
	var (
		conns     = arg(o.conns.set, "-c", strconv.Itoa(o.conns.n))
		threads   = arg(o.threads.set, "-t", strconv.Itoa(o.threads.n))
		duration  = arg(o.duration.set, "-d", durationArg(o.duration.d))
		warmup    = arg(o.warmup.set, "--warmup", durationArg(o.warmup.d))
		cpus      = arg(o.cpus != "", "--cpus", o.cpus)
		groups    = arg(o.groups != 0, "--groups", strconv.Itoa(o.groups))
		perGroup  = arg(o.perGroup != 0, "--cpus-per-group", strconv.Itoa(o.perGroup))
		firstCPU  = arg(o.firstCPU != 0, "--first-cpu", strconv.Itoa(o.firstCPU))
		version   = arg(o.tlsVersion != "", "--tls-version", o.tlsVersion)
		ciphers   = arg(o.ciphers != "", "--ciphers", o.ciphers)
		curves    = arg(o.curves != "", "--curves", o.curves)
		insecure  = map[bool]string{true: "--insecure"}[o.insecure]
		keepalive = map[bool]string{true: "--keepalive"}[o.keepalive]
	)
	from = append(from, origin{"target.url", "URL"})
	if o.keepalive {
		sc.Load.Connection = "keep-alive"
	}
	if len(o.headers) > 0 {
		m := &yaml.Node{Kind: yaml.MappingNode}
		var all []string
		var each []origin
		for _, h := range o.headers {
			name, value, ok := strings.Cut(h, ":")
			if name = strings.TrimSpace(name); !ok || name == "" {
				return "", nil, fmt.Errorf("-H %q: want \"Name: value\"", h)
			}
			m.Content = append(m.Content,
				&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name},
				&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: strings.TrimSpace(value)})
			all = append(all, flagArg("-H", h))
			each = append(each, origin{"target.headers." + name, flagArg("-H", h)})
		}
		sc.Target.Headers = m
		from = append(append(from, origin{"target.headers", strings.Join(all, " ")}), each...)
	}
	var tls olTLS
	switch v := o.tlsVersion; v {
	case "":
	case "1.2", "1.3":
		tls.MinVersion, tls.MaxVersion = v, v
	case "1.2-1.3":
		tls.MinVersion, tls.MaxVersion = "1.2", "1.3"
	default:
		return "", nil, fmt.Errorf("--tls-version %q: want 1.2, 1.3 or 1.2-1.3", v)
	}
	tls.Ciphers, tls.Curves = splitList(o.ciphers), splitList(o.curves)
	if o.insecure {
		f := false
		tls.Verify = &f
	}
	if tls.MinVersion != "" || tls.Ciphers != nil || tls.Curves != nil || tls.Verify != nil {
		sc.Target.TLS = &tls
		from = append(from, origin{"target.tls", joinFlags(version, ciphers, curves, insecure)},
			origin{"target.tls.min_version", version}, origin{"target.tls.max_version", version},
			origin{"target.tls.ciphers", ciphers}, origin{"target.tls.curves", curves},
			origin{"target.tls.verify", insecure})
	}
	if load := joinFlags(keepalive, duration, warmup, cpus, groups, perGroup, firstCPU, threads, conns); load != "" {
		from = append(from, origin{"load", load})
	}
	from = append(from, origin{"load.connection", keepalive})
	if o.duration.set {
		sc.Load.Duration = o.duration.d.String()
		from = append(from, origin{"load.duration", duration})
	}
	if o.warmup.set {
		sc.Load.Warmup = o.warmup.d.String()
		from = append(from, origin{"load.warmup", warmup})
	}
	switch {
	case o.groups != 0 || o.perGroup != 0:
		switch {
		case o.cpus != "":
			return "", nil, fmt.Errorf("--cpus and --groups: give one of them")
		case o.perGroup == 0:
			return "", nil, fmt.Errorf("%s: give --cpus-per-group too (or --cpus)", groups)
		case o.groups == 0:
			return "", nil, fmt.Errorf("%s: give --groups too (or --cpus)", perGroup)
		}
		sc.Load.Layout = &olLayout{Groups: o.groups, CPUsPerGroup: o.perGroup, FirstCPU: o.firstCPU, Threads: o.threads.ptr(), Connections: o.conns.ptr()}
		from = append(from, origin{"load.layout", joinFlags(groups, perGroup, firstCPU)},
			origin{"load.layout.groups", groups}, origin{"load.layout.cpus_per_group", perGroup},
			origin{"load.layout.first_cpu", firstCPU}, origin{"load.layout.threads", threads},
			origin{"load.layout.connections", conns})
	case o.cpus != "":
		for _, list := range splitList(o.cpus) {
			joined := strings.ReplaceAll(list, "+", ",")
			if _, err := pinning.Parse(joined); err != nil {
				// Quote the list as typed, not as rewritten for the file.
				msg := strings.Replace(err.Error(), strconv.Quote(joined), strconv.Quote(list), 1)
				return "", nil, &scenarios.Error{Flag: cpus, Msg: msg}
			}
			sc.Load.Groups = append(sc.Load.Groups, olGroup{CPUs: joined, Threads: o.threads.ptr(), Connections: o.conns.ptr()})
		}
		if len(sc.Load.Groups) == 0 {
			return "", nil, fmt.Errorf("--cpus %q names no CPU list", o.cpus)
		}
		from = append(from, origin{"load.groups", cpus})
	case o.threads.set || o.conns.set:
		sc.Load.Groups = []olGroup{{Threads: o.threads.ptr(), Connections: o.conns.ptr()}}
		from = append(from, origin{"load.groups", joinFlags(threads, conns)})
	}
	for i := range sc.Load.Groups {
		g := fmt.Sprintf("load.groups[%d]", i)
		from = append(from, origin{g + ".cpus", cpus}, origin{g + ".threads", threads}, origin{g + ".connections", conns})
	}
	if o.profile {
		sc.Server = &olServer{Profile: true}
		from = append(from, origin{"server", "--server-profile"}, origin{"server.profile", "--server-profile"})
	}
	var b strings.Builder
	b.WriteString("# Written by kaeload run --print-scenario: run it with \"kaeload run FILE\".\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(sc); err != nil {
		return "", nil, err
	}
	if err := enc.Close(); err != nil {
		return "", nil, err
	}
	var given []origin
	for _, f := range from {
		if f.flag != "" {
			given = append(given, f)
		}
	}
	return b.String(), given, nil
}

// oneLineSource names the generated scenario in the plan (Plan.Source):
// there is no file. Its problems name the flags instead.
const oneLineSource = "URL mode"

// compileOneLine writes the scenario for url and compiles it exactly as
// a file holding that text: it returns the plan and the text. Problems
// name the flag that set the value ("--cpus 0-9,10-19: CPU 2-9 do not
// exist …"), or the --set.
func compileOneLine(o *oneLine, url string, sets setFlags, thresholds []string, planning bool) (*plans.Plan, string, error) {
	text, from, err := o.scenarioYAML(url)
	if se := (*scenarios.Error)(nil); errors.As(err, &se) {
		return nil, "", invalid(err) // a value the scenario would refuse, named by its flag
	}
	if err != nil {
		return nil, "", usageError(fmt.Errorf("run: %w", err))
	}
	sc, err := scenarios.Parse(oneLineSource, []byte(text))
	if sc == nil {
		return nil, text, invalid(err)
	}
	for _, f := range from {
		sc.FromFlag(f.path, f.flag)
	}
	plan, err := compileScenario(sc, sets, thresholds, planning)
	return plan, text, err
}
