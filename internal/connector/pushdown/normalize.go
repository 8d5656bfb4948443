package pushdown

import (
	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/expr"
	"sluice/internal/types"
)

// Casts decides which casts on a column Normalize sees through, so that
// CAST(x AS BIGINT) = 5, as the binder widens an INT column for a BIGINT
// constant, is pushed as x = 5. from is the type of the column or field
// under all casts, to the target of one cast; with several nested casts
// each must be accepted. A rule should only accept casts under which the
// cast value compares with a constant as the stored one does.
type Casts func(from, to arrow.DataType) bool

// IntegerCasts sees through casts from an integer column (not UINT64,
// whose values overflow a search engine's long) to an integer or DOUBLE,
// for Bleve and OpenSearch, which store integers exactly and compare them
// with DOUBLE constants as numbers. An explicit CAST(bigint AS INT) is
// seen through too: values that fit keep their value, the others fail or
// become NULL, so no row the filter keeps is missed.
func IntegerCasts(from, to arrow.DataType) bool {
	return indexedInteger(from) && (indexedInteger(to) || to.ID() == arrow.FLOAT64)
}

func indexedInteger(t arrow.DataType) bool {
	return types.IsInteger(t) && t.ID() != arrow.UINT64
}

// NumericCasts sees through casts that keep every value as it is, for
// Parquet statistics, whose min and max compare with a constant as
// numbers whatever the column's numeric type: from an integer to any
// numeric type (a narrowing integer cast fails on values that do not
// fit, so no kept row is missed), and FLOAT to DOUBLE. A cast that rounds
// or truncates (DOUBLE to INT) is not seen through: comparing the
// uncast values would skip a row group holding only 5.1 to 5.9 for
// CAST(d AS INT) = 5, though its rows match.
func NumericCasts(from, to arrow.DataType) bool {
	if types.IsInteger(from) {
		return types.IsNumeric(to)
	}
	return from.ID() == arrow.FLOAT32 && to.ID() == arrow.FLOAT64
}

// Normalize turns predicate e, over schema, into the normalized tree:
// and/or/not recursively; comparisons (= <> < <= > >=) between a column
// and a non-NULL constant, flipped when the constant is on the left; x [NOT]
// IN (constants); x IS [NOT] NULL; x BETWEEN constant AND constant;
// match/match_phrase(x, 'text'). A column is a schema column, or a struct
// field path inside one, under casts casts accepts (nil accepts none).
// Everything else is Opaque.
func Normalize(e expr.Expr, schema *arrow.Schema, casts Casts) Pred {
	w := walker{schema: schema, casts: casts}
	return w.pred(e)
}

type walker struct {
	schema *arrow.Schema
	casts  Casts
}

func (w walker) pred(e expr.Expr) Pred {
	switch n := e.(type) {
	case *expr.InExpr:
		if p, ok := w.in(n); ok {
			return p
		}
	case *expr.CallExpr:
		if p, ok := w.call(n); ok {
			return p
		}
	}
	return Opaque{Expr: e}
}

func (w walker) in(n *expr.InExpr) (Pred, bool) {
	r, ok := w.ref(n.Arg)
	if !ok {
		return nil, false
	}
	vals := make([]Value, len(n.List))
	for i, x := range n.List {
		if vals[i], ok = value(x); !ok {
			return nil, false
		}
	}
	return In{Ref: r, Values: vals, Not: n.Not}, true
}

func (w walker) call(c *expr.CallExpr) (Pred, bool) {
	args := c.Args
	switch c.Name {
	case "and":
		if len(args) == 2 {
			return And{Left: w.pred(args[0]), Right: w.pred(args[1])}, true
		}
	case "or":
		if len(args) == 2 {
			return Or{Left: w.pred(args[0]), Right: w.pred(args[1])}, true
		}
	case "not":
		if len(args) == 1 {
			return Not{Arg: w.pred(args[0])}, true
		}
	case "is_null", "is_not_null":
		if len(args) == 1 {
			if r, ok := w.ref(args[0]); ok {
				return IsNull{Ref: r, Not: c.Name == "is_not_null"}, true
			}
		}
	case "between":
		if len(args) == 3 {
			r, ok := w.ref(args[0])
			lo, okLo := value(args[1])
			hi, okHi := value(args[2])
			if ok && okLo && okHi {
				return Between{Ref: r, Lo: lo, Hi: hi}, true
			}
		}
	case "match", "match_phrase":
		if len(args) == 2 {
			r, ok := w.ref(args[0])
			v, okV := value(args[1])
			s, isStr := v.V.(string)
			if ok && okV && isStr {
				return Match{Ref: r, Text: s, Phrase: c.Name == "match_phrase"}, true
			}
		}
	default:
		if op, known := flipped[Op(c.Name)]; known && len(args) == 2 {
			if r, ok := w.ref(args[0]); ok {
				if v, ok := value(args[1]); ok {
					return Compare{Ref: r, Op: Op(c.Name), Value: v}, true
				}
			}
			if r, ok := w.ref(args[1]); ok {
				if v, ok := value(args[0]); ok {
					return Compare{Ref: r, Op: op, Value: v}, true
				}
			}
		}
	}
	return nil, false
}

// ref resolves a column, a struct field path or a cast casts accepts.
func (w walker) ref(e expr.Expr) (Ref, bool) {
	switch n := e.(type) {
	case *expr.Column:
		if n.Index < 0 || n.Index >= w.schema.NumFields() {
			return Ref{}, false
		}
		f := w.schema.Field(n.Index)
		return Ref{Index: n.Index, Column: f.Name, Type: f.Type}, true
	case *expr.FieldExpr:
		r, ok := w.ref(n.Arg)
		if !ok {
			return Ref{}, false
		}
		r.Path = append(r.Path[:len(r.Path):len(r.Path)], n.Name)
		r.Type = n.Type()
		return r, true
	case *expr.CastExpr:
		r, ok := w.ref(n.Arg)
		if ok && w.casts != nil && w.casts(r.Type, n.To) {
			return r, true
		}
	}
	return Ref{}, false
}

// value is a non-NULL literal. Implicit casts of constants are already
// folded into literals, so there is no cast to look through.
func value(e expr.Expr) (Value, bool) {
	l, ok := e.(*expr.Literal)
	if !ok || l.Value == nil {
		return Value{}, false
	}
	return Value{V: l.Value, Type: l.Type()}, true
}
