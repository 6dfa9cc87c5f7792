package doccheck

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// moduleRoot is the repository root, two levels above this package.
const moduleRoot = "../.."

// skipDir reports whether the walk leaves out a directory: test data,
// vendored code, hidden folders and the beam/ folder.
func skipDir(name string) bool {
	switch name {
	case "testdata", "vendor", "beam":
		return true
	}
	return strings.HasPrefix(name, ".") && name != "." && name != ".."
}

// undocumented returns, for one parsed file, a line for each exported
// top-level declaration without a doc comment: funcs, methods on exported
// types, types, consts and vars (one in a documented group counts as
// documented).
func undocumented(fset *token.FileSet, f *ast.File) []string {
	var out []string
	report := func(pos token.Pos, what string) {
		p := fset.Position(pos)
		name := p.Filename
		if rel, err := filepath.Rel(moduleRoot, name); err == nil {
			name = filepath.ToSlash(rel)
		}
		out = append(out, name+":"+itoa(p.Line)+": "+what)
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() || d.Doc != nil {
				continue
			}
			if d.Recv != nil {
				recv := receiverType(d.Recv)
				if recv == "" || !ast.IsExported(recv) {
					continue
				}
				report(d.Pos(), "method "+recv+"."+d.Name.Name)
				continue
			}
			report(d.Pos(), "func "+d.Name.Name)
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				continue
			}
			grouped := d.Lparen.IsValid()
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if !s.Name.IsExported() {
						continue
					}
					if s.Doc == nil && d.Doc == nil && (s.Comment == nil || !grouped) {
						report(s.Pos(), "type "+s.Name.Name)
					}
				case *ast.ValueSpec:
					if d.Doc != nil || s.Doc != nil || (s.Comment != nil && grouped) {
						continue
					}
					for _, n := range s.Names {
						if n.IsExported() {
							report(n.Pos(), d.Tok.String()+" "+n.Name)
						}
					}
				}
			}
		}
	}
	return out
}

// receiverType names a method's receiver type, without pointer or type
// parameters.
func receiverType(fl *ast.FieldList) string {
	if fl == nil || len(fl.List) == 0 {
		return ""
	}
	t := fl.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

// goFiles lists every non-test .go file of the module outside the skipped
// directories.
func goFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(moduleRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != moduleRoot && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walking the module: %v", err)
	}
	return files
}

// TestExportedIdentifiersDocumented fails listing every exported top-level
// identifier of the module (package main aside) that has no doc comment.
func TestExportedIdentifiersDocumented(t *testing.T) {
	files := goFiles(t)
	if len(files) < 50 {
		t.Fatalf("found only %d Go files under %s: is this the module root?", len(files), moduleRoot)
	}
	fset := token.NewFileSet()
	var missing []string
	for _, path := range files {
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("parsing %s: %v", path, err)
		}
		if f.Name.Name == "main" {
			continue
		}
		missing = append(missing, undocumented(fset, f)...)
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("%d exported identifiers have no doc comment:\n%s", len(missing), strings.Join(missing, "\n"))
	}
}

// TestUndocumentedFinds checks the checker on a file with one identifier
// of each kind documented and undocumented, so a broken check cannot pass
// silently.
func TestUndocumentedFinds(t *testing.T) {
	const src = `package p

// T is documented.
type T int

type U int

// Documented is a method with a comment.
func (T) Documented() {}

func (T) Bare() {}

func (*U) Bare() {}

func (t lower) Hidden() {}

type lower int

// F is documented.
func F() {}

func G() {}

func h() {}

// Group documents its members.
const (
	A = 1
	B = 2
)

const (
	// C has its own comment.
	C = 3
	D = 4
	E = 5 // E has a line comment.
)

var V int

// W is documented.
var W int

type (
	// X is documented.
	X int
	Y int
)

// Gen is a generic type.
type Gen[K any] struct{}

func (Gen[K]) Bare() {}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range undocumented(fset, f) {
		got = append(got, line[strings.Index(line, ": ")+2:])
	}
	want := []string{"type U", "method T.Bare", "method U.Bare", "func G", "const D", "var V", "type Y", "method Gen.Bare"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("undocumented:\n got %q\nwant %q", got, want)
	}
}

// maxREADME is the README's budget: a page for users, at most 15 KiB.
const maxREADME = 15 * 1024

// TestREADME checks that README.md is at most 15 KiB and names no path
// outside the repository (the shared data beside it, or a machine's own
// folders): a reader of the published repository has neither.
func TestREADME(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(moduleRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > maxREADME {
		t.Errorf("README.md is %d bytes, over its budget of %d: move detail to docs/", len(b), maxREADME)
	}
	checkPaths(t, "README.md", b)
}

// TestDocsPaths checks that the documents beside the README (docs/*.md
// and CONTRIBUTING.md) name no path outside the repository either.
func TestDocsPaths(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(moduleRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join(moduleRoot, "CONTRIBUTING.md"))
	for _, path := range files {
		b, err := os.ReadFile(path)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(moduleRoot, path)
		checkPaths(t, filepath.ToSlash(rel), b)
	}
}

// checkPaths fails for each line of a document that names the shared
// folder beside the repository or a machine's own working folder.
func checkPaths(t *testing.T, name string, b []byte) {
	t.Helper()
	for i, line := range bytes.Split(b, []byte("\n")) {
		for _, bad := range []string{"../shared", "/work/"} {
			if bytes.Contains(line, []byte(bad)) {
				t.Errorf("%s:%d names %q, a path outside the repository (write \"the shared datasets\" instead)", name, i+1, bad)
			}
		}
	}
}
