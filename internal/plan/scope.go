package plan

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// scopeCol is one column visible to expressions: its position in the
// input schema and the table alias it came from.
type scopeCol struct {
	Table  string
	Name   string
	Type   arrow.DataType
	Index  int
	Hidden bool // metadata columns: selectable by name, not by *
}

// scope is the set of columns an expression may name. The enclosing
// queries' scopes of a subquery are Binder.outer: a name no scope of the
// query has resolves there, to an outer reference.
type scope struct {
	cols []scopeCol
}

func scopeFor(table string, s *arrow.Schema, hidden map[string]bool) *scope {
	sc := &scope{}
	for i, f := range s.Fields() {
		sc.cols = append(sc.cols, scopeCol{Table: table, Name: f.Name, Type: f.Type, Index: i, Hidden: hidden[f.Name]})
	}
	return sc
}

// join returns a scope over the concatenation of a's and b's columns.
func (a *scope) join(b *scope) *scope {
	out := &scope{cols: append([]scopeCol{}, a.cols...)}
	n := len(a.cols)
	for _, c := range b.cols {
		c.Index += n
		out.cols = append(out.cols, c)
	}
	return out
}

func (a *scope) hasTable(name string) bool {
	for _, c := range a.cols {
		if strings.EqualFold(c.Table, name) {
			return true
		}
	}
	return false
}

// find resolves an unqualified or qualified column name. Exact-case
// matches win over case-insensitive ones, so `Status` and `status` can
// coexist when written exactly.
func (a *scope) find(table, name string) (*scopeCol, error) {
	var exact, fold []*scopeCol
	for i := range a.cols {
		c := &a.cols[i]
		if table != "" && !strings.EqualFold(c.Table, table) {
			continue
		}
		if c.Name == name {
			exact = append(exact, c)
		} else if strings.EqualFold(c.Name, name) {
			fold = append(fold, c)
		}
	}
	matches := exact
	if len(matches) == 0 {
		matches = fold
	}
	if len(matches) > 1 {
		// A USING key is hidden on one side: the visible one is meant.
		var visible []*scopeCol
		for _, m := range matches {
			if !m.Hidden {
				visible = append(visible, m)
			}
		}
		if len(visible) == 1 {
			matches = visible
		}
	}
	switch len(matches) {
	case 0:
		return nil, nil
	case 1:
		return matches[0], nil
	}
	full := name
	if table != "" {
		full = table + "." + name
	}
	return nil, fmt.Errorf("column reference %q is ambiguous (%s)", full, describeMatches(matches))
}

func describeMatches(cs []*scopeCol) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		if c.Table != "" {
			parts[i] = c.Table + "." + c.Name
		} else {
			parts[i] = c.Name
		}
	}
	return strings.Join(parts, ", ")
}

func (a *scope) names() string {
	var parts []string
	for _, c := range a.cols {
		if !c.Hidden {
			parts = append(parts, c.Name)
		}
	}
	return strings.Join(parts, ", ")
}

// withHidden returns a scope with one more column, at the end, that
// SELECT * leaves out (a generated window column).
func (a *scope) withHidden(name string, t arrow.DataType) *scope {
	cols := append(append([]scopeCol{}, a.cols...), scopeCol{Name: name, Type: t, Index: len(a.cols), Hidden: true})
	return &scope{cols: cols}
}
