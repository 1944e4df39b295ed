package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/kaeload/kaeload/results/stats"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
)

// SchemaVersion is the version of the run.json layout written by this
// package. ReadRun reads it and files without one (written before it was
// stored); it rejects any other.
const SchemaVersion = 1

// Run is everything one `kaeload run` measured: every variant, every
// repetition, every group, with the plan that produced it. It is the
// content of run.json.
type Run struct {
	// SchemaVersion is SchemaVersion when written by this package.
	SchemaVersion int `json:"schema_version"`
	// Name is the scenario name.
	Name string `json:"name"`
	// Started and Finished bound the whole run (server restarts and
	// warm-ups included), for the record only; rates use the groups' windows.
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished"`
	// Kaeload is the version of kaeload that ran, GoVersion its Go release.
	Kaeload   string `json:"kaeload,omitempty"`
	GoVersion string `json:"go_version,omitempty"`
	// Host holds facts about the client machine (CPU model, cores, NUMA
	// nodes, kernel, memory) as encoded by the caller.
	Host json.RawMessage `json:"host,omitempty"`
	// Hosts are the ssh hosts of the run (worker groups' and the
	// server's), in the plan's order; nil when everything ran here.
	Hosts []RemoteHost `json:"hosts,omitempty"`
	// Scenario is the scenario file's text as given (before --set overrides,
	// which the Plan reflects).
	Scenario string `json:"scenario,omitempty"`
	// Plan is the compiled plan as encoded by the caller, so that results
	// need not import scenarios and a stored run shows what was run.
	Plan json.RawMessage `json:"plan,omitempty"`
	// Baseline names the variant the others are compared with; "" means
	// the first variant.
	Baseline string `json:"baseline,omitempty"`
	// Variants are in plan order.
	Variants []Variant `json:"variants"`
	// Interrupted is true when the run was stopped before it completed;
	// Variants then hold only the repetitions that completed.
	Interrupted bool `json:"interrupted,omitempty"`
	// Incomplete is true for a run rebuilt from its journal while it was
	// still going or after its controller died: the repetitions shown are
	// those finished so far. A run that ended (completed, failed or
	// interrupted) is not Incomplete.
	Incomplete bool `json:"incomplete,omitempty"`
	// MaxErrors is the error share above which a repetition failed
	// (CheckRep); 0 in runs stored before it existed.
	MaxErrors float64 `json:"max_errors,omitempty"`
	// Order is the schedule the variants ran in: OrderRandomized
	// (randomized blocks: every round runs each variant once, in a random
	// order drawn from Seed), OrderInterleaved (every round in plan order)
	// or OrderSequential (all repetitions of a variant, then the next); ""
	// in runs stored before it was recorded.
	Order Order `json:"order,omitempty"`
	// Seed is the seed of a randomized order (replay it with --seed).
	Seed uint64 `json:"seed,omitempty"`
	// Equivalence is the margin of the equivalence verdicts as a fraction
	// (0.02 for ±2 %); 0 in runs stored before it existed, which are
	// judged with DefaultEquivalence.
	Equivalence float64 `json:"equivalence,omitempty"`
	// Calibration is what the run measured before choosing its
	// repetitions (repeat: auto); nil for a run with a fixed repeat.
	Calibration *stats.Calibration `json:"calibration,omitempty"`
	// Profile is set when the run profiled the server (server.profile):
	// the sampling rate and the crypto libraries. Each repetition's
	// ServerProfile holds its profile, or why there is none.
	Profile *ProfileSpec `json:"profile,omitempty"`
	// Capacity is set for a capacity search (load.capacity): how it
	// searched. Each variant's repetitions are then its steps (Rep.Step),
	// at different rates: see Capacities, not the repetition statistics.
	Capacity *CapacitySpec `json:"capacity,omitempty"`
	// Search is the run's search of a variable (visited values in visit
	// order); nil for a run without one.
	Search *Search `json:"search,omitempty"`
	// Thresholds are the run's pass/fail criteria (CheckThresholds); nil
	// when it has none.
	Thresholds []Threshold `json:"thresholds,omitempty"`
	// Warnings are conditions a reader must know about (client-bound
	// groups, server restarts, …), each a code with its words.
	Warnings Warnings `json:"warnings,omitempty"`
	// NotMeasured are the planned variants the run could not measure, or
	// not completely (the repetitions measured before the failure are in
	// Variants), in the order they failed; nil when every variant ran.
	NotMeasured []NotMeasured `json:"not_measured,omitempty"`
	// Metrics is what the live metrics endpoint (--metrics) served and
	// whether a scrape read the final values; nil when it was off.
	Metrics *Metrics `json:"metrics,omitempty"`
}

