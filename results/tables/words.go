package tables

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/diagnosis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/stats"
)

// Notices is the banner of m, each line labelled in capitals.
func Notices(m *analysis.Report) []Notice {
	var ns []Notice
	add := func(label string, lines ...string) {
		for _, l := range lines {
			ns = append(ns, Notice{label, l})
		}
	}
	if m.Run.Interrupted {
		add("INTERRUPTED", "the run was stopped early and is INCOMPLETE: only completed repetitions are shown (kaeload run --resume DIR measures the rest)")
	}
	if m.Run.Incomplete {
		add("INCOMPLETE", "rebuilt from the run's journal; only the repetitions finished so far are shown")
	}
	if len(m.Failed) > 0 {
		add("FAILED", strings.Join(m.Failed, ", ")+" (see below); their figures are not results")
	}
	add("NOT MEASURED", m.NotMeasured.Strings()...)
	add("PARTIAL", m.Partial.Strings()...)
	add("EXCLUDED", m.Excluded.Strings()...)
	add("THRESHOLD CROSSED", m.Crossed.Strings()...)
	add("WARNING", m.Warnings...)
	for i := range m.Diagnoses {
		add("DIAGNOSIS", DiagnosisTitle(&m.Diagnoses[i])+": "+m.Diagnoses[i].Cause.String())
	}
	for _, h := range m.HostOnly {
		add(HostOnlyLabel, fmt.Sprintf("%s, repetition %d: no %s: %s", h.Variant, h.Rep+1, h.Title, h.Line()))
	}
	add("HINT", m.Hints.Strings()...)
	return ns
}

// Facts is the head of a report: times, baseline, order, repeat, metrics and profile.
func Facts(m *analysis.Report) []Notice {
	r, s := m.Run, m.Summary
	var fs []Notice
	add := func(ok bool, label string, text func() string) {
		if ok {
			fs = append(fs, Notice{label, text()})
		}
	}
	add(!r.Started.IsZero(), "started", func() string { return r.Started.Format(Stamp) })
	add(!r.Finished.IsZero(), "finished", func() string {
		took := fmt.Sprintf(" (took %s)", r.Finished.Sub(r.Started).Round(time.Second))
		return r.Finished.Format(Stamp) + either(r.Started.IsZero(), "", took)
	})
	add(len(r.Variants) > 0 || s.BaselineName != "", "baseline", s.BaselineLine)
	add(OrderLine(r) != "", "order", func() string { return OrderLine(r) })
	add(r.Calibration != nil, "repeat", func() string { return "auto: " + calibrationWords(r.Calibration) })
	add(!m.Metrics.IsZero(), "metrics", m.Metrics.String)
	add(m.Profile != nil, "profile", func() string { return m.Profile.OnLine().String() })
	return fs
}

// Stamp is the reports' form of an instant.
const Stamp = "2006-01-02 15:04:05 MST"

func calibrationWords(c *stats.Calibration) string {
	if !c.HasNoise {
		return fmt.Sprintf("no noise estimate from %d good calibration windows of %s: %d repetitions (the cap)", len(c.Rates), c.Variant, c.Repeat)
	}
	detect := either(c.Capped, fmt.Sprintf("even the cap of %d repetitions cannot detect", c.Max),
		fmt.Sprintf("%d repetitions per variant detect", c.Repeat))
	return fmt.Sprintf("%s varied by %.2f %% over %d calibration windows; %s ±%g %% with %.0f %% power", c.Variant, c.NoisePct, len(c.Rates), detect, c.EffectPct, stats.Power*100)
}

// StatsNote says how the comparison decides: test, adjustment, MDE, CI and equivalence.
func StatsNote(s *analysis.RunSummary) string {
	adjust, level := fmt.Sprintf("one comparison, α = %g", stats.Alpha), "α"
	if s.Family > 1 {
		adjust = fmt.Sprintf("p adjusted by Holm over the run's %d comparisons (family-wise α = %g)", s.Family, stats.Alpha)
		level = fmt.Sprintf("α/%d (Bonferroni, Holm's strictest step)", s.Family)
	}
	return TestWords(adjust, level, strconv.FormatFloat(s.Equivalence*100, 'g', 4, 64))
}

// TestWords is how a comparison decides, given its p adjustment, its MDE's α level and margin in %.
func TestWords(adjust, level, margin string) string {
	return fmt.Sprintf("t-test on ln(total req/s) of the repetitions (a test of the ratio); %s; MDE: the smallest difference found with %.0f %% power at %s; 95 %% CI: of the geometric mean, on the log scale; equivalence: two one-sided tests against ±%s %% (symmetric ratio limits)",
		adjust, stats.Power*100, level, margin)
}

