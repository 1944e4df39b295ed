package notes

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"text/template"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
)

func code(name Code, src string) Code {
	messages[name] = src
	return name
}

// Misaligned is a caveat's flag: the groups' windows over 1 % apart.
const Misaligned Code = "misaligned"

// The codes, each with its words.
var (
	RepFailed = code("failed", `FAILED: {{.why}}`)
	NoSuccess = code("no_success",
		`no request succeeded in the window (
		{{- $u := 0}}{{with .unanswered}}{{$u = .Total}}{{end}}
		{{- if .errors}}{{count .errors}} errors{{if $u}}; {{end}}{{end}}
		{{- if $u}}unanswered at the window's end: {{template "-stages" .unanswered}}
		{{- else if not .errors}}no request ended at all{{end}})`)
	ErrorsOverMax = code("errors_over_max", `errors were {{share .share}} of the window's attempts, more than `+
		`max_errors {{share .max}}`)
	// FailedText is a failure (or profile reason) stored as a sentence.
	FailedText = code("failed_text", `{{.text}}`)
	BackedOff  = code("backed_off", `BACKED OFF: connection slots waited {{count .backoffs}} times before `+
		`their next try because their connects kept failing ({{count .fails}} connect errors, counted as usual): `+
		`the server refused or was unreachable`)
	ClientBound = code("client_bound", `CLIENT-BOUND: {{join .groups ", "}}: this figure measures kaeload, `+
		`not the server`)
	OtherLoad = code("other_load", `OTHER LOAD: {{join .groups "; "}}: not kaeload's own use, which alone `+
		`makes a result client-bound`)
	MissedStarts = code("missed_starts", `MISSED STARTS: {{join .groups ", "}}: the rate asked was not kept`)
	OpenLoop     = code("open_loop", `{{rate .asked}}/s asked, {{rate .rate}}/s achieved; {{count .missed}} of `+
		`{{count .scheduled}} starts missed ({{share .share}})`)
	ClientBoundGroup = code("client_bound_group",
		`{{if .own}}kaeload used {{pct (add .kaeload .interrupts)}} % of {{template "-group" .}}
		{{- if visible .interrupts}} (its workers {{pct .kaeload}} %, interrupts {{pct .interrupts}} %){{end}}
		{{- else}}{{template "-group" .}} was {{pct .busy}} % busy{{end}}`)
	OtherLoadGroup = code("other_load_group",
		`other processes took {{pct .others}} % of {{template "-group" .}}, kaeload {{pct .kaeload}} %
		{{- template "-interrupts" .}}
		{{- if .wait}} (its threads waited {{printf "%.2f" .waited}} s in all for a CPU){{end}}
		{{- template "-busiest" .top}}`)
	MissedGroup = code("missed_group",
		`group {{.index}} {{.limit}} (missed {{share .share}} of its starts; {{if eq .limit clientBound}}
		{{- if .own}}kaeload used {{pct (add .kaeload .interrupts)}} % of its CPUs
		{{- else}}CPUs {{pct .busy}} % busy{{end}}
		{{- else if eq .limit cpusTaken}}CPUs {{pct .busy}} % busy, kaeload's own use {{pct .kaeload}} %
		{{- else}}all {{.slots}} connection slots busy{{if .measured}}, CPUs {{pct .busy}} % busy{{end}}{{end}})`)
	ServerOtherLoad = code("server_other_load", `OTHER LOAD on the server: other processes took `+
		`{{pct .others}} % of the server's {{cpus .cpus}}, the server {{pct .server}} %, kaeload `+
		`{{pct .kaeload}} %{{template "-interrupts" .}}{{template "-busiest" .top}}: the server did not have its `+
		`CPUs to itself`)
	SharedCPUs = code("shared_cpus", `SHARED CPUS: {{join .shared "; "}}{{if .measured}}; of the server's `+
		`{{cpus .cpus}} the server used {{pct .server}} %, kaeload {{pct .kaeload}} %{{end}}: the figure `+
		`measures client and server together`)
	SharedGroup = code("shared_group", `client and server share {{cpus .common}} (group {{.group}} `+
		`({{with .cpus}}CPUs {{.}}{{else}}unpinned{{end}}))`)
	NotSaturated = code("not_saturated", `NOT SATURATED: neither kaeload nor the server's CPUs were busy (the `+
		`server used {{pct .server}} % of its {{cpus .cpus}}{{if .has_cpus_busy}} ({{pct .cpus_busy}} % busy in `+
		`all){{end}}{{if .has_client_busy}}; the busiest group's CPUs {{pct .client_busy}} %{{end}}); the rate `+
		`was set by the connections in flight ({{if .latency_us}}{{.connections}} / {{millis .latency_us}} ms `+
		`mean latency ≈ {{rate .little}} req/s; measured {{rate .rate}} req/s{{else}}the mean latency was not `+
		`measured{{end}}); raise connections or groups`)
	// Flagged joins the flags of a window.
	Flagged = code("flagged", `{{join .notes "; "}}`)
	// InRep is a repetition's note as a run-wide line.
	InRep = code("in_rep", `variant {{.variant}}, repetition {{.rep}}: {{.note}}`)
	// Caveat has flag, a key of caveatWords, and baseline when the repetitions are the baseline's.
	Caveat = code("caveat",
		`{{$c := caveatWords .flag}}{{$of := and .baseline "the baseline"}}{{if most .reps .n}}
		{{- with $of}}{{.}} {{index $c 0}}: {{index $c 1}} in {{$.reps}} of its {{$.n}} repetitions
		{{- else}}{{index $c 0}}: {{index $c 1}} in {{.reps}} of {{.n}} repetitions{{end}}
		{{- else}}caution: {{index $c 1}} in {{.reps}} of {{.n}} repetitions{{with $of}} of {{.}}{{end}}{{end}}`)
	// Unjudged says that a diagnosis rule could not judge a repetition.
	Unjudged      = code("unjudged", `{{.title}}: {{.why}}`)
	ServerShare   = code("server_share", `client and server share {{cpus .common}}`)
	ServerBusiest = code("server_busiest",
		`OTHER LOAD on the server's {{cpus .cpus}}{{if has . "comm"}}, busiest {{.comm}} (pid {{.pid}}
		{{- if .nice}}, nice {{.nice}}{{end}}){{end}}`)
	// NotMeasured is a variant the run gave up on.
	NotMeasured = code("not_measured", `variant {{.variant}}{{if .reps}} after `+
		`{{plural .reps "repetition"}}{{end}}: {{.reason}}`)
	// PartialWindow is a window an interrupt or a lost worker cut short.
	PartialWindow = code("partial_window", `variant {{.variant}} rep {{.rep}}: `+
		`{{$lost := has . "lost_group"}}{{if $lost}}FAILED, the run is INCOMPLETE: group `+
		`{{.lost_group}}{{with .lost_host}} on host {{.}}{{end}} was lost `+
		`({{.lost_why}}){{else}}interrupted{{end}} after {{float .seconds 2}} s of its {{.planned}} window: `+
		`{{count .requests}} requests{{if $lost}} (the other groups'; group {{.lost_group}} had reported `+
		`{{count .lost_requests}}){{end}}, {{rate .rate}} req/s, {{count .errors}} errors; kept, not in the `+
		`statistics`)
	ExcludedWindow = code("excluded_window", `variant {{.variant}} rep {{.rep}}: {{rate .rate}} req/s set `+
		`aside and measured again (exclude_flagged): {{.why}}`)
	ThresholdCrossed = code("threshold_crossed", `{{.expr}}: {{.variant}} {{.shown}}`)
	// ThresholdFigure is a checked threshold's figure in its metric's (a results.Metric*) unit.
	ThresholdFigure = code("threshold_figure", `{{$v := .value}}{{if not .measured}}not measured
		{{- else if eq .metric "req/s"}}{{rate $v}} req/s
		{{- else if eq .metric "error_share"}}{{printf "%.3g" (mul $v 100)}} %
		{{- else if eq .metric "latency"}}{{millis $v}} ms
		{{- else if or (eq .metric "client_bound") (eq .metric "server_saturated")}}{{ne $v 0.0}}
		{{- else if eq .metric "vs"}}{{delta (mul $v 100)}}
		{{- else if eq .metric "probe_per_request"}}{{printf "%.3f" $v}} per request
		{{- else}}{{number $v}}{{end}}`)
	ThresholdChecked = code("threshold_checked", `{{if .passed}}PASS{{else}}CROSSED{{end}}  {{.check}}`)
	TLS12Hint        = code("tls12_hint", `variant {{.variant}}: every handshake negotiated TLS 1.2, yet the `+
		`ClientHello also offered TLS 1.3 and generated a TLS 1.3 key share the server never used; `+
		`target.tls.max_version: "1.2" saves part of kaeload's client CPU per request (bench/peers.sh measures `+
		`how much on this machine; bench/README.md gives the measured range)`)
	OtherLoadApart = code("other_load_apart", `caution: other processes took {{pct .own}} % of the server's `+
		`CPUs against {{pct .base}} % in the baseline's windows, further apart than the `+
		`{{percent1 (div .mde 100)}} this comparison resolves`)
	HandshakeDiffers = code("handshake_differs", `negotiated another {{.parts}} than the baseline: {{.own}} `+
		`against {{.base}}`)
	SoftRatio = code("soft_ratio", `{{with .prediction}}{{say (print "soft:" .Status) .}}{{else}}no `+
		`soft-ratio prediction{{end}}`)
	DriftUncontrolled = code("drift_uncontrolled", `order sequential: drift is not controlled: each variant's `+
		`repetitions run together, so a slow change of the machine lands between variants and reads as a `+
		`difference (order: randomized spreads it over every variant)`)
	DriftTrend = code("drift_trend", `drift: the rates moved {{delta .trend}} from round 1 to round `+
		`{{.rounds}}, as much as the difference called significant for {{join .names ", "}} `+
		`({{range $i, $d := .deltas}}{{if $i}}, {{end}}{{delta $d}}{{end}}): drift alone can make or hide a `+
		`difference of that size; rerun on a steadier machine or with more rounds`)
	// MDESpread lists the repetitions that inflate a comparison's MDE.
	MDESpread   = code("mde_spread", `{{join .reps ", "}}`)
	SpreadRep   = code("spread_rep", `{{.variant}} rep {{.rep}} ({{rate .rate}} req/s)`)
	ProbeFailed = code("probe_failed", `probe {{.probe}} failed in {{.failed}} of {{.read}} windows `+
		`(variant{{if ne (len .variants) 1}}s{{end}} {{join .variants ", "}}): {{plain .first}}; no delta was `+
		`recorded there, and a threshold on the probe is crossed`)
	Capacity = code("capacity", `capacity under {{template "-targets" .spec}}: {{join .knees ", "}}`)
	// CapacityKnee has delta, against the baseline's knee, absent when none.
	CapacityKnee = code("capacity_knee", `{{.variant}} {{template "-knee" .}}{{if has . "delta"}} `+
		`({{printf "%+.0f" (mul .delta 100)}} %){{end}}`)
	MetricsServed = code("metrics_served",
		`{{with .metrics}}live metrics served on {{.Addr}}: {{plural .Scrapes "Prometheus scrape"}}
		{{- if .ScrapeInterval}} about every {{roundms .ScrapeInterval 10}}{{end}}
		{{- if .End.WasScraped}}; the final values were scraped at {{.End.Scraped.Format "15:04:05.000"}} `+
			`({{roundms (.End.Scraped.Sub .End.Final) 1}} after they were set)
		{{- else}}; the final values were NOT scraped: no Prometheus scrape began within the linger ({{.Linger}}) `+
			`after they were set, so Prometheus lacks the run's last interval{{end}}
		{{- if .Windows}}{{with .Unscraped}}; {{len .}} of {{len $.metrics.Windows}} windows' final values were not `+
			`scraped ({{range $i, $w := .}}{{if $i}}, {{end}}{{$w.Variant}} rep {{add $w.Rep 1}}{{end}})
		{{- else}}, and every window's were{{end}}{{end}}
		{{- else}}live metrics served{{end}}`)
	// Caveats joins a variant's caveats.
	Caveats = code("caveats", `{{join .notes "; "}}`)
	// Interrupted has variant and index (0-based) when a later repetition measures the window.
	Interrupted = code(results.WarnInterrupted, `{{.label}} was interrupted and is not included`)
	SpeedFailed = code("speed_failed", `variant {{.variant}}: speed command {{printf "%q" .command}}: `+
		`{{.error}}`)
	ServerCPUUnmeasured = code("server_cpu_unmeasured", `variant {{.variant}}: server CPU not measured: `+
		`{{.error}}`)
	SearchNotUnimodal = code("search_not_unimodal", `search {{.series}}: the coarse pass is not unimodal `+
		`(local bests at {{.key}} = {{.values}}): the search refined around each; look at the chart before `+
		`trusting one best value`)
	// SearchUnrefined has values, the coarse pass's, when the budget covered it.
	SearchUnrefined = code("search_unrefined", `search {{.series}}: a budget of {{.budget}} windows covers `+
		`only {{with .values}}the coarse pass: no refinement, the best value is only the best of `+
		`{{.}}{{else}}both ends and the predicted value with its neighbours: no refinement{{end}}`)
	// PlanWarning is a scenario warning as the compiler words it.
	PlanWarning = code("plan_warning", `{{.text}}`)
	// PortsTooMany, PortsRateHigh and PortsTimeWait are ports.Shortage's kinds (fix: a ports.Fix* value).
	PortsTooMany = code("ports_too_many", `{{.per}} connections at once {{template "-to" .}} need as many `+
		`client ports, but {{template "-range" .}}: the rest fail with EADDRNOTAVAIL; {{if eq .fix "widen"}}run: `+
		`{{template "-widen"}} (64512 ports){{else}}no port range is that wide: {{template "-spread"}}{{end}}`)
	PortsRateHigh = code("ports_rate_high", `at {{ports .rate}} new connections/s{{if gt .dest 1}} `+
		`({{ports .per_dest}} per destination){{end}} with connection: close, a client that closes first keeps `+
		`each port {{if .reused}}about 1 s in TIME_WAIT before tcp_tw_reuse frees it{{else}}60 s in `+
		`TIME_WAIT{{end}}: that holds {{ports .held}} ports {{template "-to" .}} at once, but `+
		`{{template "-range" .}}, {{sub .ports .per}} beside {{.per}} open connections (enough for `+
		`{{ports .max_rate}}/s); connects may fail with EADDRNOTAVAIL after about {{ports .left}} s; `+
		`{{if eq .fix "reuse_or_widen"}}run: {{template "-reuse"}} (or {{template "-widen"}}: enough for `+
		`{{ports .wide_max}}/s){{else if eq .fix "reuse"}}run: `+
		`{{template "-reuse"}}{{else if eq .fix "widen"}}run: {{template "-widen"}} (enough for `+
		`{{ports .wide_max}}/s){{else}}{{template "-spread"}}{{end}}`)
	PortsTimeWait = code("ports_time_wait", `after the window the client held {{.time_wait}} ports in `+
		`TIME_WAIT to the target (it closed first, so each stays 60 s), {{pct .share}} % of the {{.free}} ports `+
		`net.ipv4.ip_local_port_range {{.low}}-{{.high}} leaves beside {{.per}} open `+
		`connections{{if .port_errors}}, and {{plural .port_errors "connect"}} failed with EADDRNOTAVAIL (no `+
		`free port){{else}}: a longer or faster window runs out of ports and its connects fail with `+
		`EADDRNOTAVAIL{{end}}; run: {{if eq .fix "widen"}}{{template "-widen"}}, or spread the load over more `+
		`server addresses or client addresses{{else}}{{template "-reuse"}} (or {{template "-widen"}}){{end}}`)
	QuietTimedOut = code("quiet_timed_out", `{{.label}}: measured on a busy machine: after waiting `+
		`{{roundms .waited 1000}} for a quiet one, other processes still took {{pct .others}} % of the client's `+
		`or the server's CPUs (under {{pct .max_other}} % wanted){{with .busiest}}, the busiest {{.}} (pid `+
		`{{$.pid}}){{end}}`)
	ClockUncertain = code("clock_uncertain", `host {{.host}}: the clock offset is uncertain by `+
		`±{{.uncertainty}}, more than 1% of the {{.window}} window: the groups there may start and end their `+
		`window that much off`)
	NoComparison = code("no_comparison", `baseline {{printf "%q" .baseline}} {{.missing}}: no variant is `+
		`compared with it`)
	SlowerRun = code("slower_run", `{{.variant}} in {{.run}}: {{delta .comparison.DeltaPct}} (p Holm `+
		`{{pHolm .comparison}})`)
	UnansweredAtEnd = code("unanswered_at_end", `{{with .stages}}{{template "-stages" .}}{{end}} at the `+
		`window's end`)
	// PlansCompared heads compare's PlanDiff and ServerInfoDiff lines.
	PlansCompared = code("plans_compared", `plans: {{if .differ}}{{join .differ ", "}} ran a different plan `+
		`than {{.ref}}{{if .lines}}; what differs, field by field:{{else}} (see each run's `+
		`plan){{end}}{{else if .lines}}identical; the hosts differ from `+
		`{{.ref}}'s:{{else}}identical{{end}}{{range .lines}}{{"\n"}}{{.}}{{end}}`)
	PlanDiff       = code("plan_diff", `  {{.run}}: {{.diff}}`)
	ServerInfoDiff = code("server_info_diff", `  {{.run}}: server info of {{.variant}}, {{.command}}: `+
		`{{.from}} → {{.to}}`)
	// BaselineMissing has yet when the run was cut short.
	BaselineMissing = code("baseline_missing", `not measured{{if .yet}} yet{{end}}`)
	// SearchHead is the search's first line, then SearchNone or SearchBest and the others.
	SearchHead = code("search_head", `search {{.series}}: {{.key}} over {{.grid}} values ({{.first}} … `+
		`{{.last}}), {{if eq .objective p99}}minimize p99 handshake{{else}}maximize {{.objective}}{{end}}: `+
		`{{.windows}} windows of a budget of {{.budget}}; the full grid would need {{.grid}}`)
	SearchNone = code("search_none", `no window measured yet`)
	SearchBest = code("search_best", `best {{.key}} = {{.value}}: {{number .mean}} {{.unit}} `+
		`({{if has . "low"}}95 % CI {{number .low}} … {{number .high}}{{else}}no 95 % CI (one window){{end}}, `+
		`{{.n}} windows)`)
	SearchPredicted = code("search_predicted", `predicted from both ends: {{with .value}}best {{$.key}} = `+
		`{{.}} ({{template "soft_ratio" $}}); the search confirmed around it{{else}}none `+
		`({{template "soft_ratio" .}}); the search fell back to its coarse pass{{end}}`)
	SearchPlateau = code("search_plateau", `plateau (not significantly worse than the best, Holm-adjusted `+
		`t-test on the log scale): {{join .values ", "}}; lowest {{.key}} = {{.lowest}}{{with .caution}}; `+
		`caution: {{.}}{{end}}`)
	SearchOnce = code("search_once", `measured once, so not tested and on no plateau: `+
		`{{join .values ", "}}`)
	ProfileUnprofiled   = code("profile_unprofiled", `not profiled`)
	ProfileNoReps       = code("profile_no_reps", `no repetition measured`)
	ProfileNoSamples    = code("profile_no_samples", `no samples: the server used no CPU in the window`)
	ProfileNotAvailable = code("profile_not_available", `profile not available: {{join .reasons "; "}}`)
	// ProfileBound has bound +Inf when all was crypto.
	ProfileBound = code("profile_bound", `offloading all crypto ({{percent1 .share}} of the server's CPU) `+
		`{{if infinite .bound}}leaves no bound: the server did nothing else{{else}}could make it at most `+
		`{{printf "%.2f" .bound}}× faster ({{template "-gain" .bound}}){{end}}`)
	// ProfileBoundCell is the bound as a table cell: "3.49× (+249 %)".
	ProfileBoundCell = code("profile_bound_cell", `{{if infinite .bound}}∞{{else}}{{printf "%.2f" .bound}}× `+
		`({{template "-gain" .bound}}){{end}}`)
	// ProfileDelta is a measured Δ % and, when of > 0 (a baseline profile), the baseline's bound it is at
	// most: "+50.71 %, of at most +249 %".
	ProfileDelta = code("profile_delta", `{{delta .delta}}{{if gt .of 0.0}}, of at most `+
		`{{template "-gain" .of}}{{end}}`)
	// ProfileFunctions lists the top functions: "62.1 % [unknown] (libcrypto.so.3), …".
	ProfileFunctions = code("profile_functions", `top functions: {{range $i, $f := .functions}}`+
		`{{if $i}}, {{end}}{{percent1 $f.Share}} {{$f.Name}} ({{$f.Library}}){{end}}`)
	// ProfileCheck words an analysis.ProfileCheck, check.
	ProfileCheck = code("profile_check", `{{with .check}}{{count .Samples}} samples vs {{printf "%.2f" .CPUSeconds}} `+
		`server CPU-s × {{$.rate}} Hz = {{count (nearest .Expected)}}: ratio {{printf "%.2f" .Ratio}}, `+
		`{{if not .Agrees}}DISAGREES by more than {{pct $.tolerance}} % (perf or /proc missed some of the `+
		`server's processes){{else if .Stolen}}agrees once the {{printf "%.2f" .Steal}} CPU-s the `+
		`hypervisor stole from the server while sampling are counted (perf's clock counts them, /proc's CPU `+
		`seconds do not){{else if not .Close}}agrees within /proc's resolution (two clock ticks per window)`+
		`{{else}}agrees within {{pct $.tolerance}} %{{end}}{{else}}no self-check{{end}}`)
	ProfileOn = code("profile_on", `profiling was on: perf record -e cpu-clock -F {{.rate}} -g on the `+
		`server's processes in every window (crypto: {{join .crypto ", "}}); perf itself takes some of the `+
		`server's CPU (bench/profile-overhead.sh measures how much)`)
	AcceptQueueCause = code("accept_queue_cause", `{{if .probable}}connects waited for SYN retransmits and `+
		`the server's overflow counters are not available: probably its accept queue overflowed{{else}}the `+
		`server's accept queue overflowed: connections completed their handshake faster than the server accepted `+
		`them, and the kernel dropped the excess{{end}}`)
	// AcceptQueueConsequence has slow, the connects of 1 s or more, absent when none.
	AcceptQueueConsequence = code("accept_queue_consequence", `{{with .slow}}{{count .}} connects waited 1 s `+
		`or more: {{end}}a connect whose SYN or final ACK the full queue dropped waits for a retransmit, 1 s `+
		`later, then 2 s more{{if .slow}};{{else}}:{{end}} those connects measured the kernel's back-off, not `+
		`the server's TLS, so the rate is partly the queue's{{if not .slow}} and the connect percentiles jump to `+
		`1 s and 3 s{{end}}`)
	AcceptQueueFix = code("accept_queue_fix", `raise the server's listen backlog (nginx: listen … backlog=N), `+
		`which the kernel caps at net.core.somaxconn (sysctl -w net.core.somaxconn=N), and `+
		`net.ipv4.tcp_max_syn_backlog to match; or let the server accept faster (more workers) or open fewer `+
		`connections (load.connections)`)
	SYNQueueCause = code("syn_queue_cause", `the server's SYN queue was full: the kernel took the load for a `+
		`SYN flood and answered with SYN cookies (or dropped SYNs)`)
	SYNQueueConsequence = code("syn_queue_consequence", `connections opened with a SYN cookie lose the TCP `+
		`options a cookie cannot carry (window scaling and SACK, unless timestamps are on), and a dropped SYN `+
		`(TCPReqQFullDrop) is retried after 1 s; the kernel logs "possible SYN flooding on port …"`)
	SYNQueueFix = code("syn_queue_fix", `the SYN queue is as long as the listen backlog: raise it (nginx: `+
		`listen … backlog=N) and net.core.somaxconn, which caps it, and net.ipv4.tcp_max_syn_backlog, which `+
		`bounds it when SYN cookies are off`)
	TimeWaitCause = code("time_wait_cause", `the TIME_WAIT table on {{.host}} was full `+
		`(net.ipv4.tcp_max_tw_buckets)`)
	TimeWaitConsequence = code("time_wait_consequence", `{{count .skipped}} closing sockets skipped `+
		`TIME_WAIT: a late segment of an old connection can reach a new one on the same ports, and the kernel `+
		`logs "TCP: time wait bucket table overflow"; with short connections the side that closes first holds `+
		`every connection in TIME_WAIT for 60 s`)
	// TimeWaitFix has per_s and per_min (rounded), absent when not known.
	TimeWaitFix = code("time_wait_fix", `raise net.ipv4.tcp_max_tw_buckets on {{.host}} above the connections `+
		`it closes in 60 s{{if has . "per_s"}} (at this window's {{rate .per_s}} connections/s, more than `+
		`{{count .per_min}}){{end}}`)
	// ResetsCause has share (resets per connection), absent when above 1 or unknown.
	ResetsCause = code("resets_cause", `{{.host}} sent {{if has . "share"}}as many resets as `+
		`{{percent .share}} of its connections{{else}}more resets than connections{{end}}: `+
		`connections ended by a reset, not a close`)
	ResetsConsequence = code("resets_consequence", `{{if .failed}}{{count .failed}} requests failed in the `+
		`window (connect, TLS, read or write errors): the rate counts only the connections the resets `+
		`spared{{else}}no request failed: the resets came after the responses, which costs both ends work but `+
		`not the count; they were not closes with bytes unread (TCPAbortOnClose, TCPAbortOnData), so something `+
		`between the ends or a peer that forgot its connections reset them{{end}}`)
	ResetsFix = code("resets_fix", `{{if .memory}}the host ran out of TCP memory (TCPAbortOnMemory): raise `+
		`net.ipv4.tcp_mem and net.ipv4.tcp_max_orphans; {{end}}find which end resets (ss -tni, the server's `+
		`error log): an end that closes with bytes unread resets (TCPAbortOnClose, TCPAbortOnData); `+
		`net.ipv4.tcp_abort_on_overflow=1 resets on a full accept queue instead of dropping; a full conntrack `+
		`table or a firewall resets too`)
	// StallsCause has spans, [][2]float64 seconds.
	StallsCause = code("stalls_cause", `the rate fell below half the window's median ({{rate .median}} req/s) `+
		`at {{range $i, $s := .spans}}{{if $i}}, {{end}}{{span (index $s 0) (index $s 1)}}{{end}}`)
	// StallsConsequence has below (1 − all/rest), absent with no rate outside the stalls.
	StallsConsequence = code("stalls_consequence", `the window's rate, {{rate .all}} req/s, averages the `+
		`stalls in{{if has . "below"}}: it is {{percent .below}} below the rate outside them, `+
		`{{rate .rest}} req/s{{end}}`)
	StallsFix = code("stalls_fix", `find what paused at those seconds: the server's CPU in the timeline, its `+
		`log, other processes, a reload or log rotation, the client's own CPU; rerun to see whether the stalls `+
		`recur`)
	NotSteadyCause = code("not_steady_cause", `the rate {{if lt .change 0.0}}fell{{else}}rose{{end}} from `+
		`{{rate .first}} req/s in the window's first third to {{rate .last}} req/s in its last `+
		`({{printf "%+.1f" (mul .change 100)}} %), more than the noise`)
	NotSteadyConsequence = code("not_steady_consequence", `the window's rate depends on how long it runs and `+
		`where it starts: another window or warm-up would give another figure, and a comparison of variants `+
		`mixes the trend into their difference`)
	NotSteadyFix = code("not_steady_fix", `{{if .rising}}the warm-up ({{seconds .warmup_s}}) is probably too `+
		`short: lengthen load.warmup until the timeline is flat from the window's start{{else}}the server slows `+
		`as the window goes on: look for what accumulates (TIME_WAIT sockets, memory, temperature and clock `+
		`throttling, a growing log); the timeline shows when it begins{{end}}`)
	HostRole = code("host_role", `{{if .shared}}clients and server in one network namespace, counted `+
		`once{{else if and .client .server}}clients and server{{else if .server}}the `+
		`server{{else if .client}}the clients{{else}}neither clients nor server{{end}}`)
	// NamedHost is a host with its role: "NAME (clients and server)".
	NamedHost = code("named_host", `{{.name}}{{if or .shared (and .client .server)}} (clients and server)`+
		`{{else if .server}} (server){{else if .client}} (clients){{end}}`)
	CounterGrew = code("counter_grew", `{{.name}} {{with .unread}}at least +{{count $.value}} `+
		`({{plural . "interval"}} not read){{else}}+{{count .value}}{{end}}`)
	ListenerWords = code("listener_words", `port {{.port}} on {{.host}}: {{with .unavailable}}not read `+
		`({{.}}){{else}}{{if not .read}}not read in any interval of the window (the run's log says `+
		`why){{else}}dropped {{with .drops}}{{count .}}{{else}}nothing{{end}}{{with .unread}} (at least: `+
		`{{plural . "interval"}} not read){{end}}, its accept queue at most {{count .max_queue}} of `+
		`{{count .backlog}} at the boundaries{{with .full}}, full at {{plural . "boundary"}}{{end}}{{end}}{{end}}`)
	TrafficWords = code("traffic_words", `{{.counter}} +{{count .opens}} on {{.host}}, kaeload's connects `+
		`{{count .own}}: {{if .shared}}other traffic shared this network namespace ({{count .other}} `+
		`more){{else}}no other traffic beyond the window's edges{{end}}`)
)

