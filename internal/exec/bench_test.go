package exec

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/expr"
)

const benchRows = 1 << 20

// benchBatches is (k BIGINT in [0, keys), s STRING of keys distinct
// values, v BIGINT) in 8192-row batches.
func benchBatches(b *testing.B, keys int) []arrow.RecordBatch {
	r := rand.New(rand.NewSource(42))
	// Names are precomputed only for small key spaces: keys may be huge
	// (unique values) and then each row formats its own.
	name := func(k int) string { return fmt.Sprintf("key-%06d", k) }
	if keys <= 1<<16 {
		names := make([]string, keys)
		for i := range names {
			names[i] = name(i)
		}
		name = func(k int) string { return names[k] }
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: arrow.PrimitiveTypes.Int64}, {Name: "s", Type: arrow.BinaryTypes.String},
		{Name: "v", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	var out []arrow.RecordBatch
	for done := 0; done < benchRows; done += 8192 {
		rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for i := 0; i < 8192; i++ {
			k := r.Intn(keys)
			rb.Field(0).(*array.Int64Builder).Append(int64(k))
			rb.Field(1).(*array.StringBuilder).Append(name(k))
			rb.Field(2).(*array.Int64Builder).Append(r.Int63n(1000))
		}
		out = append(out, rb.NewRecordBatch())
		rb.Release()
	}
	return out
}

func benchOp(b *testing.B, batches []arrow.RecordBatch, mk func() Operator) {
	ctx := context.Background()
	discard := OutputFunc(func(context.Context, Message) error { return nil })
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		op := mk()
		for _, batch := range batches {
			if err := op.Process(ctx, batch, discard); err != nil {
				b.Fatal(err)
			}
		}
		if err := op.OnWatermark(ctx, WatermarkEnd, discard); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchRows, "ns/row")
}

func BenchmarkHashAggregate(b *testing.B) {
	i64 := arrow.PrimitiveTypes.Int64
	v := []expr.Expr{expr.Col(2, "v", i64)}
	for _, c := range []struct {
		name string
		keys int
		key  expr.Expr
	}{
		{"int100", 100, expr.Col(0, "k", i64)},
		{"string10k", 10000, expr.Col(1, "s", arrow.BinaryTypes.String)},
	} {
		b.Run(c.name, func(b *testing.B) {
			batches := benchBatches(b, c.keys)
			benchOp(b, batches, func() Operator {
				h, err := NewHashAggregate([]expr.Expr{c.key}, []string{"k"}, []*expr.Aggregate{
					mustAgg(b, "count", nil), mustAgg(b, "sum", v), mustAgg(b, "avg", v),
				})
				if err != nil {
					b.Fatal(err)
				}
				return h
			})
		})
	}
}

func BenchmarkSort(b *testing.B) {
	batches := benchBatches(b, 1<<30)
	keys := []SortKey{{Expr: expr.Col(2, "v", arrow.PrimitiveTypes.Int64)}}
	b.Run("int64", func(b *testing.B) {
		benchOp(b, batches, func() Operator { return NewSort(batches[0].Schema(), keys) })
	})
	keys2 := []SortKey{{Expr: expr.Col(1, "s", arrow.BinaryTypes.String), Desc: true}}
	b.Run("string", func(b *testing.B) {
		benchOp(b, batches, func() Operator { return NewSort(batches[0].Schema(), keys2) })
	})
	b.Run("topn100", func(b *testing.B) {
		benchOp(b, batches, func() Operator { return NewTopN(batches[0].Schema(), keys, 100, 0) })
	})
}

func BenchmarkHashJoin(b *testing.B) {
	i64 := arrow.PrimitiveTypes.Int64
	probe := benchBatches(b, 20000) // half the probe rows find a match
	bb := array.NewInt64Builder(memory.DefaultAllocator)
	for i := 0; i < 10000; i++ {
		bb.Append(int64(i * 2))
	}
	col := bb.NewArray()
	bs := arrow.NewSchema([]arrow.Field{{Name: "bk", Type: i64}}, nil)
	build := []arrow.RecordBatch{array.NewRecordBatch(bs, []arrow.Array{col}, 10000)}
	ctx := context.Background()
	for _, kind := range []JoinKind{InnerJoin, LeftJoin} {
		b.Run(kind.String(), func(b *testing.B) {
			benchOp(b, probe, func() Operator {
				j, err := NewHashJoin(ctx, kind, probe[0].Schema(), bs, build,
					[]expr.Expr{expr.Col(0, "k", i64)}, []expr.Expr{expr.Col(0, "bk", i64)}, nil)
				if err != nil {
					b.Fatal(err)
				}
				return j
			})
		})
	}
}

func BenchmarkDistinct(b *testing.B) {
	batches := benchBatches(b, 10000)
	p, _ := NewProject([]expr.Expr{expr.Col(0, "k", arrow.PrimitiveTypes.Int64), expr.Col(1, "s", arrow.BinaryTypes.String)}, []string{"k", "s"})
	var proj []arrow.RecordBatch
	c := NewCollect()
	for _, x := range batches {
		if err := p.Process(context.Background(), x, c); err != nil {
			b.Fatal(err)
		}
	}
	proj = c.Batches()
	benchOp(b, proj, func() Operator { return NewDistinct(proj[0].Schema()) })
}
