package htmlreport

import (
	"bytes"
	"cmp"
	"errors"
	"github.com/kaeload/kaeload/results/stats"
	"math"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/render"
)

// write renders r and fails the test on an error.
func write(t *testing.T, r *results.Run) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, analysis.Analyze(r)); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return b.String()
}

// wantCharts are the figures the fixture run must have, each with an SVG.
var wantCharts = []string{"chart-rate", "chart-sweep-0", "chart-cdf-handshake", "chart-cdf-total", "chart-groups", "chart-cpu"}

func TestWriteStructure(t *testing.T) {
	doc := write(t, fixtureRun())
	root, err := parseStrict(doc)
	if err != nil {
		t.Fatalf("report is not well-formed: %v", err)
	}
	if got, want := root.name, "html"; got != want {
		t.Errorf("root element = <%s>, want <%s>", got, want)
	}
	titles := root.find("title")
	if len(titles) != 1 || !strings.Contains(titles[0].text.String(), "nginx-kae-test") {
		t.Errorf("<title> elements = %d, want one naming the scenario", len(titles))
	}
	if got := root.find("script"); len(got) != 0 {
		t.Errorf("report has %d <script> elements, want none", len(got))
	}

	svgs := root.find("svg")
	if got, want := len(svgs), len(wantCharts); got != want {
		t.Errorf("report has %d <svg> elements, want %d", got, want)
	}
	for _, id := range wantCharts {
		fig := root.byID(id)
		if fig == nil {
			t.Errorf("no element with id %q", id)
			continue
		}
		s := fig.find("svg")
		if len(s) != 1 {
			t.Errorf("%s: %d <svg> elements, want 1 (text: %q)", id, len(s), strings.TrimSpace(fig.allText()))
			continue
		}
		if got := pathsWithData(s[0]); got < 5 {
			t.Errorf("%s: %d <path> elements with data, want at least 5", id, got)
		}
		if s[0].attr["viewBox"] == "" {
			t.Errorf("%s: <svg> has no viewBox, so it cannot scale", id)
		}
	}
	if strings.Contains(doc, "<?xml") {
		t.Errorf("report contains an XML prolog; it must be stripped when inlining SVG")
	}
	if strings.Contains(doc, `class="chart-error"`) {
		t.Errorf("report contains a chart error: %s", between(doc, `class="chart-error">`, "</p>"))
	}
	if bad := externalRefs(doc); len(bad) > 0 {
		t.Errorf("report references external resources: %q", bad)
	}
}

// between returns the text of s after the first from and before the next to.
func between(s, from, to string) string {
	i := strings.Index(s, from)
	if i < 0 {
		return ""
	}
	s = s[i+len(from):]
	if j := strings.Index(s, to); j >= 0 {
		return s[:j]
	}
	return s
}

// tableRow returns the first row of tbl whose first cell is first, its
// cells' text joined by "|"; "" when there is none.
func tableRow(tbl *node, first string) string {
	for _, tr := range tbl.find("tr") {
		tds := tr.find("td")
		if len(tds) == 0 || strings.TrimSpace(tds[0].allText()) != first {
			continue
		}
		cells := make([]string, len(tds))
		for i, td := range tds {
			cells[i] = strings.TrimSpace(td.allText())
		}
		return strings.Join(cells, "|")
	}
	return ""
}

// comparisonTable returns the report's first table, the comparison.
func comparisonTable(t *testing.T, root *node) *node {
	t.Helper()
	tables := root.find("table")
	if len(tables) == 0 {
		t.Fatalf("report has no table")
	}
	return tables[0]
}

