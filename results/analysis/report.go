package analysis

import (
	"github.com/kaeload/kaeload/results"
)

// Report is the analysis of one run, computed once by Analyze: every
// conclusion the outputs show. The renderers (WriteText, WriteMarkdown,
// WriteCSV, WriteSummaryJSON, htmlreport) read its fields and compute no
// analysis of their own, so two outputs of one rendering pass can never
// disagree and each analysis runs once per pass.
type Report struct {
	// Run is the record analysed.
	Run *results.Run
	// Summary is the run summary (SummarizeRun): variants, comparisons,
	// verdicts, sweeps, drift; nil only when Err is set.
	Summary *RunSummary
	// Err is SummarizeRun's error, if any.
	Err error
	// Search is the search answer (SummarizeSearch); nil when the run is
	// not a search.
	Search *SearchSummary
	// Capacities are the capacity answers per variant (Run.Capacities);
	// nil when the run is not a capacity search.
	Capacities []results.Capacity
	// CapacityLine is the capacity answer in one line (Run.CapacityLine);
	// "" when the run is not a capacity search.
	CapacityLine string
	// Thresholds are the threshold checks (CheckThresholds).
	Thresholds []ThresholdCheck
	// Crossed are the crossed thresholds, one line each (CrossedLines).
	Crossed []string
	// Failed names the variants with failed repetitions (Run.Failed).
	Failed []string
	// NotMeasured are the not-measured lines (Run.NotMeasuredLines).
	NotMeasured []string
	// Warnings are every warning the outputs show: the run's own, failed,
	// client-bound, other-load, backoff and the summary's (drift, …).
	Warnings []string
	// Hints are the hint lines (Run.Hints).
	Hints []string
	// Speed is the crypto speed table; nil when no variant ran speed
	// commands or the summary failed.
	Speed *SpeedTable
}

// Analyze computes the Report of r once: what every renderer reads.
func Analyze(r *results.Run) *Report {
	rep := &Report{Run: r}
	if rep.Summary, rep.Err = SummarizeRun(r); rep.Err != nil {
		rep.Summary = nil
	}
	rep.Search = SummarizeSearch(r)
	rep.Capacities = Capacities(r)
	rep.CapacityLine = CapacityLine(r)
	rep.Thresholds = CheckThresholds(r)
	for _, c := range Crossed(rep.Thresholds) {
		rep.Crossed = append(rep.Crossed, crossedLine(&c))
	}
	rep.Failed = Failed(r)
	rep.NotMeasured = NotMeasuredLines(r)
	rep.Warnings = warningsOf(r, rep.Summary)
	rep.Hints = Hints(r)
	if rep.Summary != nil && HasSpeed(r) {
		rep.Speed = newSpeedTable(r, rep.Summary)
	}
	return rep
}
