package scenarios

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

const searchYAML = `name: soft
target: {url: https://127.0.0.1:8443/}
load: {duration: 1s, warmup: 500ms}
cooldown: 500ms
server: {start: nginx}
variants:
  - name: baseline
  - name: kae-soft-{ratio}
    env: {KAE_GO_SOFT_RATIO: "{ratio}"}
    search:
      ratio: {from: 0, to: 100, step: 1}
      maximize: req/s per server CPU-second
      budget: 20s
  - name: kae
    env: {OPENSSL_CONF: /etc/kae.cnf}
`

// TestCompileSearch: the searched entry expands to one variant per grid
// value, resolved like a sweep's, kept out of Steps; a duration budget is
// turned into windows of warm-up + duration + cooldown.
func TestCompileSearch(t *testing.T) {
	sc, err := Parse("soft.yaml", []byte(searchYAML))
	if err != nil {
		t.Fatal(err)
	}
	p, err := sc.Compile(smallHost)
	if err != nil {
		t.Fatal(err)
	}
	s := p.Search
	if s == nil {
		t.Fatal("no Plan.Search")
	}
	if got, want := *s, (plans.Search{Series: "kae-soft-{ratio}", Key: "ratio", First: 1, Points: 101, Maximize: results.ObjectiveRatePerCPU, Budget: 10, BudgetTime: 20 * time.Second}); got != want {
		t.Errorf("Search = %+v, want %+v", got, want)
	}
	if got, want := len(p.Variants), 103; got != want {
		t.Fatalf("%d variants, want %d", got, want)
	}
	if v := p.Variants[s.First+37]; v.Name != "kae-soft-37" || v.Env["KAE_GO_SOFT_RATIO"] != "37" || s.Value(p, 37) != "37" {
		t.Errorf("grid point 37 is %+v", v)
	}
	if p.Baseline != "baseline" {
		t.Errorf("baseline %q, want baseline", p.Baseline)
	}
	var names []string
	for _, st := range p.Steps() {
		names = append(names, p.Variants[st.Variant].Name)
	}
	slices.Sort(names)
	if got, want := strings.Join(names, " "), "baseline kae"; got != want {
		t.Errorf("steps run %q, want %q (the searched values are the search's)", got, want)
	}
	if got, want := s.WorstCase(p), 20*time.Second; got != want {
		t.Errorf("worst case %s, want %s", got, want)
	}
	var b bytes.Buffer
	Describe(&b, p)
	for _, want := range []string{
		"kae-soft-0  [search kae-soft-{ratio}: ratio over 101 values 0 … 100; shown for ratio=0]",
		"search    kae-soft-{ratio}: ratio over 101 values (0 … 100), maximize req/s per server CPU-second, budget 20s = 10 windows of 2s (the full grid: 101 windows)",
		"worst case: 20s of windows, plus server restarts",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("Describe lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "kae-soft-1 ") {
		t.Errorf("Describe lists every searched value:\n%s", b.String())
	}
}

// TestCompileSearchAlone: a scenario whose only variant entry is a search
// has no fixed steps and no baseline of its own (the first value measured).
func TestCompileSearchAlone(t *testing.T) {
	sc, err := Parse("soft.yaml", []byte(`target: {url: https://127.0.0.1:8443/}
server: {start: nginx}
variants:
  - name: soft-{ratio}
    search: {ratio: [10, 20, 30]}
`))
	if err != nil {
		t.Fatal(err)
	}
	p, err := sc.Compile(smallHost)
	if err != nil {
		t.Fatal(err)
	}
	if p.Search == nil || p.Search.Budget != DefaultSearchBudget || p.Search.Maximize != results.ObjectiveRate || p.Search.Points != 3 {
		t.Fatalf("Search = %+v", p.Search)
	}
	if n := len(p.Steps()); n != 0 || p.Baseline != "" {
		t.Errorf("%d steps, baseline %q; want none and \"\"", n, p.Baseline)
	}
	if err := p.Check(); err != nil {
		t.Errorf("Check: %v", err)
	}
}

// TestSetSearch: --set reaches a search's budget, objective and grid.
func TestSetSearch(t *testing.T) {
	sc, err := Parse("soft.yaml", []byte(searchYAML))
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range [][2]string{
		{"variants[1].search.budget", "7"},
		{"variants[1].search.maximize", "-p99 handshake"},
		{"variants[1].search.ratio.step", "10"},
	} {
		if err := sc.Set(kv[0], kv[1]); err != nil {
			t.Fatalf("Set %s: %v", kv[0], err)
		}
	}
	if err := sc.Set("variants[1].search.other", "[1, 2]"); err == nil || !strings.Contains(err.Error(), "a search has one variable") {
		t.Errorf("Set of a second variable: %v, want an error", err)
	}
	p, err := sc.Compile(smallHost)
	if err != nil {
		t.Fatal(err)
	}
	if s := p.Search; s.Budget != 7 || s.BudgetTime != 0 || s.Maximize != results.ObjectiveP99 || s.Points != 11 {
		t.Errorf("Search = %+v, want budget 7, -p99 handshake, 11 points", *s)
	}
}

// TestCheckSearch: Check rejects a Search that names variants the plan
// does not have, or has no budget.
func TestCheckSearch(t *testing.T) {
	sc, err := Parse("soft.yaml", []byte(searchYAML))
	if err != nil {
		t.Fatal(err)
	}
	p, err := sc.Compile(smallHost)
	if err != nil {
		t.Fatal(err)
	}
	bad := *p
	s := *p.Search
	s.Points, s.Budget = 200, 0
	bad.Search = &s
	err = bad.Check()
	if err == nil || !strings.Contains(err.Error(), "search: variants 1 to 200, but the plan has 103") {
		t.Errorf("Check = %v, want the search's variants out of range", err)
	}
	s.Points = 101
	if err := bad.Check(); err == nil || !strings.Contains(err.Error(), "search.budget: 0, want 1 to 10000 windows") {
		t.Errorf("Check = %v, want the budget refused", err)
	}
}

// TestSearchNameTemplateOwn: an entry named like the searched one (told apart only by its own vars)
// is refused at its name: a record would take its windows for the search's.
func TestSearchNameTemplateOwn(t *testing.T) {
	src := strings.Replace(searchYAML, "  - name: kae\n", "  - name: kae-soft-{ratio}\n    vars: {x: fixed}\n    sweep: {ratio: [3]}\n", 1)
	sc, err := Parse("soft.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, err = sc.Compile(smallHost)
	if err == nil || !strings.Contains(err.Error(), `variants[2].name: "kae-soft-{ratio}" is the name of the searched entry variants[1] too`) {
		t.Errorf("Compile = %v, want the second kae-soft-{ratio} refused", err)
	}
}
