package exec

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestKeyTable(t *testing.T) {
	mem := memory.DefaultAllocator
	i32 := array.NewInt32Builder(mem)
	i32.AppendValues([]int32{5, 7, 5, 0, 7}, []bool{true, true, true, false, true})
	f64 := array.NewFloat64Builder(mem)
	f64.AppendValues([]float64{0, math.Copysign(0, -1), math.NaN(), math.NaN(), 1}, nil)
	bl := array.NewBooleanBuilder(mem)
	bl.AppendValues([]bool{true, false, true, true, false}, []bool{true, true, true, false, false})
	d32 := array.NewDate32Builder(mem)
	d32.AppendValues([]arrow.Date32{1, 2, 1, 2, 3}, nil)
	lb := array.NewListBuilder(mem, arrow.PrimitiveTypes.Int64)
	vb := lb.ValueBuilder().(*array.Int64Builder)
	for _, l := range [][]int64{{1, 2}, {1}, {1, 2}, nil, {}} {
		if l == nil {
			lb.AppendNull()
			continue
		}
		lb.Append(true)
		vb.AppendValues(l, nil)
	}
	dates := d32.NewArray()
	u16 := array.NewUint16Builder(mem)
	u16.AppendValues([]uint16{1, 1, 2, 2, 1}, nil)
	tests := []struct {
		name string
		cols []arrow.Array
		ids  []uint32
		look []int32 // lookup of the same rows: NULL keys are -1
	}{
		{"int32 nulls", []arrow.Array{i32.NewArray()}, []uint32{0, 1, 0, 2, 1}, []int32{0, 1, 0, -1, 1}},
		{"float zero and NaN", []arrow.Array{f64.NewArray()}, []uint32{0, 0, 1, 1, 2}, []int32{0, 0, 1, 1, 2}},
		{"bool nulls", []arrow.Array{bl.NewArray()}, []uint32{0, 1, 0, 2, 2}, []int32{0, 1, 0, -1, -1}},
		{"date", []arrow.Array{dates}, []uint32{0, 1, 0, 1, 2}, []int32{0, 1, 0, 1, 2}},
		{"list", []arrow.Array{lb.NewArray()}, []uint32{0, 1, 0, 2, 3}, []int32{0, 1, 0, -1, 3}},
		{"uint16 and date pair", []arrow.Array{u16.NewArray(), dates}, []uint32{0, 1, 2, 3, 4}, []int32{0, 1, 2, 3, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			types := make([]arrow.DataType, len(tt.cols))
			for i, c := range tt.cols {
				types[i] = c.DataType()
			}
			kt := newKeyTable(types)
			ids := make([]uint32, 5)
			kt.assign(tt.cols, 5, ids, nil)
			for i := range ids {
				if ids[i] != tt.ids[i] {
					t.Fatalf("ids %v, want %v", ids, tt.ids)
				}
			}
			look := make([]int32, 5)
			kt.lookup(tt.cols, 5, look)
			for i := range look {
				if look[i] != tt.look[i] {
					t.Fatalf("lookup %v, want %v", look, tt.look)
				}
			}
		})
	}
}

// Runs of one integer key (with NULLs between) get one id and one fresh
// row; a forgotten key is new again in the next call.
func TestKeyTableIntRuns(t *testing.T) {
	b := array.NewInt64Builder(memory.DefaultAllocator)
	b.AppendValues([]int64{5, 5, 0, 5, 7, 7, 5, 9}, []bool{true, true, false, true, true, true, true, true})
	col := []arrow.Array{b.NewArray()}
	kt := newKeyTable([]arrow.DataType{arrow.PrimitiveTypes.Int64})
	ids := make([]uint32, 8)
	fresh := kt.assign(col, 8, ids, nil)
	if want := []uint32{0, 0, 1, 0, 2, 2, 0, 3}; !equalU32(ids, want) {
		t.Fatalf("ids %v, want %v", ids, want)
	}
	if len(fresh) != 4 || fresh[0] != 0 || fresh[1] != 2 || fresh[2] != 4 || fresh[3] != 7 {
		t.Fatalf("fresh %v", fresh)
	}
	kt.forget(col, 8, fresh[2:], 2) // 7 and 9 taken back
	fresh = kt.assign(col, 8, ids, nil)
	if want := []uint32{0, 0, 1, 0, 2, 2, 0, 3}; !equalU32(ids, want) || len(fresh) != 2 || fresh[0] != 4 || fresh[1] != 7 {
		t.Fatalf("after forget: ids %v fresh %v", ids, fresh)
	}
}

func equalU32(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