// messages are every code's words, a text/template over the note's Args with said's funcs; code adds
// them to the phrases here, parts several messages say (as {{template "-name" .}}).
var messages = map[Code]string{
	"-stages": `{{count .Total}} (connect {{count .Connect}}, handshake {{count .Handshake}}, response ` +
		`{{count .Response}})`,
	"-interrupts": `{{if visible .interrupts}}, interrupts {{pct .interrupts}} %{{end}}`,
	"-busiest": `{{with .}}; busiest: {{range $i, $o := .}}{{if $i}}, {{end}}{{template "-process" $o}}{{end}}` +
		`{{end}}`,
	"-range":  `net.ipv4.ip_local_port_range {{.low}}-{{.high}} has {{.ports}} ports`,
	"-to":     `{{if gt .dest 1}}to each of {{.dest}} destinations{{else}}to the destination{{end}}`,
	"-widen":  `sysctl -w net.ipv4.ip_local_port_range='1024 65535'`,
	"-reuse":  `sysctl -w net.ipv4.tcp_tw_reuse=1`,
	"-spread": `spread the load over more server addresses or ports, or more client addresses`,
	"-group":  `group {{.index}} ({{with .cpus}}CPUs {{.}}{{else}}unpinned{{end}})`,
	"-targets": `{{with .P99Handshake}}{{ms .}} p99 handshake{{end}}{{if and .P99Handshake .P99Total}}, {{end}}` +
		`{{with .P99Total}}{{ms .}} p99 total{{end}}`,
	"-gain": `{{if infinite .}}+∞{{else}}{{printf "%+.0f" (mul (sub . 1) 100)}} %{{end}}`,
	"-process": `{{.Comm}} (pid {{.PID}}{{if .Nice}}, nice {{.Nice}}{{end}}{{with .CPUs}}, CPUs {{.}}{{end}}) ` +
		`{{printf "%.2f" .Seconds}} CPU-s`,
	"-knee": `{{if not .steps}}-{{else if .below_from}}< {{count (nearest .from)}}/s{{else if .at_max}}≥ ` +
		`{{count (nearest .knee)}}/s{{else}}{{count (nearest .knee)}}/s{{end}}`,
	// A softratio.Prediction by its status.
	"soft:ok": `best soft ratio {{printf "%.0f" (mul 100 .Ratio.Value)}} predicted{{if .Ranged}} ` +
		`({{printf "%.0f" (mul 100 .Ratio.Low)}}–{{printf "%.0f" (mul 100 .Ratio.High)}}){{end}}, peak ` +
		`{{printf "%.0f" .Rate.Value}} req/s{{$p := .}}{{range $i, $s := .Sides}}{{if $i}}, {{else}}: {{end}}` +
		`{{if eq (len $p.Sides) 1}}at every ratio {{else if le $s.To $p.Ratio.Value}}below it ` +
		`{{else}}above it {{end}}` +
		`{{if eq (print $s.Bound) "cpu"}}the server's CPU at {{printf "%.2f" (mul 1e3 $p.Model.B)}} → ` +
		`{{printf "%.2f" (mul 1e3 $p.Model.A)}} ms per request{{else}}the device limits at ` +
		`{{printf "%.0f" $p.Model.Capacity}} ops/s{{end}}{{end}}`,
	"soft:too-few-ratios": `no soft-ratio prediction: windows at {{.Ratios}} soft ratio(s), two are needed`,
	"soft:bad-window":     `no soft-ratio prediction: window {{.Window}} has a value out of range`,
	"soft:cpus-differ":    `no soft-ratio prediction: window {{.Window}} has another server CPU count`,
	"soft:bad-capacity":   `no soft-ratio prediction: the given device capacity is not a positive number`,
	"soft:bad-fit":        `no soft-ratio prediction: the fit gives no positive CPU per request`,
	"soft:no-capacity": `no soft-ratio prediction: the device's capacity is unknown; it needs a window where ` +
		`the device was the bottleneck (server CPUs not saturated, soft ratio below 100), or the scenario's ` +
		`accelerator: capacity (signatures/s) or speed (an openssl speed -async_jobs output)`,
}

