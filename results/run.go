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

// SchemaVersion is the run.json layout this package writes. ReadRun also
// reads files without one (older); it rejects any other.
const SchemaVersion = 1

// Run is everything one `kaeload run` measured, with the plan that
// produced it: the content of run.json. Zero fields are absent or older.
type Run struct {
	SchemaVersion int    `json:"schema_version"`
	Name          string `json:"name"` // the scenario's
	// Started and Finished bound the whole run, for the record only.
	Started   time.Time `json:"started"`
	Finished  time.Time `json:"finished"`
	Kaeload   string    `json:"kaeload,omitempty"` // its version
	GoVersion string    `json:"go_version,omitempty"`
	// Host holds the client machine's facts as encoded by the caller.
	Host json.RawMessage `json:"host,omitempty"`
	// Hosts are the run's ssh hosts in plan order; nil when all ran here.
	Hosts []RemoteHost `json:"hosts,omitempty"`
	// Scenario is the file's text before --set; Plan the compiled plan,
	// encoded by the caller so that results need not import scenarios.
	Scenario string          `json:"scenario,omitempty"`
	Plan     json.RawMessage `json:"plan,omitempty"`
	// Baseline names the variant compared with; "" is the first.
	Baseline string    `json:"baseline,omitempty"`
	Variants []Variant `json:"variants"` // plan order
	// Interrupted: stopped early, Variants hold the completed repetitions.
	Interrupted bool `json:"interrupted,omitempty"`
	// Incomplete: rebuilt from the journal of a run still going or whose
	// controller died.
	Incomplete bool    `json:"incomplete,omitempty"`
	MaxErrors  float64 `json:"max_errors,omitempty"` // error share that fails a repetition
	// Order is the schedule of the variants; Seed that of a randomized
	// order (replay it with --seed).
	Order Order  `json:"order,omitempty"`
	Seed  uint64 `json:"seed,omitempty"`
	// Equivalence is the equivalence margin as a fraction (0: older run,
	// judged with DefaultEquivalence).
	Equivalence float64 `json:"equivalence,omitempty"`
	// Calibration is what repeat: auto measured before choosing.
	Calibration *stats.Calibration `json:"calibration,omitempty"`
	// Profile is set when the server was profiled (Rep.ServerProfile).
	Profile *ProfileSpec `json:"profile,omitempty"`
	// Capacity is set for a capacity search: the repetitions are its
	// steps (Rep.Step), at different rates.
	Capacity   *CapacitySpec `json:"capacity,omitempty"`
	Search     *Search       `json:"search,omitempty"`
	Thresholds []Threshold   `json:"thresholds,omitempty"`
	// Warnings are conditions a reader must know about (client-bound
	// groups, server restarts, …), each a code with its words.
	Warnings Warnings `json:"warnings,omitempty"`
	// NotMeasured are the variants given up on, in the order they failed
	// (what they measured before is in Variants).
	NotMeasured []NotMeasured `json:"not_measured,omitempty"`
	// Metrics is what --metrics served and whether the final values were
	// scraped; nil when off.
	Metrics *Metrics `json:"metrics,omitempty"`
}

// NotMeasured is a variant the run gave up on, with the first line of why.
type NotMeasured struct {
	Variant string `json:"variant"`
	Reason  string `json:"reason"`
}

// Variant is one server configuration and its repetitions.
type Variant struct {
	Name string            `json:"name"` // expanded ("kae-soft-33")
	Env  map[string]string `json:"env,omitempty"`
	// Series and Sweep name the variant's sweep and its swept values.
	Series string            `json:"series,omitempty"`
	Sweep  map[string]string `json:"sweep,omitempty"`
	Reps   []Rep             `json:"reps"` // completed, in order
	// Partial are windows an interrupt or a lost worker cut short
	// (PartialOf is the planned length): shown, in no statistic.
	Partial []Rep `json:"partial,omitempty"`
	// Excluded are windows exclude_flagged set aside and measured again
	// (Rep.Excluded says why): shown, in no statistic.
	Excluded []Rep `json:"excluded,omitempty"`
	// Info is the server's info commands' output (nginx -V …).
	Info  []InfoRun  `json:"info,omitempty"`
	Speed []SpeedRun `json:"speed,omitempty"` // one per speed command
}

// InfoRun is one server info command and its output (at most InfoMax
// bytes), or why it failed.
type InfoRun struct {
	Command string `json:"command"`
	Output  string `json:"output,omitempty"`
	Error   string `json:"error,omitempty"`
}

