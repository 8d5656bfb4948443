package exec

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func TestFilter(t *testing.T) {
	tests := []struct {
		name    string
		batches [][]any
		pred    int64
		want    []string
	}{
		{"some", [][]any{ints(int64(1), int64(5), nil, int64(7))}, 3, []string{"5", "7"}},
		{"none", [][]any{ints(int64(1), int64(2))}, 3, nil},
		{"all", [][]any{ints(int64(4), int64(5))}, 3, []string{"4", "5"}},
		{"nulls drop", [][]any{ints(nil, nil)}, 0, nil},
		{"empty", [][]any{ints()}, 0, nil},
		{"many batches", [][]any{ints(int64(9)), ints(int64(1)), ints(int64(10), int64(0))}, 3, []string{"9", "10"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var bs []arrow.RecordBatch
			for _, c := range tt.batches {
				bs = append(bs, batchOf(t, []string{"x"}, c))
			}
			f, err := NewFilter(bs[0].Schema(), tcmp{0, tt.pred})
			if err != nil {
				t.Fatal(err)
			}
			eqRows(t, runOps(t, bs, f), tt.want)
		})
	}
}

func TestFilterErrors(t *testing.T) {
	b := batchOf(t, []string{"x"}, ints(int64(1)))
	if _, err := NewFilter(b.Schema(), tcol{0, arrow.PrimitiveTypes.Int64}); err == nil {
		t.Fatal("want error for non-boolean predicate")
	}
	f, _ := NewFilter(b.Schema(), tfail{})
	err := f.Process(context.Background(), b, NewCollect())
	if err == nil || !strings.Contains(err.Error(), "boom") || !strings.Contains(err.Error(), "fail()") {
		t.Fatalf("got %v", err)
	}
	if f.String() != "Filter fail()" {
		t.Fatal(f.String())
	}
}
