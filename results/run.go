package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/kaeload/kaeload/results/stats"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
)

// SchemaVersion is the run.json layout written; ReadRun also reads older files without one.
const SchemaVersion = 1

// Run is run.json: everything one `kaeload run` measured, with its plan (encoded by the caller);
// zero fields are absent or from an older kaeload.
type Run struct {
	SchemaVersion int                `json:"schema_version"`
	Name          string             `json:"name"`              // the scenario's
	Started       time.Time          `json:"started"`           // for the record only
	Finished      time.Time          `json:"finished"`          // for the record only
	Kaeload       string             `json:"kaeload,omitempty"` // its version
	GoVersion     string             `json:"go_version,omitempty"`
	Host          json.RawMessage    `json:"host,omitempty"`
	Hosts         []RemoteHost       `json:"hosts,omitempty"` // plan order; nil when all ran here
	Scenario      string             `json:"scenario,omitempty"`
	Plan          json.RawMessage    `json:"plan,omitempty"`
	Baseline      string             `json:"baseline,omitempty"` // "" is the first variant
	Variants      []Variant          `json:"variants"`           // plan order
	Interrupted   bool               `json:"interrupted,omitempty"`
	Incomplete    bool               `json:"incomplete,omitempty"` // rebuilt from a journal without its end
	MaxErrors     float64            `json:"max_errors,omitempty"` // error share that fails a repetition
	Order         Order              `json:"order,omitempty"`
	Seed          uint64             `json:"seed,omitempty"`        // of a randomized order (--seed)
	Equivalence   float64            `json:"equivalence,omitempty"` // the margin; 0: DefaultEquivalence
	Calibration   *stats.Calibration `json:"calibration,omitempty"`
	Profile       *ProfileSpec       `json:"profile,omitempty"`
	Capacity      *CapacitySpec      `json:"capacity,omitempty"`
	Search        *Search            `json:"search,omitempty"`
	Thresholds    []Threshold        `json:"thresholds,omitempty"`
	Warnings      Warnings           `json:"warnings,omitempty"`
	NotMeasured   []NotMeasured      `json:"not_measured,omitempty"`
	Metrics       *Metrics           `json:"metrics,omitempty"` // nil without --metrics
}

// DefaultEquivalence is the equivalence margin (±2 %, about a good setup's noise), also of runs storing none.
const DefaultEquivalence = 0.02

// RemoteHost is what a run records about one ssh host.
type RemoteHost struct {
	Name     string `json:"name"`               // as in the scenario
	Roles    string `json:"roles,omitempty"`    // "groups 1, 2", "the server"
	Platform string `json:"platform,omitempty"` // GOOS/GOARCH
	Binary   string `json:"binary_sha256,omitempty"`
	Uploaded bool   `json:"uploaded,omitempty"` // by this run, else found
	// RTT and ClockOffset as last measured (per window: Group.ClockOffset).
	RTT         time.Duration `json:"rtt,omitempty"`
	ClockOffset time.Duration `json:"clock_offset,omitempty"`
	Uncertain   bool          `json:"clock_uncertain,omitempty"` // half the RTT exceeded 1 % of the window
	Facts       *RemoteFacts  `json:"facts,omitempty"`
}

// RemoteFacts are facts about a remote machine, read over ssh.
type RemoteFacts struct {
	Kernel   string `json:"kernel,omitempty"` // uname -srm
	CPUs     int    `json:"cpus,omitempty"`   // nproc
	CPUModel string `json:"cpu_model,omitempty"`
}

// NotMeasured is a variant the run gave up on, with the first line of why.
type NotMeasured struct {
	Variant string `json:"variant"`
	Reason  string `json:"reason"`
}

