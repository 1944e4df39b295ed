package diagnosis

import (
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/stats"
)

// The rules (Diagnosis.Rule), as the machine-readable outputs name them.
const (
	// RuleAcceptQueue: the server's accept queue overflowed.
	RuleAcceptQueue = "accept_queue_overflow"
	// RuleSYNCookies: the server's SYN queue was full (SYN cookies sent,
	// or SYNs dropped).
	RuleSYNCookies = "syn_queue_full"
	// RuleTimeWait: a host's TIME_WAIT bucket table overflowed.
	RuleTimeWait = "time_wait_overflow"
	// RuleResets: a host reset a large share of its connections.
	RuleResets = "reset_storm"
	// RuleStalls: the rate fell below half the median in some intervals.
	RuleStalls = "stalls"
	// RuleNotSteady: the rate of the window's first third differs from
	// its last third's by more than the noise.
	RuleNotSteady = "not_steady"
)

// titles name the rules for people.
var titles = map[string]string{
	RuleAcceptQueue: "accept-queue overflow", RuleSYNCookies: "SYN queue full", RuleTimeWait: "TIME_WAIT overflow",
	RuleResets: "reset storm", RuleStalls: "stalls", RuleNotSteady: "not steady",
}

// Thresholds of the rules (see the package documentation for why).
const (
	// ResetShare is the resets a host must have sent per connection it
	// opened (OutRsts over the larger of ActiveOpens and PassiveOpens)
	// for a reset storm.
	ResetShare = 0.5
	// MinResets is the fewest resets that make a storm.
	MinResets = 100
	// StallShare is the share of the window's median rate below which an
	// interval is a stall.
	StallShare = 0.5
	// MinStallRequests is the fewest successes the window's median
	// interval must hold for stalls and trends to be judged.
	MinStallRequests = 40
	// MinIntervals is the fewest judged window intervals for stalls (3)
	// and for the thirds of "not steady" (6: two a third).
	MinIntervals     = 3
	MinSteadyPoints  = 6
	steadyQuantile   = 0.99865 // Student's t quantile: 3σ, one-sided-equivalent
	defaultMargin    = 0.02    // results.DefaultEquivalence
	slowConnect      = time.Second
	slowConnectMicro = int64(slowConnect / time.Microsecond)
)

// Diagnosis is one rule's finding in one repetition: what happened, how
// much, what it did to the figure and what to change. Every output shows
// the four sentences as they are.
type Diagnosis struct {
	// Rule is one of the Rule constants, Title its name for people
	// ("accept-queue overflow").
	Rule  string `json:"rule"`
	Title string `json:"title"`
	// Variant and Rep name the repetition (Rep is 0-based, as
	// results.Rep.Index).
	Variant string `json:"variant"`
	Rep     int    `json:"rep"`
	// Cause names what happened ("the server's accept queue overflowed").
	Cause notes.Note `json:"cause"`
	// Figure says how much, with the counters and hosts.
	Figure string `json:"figure"`
	// Consequence says what it did to the measurement.
	Consequence notes.Note `json:"consequence"`
	// Fix says what to change.
	Fix notes.Note `json:"fix"`
	// Counters are the kernel counters behind the figure, by host, over
	// the window; empty for the rate rules.
	Counters []Counter `json:"counters,omitempty"`
	// Stalls are the stalls (RuleStalls only).
	Stalls []Stall `json:"stalls,omitempty"`

	host string // the host a per-host rule (TIME_WAIT, resets) judged
}

// Counter is one kernel counter's growth on one host over a window.
type Counter struct {
	// Host is the host's name (results.TCPHost.Name).
	Host string `json:"host"`
	// Name is the counter's name in the kernel's terms.
	Name string `json:"name"`
	// Value is its growth over the window.
	Value uint64 `json:"value"`
	// Unread is the number of window intervals in which it was not read;
	// Value is then a lower bound.
	Unread int `json:"unread,omitempty"`
}