// NotMeasured is a planned variant the run gave up on, and why. The run
// goes on with the other variants; `kaeload run` then exits 3.
type NotMeasured struct {
	// Variant is the variant's name.
	Variant string `json:"variant"`
	// Reason says why, e.g. "server start failed: nginx: [emerg] cannot
	// load certificate …" (the first line of the start command's output).
	Reason string `json:"reason"`
}

// Variant is one server configuration and its repetitions.
type Variant struct {
	// Name is the variant's expanded name ("kae-soft-33").
	Name string `json:"name"`
	// Env is the environment the server was started with for this variant.
	Env map[string]string `json:"env,omitempty"`
	// Series and Sweep say which sweep the variant belongs to and its swept
	// values (key -> value as written); empty for a variant not swept.
	Series string            `json:"series,omitempty"`
	Sweep  map[string]string `json:"sweep,omitempty"`
	// Reps are the completed repetitions, in order.
	Reps []Rep `json:"reps"`
	// Partial are the windows an interrupt or a lost worker (Rep.Lost:
	// FAILED) cut short, each with what it measured until then (its
	// Total.Window ends there and PartialOf is the planned length). They
	// are shown, marked PARTIAL, and are in no statistic and no count of
	// a resumed run.
	Partial []Rep `json:"partial,omitempty"`
	// Excluded are the windows the run's exclude_flagged policy set aside
	// and measured again because they measured the client or shared CPUs
	// (each with Rep.Excluded saying why): shown, in no statistic.
	Excluded []Rep `json:"excluded,omitempty"`
	// Info is the output of the server's info commands for this variant
	// (server.info; nginx -V and openssl version for nginx): the server's
	// software as it ran; nil when none ran.
	Info []InfoRun `json:"info,omitempty"`
	// Speed are the variant's crypto micro-benchmark runs, one per speed
	// command of the scenario, in order; nil when it has none.
	Speed []SpeedRun `json:"speed,omitempty"`
}

// InfoRun is one server info command run for a variant and what it
// printed (at most InfoMax bytes), or why it failed.
type InfoRun struct {
	Command string `json:"command"`
	Output  string `json:"output,omitempty"`
	Error   string `json:"error,omitempty"`
}

// InfoMax bounds what an info command's output keeps.
const InfoMax = 4096

// Line is the run in one line, for the reports: "nginx -V: nginx
// version: nginx/1.22.1" (its output's first line), or its error.
func (i InfoRun) Line() string {
	if i.Error != "" {
		return i.Command + ": failed: " + i.Error
	}
	first, _, _ := strings.Cut(strings.TrimSpace(i.Output), "\n")
	return i.Command + ": " + first
}

// SpeedRun is one crypto micro-benchmark command run for a variant
// (openssl speed, bssl speed, gmssl speed) and what its output said.
// A failed or unparsable run has Error set and does not fail the load run.
type SpeedRun struct {
	// Command is the command line as run.
	Command string `json:"command"`
	// Results are the figures parsed from its output, in the order printed.
	Results []SpeedResult `json:"results,omitempty"`
	// Error says why the command failed or its output was not understood;
	// "" when it succeeded.
	Error string `json:"error,omitempty"`
}

