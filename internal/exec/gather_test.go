package exec

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestGather checks the typed copies against the compute Take kernel.
func TestGather(t *testing.T) {
	mem := memory.DefaultAllocator
	valid := []bool{true, false, true, true}
	var arrs []arrow.Array
	{
		b := array.NewStringBuilder(mem)
		b.AppendValues([]string{"a", "", "ccc", "dd"}, valid)
		arrs = append(arrs, b.NewArray())
	}
	{
		b := array.NewStringBuilder(mem) // no NULLs: offsets copied directly
		b.AppendValues([]string{"a", "bb", "", "dddd"}, nil)
		arrs = append(arrs, b.NewArray())
	}
	{
		b := array.NewInt64Builder(mem)
		b.AppendValues([]int64{1, 0, 3, 4}, valid)
		arrs = append(arrs, b.NewArray())
	}
	{
		b := array.NewFloat64Builder(mem)
		b.AppendValues([]float64{1.5, 0, 3, 4}, valid)
		arrs = append(arrs, b.NewArray())
	}
	{
		b := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"})
		b.AppendValues([]arrow.Timestamp{1, 0, 3, 4}, valid)
		arrs = append(arrs, b.NewArray())
	}
	{
		b := array.NewBooleanBuilder(mem) // falls back to Take
		b.AppendValues([]bool{true, false, false, true}, valid)
		arrs = append(arrs, b.NewArray())
	}
	rows := []int{3, 1, 0, 0}
	for _, a := range arrs {
		full := array.NewSlice(a, 0, 4)
		sliced := array.NewSlice(a, 1, 4) // non-zero offset
		for _, in := range []struct {
			a    arrow.Array
			rows []int
		}{{full, rows}, {sliced, []int{2, 0, 1}}} {
			got, err := gather(context.Background(), in.a, in.rows)
			if err != nil {
				t.Fatal(err)
			}
			want, err := compute.TakeArray(context.Background(), in.a, indexArray(in.rows))
			if err != nil {
				t.Fatal(err)
			}
			if !array.Equal(got, want) {
				t.Fatalf("%s: got %v want %v", a.DataType(), got, want)
			}
		}
	}
}

// TestSplitStrings checks the one-pass split by partition against a
// gather per partition, on a sliced array (non-zero first offset).
func TestSplitStrings(t *testing.T) {
	b := array.NewStringBuilder(memory.DefaultAllocator)
	for i := 0; i < 500; i++ {
		b.Append(strings.Repeat("k", i%7) + fmt.Sprint(i))
	}
	whole := b.NewArray()
	defer whole.Release()
	v := array.NewSlice(whole, 3, 480).(*array.String)
	defer v.Release()
	part := make([]uint8, v.Len())
	var members [spillPartitions][]int
	for r := range part {
		part[r] = uint8(r * 7 % 5 * 3) // some partitions stay empty
		members[part[r]] = append(members[part[r]], r)
	}
	got := splitStrings(v, part, &members)
	for p, g := range got {
		want, err := gather(context.Background(), v, members[p])
		if err != nil {
			t.Fatal(err)
		}
		if !array.Equal(g, want) {
			t.Fatalf("partition %d: got %v want %v", p, g, want)
		}
		g.Release()
		want.Release()
	}
}