func TestWriteNumbers(t *testing.T) {
	r := fixtureRun()
	doc := write(t, r)
	root, err := parseStrict(doc)
	if err != nil {
		t.Fatalf("report is not well-formed: %v", err)
	}
	// The comparison table is the first table; its rows are checked
	// against numbers worked out by hand from the fixture (see fixtureRun):
	// baseline 120,000 and 121,000 req/s: mean 120,500, s = 707.1; the CI
	// is the geometric mean's on the log scale, √(ab)·(b/a)^(±t(0.975, 1)/2)
	// with t(0.975, 1) = 12.7062: 114,310.5 – 127,022.5.
	cmp := comparisonTable(t, root)
	// The two comparisons are one Holm family, as the report judges them.
	cs := stats.CompareFamily([]float64{120000, 121000}, [][]float64{{150000, 152000}, {180000, 182000}}, results.DefaultEquivalence)
	c0, c33 := cs[0], cs[1]
	if !c33.Significant || !c0.Significant || c0.Family != 2 {
		t.Fatalf("fixture differences should be significant in a family of 2: %+v %+v", c33, c0)
	}
	cells := func(c stats.Comparison) string {
		return format.PValue(c) + "|" + format.PAdjusted(c) + "|" + format.MDE(c) + "|" + format.VerdictWords(c)
	}
	tests := []struct{ variant, want string }{
		{"baseline", "baseline|2|120,500.0|31.9|707.1|114,310.5 .. 127,022.5|baseline|||||2.591|0|7,607.3"},
		{"kae-soft-0", "kae-soft-0|2|151,000.0|32.6|1,414.2|138,810.5 .. 164,252.7|+25.31 %|" + cells(c0) + "|2.127|4|11,038.0"},
		// One of its two repetitions is client-bound (fixtureRun): the
		// verdict says so in its own line.
		{"kae-soft-33", "kae-soft-33|2|181,000.0|34.4|1,414.2|168,726.8 .. 194,160.0|+50.21 %|" + cells(c33) + "; caution: CLIENT-BOUND in 1 of 2 repetitions|1.647|0|11,602.6"},
	}
	if !strings.Contains(tests[2].want, "+50.21 %, significant") {
		t.Errorf("kae-soft-33's verdict is not the significant difference: %s", tests[2].want)
	}
	for _, tt := range tests {
		if got := tableRow(cmp, tt.variant); got != tt.want {
			t.Errorf("comparison row %s:\n got %s\nwant %s", tt.variant, got, tt.want)
		}
	}

	text := root.allText()
	for _, want := range []string{
		"kaeload report: nginx-kae-test",
		"2025-03-01 10:00:00 UTC", "(took 4m30s)",
		"CLIENT-BOUND",
		"variant kae-soft-33, repetition 2: group 1 (CPUs 4-7) was 95 % busy",
		"server restarted between repetitions of kae-soft-0",   // warning
		"dial tcp 127.0.0.1:8443: connect: connection refused", // first error message
		"TLS1.2 ECDHE-RSA-AES128-GCM-SHA256 X25519",            // negotiated
		"KAE_GO_SOFT_RATIO=33 OPENSSL_CONF=/home/openssl.cnf",  // env
		"nginx accepts", "240,000.00", // probe and its delta
		`"repeat": 2`, // the plan, indented
	} {
		if !strings.Contains(text, want) {
			t.Errorf("report text lacks %q", want)
		}
	}
	if got, want := root.byID("completed").allText(), "yes"; got != want {
		t.Errorf("completed = %q, want %q", got, want)
	}
	if root.byID("interrupted") != nil {
		t.Errorf("interrupted banner shown for a complete run")
	}
	if got := rowsWith(root, "kae-soft-0", "connect"); got != "kae-soft-0|1|connect|3|dial tcp 127.0.0.1:8443: connect: connection refused" {
		t.Errorf("error row = %q", got)
	}
	if got, want := rowsWith(root, "kae-soft-33", "4-7"), "kae-soft-33|1|4-7|4|50|90,500.0|90,000.0 – 91,000.0|83.5 % (max 95.0 %)"; got != want {
		t.Errorf("group row:\n got %s\nwant %s", got, want)
	}
	if got := rowsWith(root, "kae-soft-0", "status"); got != "kae-soft-0|1|status|1|status 503" {
		t.Errorf("error row = %q", got)
	}
	// The sweep chart marks its best point with the best variant's mean.
	sweep := root.byID("chart-sweep-0")
	if got, want := sweep.allText(), "best: kae-soft-33, 181,000.0 req/s"; !strings.Contains(got, want) {
		t.Errorf("sweep chart text = %q, want it to contain %q", got, want)
	}
	// The rate chart labels each bar with its mean and Δ.
	if got, want := root.byID("chart-rate").allText(), "181,000.0  (+50.21 %)"; !strings.Contains(got, want) {
		t.Errorf("rate chart text = %q, want it to contain %q", got, want)
	}
}

