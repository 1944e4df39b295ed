package htmlreport

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/results/analysis"
)

// chromiumPath is where Debian's chromium package installs the browser.
const chromiumPath = "/usr/bin/chromium"

// chromium returns the browser to test with, or skips the test without
// one; under CI=true a missing browser is a failure.
func chromium(t *testing.T) string {
	t.Helper()
	if raceEnabled {
		// Rendering is raced by TestWriteConcurrent; the browser adds
		// nothing for the race detector, and takes half a minute under it.
		t.Skip("a browser on a written page: runs without -race")
	}
	if _, err := os.Stat(chromiumPath); err == nil {
		return chromiumPath
	}
	testkit.Missing(t, "chromium not installed at %s: skipping the browser test (apt-get install -y chromium to run it)", chromiumPath)
	return ""
}

// runChromium runs headless Chromium on the file page with the given extra
// flags, in its own profile, with every host name unresolvable so the page
// can reach nothing even if it tried, and returns its stdout.
func runChromium(t *testing.T, bin, page string, extra ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage",
		"--user-data-dir=" + t.TempDir(),
		"--host-resolver-rules=MAP * ~NOTFOUND",
	}
	args = append(args, extra...)
	args = append(args, "file://"+page)
	cmd := exec.CommandContext(ctx, bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %s: %v\nstderr:\n%s", strings.Join(extra, " "), err, tail(stderr.String(), 3000))
	}
	return stdout.Bytes()
}

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// pageRequests returns the URLs of the network requests the page made
// according to a Chromium net log: URL_REQUEST_START_JOB events whose
// initiator is the page's origin ("null" for a file:// page). The
// browser's own background requests carry no page initiator.
func pageRequests(t *testing.T, netlog string) []string {
	t.Helper()
	data, err := os.ReadFile(netlog)
	if err != nil {
		t.Fatalf("read net log: %v", err)
	}
	var log struct {
		Constants struct {
			LogEventTypes map[string]int `json:"logEventTypes"`
		} `json:"constants"`
		Events []struct {
			Type   int `json:"type"`
			Params struct {
				URL       string `json:"url"`
				Initiator string `json:"initiator"`
			} `json:"params"`
		} `json:"events"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("decode net log %s: %v", netlog, err)
	}
	start, ok := log.Constants.LogEventTypes["URL_REQUEST_START_JOB"]
	if !ok {
		t.Fatalf("net log has no URL_REQUEST_START_JOB event type")
	}
	var urls []string
	for _, e := range log.Events {
		if e.Type == start && (e.Params.Initiator == "null" || strings.HasPrefix(e.Params.Initiator, "file:")) {
			urls = append(urls, e.Params.URL)
		}
	}
	return urls
}

var (
	svgOpen     = regexp.MustCompile(`<svg\b`)
	pathWithD   = regexp.MustCompile(`<path\b[^>]*\sd="[^"]*[0-9][^"]*"`)
	figureBlock = regexp.MustCompile(`(?s)<figure id="([^"]+)">(.*?)</figure>`)
)

