package scenarios

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Scenario is a scenario file as written: every key known and every scalar
// of the right type, no defaults applied, no value checked (Compile's job).
// A nil pointer, slice or map is a key left out. The yaml tags are the
// file's keys; docs/scenario.md describes each one.
type Scenario struct {
	// Version is the format version; only 1 exists.
	Version *int `yaml:"version"`
	// Name names the scenario in results; defaults to the file name without
	// its extension.
	Name *string `yaml:"name"`
	// Vars are named values, written {name} in variant names, env values,
	// server commands, probe commands, target.url and server.ready.
	Vars map[string]string `yaml:"vars"`
	// Target is the server under test and the request sent to it.
	Target *TargetSpec `yaml:"target"`
	// Load shapes the load: connection mode, window, worker groups.
	Load *LoadSpec `yaml:"load"`
	// Repeat is the number of measured windows per variant (default 1),
	// or auto: measure the baseline first and choose (RepeatSpec).
	Repeat *RepeatSpec `yaml:"repeat"`
	// Seed seeds the randomized order (default: drawn by each run).
	Seed *uint64 `yaml:"seed"`
	// Equivalence is the margin of the equivalence verdicts (default 2%).
	Equivalence *Fraction `yaml:"equivalence"`
	// MaxErrors is the error share above which a repetition is marked
	// failed (default 1%).
	MaxErrors *Fraction `yaml:"max_errors"`
	// ExcludeFlagged is how many windows per variant may be set aside and
	// measured again because they measured the client or shared CPUs
	// (default 0: none).
	ExcludeFlagged *int `yaml:"exclude_flagged"`
	// Order is "randomized" (default), "interleaved" or "sequential".
	Order *string `yaml:"order"`
	// Cooldown is the pause between measured windows (default 0).
	Cooldown *time.Duration `yaml:"cooldown"`
	// Metrics serves live metrics while the run goes on (MetricsSpec).
	Metrics *MetricsSpec `yaml:"metrics"`
	// Quiet waits for a quiet machine before each window (QuietSpec).
	Quiet *QuietSpec `yaml:"quiet"`
	// Server says how to start, stop and check the server between variants.
	Server *ServerSpec `yaml:"server"`
	// Variants are the server configurations to compare.
	Variants []VariantSpec `yaml:"variants"`
	// Baseline names the variant the others are compared with.
	Baseline *string `yaml:"baseline"`
	// Speed lists crypto micro-benchmarks run once per variant.
	Speed []SpeedSpec `yaml:"speed"`
	// Thresholds are pass/fail criteria checked per variant after the run
	// ("req/s >= 100000", "p99 handshake < 20ms"; ParseThreshold).
	Thresholds []string `yaml:"thresholds"`
	// SSHOptions are extra OpenSSH client options (-o Key=Value), in the
	// order written, for every ssh:// host of the scenario.
	SSHOptions Pairs `yaml:"ssh_options"`
	// Binaries maps a platform ("linux/arm64") to a kaeload binary built
	// for it, uploaded to remote hosts of that platform.
	Binaries map[string]string `yaml:"binaries"`

	file string         // name used in messages
	dir  string         // directory relative file names (tls.ca) are read from
	abs  string         // absolute dir, the builtin {scenario_dir}
	pos  map[string]pos // where each field path's value came from

	// parseErrs are the values Parse could not decode; Compile reports
	// them with its own problems. dropped holds their field paths (and
	// those of failed Sets): the values left out.
	parseErrs []*Error
	dropped   map[string]bool

	extraThresholds []string // --threshold expressions (AddThreshold)
}

// MetricsSpec is the scenario's metrics section: the live metrics
// endpoint (plans.Metrics).
type MetricsSpec struct {
	// Listen is the host:port /metrics is served on.
	Listen *string `yaml:"listen"`
	// Wait holds the first load until a scrape read the zeros, at most this long.
	Wait *time.Duration `yaml:"wait"`
	// Linger bounds the wait for a scrape of the final values.
	Linger *time.Duration `yaml:"linger"`
}

// QuietSpec is the scenario's quiet section (plans.Quiet); {} for the
// defaults (plans.DefaultQuiet).
type QuietSpec struct {
	// MaxOther is the share of the watched CPUs other processes may take.
	MaxOther *Fraction `yaml:"max_other"`
	// For is how long they must stay under it.
	For *time.Duration `yaml:"for"`
	// Timeout bounds the wait; the window is then measured and flagged.
	Timeout *time.Duration `yaml:"timeout"`
}

