package results

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"time"
)

// CapacitySpec is a capacity search's configuration as a run records it
// (Run.Capacity): per variant, the highest open-loop rate whose window
// meets the targets, stepping up from From by Factor (at most Max), then
// bisecting to Resolution. Each step is one repetition of the variant
// with Rep.Step set.
type CapacitySpec struct {
	// P99Handshake and P99Total are the latency targets (0 = none);
	// P99Total is measured from the intended start (Latency.Intended).
	P99Handshake time.Duration `json:"p99_handshake,omitempty"`
	P99Total     time.Duration `json:"p99_total,omitempty"`
	// MaxErrors and MaxMissed bound a step's error and missed shares.
	MaxErrors float64 `json:"max_errors"`
	MaxMissed float64 `json:"max_missed"`
	// From, Factor, Resolution and Max shape the steps.
	From       float64 `json:"from"`
	Factor     float64 `json:"factor"`
	Resolution float64 `json:"resolution"`
	Max        float64 `json:"max"`
}

// CapacityStep marks a repetition as one step of a capacity search.
type CapacityStep struct {
	// Rate is the open-loop rate asked, per second, in all groups.
	Rate float64 `json:"rate"`
	// Phase is "up" (geometric step-up) or "bisect".
	Phase string `json:"phase"`
	// Pass says whether the step met the targets; Why says which it
	// missed when it did not.
	Pass bool   `json:"pass"`
	Why  string `json:"why,omitempty"`
}

// Capacity is one variant's capacity search as its steps tell it.
type Capacity struct {
	// Variant is the variant's index in Run.Variants.
	Variant int
	// Knee is the highest rate that met the targets (0: none did); Fail
	// the lowest that did not (0: none).
	Knee, Fail float64
	// BelowFrom: no step met the targets, the knee is below the first
	// rate. AtMax: every step met them up to Max, the knee is at or above it.
	BelowFrom, AtMax bool
	// Steps are the variant's repetitions that are steps, in order.
	Steps []*Rep
}

// Capacities returns the capacity search of every variant of r, in
// order; nil for a run that is not a capacity search.
func (r *Run) Capacities() []Capacity {
	if r.Capacity == nil {
		return nil
	}
	out := make([]Capacity, 0, len(r.Variants))
	for i := range r.Variants {
		c := Capacity{Variant: i}
		for j := range r.Variants[i].Reps {
			rep := &r.Variants[i].Reps[j]
			st := rep.Step
			if st == nil {
				continue
			}
			c.Steps = append(c.Steps, rep)
			switch {
			case st.Pass && st.Rate > c.Knee:
				c.Knee = st.Rate
			case !st.Pass && (c.Fail == 0 || st.Rate < c.Fail):
				c.Fail = st.Rate
			}
		}
		c.BelowFrom = len(c.Steps) > 0 && c.Knee == 0
		c.AtMax = c.Fail == 0 && c.Knee > 0 && c.Knee >= r.Capacity.Max
		out = append(out, c)
	}
	return out
}

// KneeWords is c's capacity for a report: "41,000/s", "≥ 1,000,000/s"
// (every step passed), "< 1,000/s" (none did) or "-" (no step).
func (c *Capacity) KneeWords(from float64) string {
	switch {
	case len(c.Steps) == 0:
		return "-"
	case c.BelowFrom:
		return "< " + FormatCount(uint64(math.Round(from))) + "/s"
	case c.AtMax:
		return "≥ " + FormatCount(uint64(math.Round(c.Knee))) + "/s"
	}
	return FormatCount(uint64(math.Round(c.Knee))) + "/s"
}

// TargetWords names the targets: "20 ms p99 handshake", "50 ms p99 total".
func (s *CapacitySpec) TargetWords() string {
	var ts []string
	if s.P99Handshake > 0 {
		ts = append(ts, millisWords(s.P99Handshake)+" p99 handshake")
	}
	if s.P99Total > 0 {
		ts = append(ts, millisWords(s.P99Total)+" p99 total")
	}
	return strings.Join(ts, ", ")
}

// millisWords writes d in milliseconds without trailing zeros: "20 ms", "2.5 ms".
func millisWords(d time.Duration) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", float64(d)/float64(time.Millisecond)), "0"), ".") + " ms"
}

