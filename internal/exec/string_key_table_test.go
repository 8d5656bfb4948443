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

// TestStringKeyTableTruncate grows the table past several doublings, then
// takes back the newest ids: the entries left keep their ids and are
// found (backward-shift removal recomputes their homes from the keys),
// the removed ones are gone, and the arena shrinks back.
func TestStringKeyTableTruncate(t *testing.T) {
	for _, tc := range []struct {
		name string
		key  func(i int) string
	}{
		{"inline", func(i int) string { return fmt.Sprintf("k%d", i) }},
		{"long", func(i int) string { return fmt.Sprintf("a-key-longer-than-sixteen-%d", i) }},
		{"mixed", func(i int) string { return strings.Repeat("z", i%23) + fmt.Sprint(i) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := newStringKeyTable()
			const total, keep = 5000, 3100
			var arenaAt int
			for i := 0; i < total; i++ {
				if i == keep {
					arenaAt = len(tb.arena)
				}
				k := tc.key(i)
				id, p, ok := tb.find(k)
				if ok {
					t.Fatalf("%q found as %d before insert", k, id)
				}
				if got := tb.insert(k, p); got != uint32(i) {
					t.Fatalf("insert %q: id %d, want %d", k, got, i)
				}
			}
			var removed []string
			for i := keep; i < total; i++ {
				removed = append(removed, tc.key(i))
			}
			tb.truncate(keep, removed)
			if tb.len() != keep || len(tb.arena) != arenaAt {
				t.Fatalf("len %d arena %d, want %d and %d", tb.len(), len(tb.arena), keep, arenaAt)
			}
			for i := 0; i < total; i++ {
				id, _, ok := tb.find(tc.key(i))
				if ok != (i < keep) || ok && id != uint32(i) {
					t.Fatalf("key %d: id %d found %v", i, id, ok)
				}
			}
		})
	}
}
