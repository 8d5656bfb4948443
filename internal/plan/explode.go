package plan

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
)

// Explode emits one row per element of Gen (an ARRAY, or a MAP giving key
// and value), appending the generated columns to the input's columns.
// Outer keeps rows whose collection is NULL or empty, with NULLs.
type Explode struct {
	Input Node
	Gen   expr.Expr
	Outer bool
	// Position adds an INT column pos (from 0) before the generated ones,
	// as posexplode does; Names and Types include it.
	Position bool
	// Names of the generated columns: one for arrays (col), two for maps
	// (key, value).
	Names []string
	Types []arrow.DataType
}

// Schema is the input's columns then the generated ones.
func (e *Explode) Schema() *arrow.Schema {
	fs := append([]arrow.Field{}, e.Input.Schema().Fields()...)
	for i, n := range e.Names {
		fs = append(fs, arrow.Field{Name: n, Type: e.Types[i], Nullable: true})
	}
	return arrow.NewSchema(fs, nil)
}

// Children is the input.
func (e *Explode) Children() []Node { return []Node{e.Input} }

// WithChildren replaces the input.
func (e *Explode) WithChildren(children ...Node) (Node, error) {
	if err := wantChildren(e, children, 1); err != nil {
		return nil, err
	}
	c := *e
	c.Input = children[0]
	return &c, nil
}

func (e *Explode) String() string {
	name := "Explode"
	if e.Position {
		name = "PosExplode"
	}
	if e.Outer {
		name = "ExplodeOuter"
	}
	return fmt.Sprintf("%s %s", name, e.Gen)
}
