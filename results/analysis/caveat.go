package analysis

import (
	"fmt"
	"strings"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
)

// Caveats say, in the words a verdict line carries, what a variant's
// figures measured besides the server: a client-bound kaeload ("measured
// the client") or CPUs shared with other processes ("shared CPUs"). They
// are computed once per variant from its repetitions' flags; the reports
// put them in the verdict's own line, the sweep's best and the
// comparison, never only in a notes column.

// caveat is one flag of a variant's repetitions: in how many of its n it
// was raised, what the figures then measured when that is most of them
// ("measured the client") and the flag's name ("CLIENT-BOUND").
type caveat struct {
	reps, n    int
	most, flag string
}

// words says the caveat: "measured the client: CLIENT-BOUND in 3 of 3
// repetitions" when most repetitions are flagged, "caution: CLIENT-BOUND
// in 1 of 3 repetitions" otherwise; of names whose repetitions they are
// ("the baseline"), "" for the variant's own.
func (c caveat) words(of string) string {
	if 2*c.reps > c.n {
		if of != "" {
			return fmt.Sprintf("%s %s: %s in %d of its %d repetitions", of, c.most, c.flag, c.reps, c.n)
		}
		return fmt.Sprintf("%s: %s in %d of %d repetitions", c.most, c.flag, c.reps, c.n)
	}
	in := fmt.Sprintf("caution: %s in %d of %d repetitions", c.flag, c.reps, c.n)
	if of != "" {
		in += " of " + of
	}
	return in
}

// caveatsOf lists the flags of v's repetitions, most serious first.
func caveatsOf(v *VariantSummary) []caveat {
	n := v.Stats.N
	var cs []caveat
	add := func(reps int, most, flag string) {
		if reps > 0 && n > 0 {
			cs = append(cs, caveat{reps: reps, n: n, most: most, flag: flag})
		}
	}
	add(v.ClientBoundReps, "measured the client", "CLIENT-BOUND")
	add(v.OtherLoadReps, "shared CPUs", "other processes on the client's CPUs")
	add(v.SharedCPUReps, "shared CPUs", "SHARED CPUS between client and server")
	add(v.ServerOtherLoadReps, "shared CPUs", "OTHER LOAD on the server's CPUs")
	add(v.MisalignedReps, "windows apart", MisalignedFlag)
	return cs
}

// MisalignedFlag words a repetition whose groups' windows started or
// ended over 1 % of the window apart (Misaligned).
const MisalignedFlag = "MISALIGNED windows (groups over 1 % apart)"

// Misaligned is whether rep's groups' windows started or ended more than
// 1 % of the window apart (Rep.WindowSpread).
func Misaligned(rep *results.Rep) bool {
	s := rep.WindowSpread
	return s != nil && 100*max(s.Start, s.End) > rep.Total.Window.Length()
}

// setCaveats fills every variant's Caveat and, for the variants compared
// with the baseline, VerdictCaveat: their own flags and the baseline's,
// since a difference from a baseline that measured the client is not the
// server's either.
func setCaveats(s *RunSummary) {
	var base []caveat
	if s.Baseline >= 0 && s.Baseline < len(s.Variants) {
		base = caveatsOf(&s.Variants[s.Baseline])
	}
	for i := range s.Variants {
		v := &s.Variants[i]
		own := caveatsOf(v)
		var parts, verdict []string
		for _, c := range own {
			parts = append(parts, c.words(""))
			verdict = append(verdict, c.words(""))
		}
		v.Caveat = strings.Join(parts, "; ")
		if v.IsBaseline {
			continue
		}
		for _, c := range base {
			verdict = append(verdict, c.words("the baseline"))
		}
		v.VerdictCaveat = strings.Join(verdict, "; ")
	}
}

// FlaggedLine says why a repetition measured something besides the
// server, for the exclude_flagged policy: its CLIENT-BOUND, OTHER LOAD
// (client's CPUs), SHARED CPUS and server's OTHER LOAD lines, joined;
// "" when none is raised.
func FlaggedLine(rep *results.Rep) string {
	var parts []string
	for _, l := range []string{ClientBoundLine(rep), OtherLoadLine(rep), SharedCPUsLine(rep), ServerOtherLoadLine(rep)} {
		if l != "" {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, "; ")
}

// ExcludedLines returns one line per window the exclude_flagged policy
// set aside (Variant.Excluded), variants in order, as every report shows
// it after "EXCLUDED:": "variant kae rep 2: 12,345.6 req/s set aside and
// measured again: CLIENT-BOUND: …". Nil when none was.
func ExcludedLines(r *results.Run) []string {
	var lines []string
	for i := range r.Variants {
		v := &r.Variants[i]
		for j := range v.Excluded {
			x := &v.Excluded[j]
			lines = append(lines, fmt.Sprintf("variant %s rep %d: %s req/s set aside and measured again (exclude_flagged): %s",
				v.Name, x.Index+1, format.Rate(x.Total.Rate()), x.Excluded))
		}
	}
	return lines
}