// TargetSpec is the scenario's target section.
type TargetSpec struct {
	// URL is an https:// (or http://) URL; exactly one of URL and Builtin.
	URL *string `yaml:"url"`
	// Builtin asks for kaeload's own HTTPS server on a free loopback port.
	Builtin *BuiltinSpec `yaml:"builtin"`
	// Method is the HTTP method (default GET).
	Method *string `yaml:"method"`
	// Headers are extra request headers, sent in the order written.
	Headers Pairs `yaml:"headers"`
	// Body is the request body (sent with Content-Length).
	Body *string `yaml:"body"`
	// TLS holds the client's handshake settings.
	TLS *TLSSpec `yaml:"tls"`
}

// BuiltinSpec is target.builtin.
type BuiltinSpec struct {
	// Cert is the certificate kind: rsa2048 (default), rsa3072, rsa4096,
	// ecdsa-p256 (the default with accel).
	Cert *string `yaml:"cert"`
	// Accel puts a simulated accelerator behind the target's signatures:
	// the keys of kaeload serve --accel (capacity: 600/s, latency: 2ms,
	// soft-cpu, offload-cpu, engines, queue, threshold, mode: async|sync,
	// policy: ratio|overflow), each defaulted by package accel; {} for
	// all defaults. Variants may then set env, vars, sweep and search
	// without a server section: each session gives the accelerator the
	// variant's env (KAE_GO_SOFT_RATIO, KAELOAD_ACCEL), as a restart would.
	Accel map[string]string `yaml:"accel"`
}

// TLSSpec is target.tls.
type TLSSpec struct {
	// MinVersion is "1.2" (default) or "1.3".
	MinVersion *string `yaml:"min_version"`
	// MaxVersion is "1.2" or "1.3" (default).
	MaxVersion *string `yaml:"max_version"`
	// Ciphers are cipher suite names, OpenSSL or IANA spelling.
	Ciphers []string `yaml:"ciphers"`
	// Curves are key-exchange groups (default X25519, P-256).
	Curves []string `yaml:"curves"`
	// Resumption allows session resumption (default false: every handshake is full).
	Resumption *bool `yaml:"resumption"`
	// Verify checks the server's certificate (default false).
	Verify *bool `yaml:"verify"`
	// CA is a PEM file of trusted CAs for Verify, relative to the scenario file.
	CA *string `yaml:"ca"`
	// ServerName is the SNI and verification name (default: the URL's host).
	ServerName *string `yaml:"server_name"`
}

// LoadSpec is the scenario's load section.
type LoadSpec struct {
	// Connection is "close" (default) or "keep-alive".
	Connection *string `yaml:"connection"`
	// Duration is the measured window (default 10s).
	Duration *time.Duration `yaml:"duration"`
	// Warmup precedes the window, not counted (default 1s; 0 allowed).
	Warmup *time.Duration `yaml:"warmup"`
	// Timeout bounds one request (default 10s).
	Timeout *time.Duration `yaml:"timeout"`
	// Interval is the timeline's interval (default 1s; 100ms to 10s).
	Interval *time.Duration `yaml:"interval"`
	// Groups lists the worker groups; at most one of Groups and Layout.
	Groups []GroupSpec `yaml:"groups"`
	// Layout expands a regular layout into groups.
	Layout *LayoutSpec `yaml:"layout"`
	// Rate makes the load an open loop: new connections (keep-alive:
	// requests) per second across all groups, split by CPU share.
	Rate *float64 `yaml:"rate"`
	// Capacity searches each variant's highest rate that meets targets.
	Capacity *CapacitySpec `yaml:"capacity"`
}

// CapacitySpec is load.capacity: the targets a rate must meet and how the
// search steps (see Capacity).
type CapacitySpec struct {
	// P99Handshake is the TLS handshake time the 99th percentile may reach.
	P99Handshake *time.Duration `yaml:"p99_handshake"`
	// P99Total is the request time, from the intended start, the 99th
	// percentile may reach.
	P99Total *time.Duration `yaml:"p99_total"`
	// MaxErrors is the error share a step may have (default: max_errors).
	MaxErrors *Fraction `yaml:"max_errors"`
	// From is the first rate tried (default 1000/s).
	From *float64 `yaml:"from"`
	// Factor multiplies the rate while the targets hold (default 2).
	Factor *float64 `yaml:"factor"`
	// Resolution is where the bisection stops, relative to the rate (default 5%).
	Resolution *Fraction `yaml:"resolution"`
	// Max is the highest rate tried (default 1,000,000/s).
	Max *float64 `yaml:"max"`
	// Window is each step's measured window (default 2s).
	Window *time.Duration `yaml:"window"`
}