// SpeedResult is one figure of a speed run, as package speed parses it
// (speed.Result is this type): Algorithm as the tool names it ("rsa 2048
// bits", "RSA 2048", "sms4-cbc"), Operation ("sign", "signing", "" when
// none), Block (bytes per operation of a throughput figure, 0 for
// operation rates), Value and Unit ("ops/s" or "bytes/s").
type SpeedResult struct {
	// Algorithm names what was measured.
	Algorithm string `json:"algorithm"`
	// Operation is the operation measured ("" when the tool names none).
	Operation string `json:"operation,omitempty"`
	// Block is the block size in bytes of a throughput figure; 0 for rates
	// of operations.
	Block int `json:"block,omitempty"`
	// Value is the rate in Unit.
	Value float64 `json:"value"`
	// Unit is "ops/s" or "bytes/s".
	Unit string `json:"unit"`
}

// Label names the figure for people: algorithm, operation and block size
// ("rsa 2048 bits sign", "sms4-cbc 16 bytes").
func (r SpeedResult) Label() string {
	s := r.Algorithm
	if r.Operation != "" {
		s += " " + r.Operation
	}
	if r.Block > 0 {
		s += " " + strconv.Itoa(r.Block) + " bytes"
	}
	return s
}

// Rep is one repetition of one variant: every group measured over the same
// window, and their exact merge.
type Rep struct {
	// Index is the repetition's 0-based position within its variant.
	Index int `json:"index"`
	// Groups are the per-group results in plan order.
	Groups []Group `json:"groups"`
	// Total is Merge(Groups); NewRep fills it in.
	Total Group `json:"total"`
	// Probes are the server-side probe readings around the window, by probe name.
	Probes map[string]ProbeReading `json:"probes,omitempty"`
	// ServerCPU is the server's CPU use during the window (a local server's
	// process tree, or the server host's /proc/stat); nil when not measured.
	ServerCPU *CPUUsage `json:"server_cpu,omitempty"`
	// ServerCPUs is how the CPUs the server may run on were used during
	// the window, by anything (the server, kaeload, other processes), and
	// who else ran there (analysis.RepServerCPUUse); nil when not measured (the
	// built-in target, which runs in the controller, a server not found,
	// runs stored before it existed).
	ServerCPUs *ServerCPUs `json:"server_cpus,omitempty"`
	// ServerProfile is where the server's CPU went during the window
	// (perf), or why that is not known; nil when the run did not profile.
	ServerProfile *ServerProfile `json:"server_profile,omitempty"`
	// Failed says why the repetition failed (analysis.CheckRep); nil for
	// a good repetition.
	Failed *Failure `json:"failed,omitempty"`
	// TimeWait is the number of TCP sockets in TIME_WAIT on the client
	// machine right after the window (/proc/net/sockstat of the
	// controller's network namespace, so a server on the same machine
	// counts too); nil when not read. Whichever side closes first
	// holds TIME_WAIT for 60 s, so this shows which side pays for the
	// short connections' ports.
	TimeWait *int `json:"time_wait,omitempty"`
	// TimeWaitTarget is how many of the client machine's sockets in
	// TIME_WAIT right after the window were connections to the target
	// (its address and port): the ports the client itself holds because
	// it closed first; nil when not counted.
	TimeWaitTarget *int `json:"time_wait_target,omitempty"`
	// Quiet is the wait for a quiet machine before the window; nil
	// when the plan had none.
	Quiet *QuietWait `json:"quiet,omitempty"`
	// Step is set when the repetition is a step of a capacity search: the
	// rate asked and whether the window met the targets.
	Step *CapacityStep `json:"step,omitempty"`
	// Excluded says why the exclude_flagged policy set the window aside
	// (Variant.Excluded): "CLIENT-BOUND: …"; "" for a window in the
	// statistics.
	Excluded string `json:"excluded,omitempty"`
	// PartialOf is set, to the planned window's length, on a window an
	// interrupt cut short (Variant.Partial); 0 for a complete one.
	PartialOf time.Duration `json:"partial_of,omitempty"`
	// WindowSpread is how far apart the groups' windows started and
	// ended; nil in runs stored before it was recorded.
	WindowSpread *WindowSpread `json:"window_spread,omitempty"`
	// Lost is set on a partial window that a lost worker cut short: it
	// is FAILED, and holds the other groups' counts.
	Lost *LostGroup `json:"lost,omitempty"`
	// Timeline divides the warm-up and the window into intervals: the
	// groups' sum, the server's CPU and the hosts' TCP counters per
	// interval (see Timeline); nil in runs stored before it existed.
	Timeline *Timeline `json:"timeline,omitempty"`
	// Readiness counts the readiness probes of the server start (or
	// check) just before this window; nil when none preceded it.
	Readiness *Readiness `json:"readiness,omitempty"`
}