// TestChromium renders the report in a real browser: the parsed DOM holds
// every chart's SVG with drawn paths, the page makes no network request
// (checked in Chromium's net log, with a control page proving the check
// sees requests), and a screenshot is kept for people to look at.
func TestChromium(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	var b bytes.Buffer
	if err := Write(&b, analysis.Analyze(fixtureRun())); err != nil {
		t.Fatalf("Write: %v", err)
	}
	if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	keep(t, page)

	t.Run("dom", func(t *testing.T) {
		t.Parallel()
		netlog := filepath.Join(t.TempDir(), "net.json")
		dom := string(runChromium(t, bin, page, "--log-net-log="+netlog, "--dump-dom"))
		if !strings.Contains(dom, "kaeload report: nginx-kae-test") || !strings.Contains(dom, "CLIENT-BOUND") {
			t.Fatalf("dumped DOM lacks the report's heading or banner:\n%s", tail(dom, 2000))
		}
		figs := map[string]string{}
		for _, m := range figureBlock.FindAllStringSubmatch(dom, -1) {
			figs[m[1]] = m[2]
		}
		for _, id := range wantCharts {
			f, ok := figs[id]
			if !ok {
				t.Errorf("DOM has no figure %s", id)
				continue
			}
			if got := len(svgOpen.FindAllString(f, -1)); got != 1 {
				t.Errorf("DOM figure %s: %d <svg> elements, want 1", id, got)
			}
			if got := len(pathWithD.FindAllString(f, -1)); got < 5 {
				t.Errorf("DOM figure %s: %d <path> elements with data, want at least 5", id, got)
			}
		}
		if got := pageRequests(t, netlog); len(got) > 0 {
			t.Errorf("the report made network requests: %q", got)
		}
	})

	t.Run("netlog-control", func(t *testing.T) {
		t.Parallel()
		ctl := filepath.Join(t.TempDir(), "control.html")
		body := `<!DOCTYPE html><html><body><img src="http://example.com/x.png"><p>control</p></body></html>`
		if err := os.WriteFile(ctl, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		netlog := filepath.Join(t.TempDir(), "net.json")
		runChromium(t, bin, ctl, "--log-net-log="+netlog, "--dump-dom")
		if got := pageRequests(t, netlog); len(got) != 1 || got[0] != "http://example.com/x.png" {
			t.Errorf("control page requests seen in the net log = %q, want [http://example.com/x.png]", got)
		}
	})

	t.Run("screenshot", func(t *testing.T) {
		t.Parallel()
		shot := filepath.Join(t.TempDir(), "report.png")
		runChromium(t, bin, page, "--screenshot="+shot, "--window-size=1280,2400", "--hide-scrollbars")
		f, err := os.Open(shot)
		if err != nil {
			t.Fatalf("no screenshot: %v", err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("decode screenshot: %v", err)
		}
		if got, want := img.Bounds().Size(), image.Pt(1280, 2400); got != want {
			t.Errorf("screenshot size = %v, want %v", got, want)
		}
		// The top of the page holds the comparison swatches and the rate
		// chart: the baseline's palette colour must cover a real area.
		want := palette[0]
		n := 0
		for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
			for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
				r, g, b, _ := img.At(x, y).RGBA()
				if near(r, want.R) && near(g, want.G) && near(b, want.B) {
					n++
				}
			}
		}
		if n < 2000 {
			t.Errorf("screenshot has %d pixels of the first variant's colour %s, want at least 2000 (charts not drawn?)", n, cssColor(want))
		}
		keep(t, shot)
	})
}

// near reports whether a 16-bit colour channel is within 6 of an 8-bit one.
func near(c uint32, want uint8) bool {
	d := int(c>>8) - int(want)
	return d >= -6 && d <= 6
}

// keep copies the file to $KAELOAD_ARTIFACTS (as htmlreport-NAME) when
// set, else logs where it is.
func keep(t *testing.T, path string) {
	t.Helper()
	dir := os.Getenv("KAELOAD_ARTIFACTS")
	if dir == "" {
		t.Logf("artifact: %s (removed after the test; set KAELOAD_ARTIFACTS to keep it)", path)
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("artifacts dir: %v", err)
	}
	dst := filepath.Join(dir, "htmlreport-"+filepath.Base(path))
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatalf("keep artifact: %v", err)
	}
	t.Logf("artifact: %s", dst)
}

