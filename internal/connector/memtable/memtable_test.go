package memtable

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func intBatch(vs ...int64) arrow.RecordBatch {
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues(vs, nil)
	a := b.NewArray()
	defer a.Release()
	s := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil)
	return array.NewRecordBatch(s, []arrow.Array{a}, int64(len(vs)))
}

func TestTable(t *testing.T) {
	ctx := context.Background()
	b1, b2, b3 := intBatch(1, 2), intBatch(3), intBatch(4, 5, 6)
	tab := Named("values", b1.Schema(), []arrow.RecordBatch{b1, b2})
	latest, err := tab.Latest(ctx)
	if err != nil || string(latest) != "2" {
		t.Fatalf("latest %s %v", latest, err)
	}
	if err := tab.Append(b3); err != nil {
		t.Fatal(err)
	}
	latest2, _ := tab.Latest(ctx)
	tests := []struct {
		from, to json.RawMessage
		want     []int64
	}{
		{nil, latest, []int64{1, 2, 3}},
		{latest, latest2, []int64{4, 5, 6}},
		{nil, nil, []int64{1, 2, 3, 4, 5, 6}},
		{latest2, latest2, nil},
	}
	for _, tt := range tests {
		splits, err := tab.Plan(ctx, tt.from, tt.to)
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for _, s := range splits {
			r, err := tab.Open(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			for {
				b, err := r.Next(ctx)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, b.Column(0).(*array.Int64).Int64Values()...)
				b.Release()
			}
			r.Close()
		}
		if len(got) != len(tt.want) {
			t.Fatalf("%s..%s: got %v want %v", tt.from, tt.to, got, tt.want)
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Fatalf("got %v want %v", got, tt.want)
			}
		}
	}
	if _, err := tab.Plan(ctx, json.RawMessage("5"), nil); err == nil {
		t.Fatal("want out of range error")
	}
	if _, err := tab.Plan(ctx, json.RawMessage(`"x"`), nil); err == nil {
		t.Fatal("want bad offset error")
	}
	if d := tab.Describe(); d != "values batches=3 rows=6" {
		t.Fatal(d)
	}
	other := arrow.NewSchema([]arrow.Field{{Name: "y", Type: arrow.BinaryTypes.String}}, nil)
	if err := New(other, nil).Append(b1); err == nil {
		t.Fatal("want schema mismatch error")
	}
	tab.Release()
}
