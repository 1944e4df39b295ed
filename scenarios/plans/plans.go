package plans

import (
	"time"

	"github.com/kaeload/kaeload/results"
)

// Plan is a compiled scenario: every value resolved (durations, CPU lists,
// pre-rendered request bytes, TLS parameters as crypto/tls constants).
// Nothing downstream of the compiler (scenarios.Scenario.Compile) sees YAML. A Plan encodes to JSON so that a worker
// process can receive its slice of it and every result file can embed it;
// encoded, it is always redacted (see Redacted and MarshalJSON), so secret
// env values never leave the process inside a plan.
type Plan struct {
	// Name is the scenario's name.
	Name string `json:"name"`
	// Source is the file the scenario was read from ("" when built in code).
	Source string `json:"source,omitempty"`
	// Target is what the load is sent to.
	Target Target `json:"target"`
	// Load says how the load is shaped.
	Load Load `json:"load"`
	// Repeat is how many measured windows each variant gets (>= 1).
	Repeat int `json:"repeat"`
	// MaxErrors is the error share a repetition may have, as a fraction
	// from 0 to 1 (0.01 = 1%, Compile's default): a variant repetition
	// whose errors / (responses + errors) exceeds it is marked failed.
	// 0 tolerates no error at all.
	MaxErrors float64 `json:"max_errors"`
	// ExcludeFlagged is how many windows per variant the run may set
	// aside and measure again because they measured the client
	// (CLIENT-BOUND) or shared CPUs with other processes or with the
	// server (analysis.FlaggedLine); 0 keeps every window.
	ExcludeFlagged int `json:"exclude_flagged,omitempty"`
	// Variants are the server configurations to compare, in scenario order.
	// A scenario without variants compiles to one variant named "default".
	Variants []Variant `json:"variants"`
	// Baseline names the variant every other is compared with ("" = the first).
	Baseline string `json:"baseline,omitempty"`
	// Server says how to start, stop and check the server between variants;
	// nil when the server is managed outside kaeload.
	Server *Server `json:"server,omitempty"`
	// Order is the schedule: results.OrderRandomized (the default:
	// randomized blocks, each round runs every variant once in an order
	// drawn from Seed), results.OrderInterleaved (A B C, A B C, …) or
	// results.OrderSequential (every repetition of a variant, then the
	// next variant). Randomized and interleaved restart the server before
	// every window, which spreads slow drift of a shared machine over
	// every variant; see Steps.
	Order results.Order `json:"order"`
	// Seed seeds the randomized order; SeedSet says whether it was chosen
	// (the scenario's seed, --seed, or drawn by the runner, WithSeed).
	// Without one, Steps orders as seed 0 would and the runner draws a
	// seed before it runs.
	Seed    uint64 `json:"seed"`
	SeedSet bool   `json:"seed_set,omitempty"`
	// Equivalence is the margin of the equivalence verdicts, as a fraction
	// (results.DefaultEquivalence, 0.02, unless the scenario says): a difference
	// whose confidence bounds lie within ±Equivalence is "no difference".
	Equivalence float64 `json:"equivalence"`
	// Auto is set for repeat: auto: the runner first measures the
	// baseline to estimate the noise, then sets Repeat to the repetitions
	// that detect Auto.Effect, at most Auto.Max. Until then Repeat is
	// Auto.Max, the most the run can take.
	Auto *AutoRepeat `json:"auto,omitempty"`
	// Search is the variable searched instead of swept, nil when none (at
	// most one per plan).
	Search *Search `json:"search,omitempty"`
	// Cooldown is the pause between measured windows (0 = none).
	Cooldown time.Duration `json:"cooldown"`
	// Metrics is the live metrics endpoint; nil when it is off.
	Metrics *Metrics `json:"metrics,omitempty"`
	// Quiet waits for a quiet machine before each window; nil: no wait.
	Quiet *Quiet `json:"quiet,omitempty"`
	// Thresholds are the run's pass/fail criteria, the scenario's then the
	// command line's, resolved (scenarios.ParseThreshold; variant names
	// checked). The run record stores them as they are.
	Thresholds []results.Threshold `json:"thresholds,omitempty"`
	// Profile, when set, asks for a perf profile of the server in every
	// measured window (server.profile), at this rate, with these crypto
	// libraries.
	Profile *results.ProfileSpec `json:"profile,omitempty"`
	// Warnings are Compile's non-fatal findings (overlapping groups, more
	// threads than CPUs, TLS settings that restrict nothing), each located
	// like an error: "file:line:col: field.path: message".
	Warnings []string `json:"warnings,omitempty"`
	// Hosts are the ssh hosts the plan uses (groups' and the server's), each
	// once, in the order first named; nil when everything runs here.
	Hosts []SSHHost `json:"hosts,omitempty"`
	// SSHOptions are extra OpenSSH client options for every host, in the
	// order written (ssh -o Key=Value).
	SSHOptions []SSHOption `json:"ssh_options,omitempty"`
	// Binaries maps a platform ("linux/arm64") to the absolute path of a
	// kaeload binary built for it; nil when none is given.
	Binaries map[string]string `json:"binaries,omitempty"`
	// Secrets are the values of the env entries marked secret, {name}
	// expanded, without repeats or empty ones, longest first: those of
	// every variant's Env (see Variant.SecretEnv) and those a variant
	// overrode. Redact hides them in any text. Never encoded.
	Secrets []string `json:"-"`
}

