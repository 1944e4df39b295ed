package scenarios

import (
	"cmp"
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

// Scenario is a scenario file as written, unchecked and without defaults; a
// nil pointer, slice or map is a key left out. docs/scenario.md has the keys.
type Scenario struct {
	Version        *int              `yaml:"version"`
	Name           *string           `yaml:"name"`
	Vars           map[string]string `yaml:"vars"`
	Target         *TargetSpec       `yaml:"target"`
	Load           *LoadSpec         `yaml:"load"`
	Repeat         *RepeatSpec       `yaml:"repeat"`
	Seed           *uint64           `yaml:"seed"`
	Equivalence    *Fraction         `yaml:"equivalence"`
	MaxErrors      *Fraction         `yaml:"max_errors"`
	ExcludeFlagged *int              `yaml:"exclude_flagged"`
	Order          *string           `yaml:"order"`
	Cooldown       *time.Duration    `yaml:"cooldown"`
	Metrics        *MetricsSpec      `yaml:"metrics"`
	Quiet          *QuietSpec        `yaml:"quiet"`
	Server         *ServerSpec       `yaml:"server"`
	Accelerator    *AcceleratorSpec  `yaml:"accelerator"`
	Variants       []VariantSpec     `yaml:"variants"`
	Baseline       *string           `yaml:"baseline"`
	Speed          []SpeedSpec       `yaml:"speed"`
	Thresholds     []string          `yaml:"thresholds"`
	SSHOptions     Pairs             `yaml:"ssh_options"`
	Binaries       map[string]string `yaml:"binaries"`

	file string           // name used in messages
	abs  string           // absolute dir, the builtin {scenario_dir}
	pos  map[string]Error // where each field path's value came from

	// parseErrs are the values Parse could not decode, reported by Compile;
	// dropped holds their field paths (and those of failed Sets).
	parseErrs []*Error
	dropped   map[string]bool

	extraThresholds []string // --threshold expressions (AddThreshold)
}

// MetricsSpec is the metrics section.
type MetricsSpec struct {
	Listen *string        `yaml:"listen"`
	Wait   *time.Duration `yaml:"wait"`
	Linger *time.Duration `yaml:"linger"`
}

// QuietSpec is the quiet section; {} for plans.DefaultQuiet.
type QuietSpec struct {
	MaxOther *Fraction      `yaml:"max_other"`
	For      *time.Duration `yaml:"for"`
	Timeout  *time.Duration `yaml:"timeout"`
}

// TargetSpec is the target section: exactly one of URL and Builtin.
type TargetSpec struct {
	URL     *string      `yaml:"url"`
	Builtin *BuiltinSpec `yaml:"builtin"`
	Method  *string      `yaml:"method"`
	Headers Pairs        `yaml:"headers"`
	Body    *string      `yaml:"body"`
	TLS     *TLSSpec     `yaml:"tls"`
}

// BuiltinSpec is target.builtin. Accel takes the keys of kaeload serve
// --accel, each defaulted by package accel.
type BuiltinSpec struct {
	Cert  *string           `yaml:"cert"`
	Accel map[string]string `yaml:"accel"`
}

// TLSSpec is target.tls.
type TLSSpec struct {
	MinVersion *string  `yaml:"min_version"`
	MaxVersion *string  `yaml:"max_version"`
	Ciphers    []string `yaml:"ciphers"`
	Curves     []string `yaml:"curves"`
	Resumption *bool    `yaml:"resumption"`
	Verify     *bool    `yaml:"verify"`
	CA         *string  `yaml:"ca"` // relative to the scenario file
	ServerName *string  `yaml:"server_name"`
}

// LoadSpec is the load section; at most one of Groups and Layout.
type LoadSpec struct {
	Connection *string        `yaml:"connection"`
	Duration   *time.Duration `yaml:"duration"`
	Warmup     *time.Duration `yaml:"warmup"`
	Timeout    *time.Duration `yaml:"timeout"`
	Interval   *time.Duration `yaml:"interval"`
	Groups     []GroupSpec    `yaml:"groups"`
	Layout     *LayoutSpec    `yaml:"layout"`
	Rate       *float64       `yaml:"rate"`
	Capacity   *CapacitySpec  `yaml:"capacity"`
}

// CapacitySpec is load.capacity: the targets a rate must meet and how the
// search steps.
type CapacitySpec struct {
	P99Handshake *time.Duration `yaml:"p99_handshake"`
	P99Total     *time.Duration `yaml:"p99_total"`
	MaxErrors    *Fraction      `yaml:"max_errors"`
	From         *float64       `yaml:"from"`
	Factor       *float64       `yaml:"factor"`
	Resolution   *Fraction      `yaml:"resolution"`
	Max          *float64       `yaml:"max"`
	Window       *time.Duration `yaml:"window"`
}

// GroupSpec is one entry of load.groups.
type GroupSpec struct {
	CPUs        *string  `yaml:"cpus"`
	Threads     *int     `yaml:"threads"`
	Connections *int     `yaml:"connections"`
	Rate        *float64 `yaml:"rate"`
	Host        *string  `yaml:"host"`
}

// LayoutSpec is load.layout: Groups groups of CPUsPerGroup consecutive CPUs
// from FirstCPU, on each of Hosts.
type LayoutSpec struct {
	Groups       *int     `yaml:"groups"`
	CPUsPerGroup *int     `yaml:"cpus_per_group"`
	FirstCPU     *int     `yaml:"first_cpu"`
	Threads      *int     `yaml:"threads"`
	Connections  *int     `yaml:"connections"`
	Hosts        []string `yaml:"hosts"`
}

// VariantSpec is one entry of variants. A swept variant's name is a
// template that uses every sweep key, e.g. kae-soft-{ratio}.
type VariantSpec struct {
	Name   *string             `yaml:"name"`
	Env    map[string]EnvValue `yaml:"env"`
	Vars   map[string]string   `yaml:"vars"`
	Start  *string             `yaml:"start"`
	Stop   *string             `yaml:"stop"`
	Reload *string             `yaml:"reload"`
	Sweep  Sweep               `yaml:"sweep"`
	Search *SearchSpec         `yaml:"search"` // not together with Sweep
}

// SearchSpec is variants[].search: its keys, and one more, the searched
// variable, written like a sweep parameter (Param; nil when none).
type SearchSpec struct {
	Param    *SweepParam `yaml:"-"`
	Maximize *string     `yaml:"maximize"`
	Start    *string     `yaml:"start"`
	Budget   BudgetSpec  `yaml:"budget"`
}

// BudgetSpec is search.budget: a number of windows or a duration; neither
// when left out.
type BudgetSpec struct {
	Windows  *int
	Duration *time.Duration
}

// Sweep is variants[].sweep in the order written; the first varies slowest.
type Sweep []SweepParam

// SweepParam is one swept parameter: listed Values or a Range.
type SweepParam struct {
	Key    string
	Values []string // as written
	Range  *RangeSpec
}

// RangeSpec is a sweep range: from, from+step, … up to and including to.
type RangeSpec struct {
	From *float64 `yaml:"from"`
	To   *float64 `yaml:"to"`
	Step *float64 `yaml:"step"`
}

// ServerSpec is the server section.
type ServerSpec struct {
	Host           *string             `yaml:"host"`
	Start          *string             `yaml:"start"`
	Stop           *string             `yaml:"stop"`
	Reload         *string             `yaml:"reload"`
	Env            map[string]EnvValue `yaml:"env"`
	Ready          *ReadySpec          `yaml:"ready"`
	CommandTimeout *time.Duration      `yaml:"command_timeout"`
	Probes         []ProbeSpec         `yaml:"probes"`
	Info           []string            `yaml:"info"` // [] for none
	Profile        *bool               `yaml:"profile"`
	ProfileCrypto  []string            `yaml:"profile_crypto"`
}

// ReadySpec is server.ready: one of TCP, TLS and HTTPS.
type ReadySpec struct {
	TCP      *string        `yaml:"tcp"`
	TLS      *string        `yaml:"tls"`
	HTTPS    *string        `yaml:"https"`
	Timeout  *time.Duration `yaml:"timeout"`
	Interval *time.Duration `yaml:"interval"`
}

// ProbeSpec is one entry of server.probes.
type ProbeSpec struct {
	Name    *string `yaml:"name"`
	Command *string `yaml:"command"`
	Pattern *string `yaml:"pattern"`
}

// SpeedSpec is one entry of the speed section.
type SpeedSpec struct {
	Command *string        `yaml:"command"`
	Timeout *time.Duration `yaml:"timeout"`
}

// EnvValue is an env entry: a plain string, or {value: …, secret: true}.
type EnvValue struct {
	Value  *string `yaml:"value"` // nil when the mapping leaves it out (an error)
	Secret *bool   `yaml:"secret"`
}

func (e EnvValue) secret() bool { return or(e.Secret, false) }

// RepeatSpec is repeat: a number of windows per variant, auto, or the
// mapping form.
type RepeatSpec struct {
	Count *int
	Auto  *AutoSpec // auto or the mapping form
}

// AutoSpec is repeat's mapping form.
type AutoSpec struct {
	Effect    *Fraction `yaml:"effect"`
	Max       *int      `yaml:"max"`
	Calibrate *int      `yaml:"calibrate"`
}

// Fraction is a share from 0 to 1, written "1%" or 0.01. A plain 1 or
// more is refused as ambiguous (1 for "1%"?).
type Fraction float64

// Pair is one entry of an ordered mapping.
type Pair struct {
	Key   string
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
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, cmp.Or(err, fmt.Errorf("%s is not a regular file", path))
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = fmt.Errorf("%s is larger than %d bytes", path, limit)
	}
	return data, err
}

// Parse parses a scenario from data (name locates messages and relative files),
// reporting every unknown key and mistyped value; Compile reports the rest.
func Parse(name string, data []byte) (*Scenario, error) {
	s := &Scenario{file: name, abs: absDir(name), pos: make(map[string]Error), dropped: make(map[string]bool)}
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
	for _, e := range d.errs {
		s.parseErrs = append(s.parseErrs, e.(*Error))
	}
	return s, errors.Join(d.errs...)
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

// badChar locates the first byte YAML refuses (invalid UTF-8, a control
// character), which yaml.v3 does not; nil when there is none.
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
