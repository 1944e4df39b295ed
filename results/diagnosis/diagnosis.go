// Package diagnosis says from a repetition's timeline what went wrong in its window (accept-queue
// overflow, SYN cookies, TIME_WAIT overflow, resets, stalls, not steady), where the run shows it.
package diagnosis

import (
	"slices"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/stats"
)

// The rules (Diagnosis.Rule), as the outputs name them; docs/diagnoses.md says what each judges.
const (
	RuleAcceptQueue = "accept_queue_overflow"
	RuleSYNCookies  = "syn_queue_full"
	RuleTimeWait    = "time_wait_overflow"
	RuleResets      = "reset_storm"
	RuleStalls      = "stalls"
	RuleNotSteady   = "not_steady"
)

// allRules are the rules in order, with their names for people and judges (findings, or why none).
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
	ResetShare       = 0.5     // a storm's OutRsts per opened connection
	MinResets        = 100     // a storm's fewest resets
	StallShare       = 0.5     // of the median rate: below it an interval stalls
	MinStallRequests = 40      // successes in the median interval to judge stalls and trends
	MinIntervals     = 3       // judged intervals for stalls
	MinSteadyPoints  = 6       // for the thirds of "not steady" (two a third)
	steadyQuantile   = 0.99865 // Student's t quantile: 3σ, one-sided-equivalent
	slowConnectMicro = int64(time.Second / time.Microsecond)
)

// Diagnosis is one rule's finding in one repetition (Rep 0-based): cause, figure, consequence, fix.
type Diagnosis struct {
	Rule        string     `json:"rule"`
	Title       string     `json:"title"`
	Variant     string     `json:"variant"`
	Rep         int        `json:"rep"`
	Cause       notes.Note `json:"cause"`
	Figure      string     `json:"figure"`
	Consequence notes.Note `json:"consequence"`
	Fix         notes.Note `json:"fix"`
	Counters    []Counter  `json:"counters,omitempty"` // the kernel counters behind the figure
	Stalls      []Stall    `json:"stalls,omitempty"`
	Own         string     `json:"own,omitempty"` // a HostOnly's
}

// hostOnly is a Diagnosis's Own: "" where the run shows it (ok), else what it showed.
func hostOnly(ok bool, why string) string {
	if ok {
		return ""
	}
	return why
}

// Counter is a kernel counter's growth on a host over a window, at least Value if some Unread.
type Counter struct {
	Host   string `json:"host"`
	Name   string `json:"name"`
	Value  uint64 `json:"value"`
	Unread int    `json:"unread,omitempty"`
}

// Repetition is what the diagnosis found in one repetition.
type Repetition struct {
	NoTimeline   bool          `json:"no_timeline,omitempty"` // stored before timelines: nothing else set
	Interval     time.Duration `json:"interval,omitempty"`
	Range        *RateRange    `json:"range,omitempty"`         // nil: no interval long enough to judge
	Stalls       []Stall       `json:"stalls,omitempty"`        // in time order
	StallsJudged bool          `json:"stalls_judged,omitempty"` // else Unjudged says why
	// ListenOverflows is the target's listener's drops where read (at most the server hosts'
	// count), else the server hosts' where the run shows them (0: another listener's); nil unread.
	ListenOverflows *uint64      `json:"listen_overflows,omitempty"`
	Listener        *Listener    `json:"listener,omitempty"`  // nil for a run stored before it
	HostOnly        []HostOnly   `json:"host_only,omitempty"` // counter changes not attributable to the run
	Traffic         []Traffic    `json:"traffic,omitempty"`
	Hosts           []HostCounts `json:"hosts,omitempty"`     // in the timeline's order
	Diagnoses       []Diagnosis  `json:"diagnoses,omitempty"` // in the order of the Rule constants
	Unjudged        notes.List   `json:"unjudged,omitempty"`  // the rules that could not judge, and why
}

// RateRange is the spread of the judged intervals' rates (successes/s).
type RateRange struct {
	Min       float64 `json:"min"`
	Median    float64 `json:"median"`
	Max       float64 `json:"max"`
	Intervals int     `json:"intervals"`
}

// Stall is consecutive intervals below StallShare of the window's Median; times from the window's start.
type Stall struct {
	Start  time.Duration `json:"start"`
	End    time.Duration `json:"end"`
	Rate   float64       `json:"rate"`
	Median float64       `json:"median"`
}

// Options are what a repetition's diagnosis needs beyond its record, as fractions.
type Options struct {
	RepNoise float64 // the variant's repetition noise, sd of ln rate (0: unknown)
	Margin   float64 // the equivalence margin (0: results.DefaultEquivalence)
}

// Run diagnoses every repetition of r: out[i][j] is r.Variants[i].Reps[j]'s.
func Run(r *results.Run) [][]Repetition {
	out := make([][]Repetition, len(r.Variants))
	for i := range r.Variants {
		v := &r.Variants[i]
		opts := Options{Margin: r.Equivalence}
		if r.Capacity == nil { // a capacity search's steps run at different rates
			pct, _ := stats.NoisePct(v.Rates()) // 0 when unknown
			opts.RepNoise = pct / 100
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
	t := rep.Timeline
	if t == nil {
		return Repetition{NoTimeline: true}
	}
	out := Repetition{Interval: t.Interval, Hosts: windowCounts(t)}
	j := newJudge(rep, out.Hosts, opts)
	out.Listener, out.Traffic = j.listener, j.traffic()
	if len(j.rates) > 0 {
		out.Range = &RateRange{Min: slices.Min(j.rates), Median: j.median, Max: slices.Max(j.rates), Intervals: len(j.rates)}
	}
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