// GroupSpec is one entry of load.groups.
type GroupSpec struct {
	// CPUs is a taskset-style CPU list ("0-9,20-29"); absent = unpinned.
	CPUs *string `yaml:"cpus"`
	// Threads is the group's GOMAXPROCS (default: its CPU count).
	Threads *int `yaml:"threads"`
	// Connections is the number of concurrent connections (default 16).
	Connections *int `yaml:"connections"`
	// Rate is this group's open-loop rate per second; given for one group,
	// it must be given for every group, and load.rate left out.
	Rate *float64 `yaml:"rate"`
	// Host is where the group runs: local (default), ssh://[user@]host[:port]
	// or a host name from the ssh config.
	Host *string `yaml:"host"`
}

// LayoutSpec is load.layout: Groups groups of CPUsPerGroup consecutive CPUs
// starting at FirstCPU, each with the same Threads and Connections.
type LayoutSpec struct {
	// Groups is the number of groups (required).
	Groups *int `yaml:"groups"`
	// CPUsPerGroup is the number of CPUs in each group (required).
	CPUsPerGroup *int `yaml:"cpus_per_group"`
	// FirstCPU is the first group's first CPU (default 0).
	FirstCPU *int `yaml:"first_cpu"`
	// Threads is each group's GOMAXPROCS (default CPUsPerGroup).
	Threads *int `yaml:"threads"`
	// Connections is each group's concurrent connections (default 16).
	Connections *int `yaml:"connections"`
	// Hosts repeats the layout on each host listed (local, ssh://… or an
	// ssh config name); default: this machine only.
	Hosts []string `yaml:"hosts"`
}

// VariantSpec is one entry of variants.
type VariantSpec struct {
	// Name identifies the variant; unique. A swept variant's name is a
	// template that uses every sweep key, e.g. kae-soft-{ratio}.
	Name *string `yaml:"name"`
	// Env is added to the server's environment, over server.env.
	Env map[string]EnvValue `yaml:"env"`
	// Vars are this variant's named values, over the top-level vars.
	Vars map[string]string `yaml:"vars"`
	// Start, Stop and Reload override server.start, server.stop and
	// server.reload for this variant.
	Start  *string `yaml:"start"`
	Stop   *string `yaml:"stop"`
	Reload *string `yaml:"reload"`
	// Sweep expands the entry into one variant per value (per combination
	// of values, for several keys).
	Sweep Sweep `yaml:"sweep"`
	// Search searches one variable for the value that is best by an
	// objective, measuring only the values the search picks (see
	// SearchSpec); not together with Sweep.
	Search *SearchSpec `yaml:"search"`
}

// SearchSpec is variants[].search: the searched variable, written like a
// sweep parameter ({ratio: {from: 0, to: 100, step: 1}}), the objective
// and the budget.
type SearchSpec struct {
	// Param is the searched variable (Key and its grid); nil when the
	// mapping names none.
	Param *SweepParam
	// Maximize is the objective as written (req/s by default).
	Maximize *string
	// Budget bounds the measured windows: a count or a duration.
	Budget *BudgetSpec
	// Start is "predicted" to start from the soft-ratio prediction, or
	// "coarse" (the default).
	Start *string
}

// BudgetSpec is search.budget: a whole number of windows, or a duration
// that Compile turns into windows.
type BudgetSpec struct {
	Windows  *int
	Duration *time.Duration
}

// Sweep is variants[].sweep: the swept parameters in the order written.
// With several, the first varies slowest (a cartesian product).
type Sweep []SweepParam

// SweepParam is one swept parameter: a list of values or a range.
type SweepParam struct {
	// Key is the parameter's name, used as {key}.
	Key string
	// Values are the listed values as written (numbers or strings); nil
	// when Range is given.
	Values []string
	// Range is the {from, to, step} form; nil when Values are listed.
	Range *RangeSpec
}

// RangeSpec is a sweep range: from, from+step, … up to and including to.
type RangeSpec struct {
	// From is the first value.
	From *float64 `yaml:"from"`
	// To is the last value (included when the steps land on it).
	To *float64 `yaml:"to"`
	// Step is the increment, > 0.
	Step *float64 `yaml:"step"`
}

