package exec

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestOperatorsListed reads the package's source: every type with a
// Process method asserts `var _ Operator = (*T)(nil)` (so a signature
// drift fails to compile where the type is, not where it is used), and
// every type asserted so is in Operators(). A new operator cannot be
// forgotten in the list, as WindowPartitioner once was. Each type with a
// Snapshot method asserts Stateful too, and Operators() says Stateful for
// exactly those, so a new operator touches its own file and the list,
// not a test's table of instances.
func TestOperatorsListed(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	processes := map[string]bool{} // types with a Process method
	asserted := map[string]bool{}  // types in `var _ Operator = (*T)(nil)`
	snapshots := map[string]bool{} // types with a Snapshot method
	stateful := map[string]bool{}  // types in `var _ Stateful = (*T)(nil)`
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil && d.Name.Name == "Process" {
					processes[receiverType(d.Recv.List[0].Type)] = true
				}
				if d.Recv != nil && d.Name.Name == "Snapshot" {
					snapshots[receiverType(d.Recv.List[0].Type)] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if v, ok := s.(*ast.ValueSpec); ok {
						if typ := assertedType(v, "Operator"); typ != "" {
							asserted[typ] = true
						}
						if typ := assertedType(v, "Stateful"); typ != "" {
							stateful[typ] = true
						}
					}
				}
			}
		}
	}
	listed := map[string]bool{}
	for _, info := range Operators() {
		listed[info.Name] = true
		if info.Stateful != stateful[info.Name] {
			t.Errorf("%s: Operators() says Stateful %v, its source asserts Stateful %v", info.Name, info.Stateful, stateful[info.Name])
		}
	}
	for _, typ := range slices.Sorted(maps.Keys(snapshots)) {
		if asserted[typ] && !stateful[typ] {
			t.Errorf("%s has a Snapshot method but no `var _ Stateful = (*%s)(nil)`", typ, typ)
		}
	}
	for _, typ := range slices.Sorted(maps.Keys(processes)) {
		if !asserted[typ] {
			t.Errorf("%s has a Process method but no `var _ Operator = (*%s)(nil)`", typ, typ)
		}
	}
	for _, typ := range slices.Sorted(maps.Keys(asserted)) {
		if !listed[typ] {
			t.Errorf("%s asserts Operator but is not in Operators() (registry.go)", typ)
		}
	}
}

// receiverType is T for a receiver of type T or *T.
func receiverType(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// assertedType is T when v is `_ iface = (*T)(nil)`, else "".
func assertedType(v *ast.ValueSpec, iface string) string {
	if id, ok := v.Type.(*ast.Ident); !ok || id.Name != iface || len(v.Values) != 1 {
		return ""
	}
	call, ok := v.Values[0].(*ast.CallExpr)
	if !ok {
		return ""
	}
	paren, ok := call.Fun.(*ast.ParenExpr)
	if !ok {
		return ""
	}
	return receiverType(paren.X)
}