// said holds messages parsed (in init: its funcs call say).
var said *template.Template

func init() {
	num := func(f func(float64) string) func(any) string { return func(v any) string { return f(floatOf(v)) } }
	said = template.New("").Funcs(template.FuncMap{
		"count": func(v any) string {
			if u, ok := v.(uint64); ok { // exact
				return format.Count(u)
			}
			return format.Count(uint64(floatOf(v)))
		},
		"rate":     num(format.Rate),
		"share":    num(format.Share),
		"number":   num(format.Number),
		"delta":    num(format.Delta),
		"percent":  num(Percent),
		"percent1": num(format.Percent),
		"seconds":  num(Seconds),
		"ports": num(func(f float64) string { // one decimal below 10
			if f < 10 && f != math.Trunc(f) {
				return strconv.FormatFloat(f, 'f', 1, 64)
			}
			return strconv.FormatFloat(math.Floor(f), 'f', 0, 64)
		}),
		"pct":    num(func(f float64) string { return fmt.Sprintf("%.0f", f*100) }),
		"millis": num(func(f float64) string { return format.Millis(int64(f)) }),
		"float":  func(v any, d int) string { return format.Float(floatOf(v), d) },
		"span":   Span,
		"plain":  func(v any) string { return format.Plain(str(v)) },
		"plural": func(n any, thing string) string { return plural(int(floatOf(n)), thing) },
		"cpus": func(v any) string { // "CPU 0" or "CPUs 0-3"
			if strings.ContainsAny(str(v), ",-") {
				return "CPUs " + str(v)
			}
			return "CPU " + str(v)
		},
		"ms": func(d time.Duration) string { // "20 ms", "2.5 ms"
			return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", float64(d)/1e6), "0"), ".") + " ms"
		},
		"pHolm":    format.PAdjusted,
		"join":     join,
		"say":      say,
		"has":      func(a Args, k string) bool { _, ok := a[k]; return ok },
		"add":      func(a, b any) float64 { return floatOf(a) + floatOf(b) },
		"sub":      func(a, b any) float64 { return floatOf(a) - floatOf(b) },
		"mul":      func(a, b any) float64 { return floatOf(a) * floatOf(b) },
		"div":      func(a, b any) float64 { return floatOf(a) / floatOf(b) },
		"nearest":  func(v any) float64 { return math.Round(floatOf(v)) },
		"infinite": func(v any) bool { return math.IsInf(floatOf(v), 1) },
		"visible":  func(v any) bool { return floatOf(v) >= 0.005 },
		"most":     func(reps, n any) bool { return 2*floatOf(reps) > floatOf(n) },
		"roundms": func(d time.Duration, ms int) time.Duration {
			return d.Round(time.Duration(ms) * time.Millisecond)
		},
		"caveatWords": func(flag any) [2]string { return caveatWords[Code(str(flag))] },
		"clientBound": func() string { return results.ClientBound },
		"cpusTaken":   func() string { return results.CPUsTaken },
		"p99":         func() string { return string(results.ObjectiveP99) },
	})
	for c, src := range messages {
		template.Must(said.New(string(c)).Parse(src))
	}
}