// ServerSpec is the server section: how kaeload starts, stops and checks
// the server under test between variants.
type ServerSpec struct {
	// Host is "local" (default), ssh://[user@]host[:port] or a host name
	// from the ssh config: where the commands run.
	Host *string `yaml:"host"`
	// Start is the shell command that starts the server (required, unless
	// every variant gives its own).
	Start *string `yaml:"start"`
	// Stop is the shell command that stops the server.
	Stop *string `yaml:"stop"`
	// Reload is the shell command that reloads the server's configuration.
	Reload *string `yaml:"reload"`
	// Env is every variant's server environment, under the variant's env.
	Env map[string]EnvValue `yaml:"env"`
	// Ready says how to tell the server is up (default: TCP connect to the
	// target's address).
	Ready *ReadySpec `yaml:"ready"`
	// CommandTimeout bounds stop, reload and probe commands (default 60s).
	CommandTimeout *time.Duration `yaml:"command_timeout"`
	// Probes are commands read before and after each measured window.
	Probes []ProbeSpec `yaml:"probes"`
	// Info are commands whose output records the server's software with
	// each variant (default for nginx: nginx -V and openssl version;
	// [] for none).
	Info []string `yaml:"info"`
	// Profile profiles the server with perf during every measured window
	// (where its CPU went: by library, by function, folded stacks).
	Profile *bool `yaml:"profile"`
	// ProfileCrypto lists the library name prefixes whose samples are the
	// crypto share (default results.DefaultCryptoLibraries).
	ProfileCrypto []string `yaml:"profile_crypto"`
}

// ReadySpec is server.ready: one of TCP, TLS and HTTPS.
type ReadySpec struct {
	// TCP is a host:port that accepts connections once the server is up.
	TCP *string `yaml:"tcp"`
	// TLS is a host:port that completes a TLS handshake once the server is up.
	TLS *string `yaml:"tls"`
	// HTTPS is a URL that answers a GET (any status) once the server is up.
	HTTPS *string `yaml:"https"`
	// Timeout bounds the wait (default 30s).
	Timeout *time.Duration `yaml:"timeout"`
	// Interval is the pause between attempts (default 100ms).
	Interval *time.Duration `yaml:"interval"`
}

// ProbeSpec is one entry of server.probes.
type ProbeSpec struct {
	// Name labels the reading in results; unique.
	Name *string `yaml:"name"`
	// Command prints the number, e.g. a hardware request counter.
	Command *string `yaml:"command"`
	// Pattern is a Go regular expression with at most one group that
	// selects the number; default: the first number printed.
	Pattern *string `yaml:"pattern"`
}

// SpeedSpec is one entry of the speed section: a crypto micro-benchmark
// run once per variant, with the variant's env, on the server host.
type SpeedSpec struct {
	// Command is the micro-benchmark command line (openssl speed, bssl
	// speed, gmssl speed), run with sh -c; {name} is expanded per variant.
	Command *string `yaml:"command"`
	// Timeout bounds the command (default DefaultSpeedTimeout).
	Timeout *time.Duration `yaml:"timeout"`
}

// EnvValue is one entry of server.env or variants[].env: a plain string,
// or {value: …, secret: true} for a value never shown (Plan.Redacted).
type EnvValue struct {
	// Value is the variable's value, {name} expanded; nil when the
	// mapping form leaves it out (an error).
	Value *string `yaml:"value"`
	// Secret marks Value secret (default false).
	Secret *bool `yaml:"secret"`
}

// secret reports whether the entry is marked secret.
func (e EnvValue) secret() bool { return e.Secret != nil && *e.Secret }

// RepeatSpec is repeat: a whole number of windows per variant, the word
// auto, or {effect, max, calibrate} (AutoSpec).
type RepeatSpec struct {
	// Count is the number when one was written.
	Count *int
	// Auto is set for auto or the mapping form.
	Auto *AutoSpec
}

// AutoSpec is repeat's mapping form.
type AutoSpec struct {
	// Effect is the difference to detect (default: equivalence).
	Effect *Fraction `yaml:"effect"`
	// Max caps the repetitions per variant (default 10).
	Max *int `yaml:"max"`
	// Calibrate is the baseline windows measured first (default 5).
	Calibrate *int `yaml:"calibrate"`
}

