// Package analysis computes, once, everything a run concludes (Analyze) and the comparison of
// stored runs (AnalyzeRuns). See docs/statistics.md and docs/internals.md.
package analysis

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/diagnosis"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/softratio"
	"github.com/kaeload/kaeload/results/stats"
)

// Report is the analysis of one run, computed once by Analyze: every conclusion the outputs show.
type Report struct {
	Run               *results.Run
	Summary           *RunSummary
	Search            *SearchSummary     // nil unless the run is a search
	Capacities        []results.Capacity // zero, as CapacityLine, unless a capacity search
	CapacityLine      notes.Note
	Thresholds        []ThresholdCheck
	Crossed           notes.List            // one line per crossed threshold
	Failed            []string              // the variants with failed repetitions
	NotMeasured       notes.List            // one note per variant the run could not measure
	Partial, Excluded notes.List            // cut short; set aside by exclude_flagged: in no statistic
	Warnings          []string              // the run's own, then the analysis's
	Hints             notes.List            // ending with the soft ratio's prediction
	SoftRatio         *softratio.Prediction // nil without windows at two ratios or more
	Speed             *SpeedTable           // nil when no variant ran speed commands
	Reps              [][]RepReport         // Reps[i][j] analyses Run.Variants[i].Reps[j]
	ClientBoundGroups notes.List            // one note per client-bound group of the run
	Profile           *ProfileTable         // nil without server.profile
	Diagnoses         []diagnosis.Diagnosis // every repetition's
	HostOnly          []diagnosis.HostOnly  // kernel counter changes the repetitions' connections do not show
	Metrics           notes.Note            // where live metrics were served, if Prometheus read the last; zero without
}

// RepReport is the analysis of one repetition; a note is zero when it has nothing to say.
type RepReport struct {
	Failed                 notes.Note
	ClientBound, OtherLoad notes.Note // its client-bound groups, its groups with other load ("groups")
	// Why an open loop missed starts; how often slots backed off; the total's starts due and missed.
	Missed, Backoff, OpenLoop notes.Note
	Unanswered                notes.Note // the requests unanswered at the window's end
	ClientCPU                 ClientCPU
	Spread                    *Spread              // nil with fewer than two groups
	Timeline                  diagnosis.Repetition // NoTimeline for old runs
	Events                    []KernelEvent        // the kernel events on its timeline
	// Other load on the server's CPUs, a client group on them, neither side busy.
	ServerOtherLoad, SharedCPUs, NotSaturated notes.Note
	ServerCPUs                                *ServerCPUUse // nil when not recorded
	Saturation                                Saturation
	// The pinned Own group others took most of (the first of equals); nil: none.
	MostOthers *GroupCPU
}

// Flagged says why ra measured more than the server, for exclude_flagged; zero when it did not.
func (ra RepReport) Flagged() notes.Note {
	flags := []notes.Note{ra.ClientBound, ra.OtherLoad, ra.SharedCPUs, ra.ServerOtherLoad}
	flags = slices.DeleteFunc(flags, notes.Note.IsZero)
	return noteIf(len(flags) > 0, notes.Flagged, "notes", flags)
}

