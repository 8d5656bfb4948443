package functions

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/types"
)

// TestTake checks Take against Merge into an empty accumulator with the
// inverse mapping: the same results, empty groups where asked (a negative
// entry, or a group past the receiver's states), the receiver unchanged.
func TestTake(t *testing.T) {
	ib := array.NewInt64Builder(memory.DefaultAllocator)
	ib.AppendValues([]int64{5, 7, -2, 9, 4}, []bool{true, true, true, false, true})
	ints := ib.NewArray()
	defer ints.Release()
	fb := array.NewFloat64Builder(memory.DefaultAllocator)
	fb.AppendValues([]float64{0.5, 1.5, 2, 3, 4}, nil)
	floats := fb.NewArray()
	defer floats.Release()
	groups := []uint32{0, 2, 2, 1, 3}
	take := []int{-1, 2, 7, 0, 3}

	for _, tc := range []struct {
		name string
		make func() Accumulator
		args []arrow.Array
	}{
		{"count(*)", func() Accumulator { return &countAcc{} }, nil},
		{"count(x)", func() Accumulator { return &countAcc{} }, []arrow.Array{ints}},
		{"sum(bigint)", func() Accumulator { b, _ := makeSum([]Arg{{Type: types.BigInt}}, false); return b.New() }, []arrow.Array{ints}},
		{"avg(double)", func() Accumulator { b, _ := makeAvg([]Arg{{Type: types.Double}}, false); return b.New() }, []arrow.Array{floats}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			acc := tc.make()
			if err := acc.Update(groups, tc.args); err != nil {
				t.Fatal(err)
			}
			before, err := acc.Result(4)
			if err != nil {
				t.Fatal(err)
			}
			defer before.Release()
			got := acc.(Taker).Take(take)
			// Merge's mapping: group g of acc to 1 + its place in take;
			// 0 collects the groups take leaves out.
			mapping := make([]uint32, 4)
			for i, g := range take {
				if g >= 0 && g < 4 {
					mapping[g] = uint32(i)
				}
			}
			mapping[1] = 5
			want := tc.make()
			if err := want.Merge(acc, mapping); err != nil {
				t.Fatal(err)
			}
			gr, err := got.Result(len(take))
			if err != nil {
				t.Fatal(err)
			}
			defer gr.Release()
			wr, err := want.Result(len(take))
			if err != nil {
				t.Fatal(err)
			}
			defer wr.Release()
			if !array.Equal(gr, wr) {
				t.Fatalf("Take %v, Merge %v", gr, wr)
			}
			after, err := acc.Result(4)
			if err != nil {
				t.Fatal(err)
			}
			defer after.Release()
			if !array.Equal(before, after) {
				t.Fatalf("receiver changed: %v, was %v", after, before)
			}
		})
	}
}