// rowsWith returns the first table row (cells joined by "|") whose first
// cell is first and third cell is third.
func rowsWith(root *node, first, third string) string {
	for _, tr := range root.find("tr") {
		tds := tr.find("td")
		if len(tds) < 3 || strings.TrimSpace(tds[0].allText()) != first || strings.TrimSpace(tds[2].allText()) != third {
			continue
		}
		cells := make([]string, len(tds))
		for i, td := range tds {
			cells[i] = strings.TrimSpace(td.allText())
		}
		return strings.Join(cells, "|")
	}
	return ""
}

func TestWriteNotClientBound(t *testing.T) {
	r := fixtureRun()
	r.Variants[2].Reps[1].Groups[1].CPU.Busy = results.ClientBoundBusy - 0.001
	root, err := parseStrict(write(t, r))
	if err != nil {
		t.Fatalf("report is not well-formed: %v", err)
	}
	if b := root.byID("client-bound"); b != nil {
		t.Errorf("client-bound banner shown at %.3f busy: %q", results.ClientBoundBusy-0.001, b.allText())
	}
	r.Variants[2].Reps[1].Groups[1].CPU.Busy = results.ClientBoundBusy
	root, err = parseStrict(write(t, r))
	if err != nil {
		t.Fatalf("report is not well-formed: %v", err)
	}
	if root.byID("client-bound") == nil {
		t.Errorf("no client-bound banner at exactly ClientBoundBusy")
	}

	// Every group busy: the banner lists maxClientBound and counts the rest.
	for i := range r.Variants {
		for j := range r.Variants[i].Reps {
			for k := range r.Variants[i].Reps[j].Groups {
				r.Variants[i].Reps[j].Groups[k].CPU.Busy = 0.99
			}
		}
	}
	root, err = parseStrict(write(t, r))
	if err != nil {
		t.Fatalf("report is not well-formed: %v", err)
	}
	items := root.byID("client-bound").find("li")
	if got, want := len(items), maxClientBound+1; got != want {
		t.Fatalf("client-bound banner items = %d, want %d", got, want)
	}
	if got, want := items[maxClientBound].allText(), "… and 4 more: see the worker groups and CPU tables"; got != want {
		t.Errorf("last banner item = %q, want %q", got, want)
	}
}

func TestWriteWithoutCPU(t *testing.T) {
	r := fixtureRun()
	for i := range r.Variants {
		for j := range r.Variants[i].Reps {
			rep := &r.Variants[i].Reps[j]
			rep.ServerCPU = nil
			for k := range rep.Groups {
				rep.Groups[k].CPU = nil
			}
		}
	}
	root, err := parseStrict(write(t, r))
	if err != nil {
		t.Fatalf("report is not well-formed: %v", err)
	}
	if root.byID("chart-cpu") != nil {
		t.Errorf("CPU chart drawn without CPU figures")
	}
	if root.byID("client-bound") != nil {
		t.Errorf("client-bound banner without CPU figures")
	}
	if got, want := len(root.find("svg")), len(wantCharts)-1; got != want {
		t.Errorf("<svg> elements = %d, want %d", got, want)
	}
}

func TestWriteInterrupted(t *testing.T) {
	r := fixtureRun()
	r.Interrupted = true
	r.Variants[2].Reps = r.Variants[2].Reps[:1]                                                                                                // one repetition: no CI, no test
	r.Variants = append(r.Variants, results.Variant{Name: "kae-soft-50", Series: "kae-soft-{ratio}", Sweep: map[string]string{"ratio": "50"}}) // none completed
	root, err := parseStrict(write(t, r))
	if err != nil {
		t.Fatalf("report is not well-formed: %v", err)
	}
	if root.byID("interrupted") == nil {
		t.Errorf("no interrupted banner")
	}
	if got, want := root.byID("completed").allText(), "no: interrupted"; got != want {
		t.Errorf("completed = %q, want %q", got, want)
	}
	for _, tt := range []struct{ variant, want string }{
		{"kae-soft-33", "kae-soft-33|1|180,000.0|31.6|—|n/a (n<2)|+49.38 %|—|—|—|no test: needs 2+ repetitions on each side|1.647|0|11,597.9"},
		{"kae-soft-50", "kae-soft-50|0|—|—|—|—|—|—|—|—|no test: needs 2+ repetitions on each side|—|0|—"},
	} {
		if got := tableRow(comparisonTable(t, root), tt.variant); got != tt.want {
			t.Errorf("comparison row %s:\n got %s\nwant %s", tt.variant, got, tt.want)
		}
	}
	for _, id := range wantCharts {
		if fig := root.byID(id); fig == nil || len(fig.find("svg")) != 1 {
			t.Errorf("chart %s missing from an interrupted run", id)
		}
	}
}