// Target is the server under test and the request sent to it.
type Target struct {
	// URL is the target URL as given (for a built-in target, the URL the
	// runner filled in once the server listened).
	URL string `json:"url"`
	// Addr is the host:port dialled for every connection. Empty for a
	// built-in target until the runner starts it (see WithAddr).
	Addr string `json:"addr"`
	// Builtin, when set, asks the runner to start kaeload's own HTTPS server
	// on a free loopback port for the run.
	Builtin *Builtin `json:"builtin,omitempty"`
	// Method is the HTTP method, e.g. "GET".
	Method string `json:"method"`
	// Request is the complete HTTP/1.1 request written on each connection,
	// headers (Host, Connection, Content-Length) and body included.
	Request []byte `json:"request"`
	// TLS holds the handshake parameters; nil for http:// targets.
	TLS *TLS `json:"tls,omitempty"`
}

// Builtin describes the built-in target.
type Builtin struct {
	// Cert is the generated certificate kind, one of BuiltinCerts:
	// rsa2048, rsa3072, rsa4096 or ecdsa-p256.
	Cert string `json:"cert"`
	// Accel, when set, puts a simulated accelerator behind the target's
	// signatures (package accel); each session gives it the variant's env.
	Accel *Accel `json:"accel,omitempty"`
}

// Accel is a simulated accelerator, resolved (package accel parses it,
// fills its defaults and runs it).
type Accel struct {
	// Capacity is the device's operations per second, engines together.
	Capacity float64 `json:"capacity"`
	// Latency is an operation's time in the device once an engine takes it.
	Latency time.Duration `json:"device_latency"`
	// SoftCPU and OffloadCPU are the server's CPU per signature done in
	// software and per signature handed to the device.
	SoftCPU    time.Duration `json:"soft_cpu"`
	OffloadCPU time.Duration `json:"offload_cpu"`
	// Engines serve in parallel; Queue bounds the operations waiting for
	// one; Threshold bounds the operations in flight under policy overflow.
	Engines   int `json:"engines"`
	Queue     int `json:"queue"`
	Threshold int `json:"threshold"`
	// Mode is "async" or "sync"; Policy is "ratio" or "overflow".
	Mode   string `json:"mode"`
	Policy string `json:"policy"`
}