// layoutProbe is appended to a copy of a report (never to the report
// itself, which has no script) to measure its layout in the browser. It
// keeps a vertical scrollbar on, as a long page in a desktop browser has
// one, and writes what it measured as JSON into a hidden
// <pre id="layout-probe">, which --dump-dom then carries out.
const layoutProbe = `<style>html { overflow-y: scroll; } #layout-probe { display: none; }</style>
<script>
(function () {
  var root = document.documentElement;
  var out = {window: window.innerWidth, viewport: root.clientWidth, scrollWidth: root.scrollWidth,
    bottom: document.body.getBoundingClientRect().bottom, windowHeight: window.innerHeight, tables: [], tall: []};
  var tables = document.querySelectorAll("table");
  for (var i = 0; i < tables.length; i++) {
    var t = tables[i], box = t.parentElement, tr = t.getBoundingClientRect(), br = box.getBoundingClientRect();
    var sec = box; // the nearest heading with an id before the table's box
    while (sec && !(/^H[23]$/.test(sec.tagName) && sec.id)) sec = sec.previousElementSibling;
    out.tables.push({index: i, id: t.id || "", section: sec ? sec.id : "", right: tr.right, width: tr.width,
      boxRight: br.right, boxClientWidth: box.clientWidth, boxScrollWidth: box.scrollWidth,
      boxOverflowX: getComputedStyle(box).overflowX});
    var cells = t.querySelectorAll("td, th");
    for (var j = 0; j < cells.length; j++) {
      var c = cells[j], st = getComputedStyle(c);
      if (c.classList.contains("msg") || c.colSpan > 1) continue; // messages and spanning notes may wrap
      // Headers and words (a verdict) may take a third line; figures and names two at most.
      var most = (c.tagName == "TH" || c.classList.contains("words")) ? 3 : 2;
      // The text's own height: a cell is as tall as its row, whatever it holds.
      var rg = document.createRange();
      rg.selectNodeContents(c);
      var lines = rg.getBoundingClientRect().height / parseFloat(st.lineHeight);
      if (lines > most + 0.5) out.tall.push({table: i, text: c.textContent.slice(0, 80), lines: lines, most: most});
    }
  }
  out.charts = [];
  var svgs = document.querySelectorAll(".tl-chart svg");
  for (var k = 0; k < svgs.length; k++) {
    var sr = svgs[k].getBoundingClientRect(), det = svgs[k].closest("details");
    out.charts.push({rep: det ? det.id : "", kind: svgs[k].parentElement.className, open: !!(det && det.open),
      left: sr.left, top: sr.top, right: sr.right, bottom: sr.bottom, width: sr.width, height: sr.height});
  }
  out.stalls = [];
  var stalls = document.querySelectorAll("details[open] .tl-rate rect.stall");
  for (var m = 0; m < stalls.length; m++) {
    var r = stalls[m].getBoundingClientRect();
    out.stalls.push({left: r.left, top: r.top, right: r.right, bottom: r.bottom});
  }
  var pre = document.createElement("pre");
  pre.id = "layout-probe";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>`

var probeOut = regexp.MustCompile(`(?s)<pre id="layout-probe">(.*?)</pre>`)

// layout is what layoutProbe measured, in CSS px.
type layout struct {
	// Window is the browser window's width; Viewport the page's, without
	// the scrollbar.
	Window, Viewport float64
	// ScrollWidth is the page's width, Bottom where its content ends.
	ScrollWidth, Bottom float64
	// WindowHeight is the window's height: what the screenshot shows.
	WindowHeight float64
	Tables       []struct {
		Index int
		// ID is the table's id; Section the id of the heading above it.
		ID, Section string
		// Right and Width are the table's right edge and width.
		Right, Width float64
		// BoxRight is the right edge of the table's parent, the box it
		// must fit or scroll in; BoxClientWidth and BoxScrollWidth its
		// inner and scrolled widths; BoxOverflowX its CSS overflow-x.
		BoxRight, BoxClientWidth, BoxScrollWidth float64
		BoxOverflowX                             string
	}
	// Charts are the timeline's charts: the repetition's block, the
	// chart's kind ("tl-chart tl-rate"), whether the block is open, and
	// where the chart is (all 0 in a closed block).
	Charts []struct {
		Rep, Kind                               string
		Open                                    bool
		Left, Top, Right, Bottom, Width, Height float64
	}
	// Stalls are the outlines of the stalls in the open rate charts.
	Stalls []struct{ Left, Top, Right, Bottom float64 }
	// Tall are the cells whose text wraps to more lines than Most.
	Tall []struct {
		Table int
		Text  string
		Lines float64
		Most  int
	}
}