// Variant is one server configuration and its repetitions; Partial and Excluded are in no statistic.
type Variant struct {
	Name     string            `json:"name"` // expanded ("kae-soft-33")
	Env      map[string]string `json:"env,omitempty"`
	Series   string            `json:"series,omitempty"`   // the variant's sweep
	Sweep    map[string]string `json:"sweep,omitempty"`    // its swept values
	Reps     []Rep             `json:"reps"`               // completed, in order
	Partial  []Rep             `json:"partial,omitempty"`  // cut short
	Excluded []Rep             `json:"excluded,omitempty"` // set aside by exclude_flagged
	Info     []InfoRun         `json:"info,omitempty"`     // nginx -V …
	Speed    []SpeedRun        `json:"speed,omitempty"`
}

// InfoRun is one server info command and its output (InfoMax bytes at most), or why it failed.
type InfoRun struct {
	Command string `json:"command"`
	Output  string `json:"output,omitempty"`
	Error   string `json:"error,omitempty"`
}

// InfoMax bounds an info command's output.
const InfoMax = 4096

// Line is the command and its output's first line, or its error.
func (i InfoRun) Line() string {
	if i.Error != "" {
		return i.Command + ": failed: " + i.Error
	}
	first, _, _ := strings.Cut(strings.TrimSpace(i.Output), "\n")
	return i.Command + ": " + first
}

// SpeedRun is one crypto micro-benchmark (openssl speed …) and its figures; an Error fails no run.
type SpeedRun struct {
	Command string        `json:"command"`
	Results []SpeedResult `json:"results,omitempty"`
	Error   string        `json:"error,omitempty"`
}

// SpeedResult is one figure of a speed run, named as the tool names it.
type SpeedResult struct {
	Algorithm string  `json:"algorithm"`           // "rsa 2048 bits", "sms4-cbc"
	Operation string  `json:"operation,omitempty"` // "sign"; "" when none
	Block     int     `json:"block,omitempty"`     // bytes, for a throughput
	Value     float64 `json:"value"`
	Unit      string  `json:"unit"` // "ops/s" or "bytes/s"
}

// Label is "rsa 2048 bits sign", "sms4-cbc 16 bytes".
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

// Rep is one repetition of one variant: every group over the same window, and their exact merge.
type Rep struct {
	Index          int                     `json:"index"`  // 0-based, within the variant
	Groups         []Group                 `json:"groups"` // plan order
	Total          Group                   `json:"total"`  // Merge(Groups), by NewRep
	Probes         map[string]ProbeReading `json:"probes,omitempty"`
	ServerCPU      *CPUUsage               `json:"server_cpu,omitempty"`
	ServerCPUs     *ServerCPUs             `json:"server_cpus,omitempty"`
	ServerProfile  *ServerProfile          `json:"server_profile,omitempty"`
	Failed         *Failure                `json:"failed,omitempty"`
	TimeWait       *int                    `json:"time_wait,omitempty"` // the client's, after the window
	TimeWaitTarget *int                    `json:"time_wait_target,omitempty"`
	Quiet          *QuietWait              `json:"quiet,omitempty"`
	Step           *CapacityStep           `json:"step,omitempty"`       // a capacity search's
	Excluded       string                  `json:"excluded,omitempty"`   // why exclude_flagged set it aside
	PartialOf      time.Duration           `json:"partial_of,omitempty"` // the planned length of a window cut short
	WindowSpread   *WindowSpread           `json:"window_spread,omitempty"`
	Lost           *LostGroup              `json:"lost,omitempty"` // the worker that cut it short
	Timeline       *Timeline               `json:"timeline,omitempty"`
	Readiness      *Readiness              `json:"readiness,omitempty"`
}

// QuietWait is the wait for a quiet machine before a window (the plan's quiet).
type QuietWait struct {
	MaxOther float64       `json:"max_other"` // share allowed to others
	Waited   time.Duration `json:"waited"`
	TimedOut bool          `json:"timed_out,omitempty"` // never quiet long enough, measured anyway
	// Others' larger share of the client's or server's CPUs in the last step not quiet, and the busiest.
	Others  float64     `json:"others,omitempty"`
	Busiest *ProcessCPU `json:"busiest,omitempty"`
}

