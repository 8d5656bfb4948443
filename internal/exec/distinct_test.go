package exec

import (
	"bytes"
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func TestDistinct(t *testing.T) {
	tests := []struct {
		name string
		cols []string
		in   [][][]any
		want []string
	}{
		{"int", []string{"k"}, [][][]any{{{int64(1), int64(2), int64(1), nil, nil}}, {{int64(2), int64(3)}}}, []string{"1", "2", "NULL", "3"}},
		{"string", []string{"s"}, [][][]any{{{"a", nil, "a", "b"}}, {{nil, "c"}}}, []string{"a", "NULL", "b", "c"}},
		{"rows", []string{"k", "s"}, [][][]any{{{int64(1), int64(1), nil, nil, int64(1)}, {"a", "b", nil, nil, "a"}}}, []string{"1,a", "1,b", "NULL,NULL"}},
		{"doubles", []string{"d"}, [][][]any{{{0.0, -0.0 * 1, 1.5, 1.5}}}, []string{"0", "1.5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var bs []arrow.RecordBatch
			for _, b := range tt.in {
				bs = append(bs, batchOf(t, tt.cols, b...))
			}
			eqRows(t, runOps(t, bs, NewDistinct(bs[0].Schema())), tt.want)
		})
	}
}

func TestDistinctSnapshot(t *testing.T) {
	ctx := context.Background()
	b1 := batchOf(t, []string{"k", "s"}, []any{int64(1), nil}, []any{"a", nil})
	b2 := batchOf(t, []string{"k", "s"}, []any{int64(1), nil, int64(2)}, []any{"a", nil, "a"})
	d := NewDistinct(b1.Schema())
	if err := d.Process(ctx, b1, NewCollect()); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := d.Snapshot(&buf); err != nil {
		t.Fatal(err)
	}
	d2 := NewDistinct(b1.Schema())
	if err := d2.Restore(&buf); err != nil {
		t.Fatal(err)
	}
	out := NewCollect()
	if err := d2.Process(ctx, b2, out); err != nil {
		t.Fatal(err)
	}
	eqRows(t, rowsOf(out.Batches()), []string{"2,a"})
}
