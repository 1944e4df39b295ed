package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/notes"
	"github.com/kaeload/kaeload/results/stats"
)

// ProfileCheckTolerance is how far the samples may be from the server's CPU
// seconds × the rate before the self-check says perf or /proc missed some
// processes. A difference within two /proc ticks per window agrees too.
const ProfileCheckTolerance = 0.10

const procTickSeconds = 0.01 // /proc's CPU time resolution (USER_HZ 100)

// ProfileTopFunctions is how many functions a variant's profile lists.
const ProfileTopFunctions = 10

// ProfileTable is where the server's CPU went, per variant, in a run with
// server.profile: the one model every output renders.
type ProfileTable struct {
	// Rate is perf's sampling rate in Hz; Crypto what counts as crypto.
	Rate     int
	Crypto   []string
	Variants []ProfileVariant
	// Libraries are every library sampled, by its largest share, most
	// first: the rows of the side-by-side table.
	Libraries []string
}

// ProfileVariant is one variant's server profile, its repetitions added up.
type ProfileVariant struct {
	Name string
	// Missing says why there is no profile (notes.ProfileNotAvailable);
	// zero when there is one.
	Missing notes.Note
	// Reps is the number of repetitions; Profiled those with a profile.
	Reps, Profiled int
	Samples        uint64
	// Libraries and Stacks are most first; Functions are the top
	// ProfileTopFunctions by own samples.
	Libraries []LibraryShare
	Functions []FunctionShare
	Stacks    []results.FoldedStack
	// CryptoShare is the samples' share in crypto; Bound = 1 / (1 −
	// CryptoShare), the most offload could speed the server up (+Inf).
	CryptoShare float64
	Bound       float64
	// Delta is the measured Δ % against the baseline (if HasDelta), "of at
	// most" BaselineBound (0 without a baseline profile).
	Delta         float64
	HasDelta      bool
	BaselineBound float64
	// Check ties the samples to the server's CPU seconds × Rate.
	Check ProfileCheck
	// Pprof names the pprof file in the run directory; "" without.
	Pprof string
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

// ProfileCheck ties perf's samples to /proc's accounting of the server's
// CPU over the Reps repetitions that measured it (Checked). The JSON
// summary shows Ratio and Agrees.
type ProfileCheck struct {
	Checked    bool    `json:"-"`
	Samples    uint64  `json:"-"`
	CPUSeconds float64 `json:"-"`
	// Expected is CPUSeconds × Rate, Ratio Samples / Expected.
	Expected float64 `json:"-"`
	Reps     int     `json:"-"`
	Ratio    float64 `json:"ratio"`
	Agrees   bool    `json:"agrees"`
}

// Available reports whether the variant has a profile.
func (v *ProfileVariant) Available() bool { return v.Missing.IsZero() }

// Share is the variant's share of library name (0 when it has none).
func (v *ProfileVariant) Share(name string) (float64, bool) {
	for _, l := range v.Libraries {
		if l.Name == name {
			return l.Share, true
		}
	}
	return 0, false
}

// BoundWords: "offloading all crypto (71.3 % of the server's CPU) could
// make it at most 3.49× faster (+249 %)".
func (v *ProfileVariant) BoundWords() notes.Note {
	if !v.Available() {
		return v.Missing
	}
	return notes.New(notes.ProfileBound, "share", v.CryptoShare, "bound", v.Bound)
}

// BoundCell: "3.49× (+249 %)", "∞" when everything was crypto.
func (v *ProfileVariant) BoundCell() string {
	if math.IsInf(v.Bound, 1) {
		return "∞"
	}
	return fmt.Sprintf("%.2f× (%s)", v.Bound, notes.BoundGain(v.Bound))
}

// DeltaWords: "+50.71 %, of at most +249 %"; "" without a Δ.
func (v *ProfileVariant) DeltaWords() string {
	if !v.HasDelta {
		return ""
	}
	if v.BaselineBound <= 0 {
		return format.Delta(v.Delta)
	}
	return format.Delta(v.Delta) + ", of at most " + notes.BoundGain(v.BaselineBound)
}

// CheckWords: "1,012 samples vs 2.03 server CPU-s × 499 Hz = 1,013: ratio
// 1.00, agrees within 10 %"; zero when not checked.
func (v *ProfileVariant) CheckWords(rate int) notes.Note {
	c := v.Check
	if !c.Checked {
		return notes.Note{}
	}
	return notes.New(notes.ProfileCheck, "samples", c.Samples, "cpu_seconds", c.CPUSeconds, "rate", rate, "expected", c.Expected,
		"ratio", c.Ratio, "agrees", c.Agrees, "close", math.Abs(c.Ratio-1) <= ProfileCheckTolerance, "tolerance", ProfileCheckTolerance)
}

// FunctionsLine: "62.1 % [unknown] (libcrypto.so.3), 3.2 % tcp_v4_rcv
// (kernel), …".
func (v *ProfileVariant) FunctionsLine() string {
	parts := make([]string, len(v.Functions))
	for i, f := range v.Functions {
		parts[i] = fmt.Sprintf("%s %s (%s)", format.Percent(f.Share), f.Name, f.Library)
	}
	return strings.Join(parts, ", ")
}

// OnLine says that and how the run profiled its server, and at what cost.
func (t *ProfileTable) OnLine() notes.Note {
	return notes.New(notes.ProfileOn, "rate", t.Rate, "crypto", t.Crypto)
}

// SummarizeProfile returns r's server profile, nil without one; s gives
// the Δ against the baseline (nil: none).
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
		base := t.Variants[s.Baseline].Bound
		if !t.Variants[s.Baseline].Available() {
			base = 0
		}
		for i := range t.Variants {
			vs := &s.Variants[i]
			if vs.IsBaseline || vs.Comparison.Test == stats.TestNoBaseline || vs.Comparison.Test == "" {
				continue
			}
			t.Variants[i].Delta, t.Variants[i].HasDelta, t.Variants[i].BaselineBound = vs.Comparison.DeltaPct, true, base
		}
	}
	best := map[string]float64{}
	for _, v := range t.Variants {
		for _, l := range v.Libraries {
			if _, ok := best[l.Name]; !ok || l.Share > best[l.Name] {
				best[l.Name] = l.Share
			}
		}
	}
	for name := range best {
		t.Libraries = append(t.Libraries, name)
	}
	slices.SortFunc(t.Libraries, func(a, b string) int { return cmp.Or(cmp.Compare(best[b], best[a]), cmp.Compare(a, b)) })
	return t
}

