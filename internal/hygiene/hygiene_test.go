// Package hygiene holds checks on the repository itself, not on any package.
package hygiene

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/internal/testkit"
)

// moduleRoot is the directory of go.mod above this package.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// TestNoTrackedBinaries: no tracked file is an ELF binary or over 1 MB
// (a 15 MB metrics.test was committed once).
func TestNoTrackedBinaries(t *testing.T) {
	root := moduleRoot(t)
	git := testkit.NeedCommand(t, "git", "Debian's git")
	out, err := exec.Command(git, "-C", root, "ls-files", "-z").Output()
	if err != nil {
		testkit.Missing(t, "git ls-files in %s: %v (not a git checkout?)", root, err)
	}
	files := strings.Split(strings.TrimRight(string(out), "\x00"), "\x00")
	if len(files) < 10 {
		t.Fatalf("git ls-files listed %d files: %q", len(files), files)
	}
	for _, name := range files {
		path := filepath.Join(root, name)
		fi, err := os.Lstat(path)
		if err != nil || !fi.Mode().IsRegular() {
			continue // deleted in the work tree, or a link
		}
		if fi.Size() > 1<<20 {
			t.Errorf("%s is tracked and %d bytes, over 1 MB", name, fi.Size())
		}
		head := make([]byte, 4)
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		n, _ := f.Read(head)
		f.Close()
		if bytes.Equal(head[:n], []byte("\x7fELF")) {
			t.Errorf("%s is tracked and an ELF binary", name)
		}
	}
}

// TestCountingTestsNeverBusySkip: a test that checks kaeload's counts
// against a server's log (testkit.SameResponses) must not reach
// testkit.SkipBusy, directly or through a helper of its package: a busy
// machine is when a counting bug would show.
func TestCountingTestsNeverBusySkip(t *testing.T) {
	root := moduleRoot(t)
	calls := map[string]map[string][]string{} // package dir -> func -> names it calls
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir := filepath.Dir(path)
		if calls[dir] == nil {
			calls[dir] = map[string][]string{}
		}
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok && fn.Body != nil {
				calls[dir][fn.Name.Name] = append(calls[dir][fn.Name.Name], calledNames(fn.Body)...)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	counting := 0
	for dir, funcs := range calls {
		for name := range funcs {
			if !strings.HasPrefix(name, "Test") || !reaches(funcs, name, "SameResponses", map[string]bool{}) {
				continue
			}
			counting++
			if reaches(funcs, name, "SkipBusy", map[string]bool{}) {
				rel, _ := filepath.Rel(root, dir)
				t.Errorf("%s: %s checks counts against a server's log and may skip as busy", rel, name)
			}
		}
	}
	if counting < 5 {
		t.Errorf("found %d counting tests, want the 5 or more that call testkit.SameResponses", counting)
	}
}

// calledNames lists the names of the functions body calls (f(), x.f()).
func calledNames(body ast.Node) []string {
	var names []string
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			switch f := c.Fun.(type) {
			case *ast.Ident:
				names = append(names, f.Name)
			case *ast.SelectorExpr:
				names = append(names, f.Sel.Name)
			}
		}
		return true
	})
	return names
}

// reaches reports whether fn calls target, itself or through the
// package's functions it calls.
func reaches(funcs map[string][]string, fn, target string, seen map[string]bool) bool {
	if seen[fn] {
		return false
	}
	seen[fn] = true
	for _, c := range funcs[fn] {
		if c == target || reaches(funcs, c, target, seen) {
			return true
		}
	}
	return false
}

// maxFuncLines is the longest a non-test function may run, from its
// "func" line to its closing brace.
const maxFuncLines = 80

// TestNoLongFunctions: no non-test function in the module runs over
// maxFuncLines (issue 37: a longer one hides its steps).
func TestNoLongFunctions(t *testing.T) {
	root := moduleRoot(t)
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			checked++
			lines := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
			key := filepath.ToSlash(rel) + " " + fn.Name.Name
			if lines > maxFuncLines {
				t.Errorf("%s is %d lines, over %d: split it", key, lines, maxFuncLines)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 500 {
		t.Errorf("checked %d functions, want the 500 or more the module has", checked)
	}
}
