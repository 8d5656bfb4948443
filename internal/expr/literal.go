package expr

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/expr/functions"
	"sluice/internal/types"
)

// Literal is a constant. Value is in the form Lit accepts (nil for NULL,
// int32 for INT and DATE days, int64 for BIGINT and TIMESTAMP micros,
// decimal128.Num, ...), normalized to the literal's type.
type Literal struct {
	Value any
	typ   arrow.DataType
	one   arrow.Array // the value as a one-element array

	mu     sync.Mutex
	cached arrow.Array // the last expansion, reused for equal batch sizes
}

var _ Expr = (*Literal)(nil)

// Lit returns a constant of type t. v may be nil, bool, int32, int64,
// float64, string, decimal128.Num, arrow.MonthDayNanoInterval, int32
// days for DATE, int64 micros (or time.Time) for TIMESTAMP, []any for
// ARRAY, map[string]any for MAP, types.StructValue for STRUCT; numbers
// convert to t when they fit.
func Lit(v any, t arrow.DataType) (Expr, error) {
	if t == nil {
		t = types.Null
	}
	if t.ID() == arrow.NULL {
		if v != nil {
			return nil, fmt.Errorf("literal %v cannot have type NULL", v)
		}
		return newLiteral(array.NewNull(1)), nil
	}
	arr, err := functions.FromValue(v, t)
	if err != nil {
		return nil, fmt.Errorf("literal: %w", err)
	}
	return newLiteral(arr), nil
}

// MustLit is Lit for values known to fit (tests, rules); it panics
// otherwise, so never call it with user input.
func MustLit(v any, t arrow.DataType) Expr {
	e, err := Lit(v, t)
	if err != nil {
		panic(err)
	}
	return e
}

func newLiteral(one arrow.Array) *Literal {
	return &Literal{Value: functions.ScalarValue(one, 0), typ: one.DataType(), one: one}
}

// Type is the literal's type.
func (l *Literal) Type() arrow.DataType { return l.typ }

// IsNull reports a NULL literal.
func (l *Literal) IsNull() bool { return functions.IsNullAt(l.one, 0) }

// Eval repeats the value for every row of batch.
func (l *Literal) Eval(ctx context.Context, batch arrow.RecordBatch) (arrow.Array, error) {
	return l.expand(ctx, int(batch.NumRows()))
}

func (l *Literal) expand(ctx context.Context, n int) (arrow.Array, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cached != nil && l.cached.Len() == n {
		l.cached.Retain()
		return l.cached, nil
	}
	arr, err := functions.Repeat(ctx, l.one, n)
	if err != nil {
		return nil, err
	}
	if l.cached != nil {
		l.cached.Release()
	}
	arr.Retain()
	l.cached = arr
	return arr, nil
}

// String prints the literal in SQL.
func (l *Literal) String() string {
	if l.IsNull() {
		return "NULL"
	}
	s := types.FormatValue(l.one, 0)
	switch l.typ.ID() {
	case arrow.STRING:
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	case arrow.DATE32:
		return "DATE '" + s + "'"
	case arrow.TIMESTAMP:
		return "TIMESTAMP '" + s + "'"
	case arrow.INTERVAL_MONTH_DAY_NANO:
		return "INTERVAL '" + s + "'"
	}
	return s
}

// Children is empty.
func (l *Literal) Children() []Expr { return nil }

func (l *Literal) withChildren([]Expr) Expr { return l }