// TestChromiumLayout1280 opens a report of nine variants × five
// repetitions with a categorical and a numeric sweep in a 1280 px wide
// browser window, with its vertical scrollbar, and measures the layout:
// the page does not scroll sideways, every table fits its column or
// scrolls inside its own box, the comparison and repetition tables fit
// outright, and no table cell wraps to more than two lines (three for
// headers and verdicts; error messages aside). Its baseline has a
// timeline with an accept-queue overflow and a stall: the screenshot shows
// the overflow's marks and the stall's short bars in the open rate chart.
// One Chromium run measures and takes the screenshot kept for people to
// look at.
func TestChromiumLayout1280(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	var b bytes.Buffer
	if err := Write(&b, analysis.Analyze(wideRun())); err != nil {
		t.Fatalf("Write: %v", err)
	}
	page := filepath.Join(dir, "report-1280.html")
	doc := strings.Replace(b.String(), "</body>", layoutProbe+"\n</body>", 1)
	if err := os.WriteFile(page, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	keep(t, page)
	shot := filepath.Join(dir, "report-1280.png")
	// Tall enough for the whole page, so the screenshot shows every table.
	dom := string(runChromium(t, bin, page, "--window-size=1280,16000", "--screenshot="+shot, "--dump-dom"))
	if _, err := os.Stat(shot); err != nil {
		t.Errorf("no screenshot: %v", err)
	} else {
		keep(t, shot)
	}
	m := probeOut.FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("dumped DOM has no layout probe output (did the script run?):\n%s", tail(dom, 2000))
	}
	var got layout
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &got); err != nil {
		t.Fatalf("decode layout probe: %v\n%s", err, m[1])
	}
	t.Logf("window %v × %v px, page %v px wide, content ends at %.0f px", got.Window, got.WindowHeight, got.ScrollWidth, got.Bottom)
	if got.Window != 1280 {
		t.Fatalf("window is %v px wide, want 1280 (--window-size not honoured?)", got.Window)
	}
	if got.Viewport >= got.Window {
		t.Errorf("viewport %v px in a %v px window: the vertical scrollbar the probe turns on is missing", got.Viewport, got.Window)
	}
	if got.ScrollWidth > got.Viewport {
		t.Errorf("page is %v px wide in a %v px viewport: something runs past the right edge", got.ScrollWidth, got.Viewport)
	}
	if got.Bottom > got.WindowHeight {
		t.Errorf("page is %.0f px tall: the screenshot (%v px) misses its end", got.Bottom, got.WindowHeight)
	}
	if len(got.Tables) < 8 {
		t.Fatalf("probe saw %d tables, want the report's 8 or more", len(got.Tables))
	}
	fitOutright := map[string]bool{"comparison-table": false, "reps-table": false, "not-counted-table": false}
	for _, tb := range got.Tables {
		name := fmt.Sprintf("table %d %q (in #%s)", tb.Index, tb.ID, tb.Section)
		t.Logf("%s: %.0f px wide in a %.0f px box", name, tb.Width, tb.BoxClientWidth)
		if tb.BoxRight > got.Viewport {
			t.Errorf("%s: its box ends at %.0f px, past the %v px viewport", name, tb.BoxRight, got.Viewport)
		}
		fits := tb.Right <= tb.BoxRight+0.5
		scrolls := tb.BoxOverflowX == "auto" || tb.BoxOverflowX == "scroll"
		if !fits && !scrolls {
			t.Errorf("%s: %.0f px wide, ends at %.0f px past its box (%.0f px) and the box does not scroll (overflow-x %s)",
				name, tb.Width, tb.Right, tb.BoxRight, tb.BoxOverflowX)
		}
		if _, ok := fitOutright[tb.ID]; ok {
			fitOutright[tb.ID] = true
			if tb.BoxScrollWidth > tb.BoxClientWidth {
				t.Errorf("%s: %v px of table in a %v px box: it must fit at 1280 px without scrolling", name, tb.BoxScrollWidth, tb.BoxClientWidth)
			}
		}
	}
	for id, seen := range fitOutright {
		if !seen {
			t.Errorf("no table #%s found", id)
		}
	}
	for _, c := range got.Tall {
		t.Errorf("table %d: cell %q wraps to %.1f lines, want at most %d", c.Table, c.Text, c.Lines, c.Most)
	}

	// The timeline: the baseline's five repetitions, three charts each;
	// the first repetition's open, inside the viewport, drawn.
	if got, want := len(got.Charts), 5*3; got != want {
		t.Fatalf("probe saw %d timeline charts, want %d", got, want)
	}
	shown := 0
	var rateBox image.Rectangle
	for _, c := range got.Charts {
		if !c.Open {
			continue
		}
		shown++
		t.Logf("timeline %s %q: %.0f × %.0f px at (%.0f, %.0f)", c.Rep, c.Kind, c.Width, c.Height, c.Left, c.Top)
		if c.Width < 0.9*got.Viewport-100 || c.Height < 100 {
			t.Errorf("timeline %s %q is %.0f × %.0f px: not drawn at the column's width", c.Rep, c.Kind, c.Width, c.Height)
		}
		if c.Right > got.Viewport || c.Left < 0 {
			t.Errorf("timeline %s %q spans %.0f-%.0f px, past the %v px viewport", c.Rep, c.Kind, c.Left, c.Right, got.Viewport)
		}
		if c.Kind == "tl-chart tl-rate" {
			rateBox = image.Rect(int(c.Left), int(c.Top), int(c.Right), int(c.Bottom))
		}
	}
	if shown != 3 || rateBox.Empty() {
		t.Fatalf("%d timeline charts open, want the first repetition's 3 with its rate chart", shown)
	}
	// In the screenshot, the open rate chart shows the groups' bars, the
	// warm-up's band and the marks of the kernel events (the overflows at
	// 3 s and 4 s that the analysis finds in wideTimeline's counters).
	img := decodePNG(t, shot)
	for _, want := range []struct {
		what string
		col  color.RGBA
		min  int
	}{
		{"group 1's bars", groupPalette[1], 1500},
		{"group 9's bars", groupPalette[9], 1500},
		{"the warm-up's band", colorWarmup, 1500},
		{"the kernel events' marks", colorEvent, 40},
	} {
		if n := countColour(img, rateBox, want.col); n < want.min {
			t.Errorf("screenshot: %d pixels of %s (%s) in the rate chart at %v, want at least %d", n, want.what, cssColor(want.col), rateBox, want.min)
		}
	}
	// The stall at 12 s: outlined in the open rate chart, and in the
	// screenshot its bars are short, under a third of the groups' colour
	// of the same width of chart just after it.
	if len(got.Stalls) != 1 {
		t.Fatalf("%d stalls outlined in the open rate chart, want the one at 12 s", len(got.Stalls))
	}
	st := got.Stalls[0]
	in := image.Rect(int(st.Left)+2, int(st.Top)+2, int(st.Right)-2, int(st.Bottom)-2)
	after := in.Add(image.Pt(in.Dx()+4, 0))
	if in.Dx() < 4 || !after.In(rateBox) {
		t.Fatalf("stall outline %v, the chart beside it %v: not inside the rate chart %v", in, after, rateBox)
	}
	bars := func(r image.Rectangle) int {
		n := 0
		for g := range 11 {
			n += countColour(img, r, groupPalette[g])
		}
		return n
	}
	stalled, beside := bars(in), bars(after)
	t.Logf("screenshot: %d pixels of the groups' bars inside the stall at %v, %d beside it", stalled, in, beside)
	if beside == 0 || 3*stalled >= beside {
		t.Errorf("screenshot: %d pixels of the groups' bars inside the stall, %d in as wide a stretch after it; want a stall under a third of its neighbour", stalled, beside)
	}
}

// decodePNG reads the PNG file path.
func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("decode screenshot: %v", err)
	}
	return img
}

// countColour counts the pixels of img within r whose colour is near col.
func countColour(img image.Image, r image.Rectangle, col color.RGBA) int {
	n := 0
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if near(cr, col.R) && near(cg, col.G) && near(cb, col.B) {
				n++
			}
		}
	}
	return n
}
