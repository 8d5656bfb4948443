package exec

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"

	"sluice/internal/expr"
)

// Generate is a projection in which one expression, an ARRAY or a MAP,
// yields one output row per element (SELECT id, explode(tags) ...): the
// other projected columns repeat on each row. An ARRAY gives one column
// (col), a MAP two (key, value); with position, an INT column pos (from
// 0) comes first, as in Spark's posexplode. A NULL or empty collection
// yields no row, or with outer (explode_outer) one row of NULLs.
type Generate struct {
	Base
	exprs    []expr.Expr
	index    int
	outer    bool
	position bool
	isMap    bool
	schema   *arrow.Schema
}

var (
	_ Operator    = (*Generate)(nil)
	_ StateShaper = (*Generate)(nil)
)

// NewGenerate projects exprs, exploding exprs[index]. names names every
// output column in order (the generated ones where exprs[index] stands);
// nil names them after the expressions and Spark's pos/col/key/value.
func NewGenerate(exprs []expr.Expr, names []string, index int, outer, position bool) (*Generate, error) {
	if index < 0 || index >= len(exprs) {
		return nil, fmt.Errorf("generate: column %d out of range", index)
	}
	g := &Generate{exprs: exprs, index: index, outer: outer, position: position}
	var gen []arrow.Field
	if position {
		gen = append(gen, arrow.Field{Name: "pos", Type: arrow.PrimitiveTypes.Int32, Nullable: true})
	}
	switch t := exprs[index].Type().(type) {
	case *arrow.MapType:
		g.isMap = true
		gen = append(gen, arrow.Field{Name: "key", Type: t.KeyType(), Nullable: true},
			arrow.Field{Name: "value", Type: t.ItemType(), Nullable: true})
	case *arrow.ListType:
		gen = append(gen, arrow.Field{Name: "col", Type: t.Elem(), Nullable: true})
	default:
		return nil, fmt.Errorf("explode(%s): argument is %s, not an ARRAY or MAP", exprs[index], exprs[index].Type())
	}
	var fields []arrow.Field
	for i, e := range exprs {
		if i == index {
			fields = append(fields, gen...)
			continue
		}
		fields = append(fields, arrow.Field{Name: e.String(), Type: e.Type(), Nullable: true})
	}
	if names != nil {
		if len(names) != len(fields) {
			return nil, fmt.Errorf("generate: %d names for %d output columns", len(names), len(fields))
		}
		for i := range fields {
			fields[i].Name = names[i]
		}
	}
	g.schema = arrow.NewSchema(fields, nil)
	return g, nil
}

// StateShape is the HOP windows it assigns, if it explodes a window list:
// a window aggregate after it keeps those windows' state.
func (g *Generate) StateShape() []StateProperty {
	if h, ok := g.exprs[g.index].(*expr.HopWindowsExpr); ok {
		return []StateProperty{{Name: "hop windows", Value: h.String()}}
	}
	return nil
}

// Schema is the projected columns with the generated ones in place.
func (g *Generate) Schema() *arrow.Schema { return g.schema }

// Process explodes one batch.
func (g *Generate) Process(ctx context.Context, batch arrow.RecordBatch, out Output) error {
	cols, err := evalAll(ctx, g.exprs, batch)
	if err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	defer releaseAll(cols)
	var list *array.List
	switch a := cols[g.index].(type) {
	case *array.Map:
		list = a.List
	case *array.List:
		list = a
	default:
		return fmt.Errorf("generate: %s evaluated to %s", g.exprs[g.index], a.DataType())
	}

	n := int(batch.NumRows())
	parent := make([]int32, 0, n)
	elem := make([]int32, 0, n)
	pos := array.NewInt32Builder(memAlloc)
	defer pos.Release()
	for i := 0; i < n; i++ {
		var start, end int64
		if list.IsValid(i) {
			start, end = list.ValueOffsets(i)
		}
		if start == end {
			if g.outer {
				parent, elem = append(parent, int32(i)), append(elem, -1)
				pos.AppendNull()
			}
			continue
		}
		for j := start; j < end; j++ {
			parent, elem = append(parent, int32(i)), append(elem, int32(j))
			pos.Append(int32(j - start))
		}
	}
	if len(parent) == 0 {
		return nil
	}
	pi, ei := int32Array(parent), int32Array(elem)
	defer pi.Release()
	defer ei.Release()
	outCols := make([]arrow.Array, 0, g.schema.NumFields())
	defer func() { releaseAll(outCols) }()
	take := func(a arrow.Array, idx arrow.Array) error {
		t, err := compute.TakeArray(ctx, a, idx)
		if err != nil {
			return fmt.Errorf("generate: %w", err)
		}
		outCols = append(outCols, t)
		return nil
	}
	for i, c := range cols {
		if i != g.index {
			if err := take(c, pi); err != nil {
				return err
			}
			continue
		}
		if g.position {
			outCols = append(outCols, pos.NewArray())
		}
		if g.isMap {
			m := c.(*array.Map)
			if err := take(m.Keys(), ei); err != nil {
				return err
			}
			if err := take(m.Items(), ei); err != nil {
				return err
			}
		} else if err := take(list.ListValues(), ei); err != nil {
			return err
		}
	}
	res := array.NewRecordBatch(g.schema, outCols, int64(len(parent)))
	defer res.Release()
	return sendSliced(ctx, res, out)
}

// String is the EXPLAIN line: Generate explode(tags) outer position [id, tags].
func (g *Generate) String() string {
	fn := "explode"
	if g.position {
		fn = "posexplode"
	}
	if g.outer {
		fn += "_outer"
	}
	parts := make([]string, len(g.exprs))
	for i, e := range g.exprs {
		parts[i] = e.String()
	}
	return fmt.Sprintf("Generate %s(%s) [%s]", fn, g.exprs[g.index], strings.Join(parts, ", "))
}
