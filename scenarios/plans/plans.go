package plans

import (
	"time"

	"github.com/kaeload/kaeload/results"
)

// Plan is a compiled scenario: every value resolved, no YAML. It is stored
// in run.json and sent to workers as JSON, always redacted (MarshalJSON).
// docs/scenario.md describes the keys its fields come from.
type Plan struct {
	Name   string `json:"name"`
	Source string `json:"source,omitempty"` // "" when built in code
	Target Target `json:"target"`
	Load   Load   `json:"load"`
	Repeat int    `json:"repeat"` // measured windows per variant, >= 1
	// MaxErrors is the error share (errors / (responses + errors)) above
	// which a repetition is marked failed; 0 tolerates none.
	MaxErrors float64 `json:"max_errors"`
	// ExcludeFlagged is how many flagged windows per variant may be set aside and measured again.
	ExcludeFlagged int `json:"exclude_flagged,omitempty"`
	// Variants are in scenario order; without variants, one named "default".
	Variants []Variant `json:"variants"`
	Baseline string    `json:"baseline,omitempty"` // "" = the first variant
	Server   *Server   `json:"server,omitempty"`   // nil: managed outside kaeload
	// Order is the schedule (see Steps); randomized and interleaved spread a
	// shared machine's slow drift over every variant.
	Order results.Order `json:"order"`
	// SeedSet says whether Seed was chosen (scenario, --seed or WithSeed);
	// without one the runner draws a seed before it runs.
	Seed        uint64  `json:"seed"`
	SeedSet     bool    `json:"seed_set,omitempty"`
	Equivalence float64 `json:"equivalence"` // margin of the equivalence verdicts
	// Auto is repeat: auto; until calibrated, Repeat is Auto.Max.
	Auto       *AutoRepeat          `json:"auto,omitempty"`
	Search     *Search              `json:"search,omitempty"` // at most one per plan
	Cooldown   time.Duration        `json:"cooldown"`
	Metrics    *Metrics             `json:"metrics,omitempty"`
	Quiet      *Quiet               `json:"quiet,omitempty"`
	Thresholds []results.Threshold  `json:"thresholds,omitempty"` // scenario's, then the command line's
	Profile    *results.ProfileSpec `json:"profile,omitempty"`
	// Accelerator is the device's capacity for the soft-ratio prediction; nil when not given.
	Accelerator *Accelerator `json:"accelerator,omitempty"`
	// Warnings are Compile's non-fatal findings, located like errors.
	Warnings   []string          `json:"warnings,omitempty"`
	Hosts      []SSHHost         `json:"hosts,omitempty"` // ssh hosts used, in the order first named
	SSHOptions []SSHOption       `json:"ssh_options,omitempty"`
	Binaries   map[string]string `json:"binaries,omitempty"` // platform -> kaeload binary
	// Secrets are the secret env values, expanded, longest first, for
	// Redact. Never encoded.
	Secrets []string `json:"-"`
}

// Target is the server under test and the request sent to it.
type Target struct {
	URL     string   `json:"url"`  // as given; a built-in target's once it listens
	Addr    string   `json:"addr"` // dialled; "" for a built-in target until WithAddr
	Builtin *Builtin `json:"builtin,omitempty"`
	Method  string   `json:"method"`
	// Request is the complete HTTP/1.1 request written on each connection.
	Request []byte `json:"request"`
	TLS     *TLS   `json:"tls,omitempty"` // nil for http://
}

// Builtin is kaeload's own HTTPS server as the target.
type Builtin struct {
	Cert  string `json:"cert"`            // one of BuiltinCerts
	Accel *Accel `json:"accel,omitempty"` // a simulated accelerator behind its signatures
}

// Accelerator is the accelerator section: D, the device's signatures per second, as given or
// read from an openssl speed output (Speed, as written; Figure, the label of the figure read).
type Accelerator struct {
	Capacity float64 `json:"capacity"`
	Speed    string  `json:"speed,omitempty"`
	Figure   string  `json:"figure,omitempty"`
}