// OrderLine says in what order the windows ran; "" when not recorded.
func OrderLine(r *results.Run) string {
	switch r.Order {
	case results.OrderRandomized:
		return fmt.Sprintf("randomized blocks (every round runs each variant once, in a random order), seed %d (replay: --seed %d)", r.Seed, r.Seed)
	case results.OrderInterleaved:
		return "interleaved (every round runs each variant once, in plan order)"
	case results.OrderSequential:
		return "sequential (every repetition of a variant, then the next): drift of the machine is not controlled"
	}
	return ""
}

// SweepTitle is the heading of a sweep's table.
func SweepTitle(sw *analysis.SweepSummary) string {
	order := either(sw.Numeric, "by value", "in run order")
	return fmt.Sprintf("sweep %s: mean req/s by %s (%s)", sw.Series, strings.Join(sw.Keys, ", "), order)
}

// SweepLegend explains a sweep chart.
const SweepLegend = "chart: # up to the mean, = and - span the 95 % CI below and above it; * marks the best (significantly faster than every other value, every pair of values judged together, Holm–Shaffer), ~ the plateau when no value is"

// PlateauLine says a sweep's best value or plateau, or that none could be judged.
func PlateauLine(s *analysis.RunSummary, sw *analysis.SweepSummary) string {
	label := map[int]string{}
	for k, i := range sw.Variants {
		label[i] = sw.Labels[k]
	}
	// A value named best or highest says when it measured something else than the server.
	caveat := func(i int) string {
		c := s.Variants[i].Caveat.String()
		return either(c != "", " — "+label[i]+": "+c, "")
	}
	if len(sw.Plateau) == 0 {
		if sw.Top < 0 {
			return ""
		}
		// Top however low its mean when it alone has 2+ repetitions (stats.PairPlateau).
		top := either(s.Variants[sw.Top].Stats.N >= 2, "only "+label[sw.Top]+" has 2+ repetitions",
			"the highest mean is "+label[sw.Top])
		return fmt.Sprintf("not judged: no two values of %s have 2+ repetitions each, so none can be called best or no worse (%s%s)", strings.Join(sw.Keys, ", "), top, caveat(sw.Top))
	}
	names := measure.Map(sw.Plateau, func(i int) string { return label[i] })
	family := either(sw.Family == 1, "one pair of values tested", "no pair of values could be tested")
	if sw.Family > 1 {
		family = fmt.Sprintf("all %d pairs of values judged together, Holm–Shaffer", sw.Family)
	}
	var line string
	switch {
	case sw.Best >= 0:
		line = fmt.Sprintf("best: %s, significantly faster than every other value%s (%s)", label[sw.Best], caveat(sw.Best), family)
	case len(sw.Plateau) == len(sw.Variants):
		line = fmt.Sprintf("no best value: no %s is significantly faster than another (plateau: %s; %s)", strings.Join(sw.Keys, ", "), strings.Join(names, ", "), family)
	default:
		// A value measured once is never Top beside tested values (stats.PairPlateau).
		once := slices.ContainsFunc(sw.Variants, func(i int) bool { return s.Variants[i].Stats.N == 1 })
		top := either(once, "the highest mean of those with 2+ repetitions is ", "the highest mean is ")
		line = fmt.Sprintf("plateau: %s (no other value is significantly faster than these; %s%s%s; %s)", strings.Join(names, ", "), top, label[sw.Top], caveat(sw.Top), family)
	}
	return line + either(sw.Caution != "", "; caution: "+sw.Caution, "")
}

