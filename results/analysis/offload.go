package analysis

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/stats"
)

const (
	// ProfileCheckTolerance is how far samples may be from CPU seconds × rate (or two /proc ticks) and agree.
	ProfileCheckTolerance = 0.10
	procTickSeconds       = 0.01 // /proc's CPU time resolution (USER_HZ 100)
	ProfileTopFunctions   = 10   // how many functions a variant's profile lists
)

// ProfileTable is where the server's CPU went, per variant, in a run with server.profile.
type ProfileTable struct {
	Rate      int      // perf's sampling rate, Hz
	Crypto    []string // what counts as crypto
	Variants  []ProfileVariant
	Libraries []string // every library sampled, by its largest share, most first
}

// ProfileVariant is one variant's server profile.
type ProfileVariant struct {
	Name           string
	Missing        notes.Note // why there is no profile (notes.ProfileNotAvailable)
	Reps, Profiled int        // repetitions, and those with a profile
	Samples        uint64
	Libraries      []LibraryShare  // most first
	Functions      []FunctionShare // the top ProfileTopFunctions by own samples
	Stacks         []results.FoldedStack
	Check          ProfileCheck // the samples against the server's CPU seconds × Rate
	Pprof          string       // the pprof file in the run directory; "" without
	HasDelta       bool
	// Bound = 1 / (1 − CryptoShare) is the most offload could speed the server up; Delta the measured
	// Δ % "of at most" BaselineBound (0: no baseline profile).
	CryptoShare, Bound, Delta, BaselineBound float64
}

// LibraryShare is a library's share of a variant's samples.
type LibraryShare struct {
	Name    string  `json:"name"`
	Share   float64 `json:"share"`
	Samples uint64  `json:"samples"`
}

// FunctionShare is a function's share of a variant's own samples.
type FunctionShare struct {
	Name    string  `json:"name"`
	Library string  `json:"library,omitempty"`
	Share   float64 `json:"share"`
	Samples uint64  `json:"samples"`
}

// ProfileCheck ties perf's samples to /proc's server CPU: Expected is CPUSeconds × Rate. Up to Steal ×
// Rate samples more agree too (perf's cpu-clock counts stolen time, /proc does not): Stolen says so.
type ProfileCheck struct {
	Checked              bool    `json:"-"`
	Samples              uint64  `json:"-"`
	CPUSeconds, Expected float64 `json:"-"`
	Reps                 int     `json:"-"`
	Ratio                float64 `json:"ratio"`
	Agrees               bool    `json:"agrees"`
	Steal                float64 `json:"steal_seconds,omitempty"`
	Stolen               bool    `json:"stolen,omitempty"`
	Close                bool    `json:"-"` // within the tolerance, not only within /proc's resolution
}

// Available reports whether the variant has a profile.
func (v *ProfileVariant) Available() bool { return v.Missing.IsZero() }

// Share is the variant's share of library name (0 when it has none).
func (v *ProfileVariant) Share(name string) (float64, bool) {
	if i := slices.IndexFunc(v.Libraries, func(l LibraryShare) bool { return l.Name == name }); i >= 0 {
		return v.Libraries[i].Share, true
	}
	return 0, false
}

// OnLine says that and how the run profiled its server, and at what cost.
func (t *ProfileTable) OnLine() notes.Note {
	return notes.New(notes.ProfileOn, "rate", t.Rate, "crypto", t.Crypto)
}

// SummarizeProfile returns r's server profile, nil without one; s gives the Δ against the baseline.
func SummarizeProfile(r *results.Run, s *RunSummary) *ProfileTable {
	spec := r.Profile
	if spec == nil {
		return nil
	}
	t := &ProfileTable{Rate: spec.Rate, Crypto: spec.Crypto}
	for i := range r.Variants {
		t.Variants = append(t.Variants, profileVariant(spec, &r.Variants[i]))
	}
	if s != nil && s.Baseline >= 0 && s.Baseline < len(t.Variants) {
		base := t.Variants[s.Baseline].Bound // 0 without a profile
		for i := range t.Variants {
			if c := s.Variants[i].Comparison; i != s.Baseline && c.Test != stats.TestNoBaseline && c.Test != "" {
				t.Variants[i].Delta, t.Variants[i].HasDelta, t.Variants[i].BaselineBound = c.DeltaPct, true, base
			}
		}
	}
	best := map[string]float64{}
	for _, v := range t.Variants {
		for _, l := range v.Libraries {
			best[l.Name] = max(best[l.Name], l.Share)
		}
	}
	t.Libraries = ranked(best, strings.Compare)
	return t
}