// BuiltinCerts are the certificate kinds a plan may ask of the built-in
// target (Builtin.Cert); package target generates each of them. This is
// the one list: the compiler validates target.builtin.cert against it.
var BuiltinCerts = []string{"rsa2048", "rsa3072", "rsa4096", "ecdsa-p256"}

// TLS is the client side of the handshake, in crypto/tls terms.
type TLS struct {
	// MinVersion and MaxVersion are tls.VersionTLS12 / tls.VersionTLS13.
	MinVersion uint16 `json:"min_version"`
	MaxVersion uint16 `json:"max_version"`
	// CipherSuites restricts the TLS 1.2 suites offered (nil = Go's defaults).
	CipherSuites []uint16 `json:"cipher_suites,omitempty"`
	// Curves are the key-exchange groups offered, as tls.CurveID values,
	// in preference order. Compile defaults them to X25519, P-256.
	Curves []uint16 `json:"curves"`
	// Resumption allows session resumption (a per-connection-slot cache).
	// When false, no session is ever stored, so every handshake is full.
	Resumption bool `json:"resumption"`
	// Verify checks the server certificate against CAPEM (or the system pool).
	Verify bool `json:"verify"`
	// CAPEM is the PEM bundle of trusted CAs when Verify is set ("" = system pool).
	CAPEM []byte `json:"ca_pem,omitempty"`
	// ServerName is sent as SNI and used for verification ("" = no SNI).
	ServerName string `json:"server_name,omitempty"`
}

// Connection is the connection mode.
type Connection string

const (
	// Close opens a new TCP connection and does a full TLS handshake for
	// every request, and closes it after the response.
	Close Connection = "close"
	// KeepAlive reuses each connection for request after request.
	KeepAlive Connection = "keep-alive"
)

// MaxExcludeFlagged bounds Plan.ExcludeFlagged: a machine that flags
// every window would otherwise measure forever.
const MaxExcludeFlagged = 10

// Load says how the load is shaped.
type Load struct {
	// Connection is Close or KeepAlive.
	Connection Connection `json:"connection"`
	// Warmup precedes the measured window; its traffic is not counted.
	Warmup time.Duration `json:"warmup"`
	// Duration is the length of the measured window.
	Duration time.Duration `json:"duration"`
	// Timeout bounds one request: connect, handshake, write and read.
	Timeout time.Duration `json:"timeout"`
	// Interval is the timeline's interval (results.Timeline): each worker
	// closes one every Interval, anchored at the window's start.
	// Compile sets it (results.DefaultInterval unless load.interval says
	// otherwise); 0, in a plan built by hand, records no timeline.
	Interval time.Duration `json:"interval,omitempty"`
	// Groups are the worker groups; each runs as one process pinned to its CPUs.
	Groups []Group `json:"groups"`
	// Rate is the open-loop rate across all groups, per second: the sum of
	// the groups' Rate. 0 is a closed loop (each slot starts its next
	// request when the last ends), the default.
	Rate float64 `json:"rate,omitempty"`
	// Capacity, when set, makes every variant a capacity search instead of
	// Repeat windows: open-loop windows at rates the search picks (see
	// Capacity). Rate is then 0 and the groups' rates are set per step.
	Capacity *Capacity `json:"capacity,omitempty"`
}

// Group is one worker group: the taskset-style unit of load.
type Group struct {
	// CPUs is the sorted set of CPU numbers the group is pinned to (empty = not pinned).
	CPUs []int `json:"cpus,omitempty"`
	// Threads is the group's GOMAXPROCS (>= 1); Compile defaults it to len(CPUs),
	// or to the number of online CPUs for an unpinned group.
	Threads int `json:"threads"`
	// Connections is the number of concurrent connection slots (>= 1).
	Connections int `json:"connections"`
	// Rate is the group's open-loop rate per second (its share of
	// Load.Rate); 0 = closed loop. In open-loop mode the slots are the
	// most requests in flight: a start due while all are busy is missed.
	Rate float64 `json:"rate,omitempty"`
	// Host is the ssh host the group runs on; nil = this machine.
	Host *SSHHost `json:"host,omitempty"`
}