// Fraction is a share from 0 to 1, written as a percentage ("1%", "0.5%")
// or as a plain fraction below 1 (0.01). A plain 1 or more is refused as
// ambiguous (1 for "1%"?): write 100% for the whole.
type Fraction float64

// Pair is one name/value entry of an ordered mapping.
type Pair struct {
	// Key is the entry's name.
	Key string
	// Value is the entry's value.
	Value string
}

// Pairs is a YAML mapping of strings that keeps the order it was written in.
type Pairs []Pair

// maxFileSize bounds what Load reads: a scenario is a few kilobytes.
const maxFileSize = 4 << 20

// LoadFile reads and parses the scenario file at path, as Parse does;
// errors read "path:line:col: field.path: message".
func LoadFile(path string) (*Scenario, error) {
	data, err := readSmallFile(path, maxFileSize)
	if err != nil {
		return nil, fmt.Errorf("read scenario: %w", err)
	}
	return Parse(path, data)
}

// readSmallFile reads a regular file of at most limit bytes.
func readSmallFile(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, limit)
	}
	return data, nil
}

// Parse parses a scenario from data; name is the file name used in messages
// and the directory relative names (tls.ca) are read from. It reports every
// unknown key and wrongly typed value at once; value checks are Compile's.
// When the YAML is well-formed the scenario comes back with the error, the
// values in error left out, so that Compile reports all problems together;
// it is nil when the text is not YAML or its aliases expand beyond reason.
func Parse(name string, data []byte) (*Scenario, error) {
	s := &Scenario{file: name, dir: filepath.Dir(name), abs: absDir(name), pos: make(map[string]pos), dropped: make(map[string]bool)}
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &Error{File: name, Msg: "empty scenario (want a mapping with at least target)"}
		}
		return nil, syntaxError(name, data, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, &Error{File: name, Line: extra.Line, Col: extra.Column, Msg: "more than one YAML document (remove the second ---)"}
	} else if !errors.Is(err, io.EOF) {
		return nil, syntaxError(name, data, err)
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	d := &decoder{file: name, pos: s.pos, dropped: s.dropped}
	d.decode("", root, reflect.ValueOf(s).Elem())
	if d.visits > maxVisits {
		// Not worth compiling: most of it was not even read.
		return nil, errors.Join(d.errs...)
	}
	if len(d.errs) > 0 {
		for _, e := range d.errs {
			s.parseErrs = append(s.parseErrs, e.(*Error))
		}
		return s, errors.Join(d.errs...)
	}
	return s, nil
}

// absDir is the absolute directory of the file name, for {scenario_dir}.
func absDir(name string) string {
	dir, err := filepath.Abs(filepath.Dir(name))
	if err != nil {
		return filepath.Dir(name)
	}
	return dir
}

var lineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// syntaxError turns a yaml.v3 error ("yaml: line 3: …") into an *Error with
// the file name, line and column; a tab in the indentation is named as such.
func syntaxError(name string, data []byte, err error) error {
	if e := badChar(name, data); e != nil {
		return e
	}
	msg := err.Error()
	m := lineRE.FindStringSubmatch(msg)
	if m == nil {
		return &Error{File: name, Msg: "YAML: " + strings.TrimPrefix(msg, "yaml: ")}
	}
	line, _ := strconv.Atoi(m[1])
	e := &Error{File: name, Line: line, Col: 1, Msg: "YAML: " + m[2]}
	lines := strings.Split(string(data), "\n")
	if line >= 1 && line <= len(lines) {
		text := lines[line-1]
		indent := text[:len(text)-len(strings.TrimLeft(text, " \t"))]
		if i := strings.IndexByte(indent, '\t'); i >= 0 {
			e.Col = i + 1
			e.Msg = "tab character in indentation (YAML indents with spaces only)"
		}
	}
	return e
}

// badChar is the first byte YAML refuses outright (invalid UTF-8, or a
// control character other than tab, newline and carriage return) at its
// line and column, which yaml.v3 does not give; nil when there is none.
func badChar(name string, data []byte) *Error {
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return &Error{File: name, Line: line, Col: col, Msg: fmt.Sprintf("YAML: byte 0x%02x is not UTF-8", data[i])}
		case r == '\n':
			line, col = line+1, 0
		case r != '\t' && r != '\r' && unicode.IsControl(r) && r != 0x85:
			return &Error{File: name, Line: line, Col: col, Msg: fmt.Sprintf("YAML: control character %U is not allowed", r)}
		}
		i += size
		col++
	}
	return nil
}