// profileVariant adds up the profiles of v's repetitions.
func profileVariant(spec *results.ProfileSpec, v *results.Variant) ProfileVariant {
	pv := ProfileVariant{Name: v.Name, Reps: len(v.Reps)}
	libs, funcs, stacks := map[string]uint64{}, map[[2]string]uint64{}, map[string]uint64{}
	var reasons notes.List
	var crypto uint64
	for j := range v.Reps {
		rep := &v.Reps[j]
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
			funcs[[2]string{f.Name, f.Library}] += f.Samples
		}
		for _, st := range p.Stacks {
			stacks[st.Stack] += st.Samples
		}
		if cpu := p.CPUSeconds; cpu > 0 || rep.ServerCPU != nil {
			if cpu == 0 {
				cpu = rep.ServerCPU.Seconds
			}
			pv.Check.Checked = true
			pv.Check.Reps++
			pv.Check.Samples += p.Samples
			pv.Check.CPUSeconds += cpu
			pv.Check.Expected += cpu * float64(p.Rate)
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
	pv.Libraries = byCount(libs, func(name string, n uint64) LibraryShare {
		return LibraryShare{Name: name, Samples: n, Share: float64(n) / total}
	}, func(a, b LibraryShare) int {
		return cmp.Or(cmp.Compare(b.Samples, a.Samples), cmp.Compare(a.Name, b.Name))
	})
	pv.CryptoShare = min(float64(crypto)/total, 1)
	pv.Bound = math.Inf(1)
	if pv.CryptoShare < 1 {
		pv.Bound = 1 / (1 - pv.CryptoShare)
	}
	pv.Functions = byCount(funcs, func(k [2]string, n uint64) FunctionShare {
		return FunctionShare{Name: k[0], Library: k[1], Samples: n, Share: float64(n) / total}
	}, func(a, b FunctionShare) int {
		return cmp.Or(cmp.Compare(b.Samples, a.Samples), cmp.Compare(a.Library, b.Library), cmp.Compare(a.Name, b.Name))
	})
	pv.Functions = pv.Functions[:min(len(pv.Functions), ProfileTopFunctions)]
	pv.Stacks = byCount(stacks, func(st string, n uint64) results.FoldedStack { return results.FoldedStack{Stack: st, Samples: n} },
		func(a, b results.FoldedStack) int {
			return cmp.Or(cmp.Compare(b.Samples, a.Samples), cmp.Compare(a.Stack, b.Stack))
		})
	pv.Check.judge(spec.Rate)
	return pv
}

// byCount turns counts by key into items, sorted by order.
func byCount[K comparable, T any](counts map[K]uint64, item func(K, uint64) T, order func(a, b T) int) []T {
	var out []T
	for k, n := range counts {
		out = append(out, item(k, n))
	}
	slices.SortFunc(out, order)
	return out
}

// judge sets the check's ratio and verdict at rate Hz.
func (c *ProfileCheck) judge(rate int) {
	if !c.Checked || c.Expected <= 0 {
		c.Checked = false
		return
	}
	c.Ratio = float64(c.Samples) / c.Expected
	ticks := 2 * procTickSeconds * float64(rate) * float64(c.Reps)
	c.Agrees = math.Abs(float64(c.Samples)-c.Expected) <= max(ProfileCheckTolerance*c.Expected, ticks)
}
