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

// Phases are the values of the phase label: the warm-up, the measured
// window, and after it (responses in flight at the window's end that
// completed in the drain: run.json's outside.late, and those that did
// not: outside.abandoned).
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

// Window labels: the run, the variant and the repetition (run.json's
// index).
var winLabels = []string{"run", "variant", "rep"}

func with(labels ...string) []string { return append(append([]string(nil), winLabels...), labels...) }

// helpOf holds each metric's help text, by name.
var helpOf = map[string]string{}

// newDesc makes a descriptor and keeps its help text.
func newDesc(name, help string, labels []string, _ prometheus.Labels) *prometheus.Desc {
	netstatMu.Lock()
	helpOf[name] = help
	netstatMu.Unlock()
	return prometheus.NewDesc(name, help, labels, nil)
}

// descs are the metrics' descriptors, help text included.
var (
	descRequests = newDesc(RequestsTotal, "Requests that ended, by phase (warmup, window, after) and result: ok is a response below 400 (run.json's succeeded), error a failure or a status >= 400. The window's equal run.json's.",
		with("phase", "group", "result"), nil)
	descErrors = newDesc(ErrorsTotal, "Failed requests and responses with a status >= 400 by error class, as run.json counts them.",
		with("phase", "group", "class"), nil)
	descConnect = newDesc(ConnectSeconds, "TCP connect times of the window's requests; set at the window's end (the timeline does not keep them per interval). Buckets to the HDR histogram's precision (1 %).",
		with("phase"), nil)
	descHandshake = newDesc(HandshakeSeconds, "TLS handshake times, per interval as the timeline has them. Buckets to the HDR histogram's precision (1 %).",
		with("phase"), nil)
	descRequest = newDesc(RequestSeconds, "Total times of completed requests, per interval as the timeline has them. Buckets to the HDR histogram's precision (1 %).",
		with("phase"), nil)
	descIntervalRate = newDesc(IntervalRate, "The last closed interval's successful responses per second, as the timeline has it.",
		with("group"), nil)
	descIntervalHandshake = newDesc(IntervalHandshake, "A summary: the last closed interval's handshake percentiles (quantile 0.5 and 0.99) as the timeline has them, 0 when it held none; count and sum over every interval so far.",
		with("group"), nil)
	descClientCPU = newDesc(ClientCPUSeconds, "CPU time the group's worker process used (all its threads).",
		with("group"), nil)
	descServerCPU = newDesc(ServerCPUSeconds, "CPU time of the server (its process tree, or its whole host).",
		with("host"), nil)
	descDiagnosis = newDesc(DiagnosisActive, "1 when the window's timeline shows the diagnosis rule (set at the window's end), else 0.",
		with("rule"), nil)
	descWindowRate = newDesc(WindowRate, "The window's successful responses per second over all groups (run.json's rate), set at its end; 0 before.",
		winLabels, nil)
	descWindowStart = newDesc(WindowStart, "When the window's measurement began, Unix seconds (exact at its end); 0 before.",
		winLabels, nil)
	descRunInfo = newDesc(RunInfo, "The run: its scenario name and baseline.",
		[]string{"run", "name", "baseline"}, nil)
	descBuildInfo = newDesc(BuildInfo, "The kaeload that runs.",
		[]string{"version", "goversion"}, nil)
)

// netstatDescs holds a descriptor per kernel counter, made once.
var (
	netstatMu    sync.Mutex
	netstatDescs = map[string]*prometheus.Desc{}
)

// netstatDesc returns the descriptor of a kernel counter.
func netstatDesc(counter string) *prometheus.Desc {
	netstatMu.Lock()
	defer netstatMu.Unlock()
	if d, ok := netstatDescs[counter]; ok {
		return d
	}
	d := prometheus.NewDesc(NetstatName(counter), "Growth of the kernel counter "+counter+" over the window's readings of the host's network namespace (side: client, server, or shared when both are in it).",
		with("side", "host"), nil)
	netstatDescs[counter] = d
	helpOf[NetstatName(counter)] = "Growth of the kernel counter " + counter + " over the window's readings of the host's network namespace (side: client, server, or shared when both are in it)."
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