// CapacityLine is the run's capacity comparison in one line: "capacity
// under 20 ms p99 handshake: baseline 41,000/s, kae 96,000/s (+134 %)",
// each variant against the baseline; "" for a run that is not a capacity
// search.
func (r *Run) CapacityLine() string {
	cs := r.Capacities()
	if cs == nil {
		return ""
	}
	base, _ := r.baseline() // -1 when not measured: no differences
	var baseKnee float64
	for i := range cs {
		if cs[i].Variant == base && !cs[i].BelowFrom && !cs[i].AtMax {
			baseKnee = cs[i].Knee
		}
	}
	parts := make([]string, 0, len(cs))
	for i := range cs {
		c := &cs[i]
		p := r.Variants[c.Variant].Name + " " + c.KneeWords(r.Capacity.From)
		if c.Variant != base && baseKnee > 0 && c.Knee > 0 && !c.BelowFrom && !c.AtMax {
			p += fmt.Sprintf(" (%+.0f %%)", 100*(c.Knee/baseKnee-1))
		}
		parts = append(parts, p)
	}
	return "capacity under " + r.Capacity.TargetWords() + ": " + strings.Join(parts, ", ")
}

// CapacityRows is the table of one variant's steps, for reports: its
// header and one row per step (rate asked, achieved, missed share, error
// share, p99 handshake, p99 total from the intended start, verdict).
func CapacityRows(c *Capacity) (header []string, rows [][]string) {
	t := capacityTable(c)
	return t.header, t.rows
}

// CapacityIntro says in words how a capacity search goes.
func CapacityIntro(s *CapacitySpec) string { return capacityIntro(s) }

// capacityTable is the table of one variant's steps: rate asked,
// achieved, missed, errors, p99 handshake, p99 total from the intended
// start, and the verdict.
func capacityTable(c *Capacity) table {
	t := table{
		header: []string{"step", "phase", "asked/s", "achieved/s", "missed", "errors", "p99 handshake ms", "p99 from intended ms", "verdict"},
		right:  []bool{true, false, true, true, true, true, true, true, false},
	}
	for i, rep := range c.Steps {
		st, g := rep.Step, &rep.Total
		verdict := "pass"
		if !st.Pass {
			verdict = "FAIL: " + st.Why
		}
		t.add(fmt.Sprint(i+1), st.Phase, FormatCount(uint64(math.Round(st.Rate))), FormatRate(g.Rate()), FormatShare(g.MissedShare()),
			FormatShare(g.ErrorShare()), QuantileMillis(g.Latency.Handshake, 99), QuantileMillis(g.Latency.Intended, 99), verdict)
	}
	return t
}

// capacityIntro says how the search went, for the reports.
func capacityIntro(s *CapacitySpec) string {
	return fmt.Sprintf("per variant, the highest rate with %s, errors at most %s and at most %s of starts missed; steps from %s/s ×%s, then bisection to %s",
		s.TargetWords(), FormatShare(s.MaxErrors), FormatShare(s.MaxMissed), FormatCount(uint64(math.Round(s.From))),
		strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", s.Factor), "0"), "."), FormatShare(s.Resolution))
}

// writeCapacity writes the capacity section of the text report.
func writeCapacity(b *bytes.Buffer, m *Report) {
	r := m.Run
	fmt.Fprintf(b, "\n== %s\n%s\n", m.CapacityLine, capacityIntro(r.Capacity))
	for i := range m.Capacities {
		c := &m.Capacities[i]
		fmt.Fprintf(b, "\n-- %s: capacity %s, %d steps\n", r.Variants[c.Variant].Name, c.KneeWords(r.Capacity.From), len(c.Steps))
		t := capacityTable(c)
		t.write(b, "")
	}
}

// writeCapacityMarkdown writes the capacity section of the Markdown report.
func writeCapacityMarkdown(b *bytes.Buffer, m *Report) {
	r := m.Run
	fmt.Fprintf(b, "\n## Capacity\n\n**%s**\n\n%s.\n", mdEscape(upperFirst(m.CapacityLine)), mdEscape(upperFirst(capacityIntro(r.Capacity))))
	for i := range m.Capacities {
		c := &m.Capacities[i]
		fmt.Fprintf(b, "\n### %s: %s\n\n", mdEscape(r.Variants[c.Variant].Name), mdEscape(c.KneeWords(r.Capacity.From)))
		t := capacityTable(c)
		t.writeMarkdown(b)
	}
}
