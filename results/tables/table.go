package tables

import (
	"fmt"
	"strings"
	"time"

	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/stats"
)

// Table is a format-neutral table: a header, rows of cells, and whether
// each column aligns right (numbers). Text, Markdown and HTML print it.
type Table struct {
	Header []string
	Right  []bool
	Rows   [][]string
}

// Add appends a row of cells.
func (t *Table) Add(cells ...string) { t.Rows = append(t.Rows, cells) }

// Notice is a labelled line: of a report's banner (a label in capitals,
// "WARNING"), its head, or a repetition's facts.
type Notice struct{ Label, Text string }

// notices are a Notice per line, each labelled label.
func notices(label string, lines ...string) []Notice {
	var ns []Notice
	for _, l := range lines {
		ns = append(ns, Notice{label, l})
	}
	return ns
}

// Notices lays out the banner of m once, in order, each a label in
// capitals and its text, for the text and Markdown reports.
func Notices(m *analysis.Report) []Notice {
	var ns, diagnoses, hostOnly []Notice
	if m.Run.Interrupted {
		ns = append(ns, Notice{"INTERRUPTED", "the run was stopped early and is INCOMPLETE: only completed repetitions are shown (kaeload run --resume DIR measures the rest)"})
	}
	if m.Run.Incomplete {
		ns = append(ns, Notice{"INCOMPLETE", "rebuilt from the run's journal; only the repetitions finished so far are shown"})
	}
	if len(m.Failed) > 0 {
		ns = append(ns, Notice{"FAILED", strings.Join(m.Failed, ", ") + " (see below); their figures are not results"})
	}
	for i := range m.Diagnoses {
		diagnoses = append(diagnoses, Notice{"DIAGNOSIS", DiagnosisTitle(&m.Diagnoses[i]) + ": " + m.Diagnoses[i].Cause.String()})
	}
	for i := range m.HostOnly {
		hostOnly = append(hostOnly, Notice{HostOnlyLabel, hostOnlyWords(&m.HostOnly[i])})
	}
	for _, group := range [][]Notice{notices("NOT MEASURED", m.NotMeasured.Strings()...), notices("PARTIAL", m.Partial.Strings()...),
		notices("EXCLUDED", m.Excluded.Strings()...), notices("THRESHOLD CROSSED", m.Crossed.Strings()...), notices("WARNING", m.Warnings...),
		diagnoses, hostOnly, notices("HINT", m.Hints.Strings()...)} {
		ns = append(ns, group...)
	}
	return ns
}

// stamp is the reports' form of an instant.
const stamp = "2006-01-02 15:04:05 MST"

// Facts lays out the head of a report once, in order: started, finished,
// baseline, order, automatic repetitions, metrics and profile.
func Facts(m *analysis.Report) []Notice {
	r, s := m.Run, m.Summary
	var fs []Notice
	add := func(ok bool, label string, text func() string) {
		if ok {
			fs = append(fs, Notice{label, text()})
		}
	}
	add(!r.Started.IsZero(), "started", func() string { return r.Started.Format(stamp) })
	add(!r.Finished.IsZero(), "finished", func() string {
		if r.Started.IsZero() {
			return r.Finished.Format(stamp)
		}
		return fmt.Sprintf("%s (took %s)", r.Finished.Format(stamp), r.Finished.Sub(r.Started).Round(time.Second))
	})
	add(len(r.Variants) > 0 || s.BaselineName != "", "baseline", s.BaselineLine)
	add(OrderLine(r) != "", "order", func() string { return OrderLine(r) })
	add(r.Calibration != nil, "repeat", func() string { return "auto: " + calibrationWords(r.Calibration) })
	add(!m.Metrics.IsZero(), "metrics", m.Metrics.String)
	add(m.Profile != nil, "profile", func() string { return m.Profile.OnLine().String() })
	return fs
}

// calibrationWords says what repeat: auto measured and chose.
func calibrationWords(c *stats.Calibration) string {
	if !c.HasNoise {
		return fmt.Sprintf("no noise estimate from %d good calibration windows of %s: %d repetitions (the cap)", len(c.Rates), c.Variant, c.Repeat)
	}
	detect := fmt.Sprintf("%d repetitions per variant detect", c.Repeat)
	if c.Capped {
		detect = fmt.Sprintf("even the cap of %d repetitions cannot detect", c.Max)
	}
	return fmt.Sprintf("%s varied by %.2f %% over %d calibration windows; %s ±%g %% with %.0f %% power", c.Variant, c.NoisePct, len(c.Rates), detect, c.EffectPct, stats.Power*100)
}