// Readiness is what a start's readiness probes (server.ready) did to the
// server, outside every window yet in its log: TCP connections, TLS
// handshakes completed and HTTP responses read.
type Readiness struct {
	Connections uint64 `json:"connections"`
	Handshakes  uint64 `json:"handshakes"`
	Requests    uint64 `json:"requests"`
}

// Failure codes (Failure.Code).
const (
	// FailNoSuccess: no request succeeded in the window.
	FailNoSuccess = "no_success"
	// FailErrors: the errors' share of the attempts exceeded max_errors.
	FailErrors = "errors_over_max"
	// FailText: a run stored when the failure was a sentence (Text).
	FailText = "text"
)

// Failure is why a repetition failed, as a code and its figures:
// {"code": "errors_over_max", "share": 0.03, "max": 0.01}.
type Failure struct {
	Code string `json:"code"`
	// Errors and Unanswered are the window's errors and the requests
	// left unanswered at its end (FailNoSuccess).
	Errors     uint64  `json:"errors,omitempty"`
	Unanswered *Stages `json:"unanswered,omitempty"`
	// Share is the errors' share of the attempts, Max the limit
	// (FailErrors).
	Share float64 `json:"share,omitempty"`
	Max   float64 `json:"max,omitempty"`
	// Text is the sentence of a run stored before the codes (FailText).
	Text string `json:"text,omitempty"`
}

// UnmarshalJSON reads a Failure, or the sentence a run stored before the
// codes wrote (as FailText).
func (f *Failure) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		*f = Failure{Code: FailText}
		return json.Unmarshal(b, &f.Text)
	}
	type plain Failure
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode((*plain)(f))
}

// WindowSpread is the latest start of the groups' windows minus the
// earliest, and the same for their ends.
type WindowSpread struct {
	Start time.Duration `json:"start"`
	End   time.Duration `json:"end"`
}

// RecordSpread records the spread of r's windows and, where they differ,
// makes the total's rate the sum of the groups' own rates, each count
// over its own window (runs stored before it: over the windows' hull).
func (r *Rep) RecordSpread() {
	r.WindowSpread = SpreadOf(r.Groups)
	if *r.WindowSpread == (WindowSpread{}) {
		return
	}
	for i := range r.Groups {
		r.Total.GroupsRate += r.Groups[i].Rate()
	}
}

// SpreadOf is the spread of the groups' windows (the empty ones left out).
func SpreadOf(groups []Group) *WindowSpread {
	var starts, ends []time.Time
	for _, g := range groups {
		if g.Window.Length() > 0 {
			starts, ends = append(starts, g.Window.Start), append(ends, g.Window.End)
		}
	}
	return &WindowSpread{Start: span(starts), End: span(ends)}
}

// span is the latest of ts minus the earliest; 0 for none.
func span(ts []time.Time) time.Duration {
	if len(ts) == 0 {
		return 0
	}
	return slices.MaxFunc(ts, time.Time.Compare).Sub(slices.MinFunc(ts, time.Time.Compare))
}

