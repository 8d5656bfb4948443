package exec

import (
	"bytes"
	"cmp"
	"container/heap"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"sluice/internal/expr"
	"sluice/internal/expr/functions"
)

// mergeRuns reads runs (each sorted by keys) and hands emit their rows in
// one sorted order, in batches of at most emitBatchRows. Equal keys keep
// run order, then row order: runs written in arrival order merge into a
// stable sort. The batches given to emit are borrowed.
func mergeRuns(ctx context.Context, schema *arrow.Schema, runs []*spillRun, keys []SortKey, emit func(arrow.RecordBatch) error) error {
	m := &merger{schema: schema, keys: keys, exprs: sortExprs(keys)}
	defer m.close()
	for i, r := range runs {
		rd, err := r.open()
		if err != nil {
			return err
		}
		c := &cursor{run: i, rd: rd}
		m.cursors = append(m.cursors, c)
		ok, err := m.load(ctx, c)
		if err != nil {
			return err
		}
		if ok {
			m.h = append(m.h, c)
		}
	}
	heap.Init(m)
	for len(m.h) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		c := m.h[0]
		if c.start < 0 {
			c.start = c.row
		}
		m.picks = append(m.picks, c)
		c.row++
		if c.row == int(c.batch.NumRows()) {
			// The batch is about to be replaced: emit what points into it.
			if err := m.flush(emit); err != nil {
				return err
			}
			ok, err := m.load(ctx, c)
			if err != nil {
				return err
			}
			if !ok {
				heap.Pop(m)
				continue
			}
		} else if len(m.picks) >= emitBatchRows {
			if err := m.flush(emit); err != nil {
				return err
			}
		}
		heap.Fix(m, 0)
	}
	return m.flush(emit)
}

type cursor struct {
	run   int
	rd    *runReader
	batch arrow.RecordBatch
	keys  []arrow.Array
	row   int
	start int // first row picked since the last flush, -1 for none
}

type merger struct {
	schema  *arrow.Schema
	keys    []SortKey
	exprs   []expr.Expr
	cursors []*cursor
	h       []*cursor
	picks   []*cursor
}

// load moves c to its run's next non-empty batch; false at the end.
func (m *merger) load(ctx context.Context, c *cursor) (bool, error) {
	c.release()
	for {
		b, err := c.rd.next()
		if err == io.EOF {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		c.batch, c.row, c.start = b, 0, -1
		c.keys = make([]arrow.Array, len(m.exprs))
		for i, e := range m.exprs {
			a, err := e.Eval(ctx, b)
			if err != nil {
				return false, fmt.Errorf("merging spilled runs: evaluating %s: %w", e, err)
			}
			c.keys[i] = a
		}
		return true, nil
	}
}

func (c *cursor) release() {
	if c.batch != nil {
		c.batch.Release()
		c.batch = nil
	}
	releaseAll(c.keys)
	c.keys = nil
}

func (m *merger) close() {
	for _, c := range m.cursors {
		c.release()
		c.rd.close()
	}
}

// flush emits the picked rows. A cursor's picks since the last flush are
// one contiguous range of its batch, so the output is those ranges
// concatenated, then permuted into pick order.
func (m *merger) flush(emit func(arrow.RecordBatch) error) error {
	if len(m.picks) == 0 {
		return nil
	}
	var parts []*cursor
	for _, c := range m.cursors {
		if c.batch != nil && c.start >= 0 {
			parts = append(parts, c)
		}
	}
	var out arrow.RecordBatch
	if len(parts) == 1 {
		c := parts[0]
		out = c.batch.NewSlice(int64(c.start), int64(c.row))
	} else {
		offset := map[*cursor]int32{}
		slices := make([]arrow.RecordBatch, len(parts))
		var at int32
		for i, c := range parts {
			offset[c] = at
			slices[i] = c.batch.NewSlice(int64(c.start), int64(c.row))
			at += int32(c.row - c.start)
		}
		all, err := concatRows(m.schema, slices)
		releaseBatches(slices)
		if err != nil {
			return fmt.Errorf("merging spilled runs: %w", err)
		}
		idx := make([]int32, len(m.picks))
		for i, c := range m.picks {
			idx[i] = offset[c]
			offset[c]++
		}
		out, err = takeRows(context.Background(), all, idx)
		all.Release()
		if err != nil {
			return fmt.Errorf("merging spilled runs: %w", err)
		}
	}
	for _, c := range parts {
		c.start = -1
	}
	m.picks = m.picks[:0]
	err := emit(out)
	out.Release()
	return err
}

func (m *merger) Len() int { return len(m.h) }
func (m *merger) Less(i, j int) bool {
	a, b := m.h[i], m.h[j]
	if r := m.compare(a, b); r != 0 {
		return r < 0
	}
	return a.run < b.run
}
func (m *merger) Swap(i, j int) { m.h[i], m.h[j] = m.h[j], m.h[i] }
func (m *merger) Push(x any)    { m.h = append(m.h, x.(*cursor)) }
func (m *merger) Pop() any {
	c := m.h[len(m.h)-1]
	m.h = m.h[:len(m.h)-1]
	return c
}

func (m *merger) compare(a, b *cursor) int {
	for k, key := range m.keys {
		x, y := a.keys[k], b.keys[k]
		xn, yn := x.IsNull(a.row), y.IsNull(b.row)
		switch {
		case xn && yn:
			continue
		case xn || yn:
			side := 1
			if key.NullsFirst {
				side = -1
			}
			if xn {
				return side
			}
			return -side
		}
		r := crossCmp(x, a.row, y, b.row)
		if key.Desc {
			r = -r
		}
		if r != 0 {
			return r
		}
	}
	return 0
}

// crossCmp compares non-NULL x[i] and y[j] of the same type ascending,
// in the order valueCmp gives within one array.
func crossCmp(x arrow.Array, i int, y arrow.Array, j int) int {
	switch v := x.(type) {
	case *array.Int64:
		return cmp.Compare(v.Value(i), y.(*array.Int64).Value(j))
	case *array.Float64:
		return functions.FloatOrder(v.Value(i), y.(*array.Float64).Value(j))
	case *array.Float32:
		return functions.FloatOrder(float64(v.Value(i)), float64(y.(*array.Float32).Value(j)))
	case *array.String:
		return strings.Compare(v.Value(i), y.(*array.String).Value(j))
	case *array.LargeString:
		return strings.Compare(v.Value(i), y.(*array.LargeString).Value(j))
	case *array.Binary:
		return bytes.Compare(v.Value(i), y.(*array.Binary).Value(j))
	case *array.Boolean:
		return boolCmp(v.Value(i), y.(*array.Boolean).Value(j))
	case *array.Decimal128:
		return v.Value(i).Cmp(y.(*array.Decimal128).Value(j))
	case *array.Uint64:
		return cmp.Compare(v.Value(i), y.(*array.Uint64).Value(j))
	case *array.Null:
		return 0
	case *array.Timestamp:
		return cmp.Compare(v.Value(i), y.(*array.Timestamp).Value(j))
	case *array.Int32:
		return cmp.Compare(v.Value(i), y.(*array.Int32).Value(j))
	case *array.Date32:
		return cmp.Compare(v.Value(i), y.(*array.Date32).Value(j))
	}
	if intLike(x.DataType()) {
		a := array.NewSlice(x, int64(i), int64(i+1))
		b := array.NewSlice(y, int64(j), int64(j+1))
		r := cmp.Compare(int64s(a, nil)[0], int64s(b, nil)[0])
		a.Release()
		b.Release()
		return r
	}
	return strings.Compare(x.ValueStr(i), y.ValueStr(j))
}
