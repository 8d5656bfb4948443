package exec

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestStringKeyTable checks the single string key path against a map:
// first-seen ids, keys that share their packed words ("ab", "abb"),
// inline and arena keys, NULL, growth, and forget of a batch's new keys.
func TestStringKeyTable(t *testing.T) {
	var keys []string
	for i := 0; i < 3000; i++ {
		keys = append(keys, fmt.Sprint(i), strings.Repeat("x", i%40), "ab"+strings.Repeat("b", i%3), fmt.Sprintf("client-%d.example.com", i))
	}
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	for i, k := range keys {
		if i%97 == 5 {
			sb.AppendNull()
			continue
		}
		sb.Append(k)
	}
	col := sb.NewArray()
	defer col.Release()
	n := col.Len()

	want := map[string]uint32{}
	nullID := int64(-1)
	wantIDs := make([]uint32, n)
	for i := 0; i < n; i++ {
		if col.IsNull(i) {
			if nullID < 0 {
				nullID = int64(len(want))
				want["\x00null"] = uint32(nullID)
			}
			wantIDs[i] = uint32(nullID)
			continue
		}
		s := col.(*array.String).Value(i)
		id, ok := want[s]
		if !ok {
			id = uint32(len(want))
			want[s] = id
		}
		wantIDs[i] = id
	}

	kt := newKeyTable([]arrow.DataType{arrow.BinaryTypes.String})
	half := n / 2
	first, rest := array.NewSlice(col, 0, int64(half)), array.NewSlice(col, int64(half), int64(n))
	defer first.Release()
	defer rest.Release()
	ids := make([]uint32, n)
	kt.assign([]arrow.Array{first}, half, ids, nil)
	before := kt.size()
	// An assign taken back leaves the table as it was.
	fresh := kt.assign([]arrow.Array{rest}, n-half, ids[half:], nil)
	kt.forget([]arrow.Array{rest}, n-half, fresh, before)
	if kt.size() != before {
		t.Fatalf("size after forget %d, want %d", kt.size(), before)
	}
	kt.assign([]arrow.Array{rest}, n-half, ids[half:], nil)
	for i := range ids {
		if ids[i] != wantIDs[i] {
			t.Fatalf("row %d (%q): id %d, want %d", i, col.ValueStr(i), ids[i], wantIDs[i])
		}
	}
	if kt.size() != len(want) {
		t.Fatalf("size %d, want %d", kt.size(), len(want))
	}
	look := make([]int32, n)
	kt.lookup([]arrow.Array{col}, n, look)
	for i := range look {
		w := int32(wantIDs[i])
		if col.IsNull(i) {
			w = -1
		}
		if look[i] != w {
			t.Fatalf("lookup row %d: %d, want %d", i, look[i], w)
		}
	}
}