// AnalyzeRep is the analysis of rep, its CPU use computed once.
func AnalyzeRep(rep *results.Rep) RepReport {
	t, gcs := &rep.Total, RepGroupCPUs(rep)
	asked, u := 0.0, t.Outside.Unanswered // an open loop's rate asked
	if l := t.Window.Length().Seconds(); l > 0 {
		asked = float64(t.Scheduled) / l
	}
	ra := RepReport{
		Failed: noteIf(rep.Failed != nil, notes.RepFailed, "why", notes.Failure(rep.Failed)), Missed: missedLine(rep, gcs),
		Backoff: noteIf(t.Backoffs > 0, notes.BackedOff, "backoffs", t.Backoffs,
			"fails", t.Errors[results.ErrConnect].Count+t.Errors[results.ErrPorts].Count),
		OpenLoop: noteIf(t.Scheduled > 0, notes.OpenLoop, "asked", asked, "rate", t.Rate(), "missed", t.Missed,
			"scheduled", t.Scheduled, "share", t.MissedShare()),
		Unanswered: noteIf(u.Total() > 0, notes.UnansweredAtEnd, "stages", u), ClientCPU: RepClientCPU(rep),
		Events: KernelEvents(rep.Timeline),
	}
	var bound, other []notes.Note
	for _, gc := range gcs {
		if gc.ClientBound {
			bound = append(bound, notes.New(notes.ClientBoundGroup, "index", gc.Index, "cpus", gc.CPUs, "own", gc.Own,
				"busy", gc.Busy, "kaeload", gc.Kaeload, "interrupts", gc.Interrupts))
		}
		if gc.OtherLoad {
			other = append(other, notes.New(notes.OtherLoadGroup, "index", gc.Index, "cpus", gc.CPUs,
				"others", gc.Others, "kaeload", gc.Kaeload, "interrupts", gc.Interrupts, "wait", gc.Wait,
				"waited", gc.Waited, "top", gc.Top))
		}
		if gc.Own && gc.CPUs != "" && (ra.MostOthers == nil || gc.Others > ra.MostOthers.Others) {
			ra.MostOthers = &gc
		}
	}
	ra.ClientBound = noteIf(len(bound) > 0, notes.ClientBound, "groups", bound)
	ra.OtherLoad = noteIf(len(other) > 0, notes.OtherLoad, "groups", other)
	if len(rep.Groups) > 1 {
		s := GroupSpread(rep.Groups)
		ra.Spread = &s
	}
	if u, ok := RepServerCPUUse(rep); ok { // the server side, after the client's
		ra.ServerCPUs = &u
		ra.ServerOtherLoad = noteIf(u.OtherLoad, notes.ServerOtherLoad, "others", u.Others, "cpus", u.CPUs,
			"server", u.Server, "kaeload", u.Kaeload, "interrupts", u.Interrupts, "top", u.Top)
		var shared []notes.Note
		for _, s := range u.Shared {
			shared = append(shared, notes.New(notes.SharedGroup, "group", s.Group, "cpus", s.CPUs, "common", s.Common))
		}
		ra.SharedCPUs = noteIf(len(shared) > 0, notes.SharedCPUs, "shared", shared, "measured", u.Measured,
			"cpus", u.CPUs, "server", u.Server, "kaeload", u.Kaeload)
	}
	saturation(rep, &ra)
	return ra
}

func analyzeReps(r *results.Run) [][]RepReport {
	out := make([][]RepReport, len(r.Variants))
	for i, v := range r.Variants {
		for j := range v.Reps {
			out[i] = append(out[i], AnalyzeRep(&v.Reps[j]))
		}
	}
	return out
}

// Analyze computes the Report of r once: what every renderer reads.
func Analyze(r *results.Run) *Report {
	reps, inside, search := analyzeReps(r), diagnosis.Run(r), SummarizeSearch(r)
	rep := &Report{Run: r, Reps: reps, Summary: summarizeRun(r, reps, search), Search: search,
		Hints: Hints(r), Metrics: noteIf(r.Metrics != nil, notes.MetricsServed, "metrics", r.Metrics)}
	rep.Capacities, rep.CapacityLine = capacities(r)
	for _, nm := range r.NotMeasured { // "variant b after 2 repetitions: …"
		n := 0
		if v := findVariant(r, nm.Variant); v != nil {
			n = len(v.Reps)
		}
		rep.NotMeasured = append(rep.NotMeasured, notes.New(notes.NotMeasured, "variant", nm.Variant, "reps", n,
			"reason", nm.Reason))
	}
	rep.Thresholds = checkThresholds(r, inside, rep.Summary.Variants)
	for _, c := range rep.Thresholds {
		if !c.Passed {
			rep.Crossed = append(rep.Crossed, crossedLine(&c))
		}
	}
	for i, v := range r.Variants {
		for j, d := range inside[i] {
			reps[i][j].Timeline = d
			rep.Diagnoses, rep.HostOnly = append(rep.Diagnoses, d.Diagnoses...), append(rep.HostOnly, d.HostOnly...)
		}
		if rep.Summary.Variants[i].FailedReps > 0 {
			rep.Failed = append(rep.Failed, v.Name)
		}
		for j := range v.Partial {
			rep.Partial = append(rep.Partial, PartialLine(v.Name, &v.Partial[j]))
		}
		for _, x := range v.Excluded {
			rep.Excluded = append(rep.Excluded, notes.New(notes.ExcludedWindow, "variant", v.Name, "rep", x.Index+1,
				"rate", x.Total.Rate(), "why", x.Excluded))
		}
	}
	rep.Warnings = r.Warnings.Strings() // then the analysis's own, those the run has not said
	rep.Warnings = append(rep.Warnings, slices.DeleteFunc(ownWarnings(r, reps, rep.Summary, false).Strings(),
		func(w string) bool { return slices.Contains(rep.Warnings, w) })...)
	if HasSpeed(r) {
		rep.Speed = newSpeedTable(r, rep.Summary)
	}
	if rep.SoftRatio = softRatio(r, reps); rep.SoftRatio != nil {
		rep.Hints = append(rep.Hints, notes.New(notes.SoftRatio, "prediction", *rep.SoftRatio))
	}
	rep.Profile = SummarizeProfile(r, rep.Summary)
	rep.ClientBoundGroups = repNotes(r, reps, func(ra *RepReport) []notes.Note { return ra.ClientBound.N("groups") })
	return rep
}

