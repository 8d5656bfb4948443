package functions

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/types"
)

// The ranking window functions, with Spark's types: row_number, rank,
// dense_rank and ntile give INT; percent_rank and cume_dist DOUBLE. Ties
// are the rows of one peer group (equal on the ORDER BY keys).

func makeRanking(name string) WindowMaker {
	return func(args []Arg, ignoreNulls bool) (*WindowBound, error) {
		if err := noIgnoreNulls(name, ignoreNulls); err != nil {
			return nil, err
		}
		b := &WindowBound{Type: types.Int, NeedsOrder: true}
		switch name {
		case "row_number":
			b.Eval = intsOf(func(p *WindowPartition, i int) int32 { return int32(i + 1) })
		case "rank":
			b.Eval = intsOf(func(p *WindowPartition, i int) int32 { return int32(p.PeerStart[i] + 1) })
		case "dense_rank":
			b.Eval = denseRank
		case "percent_rank":
			b.Type = types.Double
			b.Eval = doublesOf(func(p *WindowPartition, i int) float64 {
				if p.N <= 1 {
					return 0
				}
				return float64(p.PeerStart[i]) / float64(p.N-1)
			})
		case "cume_dist":
			b.Type = types.Double
			b.Eval = doublesOf(func(p *WindowPartition, i int) float64 { return float64(p.PeerEnd[i]) / float64(p.N) })
		case "ntile":
			n, err := constInt(name, "number of buckets", args[0])
			if err != nil {
				return nil, err
			}
			if n <= 0 || n > 1<<31-1 {
				return nil, fmt.Errorf("ntile expects a positive number of buckets, got %d", n)
			}
			b.Eval = ntile(int(n))
		default:
			return nil, fmt.Errorf("internal error: unknown ranking function %s", name)
		}
		return b, nil
	}
}

func intsOf(f func(p *WindowPartition, i int) int32) func(context.Context, *WindowPartition) (arrow.Array, error) {
	return func(_ context.Context, p *WindowPartition) (arrow.Array, error) {
		vals := make([]int32, p.N)
		for i := range vals {
			vals[i] = f(p, i)
		}
		return newInt32s(vals), nil
	}
}

func doublesOf(f func(p *WindowPartition, i int) float64) func(context.Context, *WindowPartition) (arrow.Array, error) {
	return func(_ context.Context, p *WindowPartition) (arrow.Array, error) {
		b := array.NewFloat64Builder(memory.DefaultAllocator)
		defer b.Release()
		b.Reserve(p.N)
		for i := 0; i < p.N; i++ {
			b.UnsafeAppend(f(p, i))
		}
		return b.NewArray(), nil
	}
}

func newInt32s(vals []int32) arrow.Array {
	b := array.NewInt32Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues(vals, nil)
	return b.NewArray()
}

func denseRank(_ context.Context, p *WindowPartition) (arrow.Array, error) {
	vals := make([]int32, p.N)
	r := int32(0)
	for i := range vals {
		if i == p.PeerStart[i] {
			r++
		}
		vals[i] = r
	}
	return newInt32s(vals), nil
}

// ntile splits the partition into n buckets as Spark does: each holds
// N/n rows and the first N%n hold one more.
func ntile(n int) func(context.Context, *WindowPartition) (arrow.Array, error) {
	return func(_ context.Context, p *WindowPartition) (arrow.Array, error) {
		vals := make([]int32, p.N)
		size, extra := p.N/n, p.N%n
		i := 0
		for bucket := 1; bucket <= n && i < p.N; bucket++ {
			k := size
			if bucket <= extra {
				k++
			}
			for j := 0; j < k; j++ {
				vals[i] = int32(bucket)
				i++
			}
		}
		return newInt32s(vals), nil
	}
}
