package tables

import (
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
)

// Profile lays the server profile out: a row per library and a column
// per variant, then the crypto share, offload bound, Δ and samples.
func Profile(t *analysis.ProfileTable) Table {
	tb := Table{Header: []string{"server CPU by library"}}
	for _, v := range t.Variants {
		tb.Header = append(tb.Header, v.Name)
	}
	for i := range tb.Header {
		tb.Right = append(tb.Right, i > 0)
	}
	row := func(label string, cell func(v *analysis.ProfileVariant) string) {
		cells := []string{label}
		for i := range t.Variants {
			v := &t.Variants[i]
			if !v.Available() {
				cells = append(cells, "n/a")
				continue
			}
			cells = append(cells, cell(v))
		}
		tb.Add(cells...)
	}
	for _, name := range t.Libraries {
		row(name, func(v *analysis.ProfileVariant) string {
			if s, ok := v.Share(name); ok {
				return format.Percent(s)
			}
			return format.Missing
		})
	}
	row("crypto share", func(v *analysis.ProfileVariant) string { return format.Percent(v.CryptoShare) })
	row("offload bound (at most)", func(v *analysis.ProfileVariant) string { return ProfileBound(v) })
	row("Δ vs baseline", func(v *analysis.ProfileVariant) string {
		if w := v.DeltaWords(); w != "" {
			return w
		}
		return format.Missing
	})
	row("samples", func(v *analysis.ProfileVariant) string { return format.Count(v.Samples) })
	return tb
}

// ProfileBound is a variant's offload bound in a table cell: "3.49×
// (+249 %)"; "n/a" without a profile.
func ProfileBound(v *analysis.ProfileVariant) string {
	if !v.Available() {
		return "n/a"
	}
	return v.BoundCell()
}

// ProfileLines are the lines under the table, per variant in order: why
// it has no profile, or its top functions, its offload bound, its
// self-check and its pprof file; each starts with the variant's name.
func ProfileLines(t *analysis.ProfileTable) []string {
	var out []string
	for i := range t.Variants {
		v := &t.Variants[i]
		if !v.Available() {
			out = append(out, v.Name+": "+v.Missing.String())
			continue
		}
		out = append(out, v.Name+": top functions: "+v.FunctionsLine())
		out = append(out, v.Name+": "+v.BoundWords().String())
		if w := v.CheckWords(t.Rate).String(); w != "" {
			out = append(out, v.Name+": self-check: "+w)
		}
		out = append(out, v.Name+": pprof: "+v.Pprof)
	}
	return out
}
