package metrics

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/diagnosis"
)

// The metric names. Dashboards are built on them: they do not change.
const (
	RequestsTotal         = "kaeload_requests_total"
	ErrorsTotal           = "kaeload_errors_total"
	ConnectSeconds        = "kaeload_connect_seconds"
	HandshakeSeconds      = "kaeload_handshake_seconds"
	RequestSeconds        = "kaeload_request_seconds"
	IntervalRate          = "kaeload_interval_requests_per_second"
	IntervalHandshake     = "kaeload_interval_handshake_seconds"
	ClientCPUSeconds      = "kaeload_client_cpu_seconds_total"
	ServerCPUSeconds      = "kaeload_server_cpu_seconds_total"
	DiagnosisActive       = "kaeload_diagnosis_active"
	WindowRate            = "kaeload_window_requests_per_second"
	WindowStart           = "kaeload_window_start_timestamp_seconds"
	RunInfo               = "kaeload_run_info"
	BuildInfo             = "kaeload_build_info"
	netstatPrefix         = "kaeload_netstat_"
	phaseWarmup           = "warmup"
	phaseWindow           = "window"
	phaseAfter            = "after"
	resultOK, resultError = "ok", "error"
)

// Phases are the values of the phase label; after is what was in flight
// at the window's end (run.json's outside.late and outside.abandoned).
var Phases = []string{phaseWarmup, phaseWindow, phaseAfter}

// Rules are the values of kaeload_diagnosis_active's rule label.
var Rules = []string{diagnosis.RuleAcceptQueue, diagnosis.RuleSYNCookies, diagnosis.RuleTimeWait,
	diagnosis.RuleResets, diagnosis.RuleStalls, diagnosis.RuleNotSteady}

// tcpCounters are the kernel's Tcp counters of /proc/net/snmp among
// those kaeload reads; the others are TcpExt's (/proc/net/netstat).
var tcpCounters = map[string]bool{"ActiveOpens": true, "PassiveOpens": true, "AttemptFails": true,
	"EstabResets": true, "OutRsts": true, "RetransSegs": true}

// NetstatName is the metric of a kernel TCP counter, named as
// node_exporter names it: kaeload_netstat_TcpExt_ListenOverflows,
// kaeload_netstat_Tcp_ActiveOpens.
func NetstatName(counter string) string {
	if tcpCounters[counter] {
		return netstatPrefix + "Tcp_" + counter
	}
	return netstatPrefix + "TcpExt_" + counter
}

// winLabels name a window: rep is run.json's index.
var winLabels = []string{"run", "variant", "rep"}

func with(labels ...string) []string { return append(append([]string(nil), winLabels...), labels...) }

// helpOf holds each metric's help text, by name; newDesc fills it at
// initialization only.
var helpOf = map[string]string{}

func newDesc(name, help string, labels []string) *prometheus.Desc {
	helpOf[name] = help
	return prometheus.NewDesc(name, help, labels, nil)
}

var (
	descRequests = newDesc(RequestsTotal, "Requests that ended, by phase (warmup, window, after) and result: ok is a response below 400 (run.json's succeeded), error a failure or a status >= 400. The window's equal run.json's.",
		with("phase", "group", "result"))
	descErrors = newDesc(ErrorsTotal, "Failed requests and responses with a status >= 400 by error class, as run.json counts them.",
		with("phase", "group", "class"))
	descConnect = newDesc(ConnectSeconds, "TCP connect times of the window's requests; set at the window's end (the timeline does not keep them per interval). Buckets to the HDR histogram's precision (1 %).",
		with("phase"))
	descHandshake = newDesc(HandshakeSeconds, "TLS handshake times, per interval as the timeline has them. Buckets to the HDR histogram's precision (1 %).",
		with("phase"))
	descRequest = newDesc(RequestSeconds, "Total times of completed requests, per interval as the timeline has them. Buckets to the HDR histogram's precision (1 %).",
		with("phase"))
	descIntervalRate = newDesc(IntervalRate, "The last closed interval's successful responses per second, as the timeline has it.",
		with("group"))
	descIntervalHandshake = newDesc(IntervalHandshake, "A summary: the last closed interval's handshake percentiles (quantile 0.5 and 0.99) as the timeline has them, 0 when it held none; count and sum over every interval so far.",
		with("group"))
	descClientCPU = newDesc(ClientCPUSeconds, "CPU time the group's worker process used (all its threads).",
		with("group"))
	descServerCPU = newDesc(ServerCPUSeconds, "CPU time of the server (its process tree, or its whole host).",
		with("host"))
	descDiagnosis = newDesc(DiagnosisActive, "1 when the window's timeline shows the diagnosis rule (set at the window's end), else 0.",
		with("rule"))
	descWindowRate = newDesc(WindowRate, "The window's successful responses per second over all groups (run.json's rate), set at its end; 0 before.",
		winLabels)
	descWindowStart = newDesc(WindowStart, "When the window's measurement began, Unix seconds (exact at its end); 0 before.",
		winLabels)
	descRunInfo = newDesc(RunInfo, "The run: its scenario name and baseline.",
		[]string{"run", "name", "baseline"})
	descBuildInfo = newDesc(BuildInfo, "The kaeload that runs.",
		[]string{"version", "goversion"})
)

// netstatDescs holds a descriptor per kernel counter, made once.
var (
	netstatMu    sync.Mutex
	netstatDescs = map[string]*prometheus.Desc{}
)

func netstatHelp(counter string) string {
	return "Growth of the kernel counter " + counter + " over the window's readings of the host's network namespace (side: client, server, or shared when both are in it)."
}

// netstatDesc returns the descriptor of a kernel counter.
func netstatDesc(counter string) *prometheus.Desc {
	netstatMu.Lock()
	defer netstatMu.Unlock()
	if d, ok := netstatDescs[counter]; ok {
		return d
	}
	d := prometheus.NewDesc(NetstatName(counter), netstatHelp(counter), with("side", "host"), nil)
	netstatDescs[counter] = d
	return d
}

// errorClasses are the values of the class label.
var errorClasses = func() []string {
	out := make([]string, results.NumErrorClasses)
	for c := range out {
		out[c] = results.ErrorClass(c).String()
	}
	return out
}()
