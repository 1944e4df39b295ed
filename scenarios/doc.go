// Package scenarios reads kaeload scenario files, checks them and compiles
// them into a plans.Plan of resolved values (durations, CPU lists,
// pre-rendered request bytes, TLS parameters). Nothing after Compile sees
// YAML: the Plan's types are in package plans, which imports nothing of
// this one, so that the engine and the runner never link the decoder,
// checker or compiler.
//
//	sc, err := scenarios.LoadFile("nginx-kae.yaml") // syntax, unknown keys, types
//	if sc == nil { … }                             // not YAML: nothing to compile
//	err = sc.Set("load.duration", "2s")            // --set overrides
//	plan, err := sc.Compile(scenarios.LocalHost()) // values, defaults, CPUs; LoadFile's problems too
//	scenarios.Describe(os.Stdout, plan)            // validate / --dry-run
//
// # Errors
//
// Every problem names the file, line and column, the field path and what
// was expected, e.g.
//
//	nginx-kae.yaml:14:13: load.groups[1].cpus: CPU 12-13 do not exist (this machine has 0-1)
//
// LoadFile and Parse report a syntax problem (a tab in the indentation
// included), or every unknown key, duplicate key and wrongly typed value at
// once. In the second case they also return the scenario, those values
// left out, and Compile reports them with every value problem of the file
// at once (errors.Join of *Error, in file order), without what only
// follows from their absence: a file is fixed in one pass, not in one pass
// per kind of problem. A value that came from Set is located as
// "--set path=value" instead, and one that FromFlag says came from a
// command-line flag by that flag ("--cpus 0-9,10-19: CPU 2-9 do not
// exist …"). Warnings (overlapping groups, more threads than
// CPUs, TLS 1.3 suite names that restrict nothing, insecure suites) do not
// stop Compile; they are in Plan.Warnings, located the same way.
//
// Absurd values are errors too, naming the limit and why (the Max*
// constants): load.groups[0].connections: 1000000000 is more than the
// 65535 allowed (each connection needs its own source port towards the
// target and an open file). Plan.Check checks a compiled Plan against the
// same limits and invariants, and CheckWorker the slice of it a worker
// process receives; every plan Compile returns passes both (CheckWorker
// once a built-in target has its address, see Plan.WithAddr).
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
//	  duration      the measured window, e.g. 60s or 1m30s. Default 10s; > 0,
//	                at most 24h (use repeat for more windows).
//	  warmup        load before the window that is not counted. Default 1s; 0
//	                allowed, at most 1h.
//	  timeout       limit for one request (connect, handshake, write, read).
//	                Default 10s; > 0, at most 10m.
//	  interval      the timeline's interval: every worker closes one this
//	                often, off its request loop, and the run record keeps
//	                per interval and per group the requests completed (by
//	                the window's rule, so the window's intervals add up to
//	                its counts exactly), errors by class, requests started,
//	                handshake and total p50/p99, the workers' own CPU and
//	                their CPUs' busy share; and, read by the controller at
//	                the same boundaries, the server's CPU and the kernel TCP
//	                counters of every client host and of the server host.
//	                The warm-up is there too, at negative times. Default
//	                1s; 100ms to 10s. Plan.Load.Interval.
//	  groups        worker groups, each one process pinned to its CPUs:
//	    - cpus      taskset-style list ("0-9,20-29"); left out = unpinned.
//	                Every CPU must exist on this machine (on a group with
//	                a host, that host's: its worker checks them).
//	      threads   GOMAXPROCS of the worker, 1 to 4096. Default: the
//	                group's CPU count (an unpinned group: the machine's), at
//	                most 4096. More threads than CPUs is allowed with a
//	                warning: they time-share.
//	      connections  concurrent connections, 1 to 65535 (each needs a
//	                source port towards the target and an open file).
//	                Default 16. In an open loop (a rate) they are the most
//	                requests in flight: a start due while all are busy
//	                is missed.
//	      rate      this group's open-loop rate per second; give it for
//	                every group or for none (then load.rate splits).
//	      host      where the group runs: local (default), an ssh URL
//	                ssh://[user@]host[:port], or a host name from the ssh
//	                config (~/.ssh/config aliases work). The group then
//	                runs as `kaeload worker --relay` over ssh, which pins
//	                its worker there exactly as a local one is pinned
//	                here; see "Several machines" below. Plan.Group.Host.
//	                At most 1024 groups, and at most 65535 connections in
//	                all groups together: every group dials the target from
//	                this machine, whose source address has at most 65535
//	                ports towards it.
//	  layout        instead of groups (not both): {groups: 11,
//	                cpus_per_group: 10, first_cpu: 0, threads: 11,
//	                connections: 200} expands to groups 0-9, 10-19 … 100-109.
//	                groups and cpus_per_group are required; first_cpu
//	                defaults to 0, threads to cpus_per_group, connections
//	                to 16.
//	                hosts: [local, ssh://c1, c2] repeats the layout on each
//	                host listed, host after host (3 hosts × 11 groups =
//	                33 groups); default: this machine only. Each host at
//	                most once.
//	                The same limits apply (at most 1024 groups, groups ×
//	                connections at most 65535).
//	                With neither groups nor layout: one unpinned group with
//	                threads = the machine's CPU count and 16 connections.
//	                Groups that share CPUs get a warning.
//	  rate          open loop: new connections per second (keep-alive:
//	                requests per second) across all groups, split by each
//	                group's share of CPUs (an unpinned group counts its
//	                threads). Left out: a closed loop (each slot starts
//	                its next request when the last ends), the default.
//	                More than 0, at most 100,000,000. Each group starts
//	                requests on a schedule without drift (start k at
//	                k/rate); a start that comes due while every connection
//	                slot is busy is counted as missed, never run late; the
//	                report adds latency from the intended start. A window
//	                that missed more than 1 % of its starts is flagged
//	                CLIENT-BOUND (kaeload itself used ≥ 90 % of its
//	                group's CPUs), CPUS-TAKEN (they were ≥ 90 % busy,
//	                mostly with other processes) or SLOTS-EXHAUSTED (more
//	                connections would have helped).
//	                Plan: Load.Rate and each Group.Rate.
//	  capacity      instead of repeat windows at one load, search each
//	                variant's highest rate that meets targets; not with
//	                rate. {p99_handshake: 20ms, max_errors: 0.1%, from:
//	                1000, factor: 2, resolution: 5%, max: 1000000,
//	                window: 2s}. Steps go up from from, factor times the
//	                last, while the targets hold (never above max), then
//	                bisect between the last rate that held and the first
//	                that failed until they are within resolution of the
//	                lower. Each step is one open-loop window (after the
//	                warm-up). A step holds when its p99 handshake time
//	                is at most p99_handshake, its p99 request time from
//	                the intended start at most p99_total (give at least
//	                one), its error share at most max_errors (default:
//	                the top-level max_errors) and it missed at most 1 %
//	                of its starts. factor above 1 and at most 100 (default
//	                2), resolution above 0 and at most 50 % (default 5 %),
//	                from 1000 and max 1,000,000 by default; window as
//	                duration (default 2s). repeat must be left out (or 1),
//	                and thresholds too (they judge repetitions at one load);
//	                a variant may not search a variable (sweep it).
//	                --dry-run shows the bound on steps and the longest
//	                the search can take. Plan: Load.Capacity.
//
//	repeat          measured windows per variant, 1 to 1000, default 1. Or
//	                auto: the run first measures the baseline a few times,
//	                estimates the noise, and chooses the repetitions that
//	                detect a difference of effect with 80% power (the
//	                run's comparisons judged together), at most max. The
//	                mapping form sets them: {effect: 3%, max: 10,
//	                calibrate: 5}; effect above 0 and at most 50% (default:
//	                equivalence), max 2 to 1000 (default 10), calibrate 2
//	                to 100 baseline windows (default 5). Plan.Auto holds it;
//	                Plan.Repeat is max until the runner has calibrated.
//	seed            seed of the randomized order, 0 to 2^64-1; default: each
//	                run draws one, prints and stores it (kaeload run --seed
//	                N replays it). Plan.Seed, Plan.SeedSet.
//	equivalence     the margin of the equivalence verdicts: a difference
//	                that is not significant and whose confidence bounds
//	                lie within ±margin is reported as "no difference
//	                larger than ±margin". A percentage ("2%") or fraction
//	                (0.02) above 0 and at most 50%, default 2%.
//	max_errors      the error share a repetition may have: a repetition whose
//	                errors / (responses + errors) is larger is marked failed.
//	                A percentage ("1%", "0.5%", "100%") or a plain fraction
//	                below 1 (0.01); a plain 1 or more is refused as
//	                ambiguous (write 100% for any share). 0 to 100%, default
//	                1%. Plan.MaxErrors holds it as a fraction.
//	exclude_flagged how many windows per variant (0 to 10, default 0) may be
//	                set aside and measured again because they measured the
//	                client (CLIENT-BOUND) or shared CPUs (OTHER LOAD on the
//	                client's or the server's CPUs, SHARED CPUS between client
//	                and server). A set-aside window is kept in every report,
//	                marked EXCLUDED with why, and is in no statistic; once
//	                the allowance is spent, a flagged window counts, and its
//	                verdict says so. run --exclude-flagged N sets it.
//	order           randomized (default): randomized blocks: every round
//	                runs each variant once, in a random order drawn afresh
//	                per round from seed, restarting the server before every
//	                window. In sequential order slow drift of a shared
//	                machine lands between variants and reads as an effect;
//	                randomized blocks spread it over every variant.
//	                interleaved: the same rounds in plan order, A B C, A B
//	                C, …. sequential: every repetition of a variant, then
//	                the next; the server restarts only when the variant
//	                changes, for servers whose restart is costly, and the
//	                report then says drift is not controlled. Plan.Steps
//	                lists the windows in order.
//	cooldown        pause between measured windows, default 0; not negative,
//	                at most 1h.
//
//	metrics         optional: serve live metrics for Prometheus while the
//	                run goes on (kaeload run --metrics ADDR does the same;
//	                the flag wins). See README "Live metrics".
//	  listen        host:port of /metrics (OpenMetrics and the Prometheus
//	                text format), e.g. 127.0.0.1:9464; port 0 picks a free
//	                one, printed and stored in run.json. Required. Another
//	                host than loopback serves every interface's scrapers
//	                without authentication (the run says so).
//	  wait          0 (default) or a duration: the first load waits until a
//	                Prometheus scrape has read the zeros, at most this long;
//	                none in time fails the run before any load.
//	  linger        how long the run's end waits for a scrape of the final
//	                values (and a later planned window's load for a scrape
//	                of its zeros); default three observed scrape intervals,
//	                15s while none was observed. At most 10m.
//
//	vars            mapping of names to values (numbers are fine), written
//	                {name} in the fields listed under "Variables" below.
//
//	server          optional: how kaeload starts, stops and checks the server
//	                between variants. Without it the server is managed by
//	                hand, and variants may set nothing but name (with a
//	                speed section, also env, vars and sweep).
//	  host          local (default): commands run here with sh -c. Or an
//	                ssh URL ssh://[user@]host[:port] or ssh config name:
//	                start, stop, reload, probes and speed commands run
//	                there through ssh, as env K=V … sh -c '…' with the
//	                variant's env written out (never AcceptEnv), and the
//	                server's CPU is read from that host's /proc (the
//	                process tree listening on the target's port, else
//	                the whole machine).
//	                A start command over ssh must daemonize (nginx
//	                without daemon off): the session ends when it returns.
//	                Plan.Server.SSH.
//	  start         shell command that starts the server (required, unless
//	                every variant has its own). It may daemonize (nginx) or
//	                stay in the foreground.
//	  stop          shell command that stops it (optional: a foreground
//	                start is stopped by signal).
//	  reload        shell command that reloads its configuration (optional).
//	  env           environment for every variant's commands, under the
//	                variant's env (a variant's value wins). Each value is a
//	                string, or {value: …, secret: true} for one that must
//	                not be shown (a key passphrase, a token; see Secrets
//	                below). At most 100 entries.
//	  ready         how to tell the started server answers, one of
//	                {tcp: host:port} (connect), {tls: host:port} (full
//	                handshake), {https: URL} (a GET, any status); with
//	                timeout (default 30s) and interval (default 100ms),
//	                each > 0 and at most 24h.
//	                Default: tcp to the target's address.
//	  command_timeout  bound on stop, reload and each probe; default 60s,
//	                > 0, at most 24h.
//	  info          commands run once per variant, with its env, when its
//	                server is ready; their output (4 KiB each) records the
//	                server's software with the variant in run.json, the
//	                reports and compare's diff. Default, when a variant's
//	                start command runs nginx: nginx -V and openssl version
//	                -a; info: [] records nothing.
//	  probes        commands read right before and after each measured
//	                window; the delta of the number each prints is stored:
//	    - name      labels the reading; unique.
//	      command   shell command, e.g. cat of a hardware request counter.
//	      pattern   Go regular expression with at most one group around the
//	                number (default: the first number printed).
//	  profile       true: profile the server with perf during every measured
//	                window (perf record -e cpu-clock -F 499 -g on the
//	                processes listening on the target's port, here or on
//	                the ssh host): its CPU by library and function, folded
//	                stacks, a pprof file per variant, the crypto share and
//	                the offload bound. Without perf, without permission
//	                (perf_event_paranoid) or without the server's PIDs the
//	                run goes on and every output says why there is no
//	                profile. A server section with nothing but profile
//	                (and profile_crypto) profiles a server kaeload does not
//	                start, on this machine. Plan.Profile.
//	  profile_crypto  library name prefixes whose samples are the crypto
//	                share (case ignored), e.g. [libcrypto, libssl, kae];
//	                default libcrypto, libssl, libgmssl, kae, libkae,
//	                libwd, uadk, libhisi, qat, libqat, libusdm, [hisi_,
//	                [qat (results.DefaultCryptoLibraries). Needs profile.
//
//	variants        server configurations to compare, in order:
//	  - name        unique after expansion, required.
//	    env         mapping added to the server's environment, e.g.
//	                {OPENSSL_CONF: /home/openssl.cnf}, over server.env;
//	                values as in server.env, {value: …, secret: true} too.
//	    vars        this variant's vars, over the top-level ones.
//	    start, stop, reload  this variant's commands instead of the server's.
//	    sweep       expands the entry into one variant per value:
//	                {ratio: [0, 10, 33]} (numbers or strings) or
//	                {ratio: {from: 0, to: 100, step: 10}} (to included when a
//	                step lands on it; step > 0, from <= to, at most 1000
//	                values; integers are written without ".0"). Two or more
//	                keys give every combination, the first key varying
//	                slowest. The name must use every sweep key, e.g.
//	                kae-soft-{ratio}; Plan variants keep the template as
//	                Series and their values as Sweep.
//	    search      searches one variable instead of sweeping it: the
//	                values the search picks are measured, not the grid.
//	                Not together with sweep; one entry per scenario:
//	                  search:
//	                    ratio: {from: 0, to: 100, step: 1}  # the grid, as a
//	                                    # sweep parameter: range or list, in order
//	                    maximize: req/s  # or req/s per server CPU-second, or
//	                                    # -p99 handshake (lower p99 is better)
//	                    budget: 12       # windows at most (default 12, up to
//	                                    # 10000), or a duration such as 20m:
//	                                    # that many windows of warm-up +
//	                                    # duration + cooldown (at least one)
//	                The name must use the variable ({ratio}); the grid
//	                expands to variants like a sweep's (Plan.Search names
//	                them) and each window restarts the server with the
//	                chosen value's env. The search's windows run after the
//	                other variants' steps; package search says how it picks
//	                (coarse pass, golden section, repetitions within noise).
//	                Needs a server section. Without other variants the
//	                baseline is the first value measured.
//	                Without variants the plan has one variant, "default"
//	                (with the server's commands and env).
//	                env, vars, start, stop, reload, sweep and search need a server
//	                section: there would be no server to apply them to
//	                (env, vars and sweep need none when speed is given:
//	                they then shape the speed commands' runs).
//	baseline        the variant the others are compared with; must name one
//	                (an expanded name such as kae-soft-0). Default: the first.
//
//	speed           optional crypto micro-benchmarks (openssl speed, bssl
//	                speed, gmssl speed), each run once per variant, with
//	                the variant's env, on the server host, while the server
//	                is stopped (after the variant's first stop, before its
//	                start; with order: interleaved, in the variant's first
//	                session only). A list of:
//	  command       the shell command (sh -c); {name} is expanded per
//	                variant as for server commands. Required, non-empty.
//	  timeout       bounds the command (default 10m, > 0, at most 24h).
//	                The output is parsed by package speed and stored with
//	                the variant's results; a failing command or unparsable
//	                output is recorded and logged, and does not fail the run.
//
//	ssh_options     extra OpenSSH client options for every ssh host, a
//	                mapping in the order written, passed as -o Key=Value
//	                after kaeload's own: {IdentityFile: ~/.ssh/lab,
//	                Port: 2222, StrictHostKeyChecking: accept-new}. Keys
//	                are ssh_config(5) keywords; BatchMode, ControlMaster,
//	                ControlPath and ControlPersist are kaeload's and
//	                refused. Plan.SSHOptions.
//	binaries        kaeload binaries for hosts of another platform, by
//	                GOOS/GOARCH: {linux/arm64: ./kaeload-linux-arm64}
//	                (relative to the scenario file; must exist). A host
//	                whose `uname -sm` matches this build gets this build.
//	                Plan.Binaries holds absolute paths.
//
// # Several machines
//
// Every ssh host of a scenario gets one master connection for the whole
// run (package remote): BatchMode (keys or agent only), the user's ssh
// config honoured, ssh_options added. kaeload uploads the binary a host
// needs to ~/.cache/kaeload/<sha256>/kaeload when that exact build is not
// there yet. Before each window the controller exchanges timestamps with
// every remote worker, takes the round trip and clock offset of the
// fastest exchange, and sends the window relative to the worker's receipt
// of start, so that all hosts measure the same interval whatever their
// clocks say; a host whose uncertainty (half the round trip) exceeds 1 %
// of the window is warned about. Plan.Hosts lists the hosts, each once.
//
// # Variables
//
// {name} is replaced in variant names, env values (server and variant),
// vars, start, stop and reload, probe commands, speed commands, target.url and
// server.ready. Names come, in priority order, from the variant's sweep
// values, the variant's vars, the top-level vars and the built-in
// {scenario_dir} (the scenario file's absolute directory). target.url and
// server.ready are shared by all variants and see only the top-level vars
// and built-ins. Vars may refer to other vars; a cycle is an error. An
// unknown name is an error listing the known ones. {{ and }} stand for
// literal braces (awk '{{print $1}}', ${{HOME}}); any other brace is an
// error. Probe patterns are regular expressions and are not expanded.
//
// # Secrets
//
// An env entry written {value: s3cr3t, secret: true} (secret defaults to
// false; no other keys) is passed to the server as is: Plan.Variants[i].Env
// holds the real value. It is never shown: Describe (validate, --dry-run)
// prints <secret> instead, a Plan encodes to JSON (run.json, worker specs)
// redacted, Plan.Redacted returns a copy fit for reports and
// Plan.Redact(text) hides every secret value in any text (log lines,
// command output, the scenario file). Compile's messages never quote one.
// A key marked secret in server.env stays secret in every variant, also
// where the variant gives it its own value; Variant.SecretEnv lists a
// variant's secret keys and Plan.Secrets the values. A secret reaching
// vars, commands or warnings through {vars} is hidden there too (by
// value); one spelled into a variant name, the URL or the request is not.
//
// # Thresholds
//
// thresholds (optional, a non-empty list of strings) are pass/fail
// criteria checked after the run; a crossed one is shown in every report
// and makes "kaeload run" exit 99. "kaeload run --threshold EXPR" adds
// more. Each is "MEASURE OP VALUE" with OP one of <, <=, >, >=, ==, !=:
//
//	req/s >= 100000            every variant's mean total rate, req/s
//	errors < 0.1%              every variant's share of failed attempts
//	errors == 0                every variant's failed requests (a count)
//	p99 handshake < 20ms       a percentile (p50, p99.9, …) of connect,
//	                           handshake, ttfb or total (latency) time
//	client_bound == false      no repetition of any variant client-bound
//	server_saturated == true   no repetition of any variant NOT SATURATED:
//	                           the server's CPUs (or kaeload's) were busy,
//	                           so the rate measured the server and not the
//	                           connections in flight (not measured where
//	                           the server's CPU is not read)
//	kae vs baseline >= +30%    Δ % of two variants' mean rates ("baseline"
//	                           is the scenario's baseline variant)
//	listen_overflows == 0      the server's accept-queue overflows over
//	                           every variant's windows (its ListenOverflows;
//	                           not measured where not available)
//	stalls == 0                stalls in every variant's windows: runs of
//	                           intervals below half the window's median rate
//	diagnoses == 0             every variant's diagnoses of its timelines
//	                           (accept-queue overflow, SYN queue full,
//	                           TIME_WAIT overflow, reset storm, stalls, not
//	                           steady)
//	probe hpre_send > 0        a server probe's mean delta per window
//	probe hpre_send per request >= 0.9
//	                           its deltas over the windows' requests; a
//	                           probe that failed in any window crosses both
//
// Compile parses every expression (ParseThreshold) into Plan.Thresholds,
// the run record's results.Threshold values, and checks that vs names
// variants and probe names one of server.probes, reporting problems at the
// list entry's line:col.
//
// # Overrides
//
// Scenario.Set applies `--set path=value`: path is a field path as above with
// list indexes (load.groups[0].connections, variants[1].env.FOO,
// target.headers.X-Trace, server.ready.timeout, vars.port,
// variants[2].sweep.ratio, variants[2].sweep.ratio.step); value is YAML (2s,
// true, 4, [X25519, P-256]); an empty value sets an empty string and null
// removes the field. A string field takes a value that is not a YAML scalar
// as written, so --set 'server.start=sh {scenario_dir}/start.sh' works.
// An env entry takes a plain value the same way and keeps its secret mark
// (--set server.env.TOKEN=x replaces a secret with a secret); the mapping
// form (--set 'server.env.TOKEN={value: x, secret: true}') replaces the
// entry whole, and server.env.TOKEN.secret=false unmarks it. Messages about
// a --set of a secret value show <secret> instead of the value; Set's own
// errors do not include the value at all.
package scenarios