// TestWriteUnknownBaseline: a run whose baseline was not measured (an
// interrupt, or a randomized order, before its first window) renders
// every variant measured, and its comparison says nothing is compared.
func TestWriteUnknownBaseline(t *testing.T) {
	r := fixtureRun()
	r.Baseline = "nope"
	r.Incomplete = true
	var b bytes.Buffer
	if err := Write(&b, analysis.Analyze(r)); err != nil {
		t.Fatalf("Write with a baseline not measured: %v", err)
	}
	out := b.String()
	for _, want := range []string{"nope (not measured yet)", `Baseline &#34;nope&#34; not measured yet: no variant is compared with it`, "no comparison: baseline not measured"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(out, "nothing was measured") {
		t.Errorf("the report says nothing was measured")
	}
	for i := range r.Variants {
		if !strings.Contains(out, ">"+r.Variants[i].Name+"<") {
			t.Errorf("variant %s is not shown", r.Variants[i].Name)
		}
	}
}

func TestWriteNoVariants(t *testing.T) {
	r := &results.Run{Name: "empty", Started: t0}
	root, err := parseStrict(write(t, r))
	if err != nil {
		t.Fatalf("report is not well-formed: %v", err)
	}
	if got := root.allText(); !strings.Contains(got, "no variants") {
		t.Errorf("report of a run without variants does not say so")
	}
	if got := len(root.find("svg")); got != 0 {
		t.Errorf("<svg> elements = %d, want 0", got)
	}
}

// TestWriteNothingCompleted: variants without a completed repetition give
// notes instead of charts, and a well-formed page.
func TestWriteNothingCompleted(t *testing.T) {
	r := &results.Run{Name: "stopped", Started: t0, Interrupted: true,
		Variants: []results.Variant{{Name: "baseline"}, {Name: "kae"}}}
	root, err := parseStrict(write(t, r))
	if err != nil {
		t.Fatalf("report is not well-formed: %v", err)
	}
	if got := len(root.find("svg")); got != 0 {
		t.Errorf("<svg> elements = %d, want 0", got)
	}
	if got, want := root.byID("chart-rate").allText(), "no variant has a completed repetition"; !strings.Contains(got, want) {
		t.Errorf("rate chart text = %q, want it to contain %q", got, want)
	}
	if got, want := tableRow(comparisonTable(t, root), "kae"), "kae|0|—|—|—|—|—|—|—|no test: needs 2+ repetitions on each side|—|0"; got != want {
		t.Errorf("comparison row kae:\n got %s\nwant %s", got, want)
	}
}

// TestWriteEmptyHistograms: a chart without data is replaced by a note,
// and the rest of the page is still written.
func TestWriteEmptyHistograms(t *testing.T) {
	r := fixtureRun()
	for i := range r.Variants {
		for j := range r.Variants[i].Reps {
			rep := &r.Variants[i].Reps[j]
			for k := range rep.Groups {
				rep.Groups[k].Latency.Handshake = results.NewHistogram()
			}
			*rep = results.NewRep(rep.Index, rep.Groups)
		}
	}
	root, err := parseStrict(write(t, r))
	if err != nil {
		t.Fatalf("report is not well-formed: %v", err)
	}
	fig := root.byID("chart-cdf-handshake")
	if fig == nil || len(fig.find("svg")) != 0 || !strings.Contains(fig.allText(), "no TLS handshake latencies recorded") {
		t.Errorf("handshake CDF without data: want a note instead of a chart")
	}
	if fig := root.byID("chart-cdf-total"); fig == nil || len(fig.find("svg")) != 1 {
		t.Errorf("total CDF missing")
	}
}

// TestWriteEscapes: names from the scenario are text, in the HTML and in
// the SVG, never markup.
func TestWriteEscapes(t *testing.T) {
	r := fixtureRun()
	evil := `<script>alert("x")</script><img src=http://example.com/x.png>`
	r.Variants[1].Name = evil
	r.Name = evil
	doc := write(t, r)
	root, err := parseStrict(doc)
	if err != nil {
		t.Fatalf("report is not well-formed: %v", err)
	}
	if got := len(root.find("script")) + len(root.find("img")); got != 0 {
		t.Errorf("a variant name became %d elements", got)
	}
	if got := root.byID("scenario").allText(); got != evil {
		t.Errorf("scenario = %q, want %q", got, evil)
	}
	if !strings.Contains(root.byID("chart-rate").allText(), evil) {
		t.Errorf("rate chart does not show the variant name as text")
	}
}

func TestCDF(t *testing.T) {
	h := results.NewHistogram()
	if err := errors.Join(h.RecordValues(1000, 100), h.RecordValues(3000, 300)); err != nil { // 1 ms, 3 ms
		t.Fatal(err)
	}
	pts := cdf(h)
	if got, want := len(pts), 4; got != want {
		t.Fatalf("cdf points = %d (%v), want %d", got, pts, want)
	}
	tests := []struct {
		i        int
		xLo, xHi float64
		y        float64
	}{
		{0, 0.999, 1.000, 0},    // the 1 ms bucket starts with nothing below it
		{1, 1.000, 1.008, 0.25}, // and ends with a quarter of the values
		{2, 2.990, 3.000, 0.25},
		{3, 3.000, 3.016, 1},
	}
	for _, tt := range tests {
		p := pts[tt.i]
		if p.X < tt.xLo || p.X > tt.xHi || math.Abs(p.Y-tt.y) > 1e-12 {
			t.Errorf("point %d = (%g ms, %g), want x in [%g, %g] and y %g", tt.i, p.X, p.Y, tt.xLo, tt.xHi, tt.y)
		}
	}
	if got := cdf(results.NewHistogram()); got != nil {
		t.Errorf("cdf(empty) = %v, want nil", got)
	}
	if got := cdf(nil); got != nil {
		t.Errorf("cdf(nil) = %v, want nil", got)
	}
}

// TestSweepSeries: the sweep charts place the analysis's sweeps
// (RunSummary.Sweeps) as they are: the same variants, order, labels and
// numbers, so the text's sweep table and the page's chart agree.
func TestSweepSeries(t *testing.T) {
	mk := func(name, series string, sweep map[string]string) results.Variant {
		return results.Variant{Name: name, Series: series, Sweep: sweep, Reps: []results.Rep{{}}}
	}
	tests := []struct {
		name        string
		vs          []results.Variant
		wantKey     string
		wantNumeric bool
		want        string // "label@x" per point, in x order
	}{
		{"numeric, sorted by value", []results.Variant{
			mk("s-50", "s", map[string]string{"ratio": "50"}),
			mk("s-0", "s", map[string]string{"ratio": "0"}),
			mk("s-33", "s", map[string]string{"ratio": "33%"}),
		}, "ratio", true, "0@0 33%@33 50@50"},
		{"constant name beside a varying number: numeric", []results.Variant{
			mk("a", "s", map[string]string{"engine": "kae", "ratio": "33"}),
			mk("b", "s", map[string]string{"engine": "kae", "ratio": "10"}),
		}, "ratio", true, "10@10 33@33"},
		{"certificate names: categorical, plan order", []results.Variant{
			mk("rsa2048", "{cert}", map[string]string{"cert": "rsa2048"}),
			mk("rsa4096", "{cert}", map[string]string{"cert": "rsa4096"}),
			mk("ecdsa-p256", "{cert}", map[string]string{"cert": "ecdsa-p256"}),
		}, "cert", false, "rsa2048@0 rsa4096@1 ecdsa-p256@2"},
		{"two numeric keys varying: categorical", []results.Variant{
			mk("a", "s", map[string]string{"jobs": "8", "ratio": "0"}),
			mk("b", "s", map[string]string{"jobs": "8", "ratio": "50"}),
			mk("c", "s", map[string]string{"jobs": "16", "ratio": "0"}),
		}, "", false, "jobs=8 ratio=0@0 jobs=8 ratio=50@1 jobs=16 ratio=0@2"},
		{"one variant: no sweep", []results.Variant{mk("a", "s", map[string]string{"ratio": "1"})}, "-", false, ""},
		{"not swept: ignored", []results.Variant{mk("plain", "", nil)}, "-", false, ""},
	}
	for _, tt := range tests {
		m := analysis.Analyze(&results.Run{Name: "r", Variants: append([]results.Variant{{Name: "base", Reps: []results.Rep{{}}}}, tt.vs...)})
		ss := m.Summary.Sweeps
		if tt.wantKey == "-" {
			if len(ss) != 0 {
				t.Errorf("%s: %d series, want none", tt.name, len(ss))
			}
			continue
		}
		if len(ss) != 1 {
			t.Fatalf("%s: %d series, want 1", tt.name, len(ss))
		}
		var parts []string
		for j, i := range ss[0].Variants { // as sweepChart places them
			x := float64(j)
			if ss[0].Numeric {
				x = ss[0].Values[j]
			}
			parts = append(parts, cmp.Or(ss[0].Labels[j], m.Run.Variants[i].Name)+"@"+format.Float(x, -1))
		}
		key := ""
		if len(ss[0].Keys) == 1 {
			key = ss[0].Keys[0]
		}
		if got := strings.Join(parts, " "); key != tt.wantKey || ss[0].Numeric != tt.wantNumeric || got != tt.want {
			t.Errorf("%s: key %q numeric %v points %q, want key %q numeric %v points %q",
				tt.name, key, ss[0].Numeric, got, tt.wantKey, tt.wantNumeric, tt.want)
		}
	}
}

func TestWriteDeterministic(t *testing.T) {
	a, b := write(t, fixtureRun()), write(t, fixtureRun())
	if a != b {
		t.Errorf("two renderings of the same run differ")
	}
	if n := len(a); n > 1<<20 {
		t.Errorf("report is %d bytes, want under 1 MiB", n)
	}
}

// TestWriteConcurrent: reports can be written from several goroutines at
// once (gonum/plot's font cache is shared); run with -race.
func TestWriteConcurrent(t *testing.T) {
	want := write(t, fixtureRun())
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			var b bytes.Buffer
			err := Write(&b, analysis.Analyze(fixtureRun()))
			if err == nil && b.String() != want {
				err = errors.New("concurrent rendering differs from a sequential one")
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteError(t *testing.T) {
	err := Write(failWriter{}, analysis.Analyze(fixtureRun()))
	if err == nil || !strings.Contains(err.Error(), "disk full") || !strings.HasPrefix(err.Error(), "write html report") {
		t.Errorf("Write to a failing writer = %v, want a wrapped error", err)
	}
}

// markdownComparison returns the cells of WriteMarkdown's comparison
// table by variant name, unescaped, with format.Missing written as dash.
func markdownComparison(t *testing.T, r *results.Run) map[string][]string {
	t.Helper()
	var b bytes.Buffer
	if err := render.WriteMarkdown(&b, analysis.Analyze(r)); err != nil {
		t.Fatalf("WriteMarkdown: %v", err)
	}
	section := between(b.String(), "## Comparison\n", "\n\n#")
	unescape := strings.NewReplacer(`\`, "", "&lt;", "<")
	rows := map[string][]string{}
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| ") {
			continue
		}
		var cells []string
		for _, c := range strings.Split(strings.Trim(line, "|"), " | ") {
			c = unescape.Replace(strings.TrimSpace(c))
			if c == format.Missing {
				c = dash
			}
			cells = append(cells, c)
		}
		rows[cells[0]] = cells
	}
	return rows
}

// TestWriteMatchesMarkdown: the page's comparison table is the Markdown
// report's, cell for cell, its trailing text columns (the notes) on lines
// of their own under the row, labelled.
func TestWriteMatchesMarkdown(t *testing.T) {
	interrupted := fixtureRun()
	interrupted.Variants[2].Reps = interrupted.Variants[2].Reps[:1]
	interrupted.Variants = append(interrupted.Variants, results.Variant{Name: "kae-soft-50", Series: "kae-soft-{ratio}", Sweep: map[string]string{"ratio": "50"}})
	noBase := fixtureRun() // the baseline completed nothing: no Δ anywhere
	noBase.Variants[0].Reps = nil
	for name, r := range map[string]*results.Run{"fixture": fixtureRun(), "interrupted": interrupted, "baseline not measured": noBase} {
		md := markdownComparison(t, r)
		doc := write(t, r)
		root, err := parseStrict(doc)
		if err != nil {
			t.Fatalf("%s: report is not well-formed: %v", name, err)
		}
		head := md["variant"]
		for _, v := range r.Variants {
			h, m := strings.Split(tableRow(comparisonTable(t, root), v.Name), "|"), md[v.Name]
			if len(h) < 14 || len(m) < len(h) || strings.Join(h, "|") != strings.Join(m[:len(h)], "|") {
				t.Errorf("%s: %s: HTML cells %q, Markdown cells %q", name, v.Name, h, m)
				continue
			}
			for k := len(h); k < len(m); k++ {
				if line := head[k] + ": " + m[k]; m[k] != "" && m[k] != dash && !strings.Contains(root.allText(), line) {
					t.Errorf("%s: %s: the page lacks the line %q", name, v.Name, line)
				}
			}
		}
		if name == "baseline not measured" {
			if got := tableRow(comparisonTable(t, root), "kae-soft-0"); !strings.Contains(got, "|151,000.0|32.6|1,414.2|") || strings.Contains(got, "%") {
				t.Errorf("%s: kae-soft-0 row = %q, want its mean and no Δ", name, got)
			}
			if got := root.byID("chart-rate").find("svg")[0].allText(); !strings.Contains(got, "151,000.0") || strings.Contains(got, "%") {
				t.Errorf("%s: rate chart labels = %q, want no Δ without a measured baseline", name, got)
			}
		}
	}
}

// TestWriteFailed checks that a failed repetition is marked on the page:
// a banner naming the variant, the variant's comparison row and the
// repetition's row.
func TestWriteFailed(t *testing.T) {
	r := fixtureRun()
	r.Variants[1].Reps[1].Failed = &results.Failure{Code: results.FailNoSuccess, Unanswered: &results.Stages{Handshake: 4}}
	root, err := parseStrict(write(t, r))
	if err != nil {
		t.Fatalf("report is not well-formed: %v", err)
	}
	banner := root.byID("failed")
	if banner == nil {
		t.Fatal("no failed banner")
	}
	if got := banner.allText(); !strings.Contains(got, "FAILED: "+r.Variants[1].Name) {
		t.Errorf("failed banner = %q, want it to name %s", got, r.Variants[1].Name)
	}
	if got := tableRow(comparisonTable(t, root), r.Variants[1].Name+" FAILED (1 of 2 reps)"); got == "" {
		t.Errorf("comparison row of %s is not marked FAILED (1 of 2 reps)", r.Variants[1].Name)
	}
	if page := root.allText(); !strings.Contains(page, "FAILED: no request succeeded in the window") {
		t.Errorf("the repetition's failure is not on the page")
	}
	ok := fixtureRun()
	if root, err := parseStrict(write(t, ok)); err != nil || root.byID("failed") != nil {
		t.Errorf("a run without failures has a failed banner (err %v)", err)
	}
}

// TestWriteNotCounted checks the not-counted table: one row per
// repetition that counted anything outside its window or read TIME_WAIT,
// one figure per cell, and no table for a run without either.
func TestWriteNotCounted(t *testing.T) {
	r := fixtureRun()
	r.Variants[1].Reps[0].Total.Outside = results.Outside{
		Warmup: 612345, WarmupErrors: 12, Late: 16, Abandoned: 7,
		WarmupClasses: results.ErrorCounts{results.ErrConnect: 12, results.ErrStatus: 1400},
		AfterClasses:  results.ErrorCounts{results.ErrTimeout: 7, results.ErrStatus: 3},
		Unanswered:    results.Stages{Connect: 1, Handshake: 2, Response: 4},
	}
	tw := 28000
	r.Variants[2].Reps[1].TimeWait = &tw
	root, err := parseStrict(write(t, r))
	if err != nil {
		t.Fatalf("report is not well-formed: %v", err)
	}
	tbl := root.byID("not-counted-table")
	if tbl == nil {
		t.Fatal("no not-counted table")
	}
	var rows []string
	for _, tr := range tbl.find("tbody")[0].find("tr") {
		var cells []string
		for _, td := range tr.find("td") {
			cells = append(cells, strings.TrimSpace(td.allText()))
		}
		rows = append(rows, strings.Join(cells, "|"))
	}
	want := []string{
		"kae-soft-0|1|612,345|1,412 (connect 12, status 1,400)|16|10 (timeout 7, status 3)|7|1|2|4|—",
		"kae-soft-33|2|0|0|0|0|0|0|0|0|28,000",
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("not-counted rows:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	if root, err := parseStrict(write(t, fixtureRun())); err != nil || root.byID("not-counted-table") != nil || root.byID("not-counted") != nil {
		t.Errorf("a run that counted nothing outside its windows has a not-counted section (err %v)", err)
	}
}

// TestWriteNotMeasured: a variant the run gave up on is named with its
// reason in a banner, and the run no longer reads as plainly completed.
func TestWriteNotMeasured(t *testing.T) {
	r := fixtureRun()
	reason := `server start failed: nginx: [emerg] cannot load certificate "/etc/nginx/missing.crt"`
	r.NotMeasured = []results.NotMeasured{{Variant: "nocert", Reason: reason}}
	root, err := parseStrict(write(t, r))
	if err != nil {
		t.Fatalf("report is not well-formed: %v", err)
	}
	banner := root.byID("not-measured")
	if banner == nil {
		t.Fatal("no not-measured banner")
	}
	if got, want := banner.allText(), "variant nocert: "+reason; !strings.Contains(got, want) {
		t.Errorf("banner = %q, want it to contain %q", got, want)
	}
	if got, want := root.byID("completed").allText(), "yes, but not every variant was measured"; got != want {
		t.Errorf("completed = %q, want %q", got, want)
	}
	// The baseline may be the variant that did not start.
	base := fixtureRun()
	base.Baseline, base.NotMeasured = "nocert", r.NotMeasured
	if root, err := parseStrict(write(t, base)); err != nil || root.byID("not-measured") == nil {
		t.Errorf("a run whose baseline was not measured: banner missing (err %v)", err)
	}
	// A run that measured nothing still says which variant and why.
	none := &results.Run{Name: "none", Started: t0, NotMeasured: r.NotMeasured}
	if root, err := parseStrict(write(t, none)); err != nil || root.byID("not-measured") == nil {
		t.Errorf("a run with no variant measured: banner missing (err %v)", err)
	}
	if root, err := parseStrict(write(t, fixtureRun())); err != nil || root.byID("not-measured") != nil {
		t.Errorf("a run that measured every variant has a not-measured banner (err %v)", err)
	}
}

// TestWriteOtherLoad: a group whose CPU a busy loop at nice 19 kept full
// while kaeload itself used 10 % of it gets no client-bound banner but a
// warning naming the loop, once; the same CPUs busy with kaeload's
// own workers are client-bound.
func TestWriteOtherLoad(t *testing.T) {
	r := fixtureRun()
	for i := range r.Variants {
		for j := range r.Variants[i].Reps {
			for k := range r.Variants[i].Reps[j].Groups {
				g := &r.Variants[i].Reps[j].Groups[k]
				g.Process = &results.CPUUsage{Seconds: 0.9 * g.CPU.Seconds, Busy: 0.9 * g.CPU.Busy}
			}
		}
	}
	g := &r.Variants[2].Reps[1].Groups[1] // 95 % busy
	g.Process = &results.CPUUsage{Seconds: 0.1 * g.CPU.Seconds, Busy: 0.1 * g.CPU.Busy}
	g.Others = []results.ProcessCPU{{PID: 4242, Comm: "sh", Nice: 19, Seconds: 2.5, CPUs: "4-7"}}
	page := write(t, r)
	root, err := parseStrict(page)
	if err != nil {
		t.Fatalf("report is not well-formed: %v", err)
	}
	if b := root.byID("client-bound"); b != nil {
		t.Errorf("client-bound banner while kaeload used 10 %% of the CPUs: %q", b.allText())
	}
	// The warnings banner names it, once on the page (it had a box of
	// its own too).
	w := "variant kae-soft-33, repetition 2: OTHER LOAD: other processes took 86 % of group 1 (CPUs 4-7)"
	if b := root.byID("warnings"); b == nil || !strings.Contains(b.allText(), w) || !strings.Contains(b.allText(), "sh (pid 4242, nice 19, CPUs 4-7)") {
		t.Errorf("the warnings banner does not name the loop: %v", b)
	}
	// Once in the banners, once on its repetition's row.
	if n := strings.Count(page, "other processes took 86 % of group 1 (CPUs 4-7)"); n != 2 {
		t.Errorf("the page names the loop's share %d times, want twice", n)
	}
	g.Process = &results.CPUUsage{Seconds: g.CPU.Seconds, Busy: g.CPU.Busy}
	root, err = parseStrict(write(t, r))
	if err != nil {
		t.Fatalf("report is not well-formed: %v", err)
	}
	if b := root.byID("client-bound"); b == nil || !strings.Contains(b.allText(), "kaeload used 95 % of group 1 (CPUs 4-7)") {
		t.Errorf("kaeload using 95 %% of its CPUs: client-bound banner %v", b)
	}
}