// Repetition is what the diagnosis found in one repetition.
type Repetition struct {
	// Variant and Rep name the repetition (Rep is 0-based).
	Variant string `json:"variant"`
	Rep     int    `json:"rep"`
	// NoTimeline is true when the repetition has no timeline (a run
	// stored before timelines): nothing else is set.
	NoTimeline bool `json:"no_timeline,omitempty"`
	// Interval is the timeline's interval.
	Interval time.Duration `json:"interval,omitempty"`
	// Range is the rate range over the window's intervals; nil when no
	// interval is long enough to judge.
	Range *RateRange `json:"range,omitempty"`
	// Stalls are the window's stalls, in time order; StallsJudged says
	// whether the window could be judged for them (Unjudged says why
	// not).
	Stalls       []Stall `json:"stalls,omitempty"`
	StallsJudged bool    `json:"stalls_judged,omitempty"`
	// ListenOverflows is the target's listen overflows over the window:
	// its listener's own drops where they were read (Listener; at most the
	// server hosts' ListenOverflows where those grew), else the
	// server hosts' ListenOverflows, each host once, when the run's own
	// connections show them (0 when they do not: the overflows were
	// another listener's, HostOnly); nil when not available (no server
	// host's counters read, or one server host's not available or not
	// read in every interval).
	ListenOverflows *uint64 `json:"listen_overflows,omitempty"`
	// Listener is the target's listener over the window; nil when the
	// timeline has none (a run stored before it).
	Listener *Listener `json:"listener,omitempty"`
	// HostOnly are the kernel counters' changes that the run's own
	// connections do not show: on the host, not attributable to the run;
	// no diagnosis.
	HostOnly []HostOnly `json:"host_only,omitempty"`
	// Traffic cross-checks each host's opens with the run's connects.
	Traffic []Traffic `json:"traffic,omitempty"`
	// Hosts are the TCP counters' growth over the window, per host, in
	// the timeline's order.
	Hosts []HostCounts `json:"hosts,omitempty"`
	// Diagnoses are the rules' findings, in the order of the Rule
	// constants.
	Diagnoses []Diagnosis `json:"diagnoses,omitempty"`
	// Unjudged are the rules that could not judge this repetition, and
	// why (notes.Unjudged: "not steady: 2 intervals, 6 needed").
	Unjudged notes.List `json:"unjudged,omitempty"`
}

// RateRange is the spread of a window's interval rates (successes per
// second).
type RateRange struct {
	// Min, Median and Max are over the judged intervals.
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
	// Intervals is how many intervals were judged.
	Intervals int `json:"intervals"`
}

// Stall is a run of consecutive window intervals whose rate was below
// StallShare of the window's median.
type Stall struct {
	// Start and End bound it, relative to the window's start.
	Start time.Duration `json:"start"`
	End   time.Duration `json:"end"`
	// Rate is its successes per second over its length.
	Rate float64 `json:"rate"`
	// Median is the window's median interval rate.
	Median float64 `json:"median"`
}

// Options are what a repetition's diagnosis needs beyond its record.
type Options struct {
	// RepNoise is the variant's repetition spread as a fraction (the
	// standard deviation of ln(rate) over its repetitions); 0 when
	// unknown.
	RepNoise float64
	// Margin is the run's equivalence margin as a fraction; 0 means the
	// default, 2 %.
	Margin float64
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

// All returns every diagnosis of reps (as Run returns them), in order.
func All(reps [][]Repetition) []Diagnosis {
	var out []Diagnosis
	for i := range reps {
		for j := range reps[i] {
			out = append(out, reps[i][j].Diagnoses...)
		}
	}
	return out
}

// AllHostOnly returns every host-only change of reps (as Run returns
// them), in order.
func AllHostOnly(reps [][]Repetition) []HostOnly {
	var out []HostOnly
	for i := range reps {
		for j := range reps[i] {
			out = append(out, reps[i][j].HostOnly...)
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
	out.Interval = t.Interval
	out.Hosts = WindowCounts(t)
	w := newWindow(t)
	out.Range = w.rateRange()
	var why string
	out.Stalls, why = w.stalls()
	out.StallsJudged = why == ""
	if why != "" {
		out.Unjudged = append(out.Unjudged, unjudged(RuleStalls, why))
	}
	add := func(d *Diagnosis) {
		if d != nil {
			d.Variant, d.Rep, d.Title = variant, rep.Index, titles[d.Rule]
			out.Diagnoses = append(out.Diagnoses, *d)
		}
	}
	k := kernel{hosts: out.Hosts, connect: rep.Total.Latency.Connect, errs: &rep.Total.Counts.Errors, window: w.length(), own: newOwn(rep, out.Hosts)}
	out.Listener, out.Traffic = k.own.listener, k.own.traffic(out.Hosts)
	add(k.acceptQueue())
	add(k.synQueue())
	for _, d := range k.timeWait() {
		add(&d)
	}
	for _, d := range k.resets() {
		add(&d)
	}
	out.Diagnoses, out.HostOnly = k.split(out.Diagnoses)
	out.ListenOverflows = k.listenOverflows(out.Diagnoses)
	add(w.stallDiagnosis(out.Stalls))
	d, why := w.notSteady(out.Stalls, opts)
	if why != "" {
		out.Unjudged = append(out.Unjudged, unjudged(RuleNotSteady, why))
	}
	add(d)
	return out
}

// unjudged says that rule could not judge a repetition, and why.
func unjudged(rule, why string) notes.Note {
	return notes.New(notes.Unjudged, "rule", rule, "title", titles[rule], "why", why)
}

// StallsUnjudged is why the stalls were not judged, "" when they were.
func (r *Repetition) StallsUnjudged() string {
	for _, u := range r.Unjudged {
		if u.S("rule") == RuleStalls {
			return u.S("why")
		}
	}
	return ""
}

// seconds writes a time relative to the window in seconds ("4.0 s").
func seconds(d time.Duration) string { return notes.Seconds(d.Seconds()) }

// percent writes a fraction as notes.Percent does ("4.5 %", "0.026 %").
func percent(f float64) string { return notes.Percent(f) }
