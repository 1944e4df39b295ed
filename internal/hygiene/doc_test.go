package hygiene

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportsDocumented: every exported identifier outside tests has a doc
// comment starting with its name, "A", "An" or "The" (style.md §3); a const or
// var group's comment covers its members, and the interfaces' String, Error
// and Write need none.
func TestExportsDocumented(t *testing.T) {
	root := moduleRoot(t)
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if f.Name.Name == "main" {
			return nil
		}
		for _, name := range misdocumented(f) {
			rel, _ := filepath.Rel(root, fset.Position(name.Pos()).Filename)
			t.Errorf("%s:%d: exported %s has no doc comment starting with its name", rel, fset.Position(name.Pos()).Line, name.Name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// undocumented lists f's exported top-level names without a doc comment;
// methods count when their receiver's type is exported.
func undocumented(f *ast.File) []*ast.Ident {
	var out []*ast.Ident
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Name.IsExported() && d.Doc == nil && receiverExported(d) && !interfaceMethod[d.Name.Name] {
				out = append(out, d.Name)
			}
		case *ast.GenDecl:
			if d.Tok == token.IMPORT || d.Doc != nil && !d.Lparen.IsValid() {
				continue
			}
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() && s.Doc == nil && d.Doc == nil {
						out = append(out, s.Name)
					}
				case *ast.ValueSpec:
					if d.Doc != nil || s.Doc != nil || s.Comment != nil {
						continue
					}
					for _, n := range s.Names {
						if n.IsExported() {
							out = append(out, n)
						}
					}
				}
			}
		}
	}
	return out
}

// interfaceMethod are the methods whose interface documents them.
var interfaceMethod = map[string]bool{"String": true, "Error": true, "Write": true}

func receiverExported(d *ast.FuncDecl) bool {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return true
	}
	typ := d.Recv.List[0].Type
	for {
		switch x := typ.(type) {
		case *ast.StarExpr:
			typ = x.X
		case *ast.IndexExpr:
			typ = x.X
		case *ast.IndexListExpr:
			typ = x.X
		case *ast.Ident:
			return x.IsExported()
		default:
			return true
		}
	}
}

// misdocumented is undocumented(f) and the names whose own doc comment does
// not start with the name (or "A", "An", "The" and the name).
func misdocumented(f *ast.File) []*ast.Ident {
	out := undocumented(f)
	check := func(name *ast.Ident, doc *ast.CommentGroup) {
		if doc == nil || !name.IsExported() {
			return
		}
		words := strings.Fields(doc.Text())
		for len(words) > 1 && (words[0] == "A" || words[0] == "An" || words[0] == "The") {
			words = words[1:]
		}
		if len(words) == 0 || strings.TrimRight(words[0], ".,:;'s") != name.Name && words[0] != name.Name {
			out = append(out, name)
		}
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if receiverExported(d) {
				check(d.Name, d.Doc)
			}
		case *ast.GenDecl:
			if d.Tok == token.TYPE && !d.Lparen.IsValid() {
				check(d.Specs[0].(*ast.TypeSpec).Name, d.Doc)
			}
		}
	}
	return out
}

// TestMisdocumentedFinds: the check names an export without a doc, one
// whose doc starts otherwise, and neither a documented one nor a group member.
func TestMisdocumentedFinds(t *testing.T) {
	src := `package p
// Good is documented.
func Good() {}
func Bare() {}
// Example: "x" is not a sentence about Other.
type Other int
// The limits.
const (
	Max = 1
)
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range misdocumented(f) {
		got = append(got, n.Name)
	}
	if strings.Join(got, " ") != "Bare Other" {
		t.Errorf("misdocumented names %q, want Bare and Other", got)
	}
}