// Accel is a simulated accelerator, resolved by package accel.
type Accel struct {
	Capacity float64       `json:"capacity"`       // operations per second, engines together
	Latency  time.Duration `json:"device_latency"` // in the device, once an engine takes it
	// SoftCPU and OffloadCPU are the server's CPU per signature done in
	// software and per signature handed to the device.
	SoftCPU    time.Duration `json:"soft_cpu"`
	OffloadCPU time.Duration `json:"offload_cpu"`
	Engines    int           `json:"engines"`
	Queue      int           `json:"queue"`     // operations waiting for an engine
	Threshold  int           `json:"threshold"` // operations in flight under policy overflow
	Mode       string        `json:"mode"`      // async or sync
	Policy     string        `json:"policy"`    // ratio or overflow
}

// BuiltinCerts are the certificate kinds the built-in target generates.
var BuiltinCerts = []string{"rsa2048", "rsa3072", "rsa4096", "ecdsa-p256"}

// TLS is the client side of the handshake, in crypto/tls terms.
type TLS struct {
	MinVersion   uint16   `json:"min_version"`
	MaxVersion   uint16   `json:"max_version"`
	CipherSuites []uint16 `json:"cipher_suites,omitempty"` // TLS 1.2 suites; nil = Go's defaults
	Curves       []uint16 `json:"curves"`                  // tls.CurveID, in preference order
	// Resumption allows a per-slot session cache; without it every handshake is full.
	Resumption bool   `json:"resumption"`
	Verify     bool   `json:"verify"`
	CAPEM      []byte `json:"ca_pem,omitempty"`      // "" = the system pool
	ServerName string `json:"server_name,omitempty"` // SNI; "" = none
}

// Connection is the connection mode.
type Connection string

// Close makes a new connection and full handshake per request; KeepAlive reuses it.
const (
	Close     Connection = "close"
	KeepAlive Connection = "keep-alive"
)

// MaxExcludeFlagged bounds Plan.ExcludeFlagged: a machine that flags
// every window would otherwise measure forever.
const MaxExcludeFlagged = 10

// Load says how the load is shaped.
type Load struct {
	Connection Connection    `json:"connection"`
	Warmup     time.Duration `json:"warmup"` // before the window, not counted
	Duration   time.Duration `json:"duration"`
	Timeout    time.Duration `json:"timeout"` // one request: connect, handshake, write, read
	// Interval is the timeline's interval, anchored at the window's start;
	// 0 (a plan built by hand) records no timeline.
	Interval time.Duration `json:"interval,omitempty"`
	Groups   []Group       `json:"groups"`
	// Rate is the open-loop rate per second, the sum of the groups'; 0 is a closed loop.
	Rate float64 `json:"rate,omitempty"`
	// Capacity searches each variant's highest rate instead of Repeat
	// windows; Rate is then 0 and the groups' rates are set per step.
	Capacity *Capacity `json:"capacity,omitempty"`
}

// Group is one worker group, run as one process pinned to its CPUs.
type Group struct {
	CPUs        []int `json:"cpus,omitempty"` // sorted; empty = not pinned
	Threads     int   `json:"threads"`        // GOMAXPROCS
	Connections int   `json:"connections"`    // concurrent slots
	// Rate is the group's open-loop rate per second; a start due while every
	// slot is busy is missed.
	Rate float64  `json:"rate,omitempty"`
	Host *SSHHost `json:"host,omitempty"` // nil = this machine
}

// SSHHost is a host reached through the system ssh client.
type SSHHost struct {
	Name string `json:"name"`           // as written; names the host in messages
	User string `json:"user,omitempty"` // "" = ssh config's or the local user
	Host string `json:"host"`           // given to ssh
	Port int    `json:"port,omitempty"` // 0 = ssh config's, or 22
}

// SSHOption is one extra ssh client option, given as -o Key=Value.
type SSHOption struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Variant is one server configuration, with every {var} resolved.
type Variant struct {
	Name string `json:"name"`
	// Env is the variant's env over server.env, secrets included (the
	// server needs them): show it only through Plan.Redacted.
	Env       map[string]string `json:"env,omitempty"`
	SecretEnv []string          `json:"secret_env,omitempty"` // sorted Env keys marked secret
	Vars      map[string]string `json:"vars,omitempty"`       // what {name} was replaced with
	// Start, Stop and Reload run with sh -c; "" = none.
	Start  string  `json:"start,omitempty"`
	Stop   string  `json:"stop,omitempty"`
	Reload string  `json:"reload,omitempty"`
	Probes []Probe `json:"probes,omitempty"`
	// Series is the name template a sweep expanded this variant from, and
	// Sweep its swept values as written; both empty when not swept.
	Series string            `json:"series,omitempty"`
	Sweep  map[string]string `json:"sweep,omitempty"`
	Speed  []Speed           `json:"speed,omitempty"` // run once, server stopped
}

