package plan

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/types"
)

// Project computes one output column per expression.
type Project struct {
	Input Node
	Exprs []expr.Expr
	Names []string
	// Inline marks a Project the decorrelation rules made to add a
	// subquery's value to its input's columns: a Project or Filter above
	// reads through it (rule_decorrelate_inline.go).
	Inline bool
	// Comments, when set, are per output column the COMMENTs a view's
	// column list gave ("" for none); only ColumnSources reads them.
	Comments []string
}

// Schema has one column per expression.
func (p *Project) Schema() *arrow.Schema {
	ts := make([]arrow.DataType, len(p.Exprs))
	for i, e := range p.Exprs {
		ts[i] = e.Type()
	}
	return schemaOf(p.Names, ts)
}

// Children is the input.
func (p *Project) Children() []Node { return []Node{p.Input} }

// WithChildren replaces the input.
func (p *Project) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(p, children, 1); err != nil {
		return nil, err
	}
	c := *p
	c.Input = children[0]
	return &c, nil
}

func (p *Project) String() string {
	parts := make([]string, len(p.Exprs))
	for i, e := range p.Exprs {
		s := e.String()
		if col, ok := e.(*expr.Column); !ok || col.Name != p.Names[i] {
			s += " AS " + types.QuoteIdent(p.Names[i])
		}
		parts[i] = s
	}
	return "Project [" + strings.Join(parts, ", ") + "]"
}
