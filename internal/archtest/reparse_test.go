package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// parserPackages are the packages whose Parse* functions read SQL or PPL
// text.
var parserPackages = map[string]bool{"sluice/internal/sql": true, "sluice/internal/ppl": true}

// TestEngineParsesNoTextItBuilt: the engine builds its own queries (a
// covering index's, a skipping index's, a view's id column) as trees with
// the sql package's constructors, never as SQL text it then parses.
// Text built and parsed back needs its quoting right every time and
// moves the positions of the user's expressions into text the user
// never wrote. So no parser call in internal/engine (or internal/flint,
// where views and indexes build theirs, or internal/streams) may take text made
// there: a concatenation, a fmt.Sprint*, a strings.Join, or an AST's
// String(), directly or through a local variable. Parsing what a user
// gave (the statement, an option's value) or a stored definition stays
// allowed.
func TestEngineParsesNoTextItBuilt(t *testing.T) {
	fset := token.NewFileSet()
	var files []*ast.File
	var paths []string
	for _, dir := range []string{"engine", "flint", "streams"} { // flint: views' and indexes' queries; streams: stored stream definitions
		ps, err := filepath.Glob(filepath.Join("..", dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, ps...)
	}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	calls, bad := builtTextParses(fset, files)
	if calls == 0 {
		t.Fatal("found no parser calls in internal/engine: the scan is broken")
	}
	for _, b := range bad {
		t.Errorf("%s: parses SQL text the engine built; build the tree with the sql constructors instead", b)
	}
}

// TestBuiltTextParsesFindsThem checks the scan against the ways
// internal/engine used to build text.
func TestBuiltTextParsesFindsThem(t *testing.T) {
	const src = `package engine

import (
	"fmt"
	"strings"

	"sluice/internal/sql"
	sqlp "sluice/internal/sql"
)

func parseQuery(text string) (*sql.Query, error) { st, err := sql.ParseOne(text); _ = st; return nil, err }

func idExpression(id string, q *sql.Query) { _, _ = sql.ParseExpr(id) }

func (e *Engine) a(name string, q *sql.Query) {
	parseQuery("SELECT * FROM " + sql.QuoteName(name))          // bad: concatenation
	text := "SELECT a FROM t"
	text += " WHERE b"
	parseQuery(text)                                             // bad: through a variable
	sqlp.ParseOne(fmt.Sprintf("SELECT %s", name))                // bad: Sprintf, renamed import
	parseQuery("SELECT " + strings.Join([]string{"a"}, ", "))    // bad
	idExpression("'" + name + "'", q)                            // bad: a wrapper's parsed argument
	parseQuery(q.String())                                       // bad: a printed tree
	parseQuery(name)                                             // fine: given text
	sql.Parse(e.script)                                          // fine
	idExpression(e.opts["id_expression"], q)                     // fine
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "src.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	calls, bad := builtTextParses(fset, []*ast.File{f})
	var lines []string
	for _, b := range bad {
		lines = append(lines, b[strings.Index(b, ":")+1:strings.LastIndex(b, ":")])
	}
	var want []string
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, "// bad") {
			want = append(want, strconv.Itoa(i+1))
		}
	}
	if strings.Join(lines, " ") != strings.Join(want, " ") || calls != 11 {
		t.Errorf("found %d parser calls, bad on lines %v; want 11, bad on %s", calls, lines, want)
	}
}

// builtTextParses counts the parser calls in files and lists (as
// file:line:col) those whose text argument was built there. A function
// of the files that hands one of its parameters to a parser is a parser
// of that argument too (parseQuery, idExpression), found to a fixpoint.
func builtTextParses(fset *token.FileSet, files []*ast.File) (calls int, bad []string) {
	// parses[name] lists the argument indexes a local function parses.
	parses := map[string]map[int]bool{}
	imports := map[*ast.File]map[string]string{}
	for _, f := range files {
		m := map[string]string{}
		for _, im := range f.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			name := path[strings.LastIndex(path, "/")+1:]
			if im.Name != nil {
				name = im.Name.Name
			}
			m[name] = path
		}
		imports[f] = m
	}
	// parsedArgs is which arguments of call are parsed text.
	parsedArgs := func(f *ast.File, call *ast.CallExpr) map[int]bool {
		switch fn := call.Fun.(type) {
		case *ast.Ident:
			return parses[fn.Name]
		case *ast.SelectorExpr:
			if x, ok := fn.X.(*ast.Ident); ok && parserPackages[imports[f][x.Name]] {
				if !strings.HasPrefix(fn.Sel.Name, "Parse") {
					return nil
				}
				all := map[int]bool{}
				for i := range call.Args {
					all[i] = true
				}
				return all
			}
			return parses[fn.Sel.Name] // a method of the engine's
		}
		return nil
	}
	funcs := func(visit func(f *ast.File, fd *ast.FuncDecl)) {
		for _, f := range files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					visit(f, fd)
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		funcs(func(f *ast.File, fd *ast.FuncDecl) {
			params := paramIndexes(fd)
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				for i := range parsedArgs(f, call) {
					id, ok := call.Args[i].(*ast.Ident)
					if !ok {
						continue
					}
					if p, ok := params[id.Name]; ok && !parses[fd.Name.Name][p] {
						if parses[fd.Name.Name] == nil {
							parses[fd.Name.Name] = map[int]bool{}
						}
						parses[fd.Name.Name][p] = true
						changed = true
					}
				}
				return true
			})
		})
	}
	funcs(func(f *ast.File, fd *ast.FuncDecl) {
		assigned := assignments(fd.Body)
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			args := parsedArgs(f, call)
			if len(args) > 0 {
				calls++
			}
			idx := make([]int, 0, len(args))
			for i := range args {
				idx = append(idx, i)
			}
			sort.Ints(idx)
			for _, i := range idx {
				if i < len(call.Args) && builtText(call.Args[i], assigned, map[string]bool{}) {
					bad = append(bad, fset.Position(call.Pos()).String())
					break
				}
			}
			return true
		})
	})
	return calls, bad
}

// paramIndexes maps a function's parameter names to their positions.
func paramIndexes(fd *ast.FuncDecl) map[string]int {
	out := map[string]int{}
	i := 0
	for _, field := range fd.Type.Params.List {
		if len(field.Names) == 0 {
			i++
			continue
		}
		for _, n := range field.Names {
			out[n.Name] = i
			i++
		}
	}
	return out
}

// assignments lists every value assigned to each local name in body
// (x := v, x = v, x += v).
func assignments(body *ast.BlockStmt) map[string][]ast.Expr {
	out := map[string][]ast.Expr{}
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok {
				v := as.Rhs[i]
				if as.Tok == token.ADD_ASSIGN {
					v = &ast.BinaryExpr{X: id, Op: token.ADD, Y: v}
				}
				out[id.Name] = append(out[id.Name], v)
			}
		}
		return true
	})
	return out
}

// builtText reports whether e makes text: a concatenation, a
// fmt.Sprint*, a strings.Join or a String() call, or is a local variable
// assigned one.
func builtText(e ast.Expr, assigned map[string][]ast.Expr, seen map[string]bool) bool {
	if id, ok := e.(*ast.Ident); ok {
		if seen[id.Name] {
			return false
		}
		seen[id.Name] = true
		for _, v := range assigned[id.Name] {
			if builtText(v, assigned, seen) {
				return true
			}
		}
		return false
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.BinaryExpr:
			found = found || x.Op == token.ADD
		case *ast.CallExpr:
			if sel, ok := x.Fun.(*ast.SelectorExpr); ok {
				pkg, _ := sel.X.(*ast.Ident)
				switch {
				case sel.Sel.Name == "String" && len(x.Args) == 0,
					pkg != nil && pkg.Name == "fmt" && strings.HasPrefix(sel.Sel.Name, "Sprint"),
					pkg != nil && pkg.Name == "strings" && sel.Sel.Name == "Join":
					found = true
				}
			}
		}
		return !found
	})
	return found
}