// Annotate appends the analysis's warnings, missed starts included, to r.Warnings once (before run.json).
func Annotate(r *results.Run) {
	reps := analyzeReps(r)
	for _, n := range ownWarnings(r, reps, summarizeRun(r, reps, nil), true) {
		r.Warnings = r.Warnings.AppendNew(n.Warning())
	}
}

// ownWarnings are the repetitions' warnings kind by kind, then the probes' and s's, each said once.
func ownWarnings(r *results.Run, reps [][]RepReport, s *RunSummary, missed bool) notes.List {
	var ws notes.List
	for k := range 8 {
		if k == 6 && !missed {
			continue
		}
		ws = append(ws, repNotes(r, reps, func(ra *RepReport) []notes.Note {
			return []notes.Note{[]notes.Note{ra.Failed, ra.ClientBound, ra.OtherLoad, ra.ServerOtherLoad, ra.SharedCPUs,
				ra.NotSaturated, ra.Missed, ra.Backoff}[k]}
		})...)
	}
	ws = append(ws, probeWarnings(r, s.Variants)...)
	ws = append(ws, s.Warnings...)
	seen := map[string]bool{}
	return slices.DeleteFunc(ws, func(n notes.Note) bool {
		said := seen[n.String()]
		seen[n.String()] = true
		return said
	})
}

// repNotes is each non-zero note of every repetition as a run-wide line: "variant V, repetition N: note".
func repNotes(r *results.Run, reps [][]RepReport, of func(*RepReport) []notes.Note) notes.List {
	var out notes.List
	for i := range r.Variants {
		v := &r.Variants[i]
		for j := range v.Reps {
			for _, n := range slices.DeleteFunc(of(&reps[i][j]), notes.Note.IsZero) {
				out = append(out, notes.New(notes.InRep, "variant", v.Name, "rep", v.Reps[j].Index+1, "note", n))
			}
		}
	}
	return out
}

// KernelEvent is a TCP trouble counter's growth on one host over one interval (Start < 0: warm-up).
type KernelEvent struct {
	Start, Length time.Duration
	Host, Counter string
	Count         uint64
}

var (
	// TroubleCounters are the kernel TCP counters whose every growth is an event.
	TroubleCounters = []string{
		"ListenOverflows", "ListenDrops", "TCPSynRetrans", "TCPReqQFullDrop", "TCPReqQFullDoCookies",
		"SyncookiesSent", "TCPTimeWaitOverflow", "TCPAbortOnMemory",
	}
	// ResetCounters grow in a healthy TLS run: events only in a reset storm (diagnosis.Storm).
	ResetCounters = []string{"OutRsts", "EstabResets", "TCPAbortOnData", "TCPAbortOnClose"}
)

// KernelEvents lists timeline t's kernel events in time order, then by host, then by counter.
func KernelEvents(t *results.Timeline) []KernelEvent {
	if t == nil {
		return nil
	}
	roles := make([]string, len(t.Hosts)) // "NAME (clients and server)"
	for h, host := range t.Hosts {
		roles[h] = notes.New(notes.NamedHost, "name", host.Name, "shared", host.Shared, "client", host.Client,
			"server", host.Server).String()
	}
	var out []KernelEvent
	for p, pt := range t.Points {
		for h, role := range roles {
			names := TroubleCounters
			if resetStorm(t, p, h) {
				names = slices.Concat(TroubleCounters, ResetCounters)
			}
			for _, name := range names {
				if n, ok := t.TCP(p, h, name); ok && n > 0 {
					out = append(out, KernelEvent{Start: pt.Start, Length: pt.Length, Host: role, Counter: name, Count: n})
				}
			}
		}
	}
	return out
}

func resetStorm(t *results.Timeline, p, h int) bool {
	rsts, ok := t.TCP(p, h, "OutRsts")
	onData, _ := t.TCP(p, h, "TCPAbortOnData")
	onClose, _ := t.TCP(p, h, "TCPAbortOnClose")
	active, _ := t.TCP(p, h, "ActiveOpens")
	passive, _ := t.TCP(p, h, "PassiveOpens")
	e := &t.Points[p].Errors
	failed := e[results.ErrConnect] + e[results.ErrTLS] + e[results.ErrRead] + e[results.ErrWrite]
	return ok && diagnosis.Storm(rsts, onData+onClose, failed, max(active, passive))
}