// ServerCPUs is what ran on the server's CPUs during a window (Builtin: on the client's by design).
type ServerCPUs struct {
	CPUs       string       `json:"cpus"`           // the server's affinities, or the host's CPUs
	Host       string       `json:"host,omitempty"` // "" = the controller's
	Builtin    bool         `json:"builtin,omitempty"`
	Name       string       `json:"name,omitempty"`               // the PIDs' root's, without server control
	PIDs       []int        `json:"pids,omitempty"`               // root first
	Busy       *CPUUsage    `json:"busy,omitempty"`               // by anything, CPU by CPU
	Controller float64      `json:"controller_seconds,omitempty"` // when on the server's host
	Others     []ProcessCPU `json:"others,omitempty"`             // at most OthersListed
}

// ServerOtherLoadShare is the share of the server's CPU time others must take to be reported: a
// nice 10 loop beside a saturated server gets a tenth of a CPU, yet takes all it leaves.
const ServerOtherLoadShare = 0.10

// ServerSaturatedBusy is how busy the server's CPUs must be for a window to have loaded it.
const ServerSaturatedBusy = 0.80

// OtherLoadShare is the share of a group's CPU time others must take for a warning.
const OtherLoadShare = 0.25

// Readiness is what the probes just before a window did to the server: in no window, yet in its log.
type Readiness struct {
	Connections uint64 `json:"connections"`
	Handshakes  uint64 `json:"handshakes"`
	Requests    uint64 `json:"requests"`
}

// Failure codes (Failure.Code).
const (
	FailNoSuccess = "no_success"      // no request succeeded
	FailErrors    = "errors_over_max" // the error share exceeded max_errors
	FailText      = "text"            // an older run's sentence (Text)
)

// Failure is why a repetition failed: {"code": "errors_over_max", "share": 0.03, "max": 0.01}.
type Failure struct {
	Code       string  `json:"code"`
	Errors     uint64  `json:"errors,omitempty"`     // FailNoSuccess
	Unanswered *Stages `json:"unanswered,omitempty"` // FailNoSuccess
	Share      float64 `json:"share,omitempty"`      // FailErrors
	Max        float64 `json:"max,omitempty"`        // FailErrors
	Text       string  `json:"text,omitempty"`       // FailText
}

// UnmarshalJSON reads a Failure, or an older run's sentence as FailText.
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

// WindowSpread is how far apart the groups' windows started and ended.
type WindowSpread struct {
	Start time.Duration `json:"start"`
	End   time.Duration `json:"end"`
}

// RecordSpread records how far apart r's windows started and ended; if apart, Total's rate sums the groups'.
func (r *Rep) RecordSpread() {
	var starts, ends []time.Time
	for _, g := range r.Groups {
		if g.Window.Length() > 0 {
			starts, ends = append(starts, g.Window.Start), append(ends, g.Window.End)
		}
	}
	r.WindowSpread = &WindowSpread{Start: span(starts), End: span(ends)}
	if *r.WindowSpread != (WindowSpread{}) {
		for i := range r.Groups {
			r.Total.GroupsRate += r.Groups[i].Rate()
		}
	}
}

func span(ts []time.Time) time.Duration {
	if len(ts) == 0 {
		return 0
	}
	return slices.MaxFunc(ts, time.Time.Compare).Sub(slices.MinFunc(ts, time.Time.Compare))
}

// LostGroup is a worker lost mid-window, why, and the requests it reported.
type LostGroup struct {
	Group    int    `json:"group"`
	Host     string `json:"host,omitempty"`
	Why      string `json:"why"`
	Requests uint64 `json:"requests"`
}

// NewRep returns the repetition of groups with its Total merged.
func NewRep(index int, groups []Group) Rep {
	return Rep{Index: index, Groups: groups, Total: Merge(groups)}
}

// BaselineVariant is the baseline's index in r.Variants (-1: not measured) and name.
func (r *Run) BaselineVariant() (int, string) {
	if r.Baseline == "" && len(r.Variants) > 0 {
		return 0, r.Variants[0].Name
	}
	return slices.IndexFunc(r.Variants, func(v Variant) bool { return v.Name == r.Baseline }), r.Baseline
}

