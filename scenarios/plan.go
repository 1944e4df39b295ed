package scenarios

import (
	"time"
)

// Plan is a compiled scenario: every value resolved (durations, CPU lists,
// pre-rendered request bytes, TLS parameters as crypto/tls constants). Nothing
// downstream of Compile sees YAML. A Plan encodes to JSON so that a worker
// process can receive its slice of it and every result file can embed it.
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
	// Variants are the server configurations to compare, in scenario order.
	// A scenario without variants compiles to one variant named "default".
	Variants []Variant `json:"variants"`
	// Baseline names the variant every other is compared with ("" = the first).
	Baseline string `json:"baseline,omitempty"`
	// Warnings are Compile's non-fatal findings (overlapping groups, more
	// threads than CPUs, TLS settings that restrict nothing), each located
	// like an error: "file:line:col: field.path: message".
	Warnings []string `json:"warnings,omitempty"`
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
	// Cert is the generated certificate kind: rsa2048, rsa3072, rsa4096 or ecdsa-p256.
	Cert string `json:"cert"`
}

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
	// Groups are the worker groups; each runs as one process pinned to its CPUs.
	Groups []Group `json:"groups"`
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
}

// Variant is one server configuration.
type Variant struct {
	// Name identifies the variant in results; unique within a plan.
	Name string `json:"name"`
	// Env is added to the server's environment for this variant.
	Env map[string]string `json:"env,omitempty"`
}