func floatOf(v any) float64 {
	switch v := v.(type) {
	case float64:
		return v
	case int:
		return float64(v)
	case uint64:
		return float64(v)
	}
	return 0
}

func str(v any) string { s, _ := v.(string); return s }

func join(v any, sep string) string {
	if ns, ok := v.([]Note); ok {
		return Join(ns, sep)
	}
	ss, _ := v.([]string)
	return strings.Join(ss, sep)
}

// Failure is the note of a repetition's failure; the zero Note for nil.
func Failure(f *results.Failure) Note {
	switch {
	case f == nil:
		return Note{}
	case f.Code == results.FailNoSuccess:
		n := New(NoSuccess, "errors", f.Errors)
		if f.Unanswered != nil {
			n.Args["unanswered"] = *f.Unanswered
		}
		return n
	case f.Code == results.FailErrors:
		return New(ErrorsOverMax, "share", f.Share, "max", f.Max)
	}
	return New(FailedText, "text", f.Text)
}

// caveatWords are, by flag, what most repetitions raising it measured, and its name.
var caveatWords = map[Code][2]string{
	ClientBound:     {"measured the client", "CLIENT-BOUND"},
	OtherLoad:       {"shared CPUs", "other processes on the client's CPUs"},
	SharedCPUs:      {"shared CPUs", "SHARED CPUS between client and server"},
	ServerOtherLoad: {"shared CPUs", "OTHER LOAD on the server's CPUs"},
	Misaligned:      {"windows apart", MisalignedWords},
}

