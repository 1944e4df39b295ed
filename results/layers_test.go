package results

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Module is the import path of the module this test checks.
const Module = "github.com/kaeload/kaeload"

// layerRules are the imports of ours each named package may have (issue
// 20 item 2). The chain runs one way: the statistics import nothing of
// ours; the run record only the statistics (Run.Calibration); format
// (numbers and words) the record and the statistics; the notes (codes
// and their messages) those; the timeline's diagnosis those; the analysis
// those and the diagnosis; the catalogue of measures the analysis; the
// table model the analysis and the catalogue; the renderers (render, htmlreport) the
// table model and below, never each other; the run directory only the
// record, its analysis and renderers injected. The measuring packages
// import only the record; search imports only the statistics; the
// compiled Plan imports the record for its vocabulary, never the YAML
// compiler; the controller (runner) may use the analysis's verdict on a
// window (CheckRep) and the formatters for its live line, never a
// renderer or the run directory. Paths are relative to the module.
var layerRules = map[string][]string{
	"results/stats":            {},
	"results":                  {"results/stats"},
	"results/format":           {"results", "results/stats"},
	"results/softratio":        {},
	"results/notes":            {"results", "results/stats", "results/format", "results/softratio"},
	"results/diagnosis":        {"results", "results/stats", "results/format", "results/notes", "results/softratio"},
	"results/analysis":         {"results", "results/stats", "results/format", "results/notes", "results/diagnosis", "results/softratio"},
	"results/measure":          {"results", "results/stats", "results/format", "results/notes", "results/diagnosis", "results/analysis", "results/softratio"},
	"results/tables":           {"results", "results/stats", "results/format", "results/notes", "results/diagnosis", "results/analysis", "results/measure", "results/softratio"},
	"results/render":           {"results", "results/stats", "results/format", "results/notes", "results/diagnosis", "results/analysis", "results/measure", "results/tables", "results/softratio"},
	"results/htmlreport":       {"results", "results/stats", "results/format", "results/notes", "results/diagnosis", "results/analysis", "results/measure", "results/tables", "results/softratio"},
	"results/rundir":           {"results"},
	"results/internal/fixture": {"results"},
	"engine":                   {"results", "scenarios/plans", "pacer", "ports"},
	"cpustat":                  {"results", "pinning"},
	"speed":                    {"results"},
	"serverprof":               {"results"},
	"search":                   {"results/stats"},
	"scenarios/plans":          {"results", "internal/numfmt"},
	"internal/numfmt":          {},
	"metrics":                  {"results", "results/analysis", "results/diagnosis", "results/measure", "results/rundir", "runner", "scenarios/plans"},
	"runner":                   {"capacity", "cpustat", "engine", "pinning", "ports", "remote", "results", "results/analysis", "results/format", "results/notes", "results/stats", "runner/internal/wire", "scenarios/plans", "search", "server", "serverprof", "speed", "target"},
	"runner/internal/wire":     {"results", "scenarios/plans"},
}

// moduleImports reads, with go/build, the non-test imports of ours of
// every package of the module rooted at root, by path relative to it.
func moduleImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	graph := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "vendor") {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(path, 0)
		if err != nil {
			if _, ok := err.(*build.NoGoError); ok {
				return nil
			}
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		var ours []string
		for _, imp := range pkg.Imports {
			if imp == Module {
				ours = append(ours, ".")
			} else if after, ok := strings.CutPrefix(imp, Module+"/"); ok {
				ours = append(ours, after)
			}
		}
		graph[rel] = ours
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return graph
}

// layerViolations returns, one line each, every cycle of graph and every
// import a package of rules makes beyond what its rule allows; and every
// package under results/ that imports one of ours outside results/.
func layerViolations(graph map[string][]string, rules map[string][]string) []string {
	var bad []string
	for _, pkg := range slices.Sorted(func(yield func(string) bool) {
		for p := range graph {
			if !yield(p) {
				return
			}
		}
	}) {
		for _, imp := range graph[pkg] {
			if allowed, ok := rules[pkg]; ok && !slices.Contains(allowed, imp) {
				bad = append(bad, pkg+" imports "+imp+": an arrow back up the chain (allowed: "+strings.Join(allowed, ", ")+")")
			}
			if (pkg == "results" || strings.HasPrefix(pkg, "results/")) && imp != "results" && !strings.HasPrefix(imp, "results/") {
				bad = append(bad, pkg+" imports "+imp+": results/ sits downstream of every other package")
			}
		}
	}
	// Cycles: depth-first search, gray = on the current path.
	const white, gray, black = 0, 1, 2
	color := map[string]int{}
	var path []string
	var visit func(p string)
	visit = func(p string) {
		color[p] = gray
		path = append(path, p)
		for _, q := range graph[p] {
			switch color[q] {
			case gray:
				i := slices.Index(path, q)
				bad = append(bad, "cycle: "+strings.Join(append(slices.Clone(path[i:]), q), " -> "))
			case white:
				visit(q)
			}
		}
		path = path[:len(path)-1]
		color[p] = black
	}
	for _, p := range slices.Sorted(func(yield func(string) bool) {
		for p := range graph {
			if !yield(p) {
				return
			}
		}
	}) {
		if color[p] == white {
			visit(p)
		}
	}
	return bad
}

// TestLayers draws the module's import graph from its sources and fails
// on a cycle or an arrow back up the chain: statistics and run record at
// the bottom, then format, analysis, the table model and the renderers;
// the run directory on the record only; the measuring packages on the
// record only, search on the statistics only.
func TestLayers(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(root, "go.mod")); err != nil || !strings.Contains(string(b), "module "+Module+"\n") {
		t.Fatalf("%s is not the module root (%v)", root, err)
	}
	graph := moduleImports(t, root)
	for pkg := range layerRules {
		if _, ok := graph[pkg]; !ok {
			t.Errorf("rule for %s, which is no package of the module", pkg)
		}
	}
	for _, v := range layerViolations(graph, layerRules) {
		t.Error(v)
	}
}

// TestLayerViolations: the checker finds a cycle, a forbidden arrow and
// results/ reaching up, and passes a clean graph.
func TestLayerViolations(t *testing.T) {
	rules := map[string][]string{"results/stats": {}, "search": {"results/stats"}}
	clean := map[string][]string{"results/stats": nil, "results": {"results/stats"}, "search": {"results/stats"}, "runner": {"search", "results"}}
	if got := layerViolations(clean, rules); len(got) != 0 {
		t.Errorf("clean graph: %q, want none", got)
	}
	dirty := map[string][]string{"results/stats": {"results"}, "results": {"results/stats", "runner"}, "search": {"results"}, "runner": {"search"}}
	got := strings.Join(layerViolations(dirty, rules), "\n")
	for _, want := range []string{
		"results/stats imports results: an arrow back up",
		"search imports results: an arrow back up",
		"results imports runner: results/ sits downstream",
		"cycle: results -> results/stats -> results",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("violations %q lack %q", got, want)
		}
	}
}
