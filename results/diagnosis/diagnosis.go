// Package diagnosis reads a repetition's timeline and says what went wrong
// in its window (accept-queue overflow, SYN cookies, TIME_WAIT overflow,
// resets, stalls, not steady) where the run's own connections show it.
package diagnosis

import (
	"slices"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/stats"
)

// The rules (Diagnosis.Rule), as the machine-readable outputs name them
// (docs/diagnoses.md says what each judges).
const (
	RuleAcceptQueue = "accept_queue_overflow"
	RuleSYNCookies  = "syn_queue_full"
	RuleTimeWait    = "time_wait_overflow"
	RuleResets      = "reset_storm"
	RuleStalls      = "stalls"
	RuleNotSteady   = "not_steady"
)

// allRules are the rules in the order of their diagnoses, each with its name
// for people and its judge: the diagnoses it finds, or why it could not
// judge.
var allRules = []struct {
	rule, title string
	judge       func(j *judge) ([]Diagnosis, string)
}{
	{RuleAcceptQueue, "accept-queue overflow", (*judge).acceptQueue},
	{RuleSYNCookies, "SYN queue full", synQueue.judge},
	{RuleTimeWait, "TIME_WAIT overflow", timeWait.judge},
	{RuleResets, "reset storm", resets.judge},
	{RuleStalls, "stalls", (*judge).stallDiagnosis},
	{RuleNotSteady, "not steady", (*judge).notSteady},
}

// Thresholds of the rules (docs/diagnoses.md says why).
const (
	// ResetShare is a storm's resets per connection opened (OutRsts over
	// the host's opens), MinResets its fewest resets.
	ResetShare = 0.5
	MinResets  = 100
	// StallShare of the window's median rate: below it an interval stalls.
	StallShare = 0.5
	// MinStallRequests is the fewest successes in the median interval for
	// stalls and trends to be judged.
	MinStallRequests = 40
	// MinIntervals judged intervals for stalls, MinSteadyPoints for the
	// thirds of "not steady" (two a third).
	MinIntervals     = 3
	MinSteadyPoints  = 6
	steadyQuantile   = 0.99865 // Student's t quantile: 3σ, one-sided-equivalent
	defaultMargin    = 0.02    // results.DefaultEquivalence
	slowConnectMicro = int64(time.Second / time.Microsecond)
)

// Diagnosis is one rule's finding in one repetition: what happened (Cause),
// how much (Figure), what it did to the measurement (Consequence) and what
// to change (Fix).
type Diagnosis struct {
	// Rule is a Rule constant, Title its name for people.
	Rule  string `json:"rule"`
	Title string `json:"title"`
	// Variant and Rep (0-based) name the repetition.
	Variant     string     `json:"variant"`
	Rep         int        `json:"rep"`
	Cause       notes.Note `json:"cause"`
	Figure      string     `json:"figure"`
	Consequence notes.Note `json:"consequence"`
	Fix         notes.Note `json:"fix"`
	// Counters are the kernel counters behind the figure; empty for the
	// rate rules. Stalls are RuleStalls's.
	Counters []Counter `json:"counters,omitempty"`
	Stalls   []Stall   `json:"stalls,omitempty"`
	Own      string    `json:"own,omitempty"` // a HostOnly's
}

// hostOnly is a Diagnosis's Own: "" where the run's own connections show
// it (ok), else what they showed.
func hostOnly(ok bool, why string) string {
	if ok {
		return ""
	}
	return why
}

// Counter is one kernel counter's growth on one host over a window; Value
// is a lower bound when Unread intervals were not read.
type Counter struct {
	Host   string `json:"host"`
	Name   string `json:"name"`
	Value  uint64 `json:"value"`
	Unread int    `json:"unread,omitempty"`
}

