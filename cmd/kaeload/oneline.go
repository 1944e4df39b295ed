package main

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/kaeload/kaeload/scenarios"
)

// oneLine holds the flags of one-line mode ("kaeload run URL -c 200 -d
// 60s"), which writes a scenario from them: the YAML text that
// --print-scenario shows is what is compiled, through the same path as a
// scenario file, so a quick test grows into a file without a difference.
type oneLine struct {
	name       string
	conns      int
	threads    int
	duration   time.Duration
	warmup     time.Duration
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
}

// oneLineFlags are the flags that only one-line mode takes.
var oneLineFlags = map[string]bool{
	"c": true, "t": true, "d": true, "warmup": true, "cpus": true, "groups": true, "cpus-per-group": true, "first-cpu": true,
	"H": true, "keepalive": true, "tls-version": true, "ciphers": true, "curves": true, "insecure": true, "name": true, "print-scenario": true,
}

// register adds the one-line flags to fs.
func (o *oneLine) register(fs *flag.FlagSet) {
	fs.StringVar(&o.name, "name", "oneline", "URL mode: the run's name")
	fs.IntVar(&o.conns, "c", 0, "URL mode: concurrent connections per group (default 16)")
	fs.IntVar(&o.threads, "t", 0, "URL mode: threads (GOMAXPROCS) per group (default: the group's CPU count)")
	fs.DurationVar(&o.duration, "d", 0, "URL mode: the measured window (default 10s)")
	fs.DurationVar(&o.warmup, "warmup", -1, "URL mode: load before the window, not counted (default 1s)")
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
}

// isURL reports whether a run's argument is a URL rather than a file.
func isURL(arg string) bool {
	return strings.HasPrefix(arg, "https://") || strings.HasPrefix(arg, "http://")
}

// The generated scenario, in the order a person would write it.
type olScenario struct {
	Name   string   `yaml:"name"`
	Target olTarget `yaml:"target"`
	Load   olLoad   `yaml:"load"`
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
	Threads     int    `yaml:"threads,omitempty"`
	Connections int    `yaml:"connections,omitempty"`
}

type olLayout struct {
	Groups       int `yaml:"groups"`
	CPUsPerGroup int `yaml:"cpus_per_group"`
	FirstCPU     int `yaml:"first_cpu,omitempty"`
	Threads      int `yaml:"threads,omitempty"`
	Connections  int `yaml:"connections,omitempty"`
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

// scenarioYAML writes the scenario the flags describe for url. Values
// are checked by Compile, as a file's would be; only what the flags
// themselves cannot say (a header without a colon, --cpus with --groups)
// is an error here.
func (o *oneLine) scenarioYAML(url string) (string, error) {
	sc := olScenario{Name: o.name, Target: olTarget{URL: url}, Load: olLoad{Connection: "close"}}
	if o.keepalive {
		sc.Load.Connection = "keep-alive"
	}
	if len(o.headers) > 0 {
		m := &yaml.Node{Kind: yaml.MappingNode}
		for _, h := range o.headers {
			name, value, ok := strings.Cut(h, ":")
			if name = strings.TrimSpace(name); !ok || name == "" {
				return "", fmt.Errorf("-H %q: want \"Name: value\"", h)
			}
			m.Content = append(m.Content,
				&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name},
				&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: strings.TrimSpace(value)})
		}
		sc.Target.Headers = m
	}
	var tls olTLS
	switch v := o.tlsVersion; v {
	case "":
	case "1.2", "1.3":
		tls.MinVersion, tls.MaxVersion = v, v
	case "1.2-1.3":
		tls.MinVersion, tls.MaxVersion = "1.2", "1.3"
	default:
		return "", fmt.Errorf("--tls-version %q: want 1.2, 1.3 or 1.2-1.3", v)
	}
	tls.Ciphers, tls.Curves = splitList(o.ciphers), splitList(o.curves)
	if o.insecure {
		f := false
		tls.Verify = &f
	}
	if tls.MinVersion != "" || tls.Ciphers != nil || tls.Curves != nil || tls.Verify != nil {
		sc.Target.TLS = &tls
	}
	if o.duration != 0 {
		sc.Load.Duration = o.duration.String()
	}
	if o.warmup >= 0 {
		sc.Load.Warmup = o.warmup.String()
	}
	switch {
	case o.groups != 0 || o.perGroup != 0:
		if o.cpus != "" {
			return "", fmt.Errorf("--cpus and --groups: give one of them")
		}
		sc.Load.Layout = &olLayout{Groups: o.groups, CPUsPerGroup: o.perGroup, FirstCPU: o.firstCPU, Threads: o.threads, Connections: o.conns}
	case o.cpus != "":
		for _, list := range splitList(o.cpus) {
			sc.Load.Groups = append(sc.Load.Groups, olGroup{CPUs: strings.ReplaceAll(list, "+", ","), Threads: o.threads, Connections: o.conns})
		}
		if len(sc.Load.Groups) == 0 {
			return "", fmt.Errorf("--cpus %q names no CPU list", o.cpus)
		}
	case o.threads != 0 || o.conns != 0:
		sc.Load.Groups = []olGroup{{Threads: o.threads, Connections: o.conns}}
	}
	var b strings.Builder
	b.WriteString("# Written by kaeload run --print-scenario: run it with \"kaeload run FILE\".\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(sc); err != nil {
		return "", err
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return b.String(), nil
}

// oneLineSource names the generated scenario in messages.
const oneLineSource = "kaeload-run-url.yaml"

// compileOneLine writes the scenario for url and compiles it exactly as
// a file holding that text: it returns the plan and the text.
func compileOneLine(o *oneLine, url string, sets setFlags, thresholds []string, planning bool) (*scenarios.Plan, string, error) {
	text, err := o.scenarioYAML(url)
	if err != nil {
		return nil, "", usageError(fmt.Errorf("run: %w", err))
	}
	sc, err := scenarios.Parse(oneLineSource, []byte(text))
	if sc == nil {
		return nil, text, invalid(err)
	}
	plan, err := compileScenario(sc, sets, thresholds, planning)
	return plan, text, err
}
