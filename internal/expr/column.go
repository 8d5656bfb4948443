package expr

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr/functions"
	"sluice/internal/types"
)

// Column reads column Index of the input batch. Name is for printing.
type Column struct {
	Index int
	Name  string
	typ   arrow.DataType
}

var _ Expr = (*Column)(nil)

// Col returns a reference to column index of the input batch, of type t.
func Col(index int, name string, t arrow.DataType) Expr {
	return &Column{Index: index, Name: name, typ: t}
}

// Type is the column's declared type.
func (c *Column) Type() arrow.DataType { return c.typ }

// Eval returns the column itself (retained). A batch whose column has an
// equivalent but different Arrow type (int16 from Parquet for INT) is
// cast to the declared type.
func (c *Column) Eval(ctx context.Context, batch arrow.RecordBatch) (arrow.Array, error) {
	if c.Index < 0 || c.Index >= int(batch.NumCols()) {
		return nil, fmt.Errorf("column %s: index %d out of range for a batch of %d columns", c.Name, c.Index, batch.NumCols())
	}
	arr := batch.Column(c.Index)
	if arrow.TypeEqual(arr.DataType(), c.typ) {
		arr.Retain()
		return arr, nil
	}
	out, err := functions.Cast(ctx, arr, c.typ, false)
	if err != nil {
		return nil, fmt.Errorf("column %s: %w", c.Name, err)
	}
	return out, nil
}

// String prints the column name, quoted when needed.
func (c *Column) String() string {
	if c.Name == "" {
		return fmt.Sprintf("#%d", c.Index)
	}
	return types.QuoteIdent(c.Name)
}

// Children is empty.
func (c *Column) Children() []Expr { return nil }

func (c *Column) withChildren([]Expr) Expr { cc := *c; return &cc }