// InfoMax bounds what an info command's output keeps.
const InfoMax = 4096

// Line is the command and its output's first line, or its error.
func (i InfoRun) Line() string {
	if i.Error != "" {
		return i.Command + ": failed: " + i.Error
	}
	first, _, _ := strings.Cut(strings.TrimSpace(i.Output), "\n")
	return i.Command + ": " + first
}

// SpeedRun is one crypto micro-benchmark command (openssl speed …) and
// the figures parsed from it; Error, when set, does not fail the run.
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

// Rep is one repetition of one variant: every group measured over the same
// window, and their exact merge. Nil pointers mean not measured.
type Rep struct {
	Index  int     `json:"index"`  // 0-based, within the variant
	Groups []Group `json:"groups"` // plan order
	Total  Group   `json:"total"`  // Merge(Groups), by NewRep
	// Probes are the server-side probe readings around the window.
	Probes map[string]ProbeReading `json:"probes,omitempty"`
	// ServerCPU is the server's process tree, or its host's /proc/stat;
	// ServerCPUs how the CPUs it may run on were used, and by whom.
	ServerCPU     *CPUUsage      `json:"server_cpu,omitempty"`
	ServerCPUs    *ServerCPUs    `json:"server_cpus,omitempty"`
	ServerProfile *ServerProfile `json:"server_profile,omitempty"`
	Failed        *Failure       `json:"failed,omitempty"`
	// TimeWait is the client namespace's sockets in TIME_WAIT after the
	// window, TimeWaitTarget those to the target: the side that closes
	// first holds TIME_WAIT and pays in ports.
	TimeWait       *int `json:"time_wait,omitempty"`
	TimeWaitTarget *int `json:"time_wait_target,omitempty"`
	// Quiet is the wait for a quiet machine before the window.
	Quiet *QuietWait `json:"quiet,omitempty"`
	// Step is set on a step of a capacity search.
	Step *CapacityStep `json:"step,omitempty"`
	// Excluded says why exclude_flagged set the window aside.
	Excluded string `json:"excluded,omitempty"`
	// PartialOf is the planned length of a window cut short.
	PartialOf    time.Duration `json:"partial_of,omitempty"`
	WindowSpread *WindowSpread `json:"window_spread,omitempty"`
	// Lost is set on a partial window a lost worker cut short (FAILED).
	Lost      *LostGroup `json:"lost,omitempty"`
	Timeline  *Timeline  `json:"timeline,omitempty"`
	Readiness *Readiness `json:"readiness,omitempty"`
}

// Readiness is what the readiness probes just before a window did to the
// server: outside every window, yet in its log.
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

// Failure is why a repetition failed, as a code and its figures:
// {"code": "errors_over_max", "share": 0.03, "max": 0.01}.
type Failure struct {
	Code string `json:"code"`
	// FailNoSuccess: the window's errors and unanswered requests.
	Errors     uint64  `json:"errors,omitempty"`
	Unanswered *Stages `json:"unanswered,omitempty"`
	// FailErrors: the error share and its limit.
	Share float64 `json:"share,omitempty"`
	Max   float64 `json:"max,omitempty"`
	Text  string  `json:"text,omitempty"` // FailText
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

// WindowSpread is how far apart the groups' windows started and ended.
type WindowSpread struct {
	Start time.Duration `json:"start"`
	End   time.Duration `json:"end"`
}

// RecordSpread records the spread of r's windows and, where they differ,
// makes the total's rate the sum of the groups' own rates.
func (r *Rep) RecordSpread() {
	r.WindowSpread = spreadOf(r.Groups)
	if *r.WindowSpread == (WindowSpread{}) {
		return
	}
	for i := range r.Groups {
		r.Total.GroupsRate += r.Groups[i].Rate()
	}
}

// spreadOf is the spread of the groups' non-empty windows.
func spreadOf(groups []Group) *WindowSpread {
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

// LostGroup is a worker lost mid-window, why ("killed by signal 9"), and
// the requests it had reported until then.
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

// BaselineVariant returns the baseline's index in r.Variants and its name;
// index -1 when r holds no such variant (not measured).
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

// Rates returns each repetition's total rate: the samples of the statistics.
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

// ReadRun decodes a run written by WriteJSON; unknown fields and schema
// versions are errors.
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

// CheckSchema rejects an unknown schema version and sets a missing one.
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
	Error  string  `json:"error,omitempty"` // the readings are then 0
}

// Delta is After - Before.
func (p ProbeReading) Delta() float64 { return p.After - p.Before }
