package plan

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
)

// Values is literal rows: VALUES (...), (...), and the single empty row a
// FROM-less SELECT reads. Every row has constant expressions of the
// schema's types.
type Values struct {
	schema *arrow.Schema
	Rows   [][]expr.Expr
}

// NewValues makes a Values node; rows must match names in length.
func NewValues(names []string, ts []arrow.DataType, rows [][]expr.Expr) *Values {
	return &Values{schema: schemaOf(names, ts), Rows: rows}
}

// Schema of the rows.
func (v *Values) Schema() *arrow.Schema { return v.schema }

// Children: none.
func (v *Values) Children() []Node { return nil }

// WithChildren returns v.
func (v *Values) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(v, children, 0); err != nil {
		return nil, err
	}
	return v, nil
}

func (v *Values) String() string { return fmt.Sprintf("Values rows=%d", len(v.Rows)) }