// RunsReport is the analysis of stored runs against the reference runs[0], computed once by AnalyzeRuns.
type RunsReport struct {
	Names    []string // "run N" without a label
	Runs     []*Report
	Plans    notes.Note    // whether the plans are identical, else what differs, field by field
	Variants []RunsVariant // by name: the first run's in order, then new ones
}

// RunsVariant is one variant across the runs, one cell per run.
type RunsVariant struct {
	Name  string
	Cells []RunsCell
}

// RunsCell is one variant in one run; Summary's Comparison is against the reference run (Holm).
type RunsCell struct {
	Summary  *VariantSummary // nil when the run lacks the variant
	Compared bool
}

// AnalyzeRuns compares stored runs with runs[0] by variant name; labels: none or one per run ("": "run N").
func AnalyzeRuns(runs []*results.Run, labels []string) (*RunsReport, error) {
	if len(runs) == 0 {
		return nil, errors.New("compare runs: no runs")
	}
	if len(labels) != 0 && len(labels) != len(runs) {
		return nil, fmt.Errorf("compare runs: %d labels for %d runs", len(labels), len(runs))
	}
	rr := &RunsReport{Names: slices.Concat(labels, make([]string, len(runs)-len(labels)))} // a copy, "" unlabelled
	var order []string
	for i, r := range runs {
		rr.Names[i] = cmp.Or(rr.Names[i], fmt.Sprintf("run %d", i+1))
		rr.Runs = append(rr.Runs, Analyze(r))
		for _, v := range r.Variants {
			if !slices.Contains(order, v.Name) {
				order = append(order, v.Name)
			}
		}
	}
	rr.Plans = planLine(runs, rr.Names)
	var bases, others [][]float64 // every later run's variants against the reference's: one Holm family
	var at []*stats.Comparison
	for _, name := range order {
		ref := findVariant(runs[0], name)
		rv := RunsVariant{Name: name, Cells: make([]RunsCell, len(runs))}
		for i, r := range runs {
			j := variantIndex(r, name)
			if j < 0 {
				continue
			}
			vs := summarizeVariant(&r.Variants[j], rr.Runs[i].Reps[j], i == 0)
			compared := i > 0 && ref != nil && vs.Stats.N > 0 && len(ref.Rates()) > 0
			rv.Cells[i] = RunsCell{Summary: &vs, Compared: compared}
			if i > 0 && ref != nil {
				bases, others = append(bases, ref.Rates()), append(others, r.Variants[j].Rates())
				at = append(at, &vs.Comparison)
			}
		}
		rr.Variants = append(rr.Variants, rv)
	}
	for k, c := range stats.ComparePairs(bases, others, results.DefaultEquivalence) {
		*at[k] = c
	}
	return rr, nil
}

// SlowerRuns returns the later runs' variants significantly slower than the reference's by over limitPct %.
func SlowerRuns(rr *RunsReport, limitPct float64) notes.List {
	var out notes.List
	for _, rv := range rr.Variants {
		for i, cell := range rv.Cells[1:] {
			if s := cell.Summary; s != nil && s.Comparison.Significant && s.Comparison.DeltaPct < -limitPct {
				out = append(out, notes.New(notes.SlowerRun, "variant", rv.Name, "run", rr.Names[i+1],
					"comparison", s.Comparison))
			}
		}
	}
	return out
}

func findVariant(r *results.Run, name string) *results.Variant {
	if i := variantIndex(r, name); i >= 0 {
		return &r.Variants[i]
	}
	return nil
}

func variantIndex(r *results.Run, name string) int {
	return slices.IndexFunc(r.Variants, func(v results.Variant) bool { return v.Name == name })
}