// Speed is one crypto micro-benchmark command of a variant.
type Speed struct {
	Command string        `json:"command"`
	Timeout time.Duration `json:"timeout"`
}

// AutoRepeat is repeat: auto, resolved.
type AutoRepeat struct {
	Effect    float64 `json:"effect"`    // fraction to detect
	Max       int     `json:"max"`       // repetitions per variant
	Calibrate int     `json:"calibrate"` // baseline windows measured first
}

// WithSeed returns a copy of p whose randomized order comes from seed.
func (p *Plan) WithSeed(seed uint64) *Plan {
	cp := *p
	cp.Seed, cp.SeedSet = seed, true
	return &cp
}

// Server is how kaeload controls the server under test.
type Server struct {
	Host  string   `json:"host"`          // "local", or SSH's name as written
	SSH   *SSHHost `json:"ssh,omitempty"` // nil for local
	Ready Ready    `json:"ready"`
	// CommandTimeout bounds stop, reload and each probe.
	CommandTimeout time.Duration `json:"command_timeout"`
	// Info are commands run once per variant when ready; their output
	// records the server's software with the variant.
	Info []string `json:"info,omitempty"`
}

// NginxInfo are the info commands when a start command runs nginx and no
// server.info is set: nginx's build and the OpenSSL the variant's env gives.
var NginxInfo = []string{"nginx -V 2>&1", "openssl version -a 2>&1 | head -3"}

// Ready is the readiness probe run after a start command.
type Ready struct {
	Kind     string        `json:"kind"`           // tcp (connect), tls (handshake) or https (GET, any status)
	Addr     string        `json:"addr,omitempty"` // tcp and tls
	URL      string        `json:"url,omitempty"`  // https
	Interval time.Duration `json:"interval"`       // between attempts
	Timeout  time.Duration `json:"timeout"`        // the whole wait
}

// Probe is a command read before and after each measured window; the
// number it prints becomes a per-window delta (e.g. a KAE request counter).
type Probe struct {
	Name    string `json:"name"`
	Command string `json:"command"`
	// Pattern's first group (or whole match) is the number; "" = the first number.
	Pattern string `json:"pattern,omitempty"`
}

// Search is a variant entry searched instead of swept: its grid is
// Plan.Variants[First:First+Points], not in Steps; package search picks
// which point each window measures.
type Search struct {
	Series   string            `json:"series"` // the entry's name template
	Key      string            `json:"key"`    // the searched variable
	First    int               `json:"first"`
	Points   int               `json:"points"`
	Maximize results.Objective `json:"maximize"`
	// Budget is the most windows measured; BudgetTime the duration it was
	// given as (0 for a count), over one window's warm-up+duration+cooldown.
	Budget     int           `json:"budget"`
	BudgetTime time.Duration `json:"budget_time,omitempty"`
	// Predicted starts from the soft-ratio prediction (KAE_GO_SOFT_RATIO 0-100).
	Predicted bool `json:"predicted,omitempty"`
}

// Searched reports whether Plan.Variants[i] belongs to the search's grid.
func (p *Plan) Searched(i int) bool {
	s := p.Search
	return s != nil && i >= s.First && i < s.First+s.Points
}

// Value returns the searched variable's value at grid point k.
func (s *Search) Value(p *Plan, k int) string { return p.Variants[s.First+k].Sweep[s.Key] }

// WorstCase is the longest the search's windows can take, restarts not counted.
func (s *Search) WorstCase(p *Plan) time.Duration {
	return time.Duration(s.Budget) * (p.Load.Warmup + p.Load.Duration + p.Cooldown)
}

// WithAddr returns a copy of p that dials addr, the built-in server's once
// it listens: its URL and an address-less tcp or tls ready probe follow;
// Host and SNI stay "localhost", which its certificate is issued for.
func (p *Plan) WithAddr(addr string) *Plan {
	q := *p
	q.Target.Addr = addr
	if p.Target.Builtin != nil {
		q.Target.URL = "https://" + addr + "/"
	}
	if s := p.Server; s != nil && s.Ready.Addr == "" && (s.Ready.Kind == "tcp" || s.Ready.Kind == "tls") {
		srv := *s
		srv.Ready.Addr = addr
		q.Server = &srv
	}
	return &q
}
