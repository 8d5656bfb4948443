package exec

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/expr"
	"sluice/internal/expr/functions"
	"sluice/internal/types"
)

// SortKey is one ORDER BY term. Spark's default NULL placement is NULLS
// FIRST for ascending and NULLS LAST for descending: DefaultNullsFirst.
type SortKey struct {
	Expr       expr.Expr
	Desc       bool
	NullsFirst bool
}

// DefaultNullsFirst is Spark's NULL placement when ORDER BY names none.
func DefaultNullsFirst(desc bool) bool { return !desc }

// String prints the key as in SQL, with NULLS only when not the default.
func (k SortKey) String() string {
	s := k.Expr.String()
	if k.Desc {
		s += " DESC"
	}
	if k.NullsFirst != DefaultNullsFirst(k.Desc) {
		if k.NullsFirst {
			s += " NULLS FIRST"
		} else {
			s += " NULLS LAST"
		}
	}
	return s
}

func sortKeysString(keys []SortKey) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k.String()
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// rowCmp compares rows i and j of one column: negative when i sorts
// first. NULL placement and direction are already applied.
type rowCmp func(i, j int) int

// columnCmp builds the comparator for one evaluated key column.
func columnCmp(a arrow.Array, desc, nullsFirst bool) (rowCmp, error) {
	base, err := valueCmp(a)
	if err != nil {
		return nil, err
	}
	dir := 1
	if desc {
		dir = -1
	}
	nullSide := 1
	if nullsFirst {
		nullSide = -1
	}
	if a.NullN() == 0 {
		if desc {
			return func(i, j int) int { return -base(i, j) }, nil
		}
		return base, nil
	}
	return func(i, j int) int {
		ni, nj := a.IsNull(i), a.IsNull(j)
		switch {
		case ni && nj:
			return 0
		case ni:
			return nullSide
		case nj:
			return -nullSide
		}
		return dir * base(i, j)
	}, nil
}