// CapacityIntro says how the capacity search went.
func CapacityIntro(s *results.CapacitySpec) string {
	return fmt.Sprintf("per variant, the highest rate with %s, errors at most %s and at most %s of starts missed; steps from %s/s ×%s, then bisection to %s",
		notes.TargetWords(s), format.Share(s.MaxErrors), format.Share(s.MaxMissed), format.Count(uint64(math.Round(s.From))),
		strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", s.Factor), "0"), "."), format.Share(s.Resolution))
}

// ProfileLines are each variant's lines under the profile, or why it has none.
func ProfileLines(t *analysis.ProfileTable) []string {
	var out []string
	for i := range t.Variants {
		v := &t.Variants[i]
		if !v.Available() {
			out = append(out, v.Name+": "+v.Missing.String())
			continue
		}
		out = append(out, v.Name+": "+notes.New(notes.ProfileFunctions, "functions", v.Functions).String(),
			v.Name+": "+notes.New(notes.ProfileBound, "share", v.CryptoShare, "bound", v.Bound).String())
		if c := v.Check; c.Checked {
			out = append(out, v.Name+": self-check: "+notes.New(notes.ProfileCheck, "check", c, "rate", t.Rate,
				"tolerance", analysis.ProfileCheckTolerance).String())
		}
		out = append(out, v.Name+": pprof: "+v.Pprof)
	}
	return out
}

// NoTimeline is said of a repetition stored before timelines.
const NoTimeline = "no timeline (the run was stored before kaeload kept one)"

// RepTimeline is a repetition's rate range, stalls, TCP counters, other load and unjudged rules.
func RepTimeline(tl *diagnosis.Repetition) []Notice {
	if tl.NoTimeline {
		return []Notice{{"timeline", NoTimeline}}
	}
	by := either(tl.Interval == time.Second || tl.Interval == 0, "second", tl.Interval.String())
	out := []Notice{{"rate by " + by, RangeWords(tl)}, {"stalls", StallWords(tl)}}
	for i := range tl.Hosts {
		out = append(out, Notice{"tcp " + tl.Hosts[i].Name, TCPWords(&tl.Hosts[i])})
	}
	if tl.Listener != nil {
		out = append(out, Notice{"listener", tl.Listener.Words()})
	}
	for i := range tl.Traffic {
		if tl.Traffic[i].Shared {
			out = append(out, Notice{"other traffic", tl.Traffic[i].Words()})
		}
	}
	for i := range tl.HostOnly {
		out = append(out, Notice{"not the run's", tl.HostOnly[i].Title + ": " + tl.HostOnly[i].Line()})
	}
	for _, u := range tl.Unjudged {
		if u.S("rule") != diagnosis.RuleStalls { // said on the stalls line
			out = append(out, Notice{"not judged", u.String()})
		}
	}
	return out
}

// RangeWords is "min 135.0 / median 997.5 / max 1,010.0 req/s over 10 intervals".
func RangeWords(tl *diagnosis.Repetition) string {
	r := tl.Range
	if r == nil {
		return "no interval in the window long enough to judge"
	}
	return fmt.Sprintf("min %s / median %s / max %s req/s over %d intervals", format.Rate(r.Min), format.Rate(r.Median), format.Rate(r.Max), r.Intervals)
}

// StallWords is "none", "3.0–5.0 s at 135.0 req/s (median 997.5)", or why not judged.
func StallWords(tl *diagnosis.Repetition) string {
	switch {
	case !tl.StallsJudged:
		why := tl.StallsUnjudged()
		return "not judged" + either(why != "", ": "+why, "")
	case len(tl.Stalls) == 0:
		return "none"
	}
	return fmt.Sprintf("%s (median %s req/s)", measure.StallsCell(tl), format.Rate(tl.Stalls[0].Median))
}

// TCPWords is a host's role, its counters that grew, and those not available, each reason once.
func TCPWords(h *diagnosis.HostCounts) string {
	gone := h.Missing(h.Counters)
	if len(gone) == 1 && len(gone[0].Names) == len(h.Counters) {
		return h.Role() + ": every counter not available (" + gone[0].Why + ")"
	}
	var grew []string
	for _, name := range h.Counters {
		switch v, unread, ok := h.Get(name); {
		case ok && unread > 0:
			grew = append(grew, fmt.Sprintf("%s at least +%s (%d intervals not read)", name, format.Count(v), unread))
		case v > 0:
			grew = append(grew, name+" +"+format.Count(v))
		}
	}
	na := measure.Map(gone, func(g diagnosis.Gone) string { return strings.Join(g.Names, ", ") + " (" + g.Why + ")" })
	return h.Role() + ": " + cmp.Or(strings.Join(grew, ", "), "no counter grew") +
		either(len(na) > 0, "; not available: "+strings.Join(na, "; "), "")
}

// HostOnlyLabel labels a host-only change in a report's banner.
const HostOnlyLabel = "NOT THE RUN'S"

// DiagnosisTitle is "default, repetition 1: accept-queue overflow".
func DiagnosisTitle(d *diagnosis.Diagnosis) string {
	return fmt.Sprintf("%s, repetition %d: %s", d.Variant, d.Rep+1, d.Title)
}

// DiagnosisRows are a diagnosis's cause, figure, consequence and fix.
func DiagnosisRows(d *diagnosis.Diagnosis) []Notice {
	return []Notice{{"cause", d.Cause.String()}, {"figure", d.Figure}, {"consequence", d.Consequence.String()}, {"fix", d.Fix.String()}}
}

// errorsWithClasses is "1,400 (status 1,400)".
func errorsWithClasses(n uint64, classes results.ErrorCounts) string {
	if c := format.ErrorClasses(classes); c != "" && n > 0 {
		return format.Count(n) + " (" + c + ")"
	}
	return format.Count(n)
}

// ByCount is the keys of counts, the most counted first, ties in key order.
func ByCount(counts map[string]uint64) []string {
	keys := slices.Sorted(maps.Keys(counts))
	slices.SortStableFunc(keys, func(a, b string) int { return cmp.Compare(counts[b], counts[a]) })
	return keys
}

// KeyValues is m as "k=v k=v" in key order.
func KeyValues(m map[string]string) string {
	return strings.Join(measure.Map(slices.Sorted(maps.Keys(m)), func(k string) string { return k + "=" + m[k] }), " ")
}
