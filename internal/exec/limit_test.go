package exec

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func TestLimit(t *testing.T) {
	tests := []struct {
		name      string
		n, offset int64
		want      []string
	}{
		{"first rows", 3, 0, []string{"0", "1", "2"}},
		{"across batches", 5, 0, []string{"0", "1", "2", "3", "4"}},
		{"offset", 2, 3, []string{"3", "4"}},
		{"offset only", -1, 8, []string{"8", "9"}},
		{"zero", 0, 0, nil},
		{"past end", 100, 0, []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var bs []arrow.RecordBatch
			for i := int64(0); i < 10; i += 4 {
				var c []any
				for j := i; j < min(i+4, 10); j++ {
					c = append(c, j)
				}
				bs = append(bs, batchOf(t, []string{"x"}, c))
			}
			eqRows(t, runOps(t, bs, NewLimit(bs[0].Schema(), tt.n, tt.offset)), tt.want)
		})
	}
}

func TestLimitSnapshot(t *testing.T) {
	b := batchOf(t, []string{"x"}, ints(int64(1), int64(2), int64(3)))
	l := NewLimit(b.Schema(), 4, 1)
	ctx := context.Background()
	if err := l.Process(ctx, b, NewCollect()); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := l.Snapshot(&buf); err != nil {
		t.Fatal(err)
	}
	l2 := NewLimit(b.Schema(), 4, 1)
	if err := l2.Restore(&buf); err != nil {
		t.Fatal(err)
	}
	out := NewCollect()
	err := l2.Process(ctx, b, out)
	if !errors.Is(err, ErrLimitReached) {
		t.Fatalf("want ErrLimitReached, got %v", err)
	}
	eqRows(t, rowsOf(out.Batches()), []string{"1", "2"})
}