// SSHHost is a host reached through the system ssh client, resolved from
// ssh://[user@]host[:port] or an ssh config name.
type SSHHost struct {
	// Name is the host as written in the scenario; it names the host in
	// messages and results.
	Name string `json:"name"`
	// User is the login name ("" = the ssh config's or the local user).
	User string `json:"user,omitempty"`
	// Host is the host name, address or ssh config alias given to ssh.
	Host string `json:"host"`
	// Port is the TCP port (0 = the ssh config's, or 22).
	Port int `json:"port,omitempty"`
}

// SSHOption is one extra ssh client option, given as -o Key=Value.
type SSHOption struct {
	// Key is the option's name, e.g. IdentityFile.
	Key string `json:"key"`
	// Value is its value.
	Value string `json:"value"`
}

// Variant is one server configuration, with every {var} resolved.
type Variant struct {
	// Name identifies the variant in results; unique within a plan.
	Name string `json:"name"`
	// Env is added to the server's environment for this variant: the
	// variant's env merged over server.env. It holds the real values, the
	// secret ones included: the server needs them. Show it only through
	// Plan.Redacted.
	Env map[string]string `json:"env,omitempty"`
	// SecretEnv lists, sorted, the Env keys whose values are secret: marked
	// {secret: true} in the variant's env or in server.env.
	SecretEnv []string `json:"secret_env,omitempty"`
	// Vars are the named values {name} was replaced with: server vars,
	// variant vars and this variant's sweep values.
	Vars map[string]string `json:"vars,omitempty"`
	// Start, Stop and Reload are this variant's server commands, run with
	// sh -c; "" = none.
	Start  string `json:"start,omitempty"`
	Stop   string `json:"stop,omitempty"`
	Reload string `json:"reload,omitempty"`
	// Probes are read right before and after each measured window.
	Probes []Probe `json:"probes,omitempty"`
	// Series names the variant entry a sweep expanded this variant from
	// (its name template, e.g. "kae-soft-{ratio}"); "" when not swept.
	Series string `json:"series,omitempty"`
	// Sweep holds this variant's swept values, key -> value as written
	// (e.g. ratio -> "33"); nil when not swept.
	Sweep map[string]string `json:"sweep,omitempty"`
	// Speed are the crypto micro-benchmarks run once for this variant,
	// with its Env, while the server is stopped; nil when none.
	Speed []Speed `json:"speed,omitempty"`
}

// Speed is one crypto micro-benchmark command of a variant.
type Speed struct {
	// Command is run with sh -c, every {var} resolved.
	Command string `json:"command"`
	// Timeout bounds the command.
	Timeout time.Duration `json:"timeout"`
}

// AutoRepeat is repeat: auto, resolved.
type AutoRepeat struct {
	// Effect is the difference to detect, a fraction (0.03 for 3 %).
	Effect float64 `json:"effect"`
	// Max caps the repetitions per variant.
	Max int `json:"max"`
	// Calibrate is the number of baseline windows measured first.
	Calibrate int `json:"calibrate"`
}

// WithSeed returns a copy of p whose randomized order comes from seed.
func (p *Plan) WithSeed(seed uint64) *Plan {
	cp := *p
	cp.Seed, cp.SeedSet = seed, true
	return &cp
}

// Server is how kaeload controls the server under test.
type Server struct {
	// Host is where commands run: "local" (sh -c here) or, for a server
	// on another machine, the name of SSH (as written in the scenario).
	Host string `json:"host"`
	// SSH is the ssh host the commands, probes and /proc/stat reads go
	// through; nil for local.
	SSH *SSHHost `json:"ssh,omitempty"`
	// Ready says how to tell that a started server answers.
	Ready Ready `json:"ready"`
	// CommandTimeout bounds the stop and reload commands and each probe.
	CommandTimeout time.Duration `json:"command_timeout"`
	// Info are the commands run once per variant, with its environment,
	// when its server is ready: their output records the server's
	// software with the variant (results.Variant.Info).
	Info []string `json:"info,omitempty"`
}

