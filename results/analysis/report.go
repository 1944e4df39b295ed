package analysis

import (
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/diagnosis"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/softratio"
)

// Report is the analysis of one run, computed once by Analyze: every
// conclusion the outputs show, the verdicts as notes (codes with
// parameters) that the renderers word with String.
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
	// Capacities are the capacity answers per variant (Capacities);
	// nil when the run is not a capacity search.
	Capacities []results.Capacity
	// CapacityLine is the capacity answer (CapacityLine); zero when the
	// run is not a capacity search.
	CapacityLine notes.Note
	// Thresholds are the threshold checks (CheckThresholds).
	Thresholds []ThresholdCheck
	// Crossed are the crossed thresholds, one line each (CrossedLines).
	Crossed notes.List
	// Failed names the variants with failed repetitions (Failed).
	Failed []string
	// NotMeasured are the not-measured lines (NotMeasuredLines).
	NotMeasured notes.List
	// Partial are the windows an interrupt cut short, one line each
	// (PartialLines): shown, in no statistic.
	Partial notes.List
	// Excluded are the windows the exclude_flagged policy set aside, one
	// line each (ExcludedLines): shown, in no statistic.
	Excluded notes.List
	// Warnings are every warning the outputs show: the run's own, failed,
	// client-bound, other-load, backoff and the summary's (drift, …).
	Warnings []string
	// Hints are the hint lines (Hints), the soft ratio's prediction last.
	Hints notes.List
	// SoftRatio is the best soft ratio predicted from the run's windows at
	// two or more ratios (SoftRatio); nil without them.
	SoftRatio *softratio.Prediction
	// Speed is the crypto speed table; nil when no variant ran speed
	// commands or the summary failed.
	Speed *SpeedTable
	// Reps are the repetitions' analyses: Reps[i][j] is that of
	// Run.Variants[i].Reps[j].
	Reps [][]RepReport
	// ClientBoundGroups names every client-bound group of the run, one
	// note each (ClientBoundGroups).
	ClientBoundGroups notes.List
	// Profile is where the server's CPU went, per variant (SummarizeProfile);
	// nil when the run did not profile its server.
	Profile *ProfileTable
	// Diagnoses are every repetition's diagnoses (RepReport.Timeline),
	// variants and repetitions in order: what went wrong inside the
	// windows, each with its cause, figure, consequence and fix.
	Diagnoses []diagnosis.Diagnosis
	// HostOnly are every repetition's kernel counter changes that the
	// run's own connections do not show (RepReport.Timeline.HostOnly): on
	// the host, not attributable to the run, and no diagnosis.
	HostOnly []diagnosis.HostOnly
	// Metrics says where the live metrics were served and whether
	// Prometheus read the final values (MetricsLine); zero without.
	Metrics notes.Note
}

// RepReport is the analysis of one repetition (or capacity step, or
// search window): the loud lines every output shows with it and what its
// groups say together. A note is zero when it has nothing to say.
type RepReport struct {
	// Failed says why the repetition failed (FailedLine).
	Failed notes.Note
	// ClientBound names its client-bound groups (ClientBoundLine), and
	// OtherLoad the groups whose CPUs other processes shared
	// (OtherLoadLine).
	ClientBound, OtherLoad notes.Note
	// Missed says why an open loop missed starts (MissedLine), Backoff how
	// often slots backed off (BackoffLine).
	Missed, Backoff notes.Note
	// OpenLoop is the total's open-loop line (OpenLoopLine): starts due,
	// missed, latency from the intended start.
	OpenLoop notes.Note
	// Unanswered words the requests still unanswered at the window's end
	// by stage (UnansweredLine).
	Unanswered string
	// ClientCPU is kaeload's CPU over the window (Rep.ClientCPU).
	ClientCPU ClientCPU
	// ClientBoundGroups and OtherLoadGroups index the groups behind
	// ClientBound and OtherLoad (ClientBound, OtherLoad).
	ClientBoundGroups, OtherLoadGroups []int
	// Spread is how evenly the groups performed (GroupSpread); nil with
	// fewer than two groups.
	Spread *Spread
	// MostOthers is the pinned group whose worker measured itself and
	// whose CPUs other processes took the largest share of
	// (GroupCPU.Others; the first of equals); nil when no group is such.
	MostOthers *GroupCPU
	// Timeline is what the repetition's timeline says (diagnosis.Rep):
	// its rate range by interval, its stalls, the hosts' TCP counters
	// over the window and its diagnoses; NoTimeline for a repetition
	// stored before timelines.
	Timeline diagnosis.Repetition
	// Events are the kernel events on its timeline (KernelEvents); nil
	// without a timeline or without events.
	Events []KernelEvent
	// ServerOtherLoad says that other processes took a large share of the
	// server's CPUs (ServerOtherLoadLine), SharedCPUs that a client group
	// ran on them (SharedCPUsLine), NotSaturated that neither kaeload nor
	// the server's CPUs were busy (NotSaturatedLine).
	ServerOtherLoad, SharedCPUs, NotSaturated notes.Note
	// ServerCPUs is how the server's CPUs were used (Rep.ServerCPUUse);
	// nil when not recorded. Saturation is whether the repetition loaded
	// the server (RepSaturation).
	ServerCPUs *ServerCPUUse
	Saturation Saturation
}

