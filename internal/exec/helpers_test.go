package exec

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/connector/memtable"
	"sluice/internal/expr"
)

// tcol is a test-only column reference.
type tcol struct {
	idx int
	t   arrow.DataType
}

func (c tcol) Type() arrow.DataType { return c.t }
func (c tcol) Eval(ctx context.Context, b arrow.RecordBatch) (arrow.Array, error) {
	a := b.Column(c.idx)
	a.Retain()
	return a, nil
}
func (c tcol) String() string        { return fmt.Sprintf("c%d", c.idx) }
func (c tcol) Children() []expr.Expr { return nil }

// tcmp compares an int64 column with a constant: col > v (NULL stays NULL).
type tcmp struct {
	idx int
	v   int64
}

func (c tcmp) Type() arrow.DataType { return arrow.FixedWidthTypes.Boolean }
func (c tcmp) Eval(ctx context.Context, b arrow.RecordBatch) (arrow.Array, error) {
	a := b.Column(c.idx).(*array.Int64)
	bld := array.NewBooleanBuilder(memory.DefaultAllocator)
	defer bld.Release()
	for i := 0; i < a.Len(); i++ {
		if a.IsNull(i) {
			bld.AppendNull()
		} else {
			bld.Append(a.Value(i) > c.v)
		}
	}
	return bld.NewArray(), nil
}
func (c tcmp) String() string        { return fmt.Sprintf("(c%d > %d)", c.idx, c.v) }
func (c tcmp) Children() []expr.Expr { return nil }

// tfail always fails, to test error paths.
type tfail struct{}

func (tfail) Type() arrow.DataType { return arrow.FixedWidthTypes.Boolean }
func (tfail) Eval(ctx context.Context, b arrow.RecordBatch) (arrow.Array, error) {
	return nil, fmt.Errorf("boom")
}
func (tfail) String() string        { return "fail()" }
func (tfail) Children() []expr.Expr { return nil }

// batchOf builds a batch from columns given as Go slices; a nil element
// is NULL. Supported: []any of int64, string, float64, bool.
func batchOf(t testing.TB, names []string, cols ...[]any) arrow.RecordBatch {
	t.Helper()
	fields := make([]arrow.Field, len(cols))
	arrs := make([]arrow.Array, len(cols))
	n := 0
	for i, c := range cols {
		n = len(c)
		var typ arrow.DataType = arrow.PrimitiveTypes.Int64
		for _, v := range c {
			switch v.(type) {
			case string:
				typ = arrow.BinaryTypes.String
			case float64:
				typ = arrow.PrimitiveTypes.Float64
			case bool:
				typ = arrow.FixedWidthTypes.Boolean
			case nil:
				continue
			}
			break
		}
		fields[i] = arrow.Field{Name: names[i], Type: typ, Nullable: true}
		bld := array.NewBuilder(memory.DefaultAllocator, typ)
		for _, v := range c {
			if v == nil {
				bld.AppendNull()
				continue
			}
			switch b := bld.(type) {
			case *array.Int64Builder:
				b.Append(v.(int64))
			case *array.StringBuilder:
				b.Append(v.(string))
			case *array.Float64Builder:
				b.Append(v.(float64))
			case *array.BooleanBuilder:
				b.Append(v.(bool))
			}
		}
		arrs[i] = bld.NewArray()
		bld.Release()
	}
	b := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(n))
	for _, a := range arrs {
		a.Release()
	}
	return b
}

func ints(vs ...any) []any { return vs }

// rowsOf renders batches as "a,b" lines, NULL for nulls.
func rowsOf(batches []arrow.RecordBatch) []string {
	var out []string
	for _, b := range batches {
		for r := 0; r < int(b.NumRows()); r++ {
			parts := make([]string, b.NumCols())
			for c := 0; c < int(b.NumCols()); c++ {
				col := b.Column(c)
				if col.IsNull(r) {
					parts[c] = "NULL"
				} else {
					parts[c] = col.ValueStr(r)
				}
			}
			out = append(out, strings.Join(parts, ","))
		}
	}
	return out
}

// runOps runs ops over batches through the driver into a collector and
// returns the rendered rows.
func runOps(t testing.TB, batches []arrow.RecordBatch, ops ...Operator) []string {
	t.Helper()
	src := memtable.New(batches[0].Schema(), batches)
	defer src.Release()
	splits, err := src.Plan(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := NewCollect()
	defer out.Release()
	st := &Stage{Scan: &Scan{Source: src, Splits: splits, Parallelism: 2}, Ops: ops}
	if err := Run(context.Background(), st, WatermarkEnd, out, nil); err != nil {
		t.Fatal(err)
	}
	return rowsOf(out.Batches())
}

func eqRows(t testing.TB, got, want []string) {
	t.Helper()
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("rows:\n got %q\nwant %q", got, want)
	}
}
