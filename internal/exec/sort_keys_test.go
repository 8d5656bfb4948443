package exec

import (
	"cmp"
	"context"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"

	"sluice/internal/expr"
)

// TestNormalizedOrder checks the radix sort of packed key codes against
// the row-by-row comparator on random columns of every encoded type,
// with NULLs, both directions and both NULL placements, in sizes that
// take the comparison sort, the one-goroutine radix sort and the
// two-halves merge.
func TestNormalizedOrder(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	floats := []float64{math.NaN(), math.Inf(-1), math.Inf(1), -0.0, 0, -1.5, 2.25, 1e300, -1e-300}
	strs := []string{"", "a", "ab", "b", "\xff", "a\x00", "zz", "Ab"}
	for _, n := range []int{1, 2, 50, 3000, 70000} {
		for _, nulls := range []bool{false, true} {
			null := func() bool { return nulls && r.Intn(7) == 0 }
			ib := array.NewInt64Builder(memAlloc)
			i8 := array.NewInt8Builder(memAlloc)
			fb := array.NewFloat64Builder(memAlloc)
			sb := array.NewStringBuilder(memAlloc)
			bb := array.NewBooleanBuilder(memAlloc)
			tb := array.NewTimestampBuilder(memAlloc, &arrow.TimestampType{Unit: arrow.Microsecond})
			ub := array.NewUint64Builder(memAlloc)
			for i := 0; i < n; i++ {
				if null() {
					ib.AppendNull()
				} else {
					ib.Append(r.Int63n(1<<40) - 1<<39)
				}
				if null() {
					i8.AppendNull()
				} else {
					i8.Append(int8(r.Intn(256) - 128))
				}
				if null() {
					fb.AppendNull()
				} else {
					fb.Append(floats[r.Intn(len(floats))])
				}
				if null() {
					sb.AppendNull()
				} else {
					sb.Append(strs[r.Intn(len(strs))])
				}
				if null() {
					bb.AppendNull()
				} else {
					bb.Append(r.Intn(2) == 0)
				}
				if null() {
					tb.AppendNull()
				} else {
					tb.Append(arrow.Timestamp(r.Int63()))
				}
				if null() {
					ub.AppendNull()
				} else {
					ub.Append(r.Uint64() >> uint(r.Intn(64)))
				}
			}
			cols := []arrow.Array{ib.NewArray(), i8.NewArray(), fb.NewArray(), sb.NewArray(), bb.NewArray(), tb.NewArray(), ub.NewArray()}
			for trial := 0; trial < 6; trial++ {
				// 1-4 keys, drawn with repeats, random direction and NULL
				// placement (the full 64-bit keys overflow one word).
				var keys []SortKey
				var kc []arrow.Array
				for k := 0; k <= r.Intn(4); k++ {
					c := r.Intn(len(cols))
					keys = append(keys, SortKey{Expr: expr.Col(c, "c", cols[c].DataType()), Desc: r.Intn(2) == 0, NullsFirst: r.Intn(2) == 0})
					kc = append(kc, cols[c])
				}
				got, ok := normalizedOrder(keys, kc, n)
				if !ok {
					t.Fatal("no codes for encodable types")
				}
				rc, err := rowsCmp(keys, kc)
				if err != nil {
					t.Fatal(err)
				}
				want := make([]int32, n)
				for i := range want {
					want[i] = int32(i)
				}
				slices.SortStableFunc(want, func(a, b int32) int { return rc(int(a), int(b)) })
				if !slices.Equal(got, want) {
					t.Fatalf("n=%d nulls=%v keys=%v: order differs from the comparator's", n, nulls, keys)
				}
			}
			releaseAll(cols)
		}
	}
}

func TestNormalizedOrderRefusesDecimal(t *testing.T) {
	b := array.NewDecimal128Builder(memAlloc, &arrow.Decimal128Type{Precision: 10, Scale: 2})
	b.AppendValues(nil, nil)
	a := b.NewArray()
	defer a.Release()
	if _, ok := normalizedOrder([]SortKey{{Expr: expr.Col(0, "d", a.DataType())}}, []arrow.Array{a}, 0); ok {
		t.Fatal("DECIMAL has no fixed-width code here; want the comparator")
	}
}

func TestRadixSortStable(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for _, n := range []int{radixRows, 1 << 16, 1<<16 + 17} {
		a := make([]keyedRow, n)
		for i := range a {
			a[i] = keyedRow{uint64(r.Intn(300)) << 40, uint32(i)}
		}
		sortKeyedRows(a, make([]keyedRow, n))
		if !slices.IsSortedFunc(a, func(x, y keyedRow) int {
			return cmp.Or(cmp.Compare(x.k, y.k), cmp.Compare(x.i, y.i))
		}) {
			t.Fatalf("n=%d: not sorted by (key, arrival)", n)
		}
	}
}

// TestTakeColumn checks the copying take against Arrow's kernel on
// sliced arrays with NULLs, for strings, binaries and fixed widths.
func TestTakeColumn(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	sb := array.NewStringBuilder(memAlloc)
	bb := array.NewBinaryBuilder(memAlloc, arrow.BinaryTypes.Binary)
	ib := array.NewInt32Builder(memAlloc)
	fb := array.NewFloat64Builder(memAlloc)
	tb := array.NewTimestampBuilder(memAlloc, &arrow.TimestampType{Unit: arrow.Microsecond})
	for i := 0; i < 500; i++ {
		if r.Intn(5) == 0 {
			sb.AppendNull()
			bb.AppendNull()
			ib.AppendNull()
			fb.AppendNull()
			tb.AppendNull()
			continue
		}
		s := strings.Repeat("x", r.Intn(9)) + string(rune('a'+i%26))
		sb.Append(s)
		bb.Append([]byte(s))
		ib.Append(int32(i))
		fb.Append(float64(i) / 3)
		tb.Append(arrow.Timestamp(i * 1000))
	}
	for _, b := range []array.Builder{sb, bb, ib, fb, tb} {
		whole := b.NewArray()
		col := array.NewSlice(whole, 37, 460) // offset and shorter
		whole.Release()
		idx := make([]int32, 900)
		for i := range idx {
			idx[i] = int32(r.Intn(col.Len()))
		}
		ib2 := array.NewInt32Builder(memAlloc)
		ib2.AppendValues(idx, nil)
		ia := ib2.NewArray()
		got, err := takeColumn(context.Background(), col, idx, ia)
		if err != nil {
			t.Fatal(err)
		}
		want, err := compute.TakeArray(context.Background(), col, ia)
		if err != nil {
			t.Fatal(err)
		}
		if !array.Equal(got, want) {
			t.Fatalf("%s: take differs from the kernel's", col.DataType())
		}
		for _, a := range []arrow.Array{got, want, ia, col} {
			a.Release()
		}
	}
}
