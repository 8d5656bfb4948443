package connector

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

type batches struct{ left, size int }

func (b *batches) Next(context.Context) (arrow.RecordBatch, error) {
	if b.left == 0 {
		return nil, io.EOF
	}
	b.left--
	ib := array.NewInt64Builder(memory.DefaultAllocator)
	for i := 0; i < b.size; i++ {
		ib.Append(int64(i))
	}
	s := arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int64}}, nil)
	return array.NewRecordBatch(s, []arrow.Array{ib.NewArray()}, int64(b.size)), nil
}
func (b *batches) Close() error { return nil }

func TestLimitReader(t *testing.T) {
	for _, tc := range []struct{ n, want int64 }{{0, 0}, {3, 3}, {10, 10}, {25, 25}, {100, 30}} {
		r := LimitReader(&batches{left: 3, size: 10}, tc.n)
		var got int64
		for {
			b, err := r.Next(context.Background())
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got += b.NumRows()
		}
		if got != tc.want {
			t.Errorf("limit %d: %d rows, want %d", tc.n, got, tc.want)
		}
	}
}