// MisalignedWords name a repetition whose groups' windows were over 1 % apart.
const MisalignedWords = "MISALIGNED windows (groups over 1 % apart)"

// KneeWords is a capacity in words: "41,000/s", "≥ 1,000,000/s" (all steps passed), "< 1,000/s" (none) or "-".
func KneeWords(c *results.Capacity, from float64) string {
	return say("-knee", Args{"knee": c.Knee, "from": from, "steps": len(c.Steps), "below_from": c.BelowFrom, "at_max": c.AtMax})
}

// TargetWords names a capacity search's targets: "20 ms p99 handshake", "50 ms p99 total".
func TargetWords(s *results.CapacitySpec) string { return say("-targets", s) }

func plural(n int, thing string) string { return strconv.Itoa(n) + " " + format.Plural(n, thing) }

// Seconds writes a time in a window in seconds: "4.0 s".
func Seconds(s float64) string { return strconv.FormatFloat(s, 'f', 1, 64) + " s" }

// Span writes a stretch of a window: "3.0–5.0 s".
func Span(start, end float64) string {
	return strconv.FormatFloat(start, 'f', 1, 64) + "–" + Seconds(end)
}

// Percent writes a fraction as "4.5 %"; below 1 %, two significant digits ("0.026 %") lest it read as none.
func Percent(f float64) string {
	if p := f * 100; p != 0 && p > -1 && p < 1 {
		return strconv.FormatFloat(p, 'g', 2, 64) + " %"
	}
	return strconv.FormatFloat(f*100, 'f', 1, 64) + " %"
}
