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
// comment (style.md §3); a const or var group's comment covers its members,
// and the interfaces' String, Error and Write need none.
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
		for _, name := range undocumented(f) {
			rel, _ := filepath.Rel(root, fset.Position(name.Pos()).Filename)
			t.Errorf("%s:%d: exported %s has no doc comment", rel, fset.Position(name.Pos()).Line, name.Name)
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
