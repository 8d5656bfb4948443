package plan

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/sql"
	"sluice/internal/types"
)

// ApplyKind says what an Apply asks of its subquery.
type ApplyKind int

// Apply kinds. The first two are conditions (the Apply keeps or drops
// input rows and adds no column); the rest add one value column.
const (
	// ApplyExists keeps the rows for which Sub has a row (Not: none).
	ApplyExists ApplyKind = iota
	// ApplyIn keeps the rows where Probe IN (Sub) is TRUE (Not: NOT IN).
	ApplyIn
	// ApplyScalar adds Sub's one value (NULL for no row; more than one
	// row is an error).
	ApplyScalar
	// ApplyExistsValue adds EXISTS (Sub) as a BOOLEAN.
	ApplyExistsValue
	// ApplyInValue adds Probe [NOT] IN (Sub), three-valued.
	ApplyInValue
	// ApplyCompare adds Probe Op ANY (Sub), or Op ALL when All is set.
	ApplyCompare
)

func (k ApplyKind) String() string {
	return [...]string{"Exists", "In", "Scalar", "ExistsValue", "InValue", "Compare"}[k]
}

// Apply runs Sub once per row of Input, as SQL defines a subquery. Sub
// reads Input's columns through expr.OuterRef of depth 1 (deeper ones
// belong to enclosing queries). The binder builds it; the decorrelation
// rules (rule_decorrelate_*.go) replace every Apply by joins, so none is
// left to run.
type Apply struct {
	Input, Sub Node
	Kind       ApplyKind
	Not        bool
	// Probe is x of x IN (Sub) and x op ANY/ALL (Sub), over Input.
	Probe expr.Expr
	Op    string // the comparison of ApplyCompare: =, <>, <, <=, >, >=
	All   bool
	// Name is the value column's name (kinds that add one).
	Name string
	// At is the subquery's position, for errors found while rewriting.
	At sql.Pos
	// deferred is why the Apply's own rule could not rewrite it when its
	// subquery reads a query further out: the rule of the enclosing
	// subquery's Apply rewrites it then (pullApply), or reports this.
	deferred error
}

var _ Node = (*Apply)(nil)

// AddsColumn reports whether the kind adds a value column.
func (k ApplyKind) AddsColumn() bool { return k >= ApplyScalar }

// ValueType is the type of the column the Apply adds.
func (a *Apply) ValueType() arrow.DataType {
	if a.Kind == ApplyScalar {
		if a.Sub.Schema().NumFields() == 0 {
			return arrow.Null
		}
		return a.Sub.Schema().Field(0).Type
	}
	return types.Boolean
}

// Schema is Input's columns, then the value column for the value kinds.
func (a *Apply) Schema() *arrow.Schema {
	if !a.Kind.AddsColumn() {
		return a.Input.Schema()
	}
	fs := append([]arrow.Field{}, a.Input.Schema().Fields()...)
	fs = append(fs, arrow.Field{Name: a.Name, Type: a.ValueType(), Nullable: true})
	return arrow.NewSchema(fs, nil)
}

// Children are the input, then the subquery.
func (a *Apply) Children() []Node { return []Node{a.Input, a.Sub} }

// WithChildren replaces both.
func (a *Apply) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(a, children, 2); err != nil {
		return nil, err
	}
	c := *a
	c.Input, c.Sub = children[0], children[1]
	return &c, nil
}

func (a *Apply) String() string {
	var b strings.Builder
	b.WriteString("Apply ")
	if a.Not {
		b.WriteString("Not")
	}
	b.WriteString(a.Kind.String())
	if a.Probe != nil {
		fmt.Fprintf(&b, " probe=%s", a.Probe)
	}
	if a.Kind == ApplyCompare {
		q := "ANY"
		if a.All {
			q = "ALL"
		}
		fmt.Fprintf(&b, " %s %s", a.Op, q)
	}
	if a.Name != "" {
		fmt.Fprintf(&b, " as %s", a.Name)
	}
	return b.String()
}

// errApply is a user error at the subquery.
func (a *Apply) errorf(format string, args ...any) error {
	return &Error{Pos: a.At, Msg: fmt.Sprintf(format, args...)}
}
