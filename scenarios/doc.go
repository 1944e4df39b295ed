// Package scenarios reads kaeload scenario files, checks them and compiles
// them into a Plan of resolved values (durations, CPU lists, pre-rendered
// request bytes, TLS parameters). Nothing after Compile sees YAML.
//
//	sc, err := scenarios.LoadFile("nginx-kae.yaml") // syntax, unknown keys, types
//	err = sc.Set("load.duration", "2s")            // --set overrides
//	plan, err := sc.Compile(scenarios.LocalHost()) // values, defaults, CPUs
//	plan.Describe(os.Stdout)                       // validate / --dry-run
//
// # Errors
//
// Every problem names the file, line and column, the field path and what
// was expected, e.g.
//
//	nginx-kae.yaml:14:13: load.groups[1].cpus: CPU 12-13 do not exist (this machine has 0-1)
//
// LoadFile and Parse report every syntax problem (a tab in the indentation
// included), unknown key, duplicate key and wrongly typed value at once;
// Compile then reports every value problem at once (errors.Join of *Error,
// in file order). A value that came from Set is located as
// "--set path=value" instead. Warnings (overlapping groups, more threads than
// CPUs, TLS 1.3 suite names that restrict nothing, insecure suites) do not
// stop Compile; they are in Plan.Warnings, located the same way.
//
// # Format (version 1)
//
// A scenario is a YAML mapping. Leaving a key out and writing it with a null
// value are the same. Anchors, aliases and merge keys (<<: *anchor) work.
//
//	version         1, optional; no other version exists yet.
//	name            names the scenario in results and the results directory
//	                (no slashes). Default: the file name without extension.
//
//	target          required; exactly one of url and builtin.
//	  url           https://host[:port]/path?query (port default 443), or
//	                http:// (port 80) with no tls section. The Host header is
//	                the URL's host as written (port included when given); the
//	                dialled address is host:port.
//	  builtin       kaeload's own HTTPS server, started by the runner on a free
//	                loopback port for the run: {cert: rsa2048} with cert one of
//	                rsa2048 (default), rsa3072, rsa4096, ecdsa-p256. The request
//	                goes to "/" with Host "localhost"; TLS server name
//	                "localhost"; verify must stay false (self-signed).
//	  method        HTTP method token, default GET.
//	  headers       mapping of header name to value, sent in the order written
//	                after Host. A Host header replaces the URL's. Connection is
//	                implied by load.connection ("Connection: close" or
//	                "Connection: keep-alive"); writing it yourself is allowed
//	                (any case, e.g. "Close" as wrk users write it) only if it
//	                agrees. Content-Length and Transfer-Encoding are not
//	                allowed: Content-Length is derived from body.
//	  body          request body; sent with Content-Length (which POST, PUT and
//	                PATCH always carry, 0 for no body).
//	  tls           client handshake settings (https only):
//	    min_version "1.2" (default) or "1.3"; "TLS1.2" and "TLSv1.3" work too.
//	                Quote them: 1.2 unquoted is fine, 1.20 would not be.
//	    max_version "1.2" or "1.3" (default); not below min_version.
//	    ciphers     list of cipher suites in OpenSSL spelling
//	                (ECDHE-RSA-AES128-GCM-SHA256) or IANA spelling
//	                (TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256), any case; every
//	                TLS 1.0–1.2 suite Go implements, insecure ones with a
//	                warning. Default: Go's default TLS 1.2 suites. TLS 1.3
//	                suite names (TLS_AES_128_GCM_SHA256, TLS_AES_256_GCM_SHA384,
//	                TLS_CHACHA20_POLY1305_SHA256) are accepted when max_version
//	                is 1.3, with a warning: Go's crypto/tls cannot restrict TLS
//	                1.3 suites and always offers all three. A TLS 1.3 suite
//	                with max_version 1.2, or a TLS 1.2 suite with min_version
//	                1.3, is an error. Go picks among the listed suites by its
//	                own preference; the order written is not significant.
//	    curves      key-exchange groups offered: X25519, P-256, P-384, P-521,
//	                X25519MLKEM768, SecP256r1MLKEM768, SecP384r1MLKEM1024
//	                (OpenSSL aliases prime256v1, secp384r1… work). Default
//	                X25519 and P-256 — not Go's default, which adds the hybrid
//	                post-quantum X25519MLKEM768 key share: it costs client CPU
//	                on every handshake and most servers under test don't
//	                support it. List it to measure it. As with ciphers, Go
//	                chooses by its own preference order.
//	    resumption  false (default): no session is ever stored, so every
//	                handshake is full. true: each connection slot keeps a
//	                session cache and resumes when the server allows.
//	    verify      false (default): the server certificate is not checked.
//	                true: checked against ca, or the system roots.
//	    ca          PEM file of trusted CAs for verify (relative to the
//	                scenario file); only with verify: true.
//	    server_name SNI and verification name. Default: the URL's host (Go
//	                sends no SNI for an IP address but verifies it against
//	                the certificate's IP SANs); "" sends no SNI.
//
//	load
//	  connection    close (default): TCP connect + full TLS handshake + one
//	                request + response + close, every request. keep-alive:
//	                each connection carries request after request.
//	  duration      the measured window, e.g. 60s or 1m30s. Default 10s; > 0.
//	  warmup        load before the window that is not counted. Default 1s; 0
//	                allowed.
//	  timeout       limit for one request (connect, handshake, write, read).
//	                Default 10s; > 0.
//	  groups        worker groups, each one process pinned to its CPUs:
//	    - cpus      taskset-style list ("0-9,20-29"); left out = unpinned.
//	                Every CPU must exist on this machine.
//	      threads   GOMAXPROCS of the worker. Default: the group's CPU
//	                count (an unpinned group: the machine's). More threads
//	                than CPUs is allowed with a warning: they time-share.
//	      connections  concurrent connections, 1 to 65535. Default 16.
//	  layout        instead of groups (not both): {groups: 11,
//	                cpus_per_group: 10, first_cpu: 0, threads: 11,
//	                connections: 200} expands to groups 0-9, 10-19 … 100-109.
//	                groups and cpus_per_group are required; first_cpu
//	                defaults to 0, threads to cpus_per_group, connections
//	                to 16.
//	                With neither groups nor layout: one unpinned group with
//	                threads = the machine's CPU count and 16 connections.
//	                Groups that share CPUs get a warning.
//
//	repeat          measured windows per variant, default 1.
//	variants        server configurations to compare, in order:
//	  - name        unique, required.
//	    env         mapping added to the server's environment, e.g.
//	                {OPENSSL_CONF: /home/openssl.cnf}.
//	                Without variants the plan has one variant, "default".
//	baseline        the variant the others are compared with; must name one.
//	                Default: the first.
//
// Reserved for later versions, parsed (so their keys are checked) but
// rejected by Compile with a "supported in a later version" error:
// server (host, start, stop, ready: {tcp, timeout}), speed (list of
// {command}) and variants[].sweep (mapping of parameter to list of values).
//
// # Overrides
//
// Scenario.Set applies `--set path=value`: path is a field path as above with
// list indexes (load.groups[0].connections, variants[1].env.FOO,
// target.headers.X-Trace); value is YAML (2s, true, 4, [X25519, P-256]); an
// empty value sets an empty string and null removes the field.
package scenarios