// valueCmp compares two non-NULL values ascending.
func valueCmp(a arrow.Array) (rowCmp, error) {
	switch v := a.(type) {
	case *array.Int64:
		x := v.Int64Values()
		return func(i, j int) int { return cmp.Compare(x[i], x[j]) }, nil
	case *array.Float64:
		x := v.Float64Values()
		return func(i, j int) int { return functions.FloatOrder(x[i], x[j]) }, nil
	case *array.Float32:
		x := v.Float32Values()
		return func(i, j int) int { return functions.FloatOrder(float64(x[i]), float64(x[j])) }, nil
	case *array.String:
		// Slicing the strings once beats re-reading offsets per compare.
		x := make([]string, v.Len())
		for i := range x {
			x[i] = v.Value(i)
		}
		return func(i, j int) int { return strings.Compare(x[i], x[j]) }, nil
	case *array.LargeString:
		return func(i, j int) int { return strings.Compare(v.Value(i), v.Value(j)) }, nil
	case *array.Binary:
		return func(i, j int) int { return bytes.Compare(v.Value(i), v.Value(j)) }, nil
	case *array.Boolean:
		return func(i, j int) int { return boolCmp(v.Value(i), v.Value(j)) }, nil
	case *array.Decimal128:
		return func(i, j int) int { return v.Value(i).Cmp(v.Value(j)) }, nil
	case *array.Uint64:
		x := v.Uint64Values()
		return func(i, j int) int { return cmp.Compare(x[i], x[j]) }, nil
	case *array.Null:
		return func(i, j int) int { return 0 }, nil
	}
	if intLike(a.DataType()) {
		x := int64s(a, nil)
		return func(i, j int) int { return cmp.Compare(x[i], x[j]) }, nil
	}
	switch a.DataType().ID() {
	case arrow.STRUCT, arrow.LIST, arrow.MAP, arrow.INTERVAL_MONTH_DAY_NANO:
		// Spark's order, element by element ([9] < [9, 1] < [10]), shared
		// with comparisons and min/max; a MAP is an error.
		c, err := functions.Order(a.DataType())
		if err != nil {
			return nil, err
		}
		return func(i, j int) int { return c(a, i, a, j) }, nil
	}
	return nil, fmt.Errorf("cannot sort by %s", types.SQLName(a.DataType()))
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// sortedIndices evaluates keys over batch and returns the stable sorted
// order of its rows.
func sortedIndices(ctx context.Context, keys []SortKey, batch arrow.RecordBatch) ([]int32, error) {
	// A key type without an order (MAP) fails however few rows there are.
	for _, k := range keys {
		if t := k.Expr.Type(); t.ID() == arrow.MAP || t.ID() == arrow.LIST || t.ID() == arrow.STRUCT {
			if _, err := functions.Order(t); err != nil {
				return nil, fmt.Errorf("sorting by %s: %w", k.Expr, err)
			}
		}
	}
	n := int(batch.NumRows())
	idx := make([]int32, n)
	for i := range idx {
		idx[i] = int32(i)
	}
	if n < 2 || len(keys) == 0 {
		return idx, nil
	}
	exprs := make([]expr.Expr, len(keys))
	for i, k := range keys {
		exprs[i] = k.Expr
	}
	cols, err := evalAll(ctx, exprs, batch)
	if err != nil {
		return nil, err
	}
	defer releaseAll(cols)
	if order, ok := normalizedOrder(keys, cols, n); ok {
		return order, nil
	}
	rc, err := rowsCmp(keys, cols)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(idx, func(a, b int32) int {
		if r := rc(int(a), int(b)); r != 0 {
			return r
		}
		return cmp.Compare(a, b) // stability
	})
	return idx, nil
}

// rowsCmp compares rows of the evaluated key columns cols, key by key.
func rowsCmp(keys []SortKey, cols []arrow.Array) (rowCmp, error) {
	cmps := make([]rowCmp, len(keys))
	for i, k := range keys {
		c, err := columnCmp(cols[i], k.Desc, k.NullsFirst)
		if err != nil {
			return nil, fmt.Errorf("sorting by %s: %w", k.Expr, err)
		}
		cmps[i] = c
	}
	if len(cmps) == 1 {
		return cmps[0], nil
	}
	return func(a, b int) int {
		for _, c := range cmps {
			if r := c(a, b); r != 0 {
				return r
			}
		}
		return 0
	}, nil
}

// sortExprs returns the expressions of keys.
func sortExprs(keys []SortKey) []expr.Expr {
	es := make([]expr.Expr, len(keys))
	for i, k := range keys {
		es[i] = k.Expr
	}
	return es
}

// takeRows returns batch's rows at idx, in that order. With many rows
// the columns are gathered on two goroutines: a gather is one cache miss
// per row and column, so for a sort of millions of rows it is memory
// latency that two cores overlap.
func takeRows(ctx context.Context, batch arrow.RecordBatch, idx []int32) (arrow.RecordBatch, error) {
	b := array.NewInt32Builder(memAlloc)
	b.AppendValues(idx, nil)
	ia := b.NewArray()
	b.Release()
	defer ia.Release()
	cols := make([]arrow.Array, batch.NumCols())
	errs := make([]error, batch.NumCols())
	take := func(c int) { cols[c], errs[c] = takeColumn(ctx, batch.Column(c), idx, ia) }
	if len(idx) >= parallelTakeRows && len(cols) > 1 {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := 1; c < len(cols); c += 2 {
				take(c)
			}
		}()
		for c := 0; c < len(cols); c += 2 {
			take(c)
		}
		wg.Wait()
	} else {
		for c := range cols {
			take(c)
		}
	}
	if err := errors.Join(errs...); err != nil {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
		return nil, err
	}
	out := array.NewRecordBatch(batch.Schema(), cols, int64(len(idx)))
	releaseAll(cols)
	return out, nil
}

// parallelTakeRows is the size from which takeRows uses two goroutines.
const parallelTakeRows = 1 << 16