// Flagged reports whether the repetition measured something besides the
// server: client-bound, other load on either side's CPUs, shared CPUs.
func (ra *RepReport) Flagged() bool {
	return !ra.ClientBound.IsZero() || !ra.OtherLoad.IsZero() || !ra.ServerOtherLoad.IsZero() || !ra.SharedCPUs.IsZero()
}

// analyzeRep is the RepReport of rep.
func analyzeRep(rep *results.Rep) RepReport {
	ra := RepReport{
		Failed: FailedLine(rep), ClientBound: ClientBoundLine(rep), OtherLoad: OtherLoadLine(rep),
		Missed: MissedLine(rep), Backoff: BackoffLine(rep), OpenLoop: OpenLoopLine(&rep.Total),
		ClientCPU: RepClientCPU(rep), ClientBoundGroups: ClientBound(rep), OtherLoadGroups: OtherLoad(rep),
	}
	if u := rep.Total.Outside.Unanswered; u.Total() > 0 {
		ra.Unanswered = UnansweredLine(u)
	}
	if len(rep.Groups) > 1 {
		s := GroupSpread(rep.Groups)
		ra.Spread = &s
	}
	for _, gc := range RepGroupCPUs(rep) {
		if gc.Own && gc.CPUs != "" && (ra.MostOthers == nil || gc.Others > ra.MostOthers.Others) {
			ra.MostOthers = &gc
		}
	}
	ra.Events = KernelEvents(rep.Timeline)
	analyzeServerCPUs(rep, &ra)
	return ra
}

// Analyze computes the Report of r once: what every renderer reads.
func Analyze(r *results.Run) *Report {
	rep := &Report{Run: r}
	if rep.Summary, rep.Err = SummarizeRun(r); rep.Err != nil {
		rep.Summary = nil
	}
	if rep.Search = SummarizeSearch(r); rep.Search != nil {
		rep.Search.Predicted = StartPrediction(r)
	}
	rep.Capacities = Capacities(r)
	rep.CapacityLine = CapacityLine(r)
	inside := diagnosis.Run(r)
	rep.Diagnoses = diagnosis.All(inside)
	rep.HostOnly = diagnosis.AllHostOnly(inside)
	rep.Thresholds = checkThresholds(r, inside)
	for _, c := range Crossed(rep.Thresholds) {
		rep.Crossed = append(rep.Crossed, crossedLine(&c))
	}
	rep.Failed = Failed(r)
	rep.NotMeasured = NotMeasuredLines(r)
	rep.Partial = PartialLines(r)
	rep.Excluded = ExcludedLines(r)
	rep.Warnings = warningsOf(r, rep.Summary)
	rep.Hints = Hints(r)
	if rep.Summary != nil && HasSpeed(r) {
		rep.Speed = newSpeedTable(r, rep.Summary)
	}
	rep.Reps = make([][]RepReport, len(r.Variants))
	for i := range r.Variants {
		v := &r.Variants[i]
		rep.Reps[i] = make([]RepReport, len(v.Reps))
		for j := range v.Reps {
			rep.Reps[i][j] = analyzeRep(&v.Reps[j])
			rep.Reps[i][j].Timeline = inside[i][j]
		}
	}
	if rep.SoftRatio = SoftRatio(rep); rep.SoftRatio != nil {
		rep.Hints = append(rep.Hints, softRatioNote(rep.SoftRatio))
	}
	rep.Profile = SummarizeProfile(r, rep.Summary)
	rep.ClientBoundGroups = ClientBoundGroups(r)
	rep.Metrics = MetricsLine(r)
	return rep
}