// LostGroup is a worker lost mid-window: its group, its host ("" = this
// machine), why ("killed by signal 9", "the connection dropped (ssh exit
// 255)", …) and the requests it had reported in the window until then.
type LostGroup struct {
	Group    int    `json:"group"`
	Host     string `json:"host,omitempty"`
	Why      string `json:"why"`
	Requests uint64 `json:"requests"`
}

// NewRep returns the repetition with the given index and groups and its
// Total computed by Merge.
func NewRep(index int, groups []Group) Rep {
	return Rep{Index: index, Groups: groups, Total: Merge(groups)}
}

// BaselineIndex returns the index in r.Variants of the baseline variant:
// the one named by r.Baseline, or 0 when r.Baseline is empty. It is an
// error when r.Baseline names no variant or the run has no variants.
func (r *Run) BaselineIndex() (int, error) {
	if len(r.Variants) == 0 {
		return 0, fmt.Errorf("run %q has no variants", r.Name)
	}
	if r.Baseline == "" {
		return 0, nil
	}
	for i := range r.Variants {
		if r.Variants[i].Name == r.Baseline {
			return i, nil
		}
	}
	return 0, fmt.Errorf("baseline %q: no such variant in run %q", r.Baseline, r.Name)
}

// BaselineVariant returns the index in r.Variants of the baseline variant and its
// name: the variant named by r.Baseline, or the first one when r.Baseline
// is empty; index -1 when r holds no such variant (not measured).
func (r *Run) BaselineVariant() (int, string) {
	if r.Baseline == "" {
		if len(r.Variants) == 0 {
			return -1, ""
		}
		return 0, r.Variants[0].Name
	}
	for i := range r.Variants {
		if r.Variants[i].Name == r.Baseline {
			return i, r.Baseline
		}
	}
	return -1, r.Baseline
}

// Rates returns each repetition's total rate (Rep.Total.Rate) in order:
// the samples that Summarize and Compare work on.
func (v *Variant) Rates() []float64 {
	rates := make([]float64, len(v.Reps))
	for i := range v.Reps {
		rates[i] = v.Reps[i].Total.Rate()
	}
	return rates
}

// WriteJSON writes r as indented JSON, setting r.SchemaVersion to
// SchemaVersion first.
func WriteJSON(w io.Writer, r *Run) error {
	r.SchemaVersion = SchemaVersion
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("encode run %q: %w", r.Name, err)
	}
	return nil
}

// ReadRun decodes a run written by WriteJSON. Unknown fields and schema
// versions other than SchemaVersion are errors; a run without one (0) is
// read as SchemaVersion.
func ReadRun(rd io.Reader) (*Run, error) {
	dec := json.NewDecoder(rd)
	dec.DisallowUnknownFields()
	var r Run
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("decode run: %w", err)
	}
	if err := r.CheckSchema(); err != nil {
		return nil, err
	}
	if err := r.Check(); err != nil {
		return nil, fmt.Errorf("decode run %q: %w", r.Name, err)
	}
	return &r, nil
}

// CheckSchema rejects a run of a schema version this package does not
// read, and sets a missing one (0, written before versions) to
// SchemaVersion.
func (r *Run) CheckSchema() error {
	switch r.SchemaVersion {
	case 0:
		r.SchemaVersion = SchemaVersion
	case SchemaVersion:
	default:
		return fmt.Errorf("decode run %q: schema version %d, want %d", r.Name, r.SchemaVersion, SchemaVersion)
	}
	return nil
}

// ProbeReading is one probe read right before and right after a window.
type ProbeReading struct {
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	// Error is the probe's failure, if it failed; the readings are then 0.
	Error string `json:"error,omitempty"`
}

// Delta is After - Before.
func (p ProbeReading) Delta() float64 { return p.After - p.Before }
