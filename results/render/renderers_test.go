package render

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// module is the import path of the module.
const module = "github.com/kaeload/kaeload"

// analysisFuncs are the analysis: what Analyze and AnalyzeRuns compute.
// A renderer that calls one (as a function, or as a method of the Run)
// computes what the Report already holds.
var analysisFuncs = map[string]bool{
	"Analyze": true, "AnalyzeRuns": true, "summarizeRun": true, "SummarizeSearch": true,
	"newSpeedTable": true, "Hints": true, "capacities": true, "summarizeVariant": true,
	"drift": true, "driftWarnings": true, "searchSweep": true, "SlowerRuns": true, "StartPrediction": true,
	"PartialLine": true,
	// A repetition's analysis (Report.Reps), computed once by AnalyzeRep.
	"AnalyzeRep": true, "RepGroupCPUs": true, "RepServerCPUUse": true, "RepClientCPU": true,
	"saturation": true, "missedLine": true, "GroupSpread": true,
	"KernelEvents": true,
	// The server profile (Report.Profile).
	"SummarizeProfile": true, "profileVariant": true,
}

// TestAnalysisFuncsExist: every name analysisFuncs guards is a function
// of results/analysis, so a rename cannot leave the guard empty.
func TestAnalysisFuncsExist(t *testing.T) {
	pkgs, err := parser.ParseDir(token.NewFileSet(), "../analysis", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, p := range pkgs {
		for _, f := range p.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					have[fd.Name.Name] = true
				}
			}
		}
	}
	for name := range analysisFuncs {
		if !have[name] {
			t.Errorf("analysisFuncs names %s, which results/analysis no longer has", name)
		}
	}
}

// TestRenderersComputeNothing parses the renderers (every function of the
// non-test files of results/render, results/tables, results/htmlreport
// and the catalogue results/measure, so that a new one is checked too) and fails
// when one calls an analysis function, a statistics function
// (results/stats) or the timeline's diagnosis (results/diagnosis), or
// when an exported writer (Write…, CompareRuns) of render or htmlreport
// takes the record (*results.Run) instead of the Report. They may read
// the model's types and fields and call its formatting methods (Lines,
// Shown, KneeWords, …).
func TestRenderersComputeNothing(t *testing.T) {
	check := func(dir string) int {
		fset := token.NewFileSet()
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			// What the file calls results/stats and results/diagnosis,
			// if it imports them: any call into them computes.
			computing := map[string]string{}
			for _, imp := range f.Imports {
				for _, pkg := range []string{"stats", "diagnosis"} {
					if imp.Path.Value == `"`+module+`/results/`+pkg+`"` {
						name := pkg
						if imp.Name != nil {
							name = imp.Name.Name
						}
						computing[name] = pkg
					}
				}
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				if n := fd.Name.Name; fd.Recv == nil && (strings.HasPrefix(n, "Write") || n == "CompareRuns") {
					for _, p := range fd.Type.Params.List {
						if star, ok := p.Type.(*ast.StarExpr); ok {
							if sel, ok := star.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "Run" {
								if x, ok := sel.X.(*ast.Ident); ok && x.Name == "results" {
									t.Errorf("%s: the writer %s takes the record (*results.Run): take the Report, which holds it", fset.Position(p.Pos()), n)
								}
							}
						}
					}
				}
				n++
				ast.Inspect(fd.Body, func(node ast.Node) bool {
					call, ok := node.(*ast.CallExpr)
					if !ok {
						return true
					}
					var name string
					switch fn := call.Fun.(type) {
					case *ast.Ident:
						name = fn.Name
					case *ast.SelectorExpr:
						name = fn.Sel.Name
						if x, ok := fn.X.(*ast.Ident); ok && computing[x.Name] != "" {
							t.Errorf("%s: %s calls the %s function %s.%s: read it from the Report", fset.Position(call.Pos()), fd.Name.Name, computing[x.Name], x.Name, name)
							return true
						}
					}
					if analysisFuncs[name] {
						t.Errorf("%s: %s calls the analysis %s: read it from the Report", fset.Position(call.Pos()), fd.Name.Name, name)
					}
					return true
				})
			}
		}
		return n
	}
	for _, dir := range []string{".", "../tables", "../htmlreport", "../measure"} {
		if n := check(dir); n == 0 {
			t.Errorf("no function in %s", dir)
		}
	}
}
