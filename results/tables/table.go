package tables

import (
	"fmt"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/stats"
	"strings"
	"time"
)

// Notice is a labelled line: of a report's banner (a label in capitals,
// "WARNING"), its head, or a repetition's facts.
type Notice struct{ Label, Text string }

// Notices lays out the banner of m once, in order, each a label in
// capitals and its text, for the text and Markdown reports.
func Notices(m *analysis.Report) []Notice {
	var ns []Notice
	if m.Run.Interrupted {
		ns = append(ns, Notice{"INTERRUPTED", "the run was stopped early and is INCOMPLETE: only completed repetitions are shown (kaeload run --resume DIR measures the rest)"})
	}
	if m.Run.Incomplete {
		ns = append(ns, Notice{"INCOMPLETE", "rebuilt from the run's journal; only the repetitions finished so far are shown"})
	}
	if len(m.Failed) > 0 {
		ns = append(ns, Notice{"FAILED", strings.Join(m.Failed, ", ") + " (see below); their figures are not results"})
	}
	for _, l := range m.NotMeasured.Strings() {
		ns = append(ns, Notice{"NOT MEASURED", l})
	}
	for _, l := range m.Partial.Strings() {
		ns = append(ns, Notice{"PARTIAL", l})
	}
	for _, l := range m.Excluded.Strings() {
		ns = append(ns, Notice{"EXCLUDED", l})
	}
	for _, c := range m.Crossed.Strings() {
		ns = append(ns, Notice{"THRESHOLD CROSSED", c})
	}
	for _, w := range m.Warnings {
		ns = append(ns, Notice{"WARNING", w})
	}
	for i := range m.Diagnoses {
		d := &m.Diagnoses[i]
		ns = append(ns, Notice{"DIAGNOSIS", DiagnosisTitle(d) + ": " + d.Cause.String()})
	}
	for i := range m.HostOnly {
		ns = append(ns, Notice{HostOnlyLabel, hostOnlyWords(&m.HostOnly[i])})
	}
	for _, h := range m.Hints.Strings() {
		ns = append(ns, Notice{"HINT", h})
	}
	return ns
}

// Facts lays out the head of a report once, in order: started, finished,
// baseline, order, automatic repetitions, metrics and profile.
func Facts(m *analysis.Report) []Notice {
	r, s := m.Run, m.Summary
	var fs []Notice
	if !r.Started.IsZero() {
		fs = append(fs, Notice{"started", r.Started.Format("2006-01-02 15:04:05 MST")})
	}
	if !r.Finished.IsZero() {
		f := r.Finished.Format("2006-01-02 15:04:05 MST")
		if !r.Started.IsZero() {
			f += fmt.Sprintf(" (took %s)", r.Finished.Sub(r.Started).Round(time.Second))
		}
		fs = append(fs, Notice{"finished", f})
	}
	if len(r.Variants) > 0 || s.BaselineName != "" {
		fs = append(fs, Notice{"baseline", s.BaselineLine()})
	}
	if o := OrderLine(r); o != "" {
		fs = append(fs, Notice{"order", o})
	}
	if c := r.Calibration; c != nil {
		fs = append(fs, Notice{"repeat", "auto: " + calibrationWords(c)})
	}
	if !m.Metrics.IsZero() {
		fs = append(fs, Notice{"metrics", m.Metrics.String()})
	}
	if m.Profile != nil {
		fs = append(fs, Notice{"profile", m.Profile.OnLine().String()})
	}
	return fs
}

// Table lays out rows in columns two spaces apart, each column left- or
// right-aligned, without trailing spaces.
type Table struct {
	Header []string
	Right  []bool
	Rows   [][]string
}

func (t *Table) Add(cells ...string) { t.Rows = append(t.Rows, cells) }

// calibrationWords says what repeat: auto measured and chose.
func calibrationWords(c *stats.Calibration) string {
	if !c.HasNoise {
		return fmt.Sprintf("no noise estimate from %d good calibration windows of %s: %d repetitions (the cap)", len(c.Rates), c.Variant, c.Repeat)
	}
	s := fmt.Sprintf("%s varied by %.2f %% over %d calibration windows; %d repetitions per variant detect ±%g %% with %.0f %% power", c.Variant, c.NoisePct, len(c.Rates), c.Repeat, c.EffectPct, stats.Power*100)
	if c.Capped {
		s = fmt.Sprintf("%s varied by %.2f %% over %d calibration windows; even the cap of %d repetitions cannot detect ±%g %% with %.0f %% power", c.Variant, c.NoisePct, len(c.Rates), c.Max, c.EffectPct, stats.Power*100)
	}
	return s
}
