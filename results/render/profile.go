package render

import (
	"fmt"
	"io"
	"time"

	"github.com/google/pprof/profile"
	"github.com/kaeload/kaeload/results/analysis"
)

// WriteProfilePprof writes variant i's folded stacks as a gzipped pprof profile, a frame's library its mapping.
func WriteProfilePprof(w io.Writer, m *analysis.Report, i int) error {
	t := m.Profile
	if t == nil || i < 0 || i >= len(t.Variants) || !t.Variants[i].Available() {
		return fmt.Errorf("write pprof: variant %d has no profile", i)
	}
	v := &t.Variants[i]
	period := int64(time.Second) / int64(max(t.Rate, 1))
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     period,
		Comments:   []string{fmt.Sprintf("kaeload server profile of variant %s: perf cpu-clock at %d Hz", v.Name, t.Rate)},
	}
	if !m.Run.Started.IsZero() {
		p.TimeNanos = m.Run.Started.UnixNano()
	}
	for _, st := range v.Stacks {
		frames := st.Frames()
		s := &profile.Sample{Value: []int64{int64(st.Samples), int64(st.Samples) * period}}
		for k := len(frames) - 1; k >= 0; k-- { // pprof lists the leaf first
			lib, fn, name := frames[k][0], frames[k][1], frames[k][1]
			if fn == "[unknown]" {
				name = "[unknown] in " + lib // one node per library, not one for all
			}
			// A Function, Mapping and Location per frame, so memory grows with frames until Merge.
			f := &profile.Function{ID: uint64(len(p.Function) + 1), Name: name, SystemName: fn, Filename: lib}
			mp := &profile.Mapping{ID: uint64(len(p.Mapping) + 1), File: lib, HasFunctions: true}
			l := &profile.Location{ID: uint64(len(p.Location) + 1), Mapping: mp, Line: []profile.Line{{Function: f}}}
			p.Function, p.Mapping = append(p.Function, f), append(p.Mapping, mp)
			p.Location = append(p.Location, l)
			s.Location = append(s.Location, l)
		}
		p.Sample = append(p.Sample, s)
	}
	p, err := profile.Merge([]*profile.Profile{p}) // a mapping per library, a location per function
	if err == nil {
		err = p.Write(w)
	}
	if err != nil {
		return fmt.Errorf("write pprof of %s: %w", v.Name, err)
	}
	return nil
}
