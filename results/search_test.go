package results

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// searchRun is a run that searched ratio over 0, 10, … 50: visits 0, 50,
// 20, 30, 30, 20 with rates (2 s windows) such that 20 and 30 are equal
// and clearly above 0 and 50, which were measured once.
func searchRun() *Run {
	r := &Run{SchemaVersion: SchemaVersion, Name: "search", Started: t0}
	s := &Search{Series: "soft-{ratio}", Key: "ratio", Maximize: ObjectiveRate, Budget: 6}
	for _, v := range []string{"0", "10", "20", "30", "40", "50"} {
		s.Values = append(s.Values, v)
		r.Variants = append(r.Variants, Variant{Name: "soft-" + v, Series: s.Series, Sweep: map[string]string{"ratio": v}})
	}
	r.Search = s
	visits := []struct {
		variant  int
		requests uint64
	}{{0, 1000}, {5, 1200}, {2, 2000}, {3, 2030}, {3, 2010}, {2, 2010}}
	for _, vis := range visits {
		v := &r.Variants[vis.variant]
		rep := fixtureRep(len(v.Reps), 10, vis.requests)
		v.Reps = append(v.Reps, rep)
		s.Visits = append(s.Visits, s.visit(v, &rep))
	}
	return r
}

func TestSummarizeSearch(t *testing.T) {
	ss := SummarizeSearch(searchRun())
	var vals, plateau, once []string
	for _, p := range ss.Points {
		vals = append(vals, p.Value)
		if p.Untested {
			once = append(once, p.Value)
		}
	}
	for _, i := range ss.Plateau {
		plateau = append(plateau, ss.Points[i].Value)
	}
	if got, want := strings.Join(vals, " "), "0 20 30 50"; got != want {
		t.Errorf("points %q, want %q (grid order, visited only)", got, want)
	}
	if got, want := ss.Points[ss.Best].Value, "30"; got != want {
		t.Errorf("best %s, want %s", got, want)
	}
	if got, want := strings.Join(plateau, " "), "20 30"; got != want || ss.Points[ss.PlateauLow].Value != "20" {
		t.Errorf("plateau %q (low %d), want %q, lowest 20", got, ss.PlateauLow, want)
	}
	if got, want := strings.Join(once, " "), "0 50"; got != want {
		t.Errorf("untested %q, want %q", got, want)
	}
	if got, want := ss.Points[1].Visits, []int{3, 6}; !slices.Equal(got, want) {
		t.Errorf("visits of 20: %v, want %v", got, want)
	}
	if got, want := ss.Windows, 6; got != want || ss.Grid != 6 {
		t.Errorf("windows %d grid %d, want 6 and 6", got, ss.Grid)
	}
}

// TestSearchReports: the text and Markdown reports say windows against
// the grid, the best with its CI, the plateau and its lowest value, and
// the visit order; the sweep of the search's series marks its plateau.
func TestSearchReports(t *testing.T) {
	r := searchRun()
	var text, md bytes.Buffer
	if err := WriteText(&text, Analyze(r)); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, Analyze(r)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"6 windows of a budget of 6; the full grid would need 6",
		"best ratio = 30: 1,010 req/s (95 % CI",
		"plateau (not significantly worse than the best, Holm-adjusted t-test on the log scale): 20, 30; lowest ratio = 20",
		"measured once, so not tested and on no plateau: 0, 50",
		"visit order: 1:0 2:50 3:20 4:30 5:30 6:20",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown report lacks %q", want)
		}
	}
	s, err := SummarizeRun(r)
	if err != nil {
		t.Fatal(err)
	}
	var on []string
	for _, v := range s.Variants {
		if v.Plateau {
			on = append(on, v.Name)
		}
	}
	if got, want := strings.Join(on, " "), "soft-20 soft-30"; got != want {
		t.Errorf("sweep plateau %q, want %q", got, want)
	}
}

// TestJournalSearchResume: a journal rebuilds the visits from its rep
// records; ResumeJournal continues it, and a run read afterwards holds the
// visits before and after, complete once it ends. A resume that ends
// before its run begins (no Resume) leaves the journal byte for byte as
// it was.
func TestJournalSearchResume(t *testing.T) {
	full := searchRun()
	dir := filepath.Join(t.TempDir(), "run")
	h := header(full)
	h.Search = full.Search.clone()
	h.Search.Visits = nil
	j, err := CreateJournal(dir, h, JournalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	record := func(j *Journal, from, to int) {
		for _, vis := range full.Search.Visits[from:to] {
			for i := range full.Variants {
				if full.Variants[i].Name == vis.Variant {
					if err := j.Rep(i, full.Variants[i].Reps[vis.Rep]); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	record(j, 0, 3)
	if err := j.End(t0, true); err != nil {
		t.Fatal(err)
	}
	mid, err := ReadRunFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := mid.Search.Visits, full.Search.Visits[:3]; !slices.Equal(got, want) {
		t.Fatalf("visits after 3 windows %+v, want %+v", got, want)
	}
	jpath := filepath.Join(dir, JournalFile)
	before, err := os.ReadFile(jpath)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // resumes that fail before their run begins
		j, _, err := ResumeJournal(dir, JournalOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := j.End(t0, true); err != nil {
			t.Fatal(err)
		}
	}
	if after, _ := os.ReadFile(jpath); !bytes.Equal(after, before) {
		t.Errorf("resumes that never began changed the journal:\n%s\nwas\n%s", after, before)
	}
	j2, prev, err := ResumeJournal(dir, JournalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := j2.Rep(0, full.Variants[0].Reps[0]); err == nil {
		t.Errorf("a record before Resume was taken")
	}
	if err := j2.Resume(); err != nil {
		t.Fatal(err)
	}
	if got, want := len(prev.Variants), len(full.Variants); got != want || !slices.Equal(prev.Search.Visits, full.Search.Visits[:3]) {
		t.Fatalf("resumed run: %d variants (want %d, every planned one), visits %+v", got, want, prev.Search.Visits)
	}
	if r := j2.Run(); !r.Incomplete || r.Interrupted {
		t.Errorf("resumed run: incomplete %v interrupted %v, want incomplete until End", r.Incomplete, r.Interrupted)
	}
	record(j2, 3, 6)
	if err := j2.End(t0, false); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRunFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Search.Visits, full.Search.Visits) || got.Incomplete || got.Interrupted {
		t.Errorf("after the resume: visits %+v incomplete %v interrupted %v; want all 6, complete", got.Search.Visits, got.Incomplete, got.Interrupted)
	}
}
