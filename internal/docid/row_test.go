package docid

import (
	"testing"

	"github.com/cespare/xxhash/v2"
)

// rowID is one row's id under r.
func rowID(r Rows, epoch int64, occurrence uint32, src string) string {
	rec := append(make([]byte, r.PrefixLen()), src...)
	return string(r.Append(nil, rec, epoch, occurrence, xxhash.Sum64String(src)))
}

// TestRowsWrites: one row's id depends on its write, epoch and
// occurrence, and not on anything else (a replay repeats it).
func TestRowsWrites(t *testing.T) {
	const src = `{"a":1}`
	ids := map[string]string{}
	for _, w := range []string{"", "insert-1", "insert-2"} {
		r := Rows{}.WithWrite(w)
		for _, epoch := range []int64{0, 1} {
			for _, occ := range []uint32{0, 1} {
				id := rowID(r, epoch, occ, src)
				if len(id) != IDLen {
					t.Fatalf("id %q is not %d long", id, IDLen)
				}
				if id != rowID(Rows{}.WithWrite(w), epoch, occ, src) {
					t.Fatalf("write %q epoch %d: a replay gives another id", w, epoch)
				}
				what := w + "/" + string(rune('0'+epoch)) + "/" + string(rune('0'+occ))
				if other, dup := ids[id]; dup {
					t.Fatalf("%s and %s share id %s", other, what, id)
				}
				ids[id] = what
			}
		}
	}
}
