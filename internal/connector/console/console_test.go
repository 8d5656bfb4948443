package console

import (
	"bytes"
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestSinkPrintsJSONLines(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "status", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "path", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.Int32Builder).AppendValues([]int32{200, 500}, nil)
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"/a", ""}, []bool{true, false})
	rec := b.NewRecordBatch()
	defer rec.Release()

	tests := []struct {
		name    string
		batches int
		want    string
	}{
		{"one batch", 1, "{\"status\":200,\"path\":\"/a\"}\n{\"status\":500}\n"},
		{"two batches", 2, "{\"status\":200,\"path\":\"/a\"}\n{\"status\":500}\n{\"status\":200,\"path\":\"/a\"}\n{\"status\":500}\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			s := NewSinkTo(schema, &out)
			for i := 0; i < tc.batches; i++ {
				if err := s.Write(context.Background(), rec); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Flush(context.Background(), 0); err != nil {
				t.Fatal(err)
			}
			if got := out.String(); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}