// Repetition is what the diagnosis found in one repetition.
type Repetition struct {
	Variant string `json:"variant"`
	Rep     int    `json:"rep"`
	// NoTimeline: a run stored before timelines; nothing else is set.
	NoTimeline bool          `json:"no_timeline,omitempty"`
	Interval   time.Duration `json:"interval,omitempty"`
	// Range is nil when no interval is long enough to judge.
	Range *RateRange `json:"range,omitempty"`
	// Stalls are in time order; StallsJudged is false when Unjudged says
	// why they could not be judged.
	Stalls       []Stall `json:"stalls,omitempty"`
	StallsJudged bool    `json:"stalls_judged,omitempty"`
	// ListenOverflows is the target's: its listener's drops where read
	// (at most the server hosts' count), else the server hosts'
	// ListenOverflows when the run's own connections show them (0 when
	// not: another listener's); nil when not read everywhere.
	ListenOverflows *uint64 `json:"listen_overflows,omitempty"`
	// Listener is nil for a run stored before it.
	Listener *Listener `json:"listener,omitempty"`
	// HostOnly are counter changes not attributable to the run.
	HostOnly []HostOnly `json:"host_only,omitempty"`
	Traffic  []Traffic  `json:"traffic,omitempty"`
	// Hosts are the counters' growth per host, in the timeline's order.
	Hosts []HostCounts `json:"hosts,omitempty"`
	// Diagnoses are in the order of the Rule constants.
	Diagnoses []Diagnosis `json:"diagnoses,omitempty"`
	// Unjudged are the rules that could not judge, and why.
	Unjudged notes.List `json:"unjudged,omitempty"`
}

// RateRange is the spread of the judged intervals' rates (successes/s).
type RateRange struct {
	Min       float64 `json:"min"`
	Median    float64 `json:"median"`
	Max       float64 `json:"max"`
	Intervals int     `json:"intervals"`
}

// Stall is a run of consecutive intervals below StallShare of the window's
// Median; Start and End are relative to the window, Rate over its length.
type Stall struct {
	Start  time.Duration `json:"start"`
	End    time.Duration `json:"end"`
	Rate   float64       `json:"rate"`
	Median float64       `json:"median"`
}

// Options are what a repetition's diagnosis needs beyond its record:
// the variant's repetition noise (sd of ln rate, 0 unknown) and the
// equivalence margin (0: 2 %), as fractions.
type Options struct {
	RepNoise float64
	Margin   float64
}

// Run diagnoses every repetition of r: out[i][j] is that of
// r.Variants[i].Reps[j].
func Run(r *results.Run) [][]Repetition {
	out := make([][]Repetition, len(r.Variants))
	for i := range r.Variants {
		v := &r.Variants[i]
		opts := Options{Margin: r.Equivalence}
		if r.Capacity == nil { // a capacity search's steps run at different rates
			if pct, ok := stats.NoisePct(v.Rates()); ok {
				opts.RepNoise = pct / 100
			}
		}
		out[i] = make([]Repetition, len(v.Reps))
		for j := range v.Reps {
			out[i][j] = Rep(v.Name, &v.Reps[j], opts)
		}
	}
	return out
}

// Rep diagnoses one repetition of variant.
func Rep(variant string, rep *results.Rep, opts Options) Repetition {
	out := Repetition{Variant: variant, Rep: rep.Index}
	t := rep.Timeline
	if t == nil {
		out.NoTimeline = true
		return out
	}
	out.Interval, out.Hosts = t.Interval, windowCounts(t)
	j := newJudge(rep, out.Hosts, opts)
	out.Range, out.Listener, out.Traffic = j.rateRange(), j.listener, j.traffic()
	out.Stalls, out.StallsJudged = j.stallList, j.stallsWhy == ""
	for _, r := range allRules {
		ds, why := r.judge(j)
		if why != "" {
			out.Unjudged = append(out.Unjudged, notes.New(notes.Unjudged, "rule", r.rule, "title", r.title, "why", why))
		}
		for _, d := range ds {
			d.Rule, d.Title, d.Variant, d.Rep = r.rule, r.title, variant, rep.Index
			if d.Own != "" {
				out.HostOnly = append(out.HostOnly, d)
			} else {
				out.Diagnoses = append(out.Diagnoses, d)
			}
		}
	}
	run := slices.ContainsFunc(out.Diagnoses, func(d Diagnosis) bool { return d.Rule == RuleAcceptQueue })
	out.ListenOverflows = j.listenOverflows(run)
	return out
}

// StallsUnjudged is why the stalls were not judged, "" when they were.
func (r *Repetition) StallsUnjudged() string {
	if i := slices.IndexFunc(r.Unjudged, func(u notes.Note) bool { return u.S("rule") == RuleStalls }); i >= 0 {
		return r.Unjudged[i].S("why")
	}
	return ""
}
