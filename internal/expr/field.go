package expr

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/expr/functions"
	"sluice/internal/types"
)

// FieldExpr reads field Index (named Name) of a STRUCT; NULL where the
// struct is NULL.
type FieldExpr struct {
	Arg   Expr
	Name  string
	Index int
	typ   arrow.DataType
}

var _ Expr = (*FieldExpr)(nil)

// Field builds e.name for a STRUCT e, matching the name exactly first and
// then case-insensitively. For a MAP it is e['name'].
func Field(e Expr, name string) (Expr, error) {
	switch t := e.Type().(type) {
	case *arrow.StructType:
		idx := -1
		for i, f := range t.Fields() {
			if f.Name == name {
				idx = i
				break
			}
		}
		if idx < 0 {
			for i, f := range t.Fields() {
				if strings.EqualFold(f.Name, name) {
					idx = i
					break
				}
			}
		}
		if idx < 0 {
			return nil, fmt.Errorf("no field %s in %s", types.QuoteIdent(name), typeName(t))
		}
		return &FieldExpr{Arg: e, Name: t.Field(idx).Name, Index: idx, typ: t.Field(idx).Type}, nil
	case *arrow.MapType:
		k, _ := Lit(name, types.String)
		return Subscript(e, k)
	}
	return nil, fmt.Errorf("cannot read field %s of %s: not a STRUCT", types.QuoteIdent(name), typeName(e.Type()))
}

// Type is the field's type.
func (f *FieldExpr) Type() arrow.DataType { return f.typ }

// Eval extracts the field, masking rows where the struct is NULL.
func (f *FieldExpr) Eval(ctx context.Context, batch arrow.RecordBatch) (arrow.Array, error) {
	a, err := f.Arg.Eval(ctx, batch)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	s, ok := a.(*array.Struct)
	if !ok {
		return nil, fmt.Errorf("field %s: input is %s, not a STRUCT", f.Name, a.DataType())
	}
	return functions.StructField(ctx, s, f.Index)
}

// String prints x.name.
func (f *FieldExpr) String() string { return f.Arg.String() + "." + types.QuoteIdent(f.Name) }

// Children is the struct.
func (f *FieldExpr) Children() []Expr { return []Expr{f.Arg} }

func (f *FieldExpr) withChildren(ch []Expr) Expr {
	c := *f
	c.Arg = ch[0]
	return &c
}

// SubscriptExpr is arr[i] (0-based as in Spark, NULL out of range) or
// map[key].
type SubscriptExpr struct {
	Arg   Expr
	Index Expr
	bound *functions.Bound
}

var _ Expr = (*SubscriptExpr)(nil)

// Subscript builds e[idx]: ARRAY elements 0-based, as Spark's arr[0] is
// the first (NULL when out of range, negative included), MAP values by
// key (NULL when absent).
func Subscript(e, idx Expr) (Expr, error) {
	b, err := functions.BindElementAt([]functions.Arg{{Type: e.Type()}, {Type: idx.Type()}}, true)
	if err != nil {
		return nil, err
	}
	args, err := applyCasts([]Expr{e, idx}, b.Casts)
	if err != nil {
		return nil, err
	}
	return &SubscriptExpr{Arg: args[0], Index: args[1], bound: b}, nil
}

// Type is the element or value type.
func (s *SubscriptExpr) Type() arrow.DataType { return s.bound.Type }

// Eval looks up every row.
func (s *SubscriptExpr) Eval(ctx context.Context, batch arrow.RecordBatch) (arrow.Array, error) {
	a, err := s.Arg.Eval(ctx, batch)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	i, err := s.Index.Eval(ctx, batch)
	if err != nil {
		return nil, err
	}
	defer i.Release()
	return s.bound.Eval(ctx, int(batch.NumRows()), []arrow.Array{a, i})
}

// String prints x[i].
func (s *SubscriptExpr) String() string { return s.Arg.String() + "[" + s.Index.String() + "]" }

// Children are the container and the index.
func (s *SubscriptExpr) Children() []Expr { return []Expr{s.Arg, s.Index} }

func (s *SubscriptExpr) withChildren(ch []Expr) Expr {
	c := *s
	c.Arg, c.Index = ch[0], ch[1]
	return &c
}