// planLine compares plans with the reference's as canonical JSON, less what each run draws (address, seed).
func planLine(runs []*results.Run, names []string) notes.Note {
	compact := func(raw json.RawMessage) string {
		var plan map[string]any
		if len(raw) == 0 || json.Unmarshal(raw, &plan) != nil {
			return string(raw)
		}
		if t, ok := plan["target"].(map[string]any); ok && t["builtin"] != nil {
			delete(t, "addr")
			delete(t, "url")
		}
		delete(plan, "seed")
		delete(plan, "seed_set")
		b, _ := json.Marshal(plan) // map keys sorted: canonical; what Unmarshal made always encodes
		return string(b)
	}
	ref := compact(runs[0].Plan)
	any := ref != ""
	var differ []string
	var lines []notes.Note
	for i := 1; i < len(runs); i++ {
		p := compact(runs[i].Plan)
		any = any || p != ""
		if p != ref {
			differ = append(differ, names[i])
		}
		diffs := jsonDiff("", json.RawMessage(ref), json.RawMessage(p))
		for _, d := range append(diffs, jsonDiff("host", runs[0].Host, runs[i].Host)...) {
			lines = append(lines, notes.New(notes.PlanDiff, "run", names[i], "diff", d))
		}
		lines = append(lines, infoDiff(runs[0], runs[i], names[i])...)
	}
	return noteIf(any, notes.PlansCompared, "ref", names[0], "differ", differ, "lines", lines)
}

// infoDiff returns the first differing line of each variant's server info command (nginx -V).
func infoDiff(a, b *results.Run, name string) []notes.Note {
	var out []notes.Note
	for _, va := range a.Variants {
		vb := findVariant(b, va.Name)
		if vb == nil {
			continue
		}
		for _, ia := range va.Info {
			k := slices.IndexFunc(vb.Info, func(x results.InfoRun) bool { return x.Command == ia.Command })
			if k < 0 {
				continue
			}
			la, lb := strings.Split(ia.Output+ia.Error, "\n"), strings.Split(vb.Info[k].Output+vb.Info[k].Error, "\n")
			n := 0
			for n < min(len(la), len(lb)) && la[n] == lb[n] {
				n++
			}
			if n < max(len(la), len(lb)) {
				la, lb = append(la, ""), append(lb, "") // one side may have ended
				out = append(out, notes.New(notes.ServerInfoDiff, "run", name, "variant", va.Name,
					"command", ia.Command, "from", la[n], "to", lb[n]))
			}
		}
	}
	return out
}

const maxDiffs = 12 // differences listed per pair of runs

// durationKeys are the plan's time.Duration JSON keys (results/ may not import plans).
var durationKeys = map[string]bool{
	"budget_time": true, "command_timeout": true, "cooldown": true, "device_latency": true, "duration": true,
	"for": true, "interval": true, "linger": true, "offload_cpu": true, "p99_handshake": true, "p99_total": true,
	"soft_cpu": true, "timeout": true, "wait": true, "warmup": true, "window": true,
}

// jsonDiff lists the fields where JSON a and b differ: "load.groups[0].connections: 200 → 50".
func jsonDiff(prefix string, a, b json.RawMessage) []string {
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return nil
	}
	var out []string
	diffValues(prefix, va, vb, true, true, &out)
	if len(out) > maxDiffs {
		out = append(out[:maxDiffs], fmt.Sprintf("… %d more", len(out)-maxDiffs))
	}
	return out
}

// diffValues appends to out a line per leaf in which a and b differ, and per field only one has.
func diffValues(path string, a, b any, ina, inb bool, out *[]string) {
	if ina && inb {
		switch x := a.(type) {
		case map[string]any:
			if y, ok := b.(map[string]any); ok {
				union := maps.Clone(x)
				maps.Copy(union, y)
				for _, k := range slices.Sorted(maps.Keys(union)) {
					va, ina := x[k]
					vb, inb := y[k]
					diffValues(strings.TrimPrefix(path+"."+k, "."), va, vb, ina, inb, out)
				}
				return
			}
		case []any:
			if y, ok := b.([]any); ok {
				n := max(len(x), len(y))
				xs, ys := append(x, make([]any, n-len(x))...), append(y, make([]any, n-len(y))...)
				for i := range n {
					diffValues(fmt.Sprintf("%s[%d]", path, i), xs[i], ys[i], i < len(x), i < len(y), out)
				}
				return
			}
		}
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if key := path[strings.LastIndexAny(path, ".]")+1:]; !ina || !inb || string(ja) != string(jb) {
		*out = append(*out, fmt.Sprintf("%s: %s → %s", path, shown(key, a, ina), shown(key, b, inb)))
	}
}

// shown is a JSON value in a difference line: a duration as a duration, an object or list elided.
func shown(key string, v any, in bool) string {
	switch x := v.(type) {
	case float64:
		if durationKeys[key] {
			return time.Duration(x).String()
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		return strconv.Quote(x)
	case map[string]any:
		return "{…}"
	case []any:
		return fmt.Sprintf("[%d items]", len(x))
	case nil:
		if in {
			return "null"
		}
		return "absent"
	}
	return fmt.Sprint(v)
}