// Measured is a copy of the variants with a window, complete or partial; nil for none.
func Measured(vs []Variant) []Variant {
	return without(vs, func(v Variant) bool { return len(v.Reps)+len(v.Partial) == 0 })
}

// Rates are the repetitions' total rates, the statistics' samples.
func (v *Variant) Rates() []float64 {
	rates := make([]float64, len(v.Reps))
	for i := range v.Reps {
		rates[i] = v.Reps[i].Total.Rate()
	}
	return rates
}

// WriteJSON writes r as indented JSON with the current SchemaVersion.
func WriteJSON(w io.Writer, r *Run) error {
	r.SchemaVersion = SchemaVersion
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("encode run %q: %w", r.Name, err)
	}
	return nil
}

// ReadRun decodes a run written by WriteJSON; unknown fields and schema versions are errors.
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

// CheckSchema rejects an unknown schema version, and sets a missing one.
func (r *Run) CheckSchema() error {
	if r.SchemaVersion != 0 && r.SchemaVersion != SchemaVersion {
		return fmt.Errorf("decode run %q: schema version %d, want %d", r.Name, r.SchemaVersion, SchemaVersion)
	}
	r.SchemaVersion = SchemaVersion
	return nil
}

// MaxRepeat bounds the repetitions a plan may ask of one variant.
const MaxRepeat = 1000

// maxGroups bounds a group's index: far above any machine's CPU count.
const maxGroups = 1 << 16

// Check rejects indices no kaeload run writes: a damaged file is an error, not an unbounded loop.
func (r *Run) Check() error {
	var errs []error
	for i := range r.Variants {
		v := &r.Variants[i]
		// Re-measured windows add to the plan's count.
		limit := MaxRepeat + len(v.Reps) + len(v.Partial) + len(v.Excluded)
		for k, reps := range [][]Rep{v.Reps, v.Partial, v.Excluded} {
			for j := range reps {
				if err := reps[j].check(limit); err != nil {
					kind := [...]string{"reps", "partial", "excluded"}[k]
					errs = append(errs, fmt.Errorf("variants[%d] (%s).%s[%d]: %w", i, v.Name, kind, j, err))
				}
			}
		}
	}
	if s := r.Search; s != nil {
		for k, vis := range s.Visits {
			if vis.Rep < 0 || vis.Rep >= MaxRepeat+len(s.Visits) {
				errs = append(errs, fmt.Errorf("search.visits[%d].rep: %d is out of range", k, vis.Rep))
			}
		}
	}
	if len(errs) > 5 {
		errs = append(errs[:5], fmt.Errorf("and %d more", len(errs)-5))
	}
	return errors.Join(errs...)
}

func (rep *Rep) check(limit int) error {
	if rep.Index < 0 || rep.Index >= limit {
		return fmt.Errorf("index %d is out of range (0 to %d)", rep.Index, limit-1)
	}
	for g := range rep.Groups {
		if idx := rep.Groups[g].Index; idx < 0 || idx >= maxGroups {
			return fmt.Errorf("groups[%d].index %d is out of range", g, idx)
		}
	}
	return nil
}

// ProbeReading is one probe read right before and right after a window.
type ProbeReading struct {
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	Error  string  `json:"error,omitempty"` // the readings are then 0
}

// Delta is After - Before.
func (p ProbeReading) Delta() float64 { return p.After - p.Before }

// CapacitySpec is how a capacity search looked for the highest open-loop rate meeting the
// targets: up from From by Factor to Max, then bisecting to Resolution.
type CapacitySpec struct {
	P99Handshake time.Duration `json:"p99_handshake,omitempty"` // 0: no target
	P99Total     time.Duration `json:"p99_total,omitempty"`     // from the intended start
	MaxErrors    float64       `json:"max_errors"`
	MaxMissed    float64       `json:"max_missed"`
	From         float64       `json:"from"`
	Factor       float64       `json:"factor"`
	Resolution   float64       `json:"resolution"`
	Max          float64       `json:"max"`
}