func profileVariant(spec *results.ProfileSpec, v *results.Variant) ProfileVariant {
	pv := ProfileVariant{Name: v.Name, Reps: len(v.Reps)}
	libs, funcs, stacks := map[string]uint64{}, map[[2]string]uint64{}, map[string]uint64{}
	var reasons notes.List
	var crypto uint64
	for _, rep := range v.Reps {
		p := rep.ServerProfile
		switch {
		case p == nil:
			reasons = reasons.AppendNew(notes.New(notes.ProfileUnprofiled))
			continue
		case !p.Available():
			reasons = reasons.AppendNew(notes.New(notes.FailedText, "text", p.Reason))
			continue
		}
		pv.Profiled++
		pv.Samples += p.Samples
		crypto += spec.CryptoSamples(p)
		for _, l := range p.Libraries {
			libs[l.Name] += l.Samples
		}
		for _, f := range p.Functions {
			funcs[[2]string{f.Library, f.Name}] += f.Samples
		}
		for _, st := range p.Stacks {
			stacks[st.Stack] += st.Samples
		}
		if cpu := p.CPUSeconds; cpu > 0 || rep.ServerCPU != nil {
			if cpu == 0 {
				cpu = rep.ServerCPU.Seconds
			}
			c := &pv.Check
			c.Checked, c.Reps, c.Samples = true, c.Reps+1, c.Samples+p.Samples
			c.CPUSeconds, c.Expected = c.CPUSeconds+cpu, c.Expected+cpu*float64(p.Rate)
			c.Steal += p.Steal
		}
	}
	if pv.Profiled == 0 || pv.Samples == 0 {
		switch {
		case len(reasons) == 0 && pv.Reps == 0:
			reasons = notes.List{notes.New(notes.ProfileNoReps)}
		case len(reasons) == 0:
			reasons = notes.List{notes.New(notes.ProfileNoSamples)}
		}
		pv.Missing = notes.New(notes.ProfileNotAvailable, "reasons", []notes.Note(reasons))
		return pv
	}
	pv.Pprof = results.PprofFile(v.Name)
	total := float64(pv.Samples)
	for _, l := range ranked(libs, strings.Compare) {
		pv.Libraries = append(pv.Libraries, LibraryShare{Name: l, Samples: libs[l], Share: float64(libs[l]) / total})
	}
	fs := ranked(funcs, func(a, b [2]string) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	for _, f := range fs[:min(len(fs), ProfileTopFunctions)] {
		share := float64(funcs[f]) / total
		pv.Functions = append(pv.Functions, FunctionShare{Name: f[1], Library: f[0], Samples: funcs[f], Share: share})
	}
	for _, st := range ranked(stacks, strings.Compare) {
		pv.Stacks = append(pv.Stacks, results.FoldedStack{Stack: st, Samples: stacks[st]})
	}
	pv.CryptoShare = min(float64(crypto)/total, 1)
	pv.Bound = 1 / (1 - pv.CryptoShare) // +Inf when all of it was crypto
	c := &pv.Check
	c.Checked = c.Checked && c.Expected > 0
	if c.Checked {
		c.Ratio = float64(c.Samples) / c.Expected
		ticks := 2 * procTickSeconds * float64(spec.Rate) * float64(c.Reps)
		slack, n := max(ProfileCheckTolerance*c.Expected, ticks), float64(c.Samples)
		c.Agrees = math.Abs(n-c.Expected) <= slack
		c.Stolen = !c.Agrees && n > c.Expected && n <= c.Expected+c.Steal*float64(spec.Rate)+slack
		c.Agrees, c.Close = c.Agrees || c.Stolen, math.Abs(c.Ratio-1) <= ProfileCheckTolerance
	}
	return pv
}

// entry points at *list's first element that is holds for, else at add appended (valid until it grows).
func entry[T any](list *[]T, is func(T) bool, add T) *T {
	k := slices.IndexFunc(*list, is)
	if k < 0 {
		k, *list = len(*list), append(*list, add)
	}
	return &(*list)[k]
}

// ranked are m's keys by value, most first, then in key order.
func ranked[K comparable, V cmp.Ordered](m map[K]V, order func(a, b K) int) []K {
	return slices.SortedFunc(maps.Keys(m), func(a, b K) int { return cmp.Or(cmp.Compare(m[b], m[a]), order(a, b)) })
}

// SpeedTable is a run's crypto speed comparison: a row per figure, a column per variant, then Δ %.
type SpeedTable struct {
	Baseline     int // -1 when not measured: no Δ % columns
	BaselineName string
	Variants     []string
	Commands     []string   // by position: the baseline's where it ran it, else the first variant's
	Rows         []SpeedRow // in order of first appearance; a figure printed twice keeps its first value
	Failures     []SpeedFailure
}

// SpeedRow is a figure (Value 0) of command Command, per variant (Has: there is one); never JSON-encoded
// as is (render's speedJSON writes the rows).
type SpeedRow struct {
	Command int
	results.SpeedResult
	Values []float64
	Has    []bool
}

// SpeedFailure is a speed run that failed or whose output was not understood.
type SpeedFailure struct {
	Variant     string `json:"variant"`
	Command     int    `json:"command"`
	CommandLine string `json:"command_line"`
	Error       string `json:"error"`
}

// Figure names the row: "[0] rsa 2048 bits sign", "[1] sms4-cbc 16 bytes".
func (row *SpeedRow) Figure() string { return fmt.Sprintf("[%d] %s", row.Command, row.Label()) }

// HasSpeed reports whether any variant of r has a speed run.
func HasSpeed(r *results.Run) bool {
	return slices.ContainsFunc(r.Variants, func(v results.Variant) bool { return len(v.Speed) > 0 })
}

func newSpeedTable(r *results.Run, s *RunSummary) *SpeedTable {
	base, n := s.Baseline, len(r.Variants)
	t := &SpeedTable{Baseline: base, BaselineName: s.BaselineName}
	for vi := range r.Variants {
		v := &r.Variants[vi]
		t.Variants = append(t.Variants, v.Name)
		for ci, run := range v.Speed {
			if ci == len(t.Commands) { // the first variant with this many commands
				t.Commands = append(t.Commands, run.Command)
			} else if t.Commands[ci] == "" || vi == base {
				t.Commands[ci] = run.Command
			}
			if run.Error != "" {
				t.Failures = append(t.Failures, SpeedFailure{Variant: v.Name, Command: ci, CommandLine: run.Command, Error: run.Error})
			}
			for _, res := range run.Results {
				value := res.Value
				res.Value = 0 // rows are by command and result
				row := entry(&t.Rows, func(row SpeedRow) bool { return row.Command == ci && row.SpeedResult == res },
					SpeedRow{Command: ci, SpeedResult: res, Values: make([]float64, n), Has: make([]bool, n)})
				if !row.Has[vi] { // a tool printing a figure twice: keep the first
					row.Values[vi], row.Has[vi] = value, true
				}
			}
		}
	}
	return t
}

// Delta is variant vi's Δ % against the baseline; false when undefined.
func (t *SpeedTable) Delta(row *SpeedRow, vi int) (float64, bool) {
	b := t.Baseline
	if r, ok := ratio(row.Values[max(b, 0)], row.Values[vi], b >= 0 && row.Has[vi] && row.Has[b]); ok {
		return (r - 1) * 100, true
	}
	return 0, false
}

func ratio(a, b float64, ok bool) (float64, bool) {
	r := b / a
	if !ok || a == 0 || math.IsNaN(r) || math.IsInf(r, 0) {
		return 0, false
	}
	return r, true
}

// SpeedPair is one figure of two saved speed outputs side by side ("kaeload speed").
type SpeedPair struct {
	Label, Unit string
	A, B        float64
	HasA, HasB  bool
}

// PairSpeed lines up two outputs' figures by label and unit: a's in order, then b's own.
func PairSpeed(a, b []results.SpeedResult) []SpeedPair {
	var out []SpeedPair
	for side, rs := range [][]results.SpeedResult{a, b} {
		for _, r := range rs {
			p := entry(&out, func(p SpeedPair) bool { return p.Label == r.Label() && p.Unit == r.Unit },
				SpeedPair{Label: r.Label(), Unit: r.Unit})
			if side == 0 && !p.HasA {
				p.A, p.HasA = r.Value, true
			} else if side == 1 && !p.HasB {
				p.B, p.HasB = r.Value, true
			}
		}
	}
	return out
}

// Ratio returns B/A; false when not defined.
func (p SpeedPair) Ratio() (float64, bool) { return ratio(p.A, p.B, p.HasA && p.HasB) }