// NginxInfo are the server info commands of a scenario whose start
// commands run nginx and that sets no server.info: nginx's version and
// build options (its OpenSSL among them) and the OpenSSL that the
// variant's environment (OPENSSL_CONF, an engine) gives.
var NginxInfo = []string{"nginx -V 2>&1", "openssl version -a 2>&1 | head -3"}

// Ready is the readiness probe run after a start command.
type Ready struct {
	// Kind is "tcp" (connect), "tls" (full handshake) or "https" (GET, any status).
	Kind string `json:"kind"`
	// Addr is host:port for tcp and tls (default: the target's address).
	Addr string `json:"addr,omitempty"`
	// URL is fetched for https (default: the target's URL).
	URL string `json:"url,omitempty"`
	// Interval between attempts; Timeout for the whole wait.
	Interval time.Duration `json:"interval"`
	Timeout  time.Duration `json:"timeout"`
}

// Probe is a command run on the server host before and after each
// measured window; the number it prints becomes a per-window delta (e.g. a
// KAE or QAT hardware request counter, to see the offload engaged).
type Probe struct {
	// Name labels the delta in results.
	Name string `json:"name"`
	// Command is run with sh -c.
	Command string `json:"command"`
	// Pattern is a regular expression whose first group (or whole match)
	// is the number; "" = the first number in the output.
	Pattern string `json:"pattern,omitempty"`
}

// Search is a variant entry whose variable is searched instead of swept
// (variants[].search): its grid's variants are Plan.Variants[First :
// First+Points], resolved like a sweep's (Series, Sweep), in grid order.
// They are not in Steps: a driver (package search) picks which of them
// each window measures, from the windows finished so far.
type Search struct {
	// Series is the entry's name template; Key the searched variable.
	Series string `json:"series"`
	Key    string `json:"key"`
	// First and Points locate the grid's variants in Plan.Variants.
	First  int `json:"first"`
	Points int `json:"points"`
	// Maximize is the objective.
	Maximize results.Objective `json:"maximize"`
	// Budget is the most windows the search measures. BudgetTime is the
	// duration it was given as (0 when a count was given): Budget is then
	// BudgetTime over one window's length (warm-up + duration + cooldown),
	// at least 1.
	Budget     int           `json:"budget"`
	BudgetTime time.Duration `json:"budget_time,omitempty"`
	// Predicted starts the search from the soft-ratio prediction
	// (search.start: predicted): each grid point's variant sets
	// KAE_GO_SOFT_RATIO to a number from 0 to 100.
	Predicted bool `json:"predicted,omitempty"`
}

// Searched reports whether Plan.Variants[i] belongs to the search's grid.
func (p *Plan) Searched(i int) bool {
	s := p.Search
	return s != nil && i >= s.First && i < s.First+s.Points
}

// Value returns the searched variable's value at grid point k.
func (s *Search) Value(p *Plan, k int) string { return p.Variants[s.First+k].Sweep[s.Key] }

// WorstCase is the longest the search's windows can take: Budget windows
// of warm-up, duration and cooldown each (server restarts not counted).
func (s *Search) WorstCase(p *Plan) time.Duration {
	return time.Duration(s.Budget) * (p.Load.Warmup + p.Load.Duration + p.Cooldown)
}

// WithAddr returns a copy of p whose target dials addr: the runner calls it
// with the built-in server's listen address once it listens. For a built-in
// target the URL becomes "https://addr/"; the Host header and the TLS server
// name stay "localhost", which the built-in certificate is issued for. For a
// URL target only the dialled address changes. A tcp or tls ready probe
// without an address (a built-in target's, unknown until it listens) gets
// addr. p is not modified.
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