// CapacityStep marks a repetition as one step of a capacity search.
type CapacityStep struct {
	Rate  float64 `json:"rate"`  // asked, per second, all groups
	Phase string  `json:"phase"` // "up" or "bisect"
	Pass  bool    `json:"pass"`
	Why   string  `json:"why,omitempty"` // the target missed
}

// Capacity is a variant's search: Knee the highest rate meeting the targets, Fail the lowest not (0: none).
type Capacity struct {
	Variant          int // index in Run.Variants
	Knee, Fail       float64
	BelowFrom, AtMax bool // no step met them; all did
	Steps            []*Rep
}

// Threshold metrics, per variant over its repetitions; a failed probe reading is not measured, so
// it crosses its threshold.
const (
	MetricRate            = "req/s"            // mean total rate
	MetricErrors          = "errors"           // failed requests, summed
	MetricErrorShare      = "error_share"      // failed attempts' share
	MetricLatency         = "latency"          // a percentile, in µs
	MetricClientBound     = "client_bound"     // 1 when a repetition had a client-bound group
	MetricServerSaturated = "server_saturated" // 1 when no judged repetition was NOT SATURATED
	MetricVs              = "vs"               // Variant's mean rate against Against's, as a fraction
	MetricListenOverflows = "listen_overflows" // those the run's own connections show
	MetricStalls          = "stalls"
	MetricDiagnoses       = "diagnoses"
	MetricProbe           = "probe" // mean delta per window
	MetricProbePerRequest = "probe_per_request"
)

// Threshold passes when "measured Op Value" holds (Value in the metric's unit, true is 1); crossed, run exits 99.
type Threshold struct {
	Expr     string  `json:"expr"` // as written: "p99 handshake < 20ms"
	Metric   string  `json:"metric"`
	Latency  string  `json:"latency,omitempty"`  // MetricLatency's: connect, handshake, ttfb, total
	Quantile float64 `json:"quantile,omitempty"` // MetricLatency's: (0, 100]
	Op       string  `json:"op"`                 // <, <=, >, >=, == or !=
	Value    float64 `json:"value"`
	Variant  string  `json:"variant,omitempty"` // MetricVs
	Against  string  `json:"against,omitempty"` // MetricVs
	Probe    string  `json:"probe,omitempty"`
}

// Metrics records the live metrics endpoint (--metrics), its scrapes, and whether one read each set of final values.
type Metrics struct {
	Listen         string         `json:"listen"` // as asked: ":9464"
	Addr           string         `json:"addr"`   // as served, port bound
	Port           int            `json:"port"`
	Scrapes        int            `json:"scrapes"`                   // Prometheus's, by their timeout header
	Others         int            `json:"others,omitempty"`          // other requests of /metrics
	ScrapeInterval time.Duration  `json:"scrape_interval,omitempty"` // median
	Linger         time.Duration  `json:"linger"`                    // the end's wait for a scrape
	Waited         time.Duration  `json:"waited,omitempty"`          // --metrics-wait
	Windows        []MetricsFinal `json:"windows,omitempty"`
	End            MetricsFinal   `json:"end"`
}

// MetricsFinal is a window's final values, or the run's end's (Variant "");
// Scraped is zero when no scrape begun after Final read them.
type MetricsFinal struct {
	Variant string    `json:"variant,omitempty"`
	Rep     int       `json:"rep,omitempty"`
	Final   time.Time `json:"final"`
	Scraped time.Time `json:"scraped,omitzero"`
}

// WasScraped reports whether a Prometheus scrape read the final values.
func (f *MetricsFinal) WasScraped() bool { return !f.Scraped.IsZero() }

// Unscraped returns the windows whose final values no scrape read.
func (m *Metrics) Unscraped() []MetricsFinal {
	return without(m.Windows, func(w MetricsFinal) bool { return w.WasScraped() })
}
