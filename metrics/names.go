package metrics

import (
	"slices"
	"strings"
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/diagnosis"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/rundir"
)

const netstatPrefix = "kaeload_netstat_"

// Phases are the values of the phase label; after is what was in flight
// at the window's end (run.json's outside.late and outside.abandoned).
var Phases = []string{"warmup", "window", "after"}

// Rules are the values of kaeload_diagnosis_active's rule label.
var Rules = []string{diagnosis.RuleAcceptQueue, diagnosis.RuleSYNCookies, diagnosis.RuleTimeWait,
	diagnosis.RuleResets, diagnosis.RuleStalls, diagnosis.RuleNotSteady}

// allCounters are the kernel counters kaeload reads, in cpustat's order: TcpExt's
// (/proc/net/netstat), then from numTCPExt on Tcp's (/proc/net/snmp).
var allCounters = []string{
	"ListenOverflows", "ListenDrops", "TCPSynRetrans", "TCPTimeWaitOverflow",
	"TCPReqQFullDrop", "TCPReqQFullDoCookies", "SyncookiesSent",
	"TCPAbortOnData", "TCPAbortOnClose", "TCPAbortOnMemory",
	"ActiveOpens", "PassiveOpens", "AttemptFails", "EstabResets", "OutRsts", "RetransSegs",
}

const numTCPExt = 10

// NetstatName is the metric of a kernel TCP counter as node_exporter names it:
// kaeload_netstat_TcpExt_ListenOverflows, kaeload_netstat_Tcp_ActiveOpens.
func NetstatName(counter string) string {
	if slices.Contains(allCounters[numTCPExt:], counter) {
		return netstatPrefix + "Tcp_" + counter
	}
	return netstatPrefix + "TcpExt_" + counter
}

// runLabels are the run label of r and its baseline, the first variant when it names none.
func runLabels(r *results.Run) (run, baseline string) {
	baseline = r.Baseline
	if baseline == "" && len(r.Variants) > 0 {
		baseline = r.Variants[0].Name
	}
	return rundir.DefaultDirName(r.Started, r.Name), baseline
}

// winLabels name a window: rep is run.json's index.
var winLabels = []string{"run", "variant", "rep"}

func with(labels ...string) []string { return append(append([]string(nil), winLabels...), labels...) }

// windowRate is the catalogue's window rate, which the live endpoint
// also serves at each window's end. Its Rep reads x.Rep alone.
var windowRate = func() *measure.Measure {
	i := slices.IndexFunc(measure.Catalogue, func(m measure.Measure) bool {
		return m.Key == "req_per_s" && m.Show&measure.OpenMetrics != 0
	})
	return &measure.Catalogue[i]
}()

// family is one metric as both outputs write it: the live endpoint through
// desc, the OpenMetrics writer by its name, type, help and label names.
type family struct {
	name, typ, help string
	labels          []string
	desc            *prometheus.Desc
}

// families holds the families made so far, by name.
var (
	familiesMu sync.Mutex
	families   = map[string]*family{}
)

// newFamily returns the family name, made with typ, help and labels if it is new.
func newFamily(name, typ, help string, labels []string) *family {
	familiesMu.Lock()
	defer familiesMu.Unlock()
	if f := families[name]; f != nil {
		return f
	}
	f := &family{name: name, typ: typ, help: help, labels: labels, desc: prometheus.NewDesc(name, help, labels, nil)}
	families[name] = f
	return f
}

// valueTypes are the live endpoint's types of the families' plain values.
var valueTypes = map[string]prometheus.ValueType{"counter": prometheus.CounterValue, "gauge": prometheus.GaugeValue, "unknown": prometheus.UntypedValue}

// pairs writes values as OpenMetrics label pairs, named in f's order.
func (f *family) pairs(values ...string) string {
	kv := make([]string, len(values))
	for i, v := range values {
		kv[i] = f.labels[i] + `="` + omEscape.Replace(v) + `"`
	}
	return strings.Join(kv, ",")
}

// The metrics. Dashboards are built on their names: they do not change.
var (
	famRequests = newFamily("kaeload_requests_total", "counter", "Requests that ended, by phase (warmup, window, after) and result: ok is a response below 400 (run.json's succeeded), error a failure or a status >= 400. The window's equal run.json's.",
		with("phase", "group", "result"))
	famErrors = newFamily("kaeload_errors_total", "counter", "Failed requests and responses with a status >= 400 by error class, as run.json counts them.",
		with("phase", "group", "class"))
	famConnect = newFamily("kaeload_connect_seconds", "histogram", "TCP connect times of the window's requests; set at the window's end (the timeline does not keep them per interval). Buckets to the HDR histogram's precision (1 %).",
		with("phase"))
	famHandshake = newFamily("kaeload_handshake_seconds", "histogram", "TLS handshake times, per interval as the timeline has them. Buckets to the HDR histogram's precision (1 %).",
		with("phase"))
	famRequest = newFamily("kaeload_request_seconds", "histogram", "Total times of completed requests, per interval as the timeline has them. Buckets to the HDR histogram's precision (1 %).",
		with("phase"))
	famIntervalRate = newFamily("kaeload_interval_requests_per_second", "gauge", "The last closed interval's successful responses per second, as the timeline has it.",
		with("group"))
	famIntervalHandshake = newFamily("kaeload_interval_handshake_seconds", "summary", "A summary: the last closed interval's handshake percentiles (quantile 0.5 and 0.99) as the timeline has them, 0 when it held none; count and sum over every interval so far.",
		with("group"))
	famClientCPU = newFamily("kaeload_client_cpu_seconds_total", "counter", "CPU time the group's worker process used (all its threads).",
		with("group"))
	famServerCPU = newFamily("kaeload_server_cpu_seconds_total", "counter", "CPU time of the server (its process tree, or its whole host).",
		with("host"))
	famDiagnosis = newFamily("kaeload_diagnosis_active", "gauge", "1 when the window's timeline shows the diagnosis rule (set at the window's end), else 0.",
		with("rule"))
	famWindowRate = newFamily(windowRate.Metric, "gauge", "The window's successful responses per second over all groups (run.json's rate), set at its end; 0 before.",
		winLabels)
	famWindowStart = newFamily("kaeload_window_start_timestamp_seconds", "gauge", "When the window's measurement began, Unix seconds (exact at its end); 0 before.",
		winLabels)
	famRunInfo = newFamily("kaeload_run_info", "gauge", "The run: its scenario name and baseline.",
		[]string{"run", "name", "baseline"})
	famBuildInfo = newFamily("kaeload_build_info", "gauge", "The kaeload that runs.",
		[]string{"version", "goversion"})
)

// netstatFamily returns the family of a kernel counter.
func netstatFamily(counter string) *family {
	return newFamily(NetstatName(counter), "unknown", "Growth of the kernel counter "+counter+
		" over the window's readings of the host's network namespace (side: client, server, or shared when both are in it).",
		with("side", "host"))
}
