package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// dictMemo is keyTable's map from the entries of the dictionary its
// last dictionary-array key came in to key ids, filled as rows meet the
// entries: each entry is hashed once per dictionary, and a row costs an
// index load. A new dictionary (the next Parquet column chunk) starts it
// afresh; so does forget, whose ids it may hold.
type dictMemo struct {
	dict arrow.ArrayData // the dictionary the ids are for
	ids  []uint32        // id+1 per entry, 0 while unseen
}

func (m *dictMemo) reset() { *m = dictMemo{ids: m.ids[:0]} }

// assignDict is assign of a single STRING/BINARY key given as a
// dictionary array; false (having done nothing) for a dictionary it does
// not take: other index types, NULL entries.
func (t *keyTable) assignDict(d *array.Dictionary, rows int, ids []uint32, fresh []int) ([]int, bool) {
	idx, ok := d.Indices().(*array.Int32)
	dict := d.Dictionary()
	if !ok || dict.NullN() > 0 || (dict.DataType().ID() != arrow.STRING && dict.DataType().ID() != arrow.BINARY) {
		return fresh, false
	}
	m := &t.memo
	if dd := d.Data().Dictionary(); m.dict != dd {
		m.dict = dd
		if cap(m.ids) < dict.Len() {
			m.ids = make([]uint32, dict.Len())
		} else {
			m.ids = m.ids[:dict.Len()]
			clear(m.ids)
		}
	}
	memo := m.ids
	get := stringGetter(dict)
	vals := idx.Int32Values()
	hasNulls := d.NullN() > 0
	for i := 0; i < rows; i++ {
		if hasNulls && d.IsNull(i) {
			if t.nullID < 0 {
				t.nullID = int64(t.sk.reserve())
				t.n++
				fresh = append(fresh, i)
			}
			ids[i] = uint32(t.nullID)
			continue
		}
		k := vals[i]
		if id := memo[k]; id != 0 {
			ids[i] = id - 1
			continue
		}
		s := get(int(k))
		id, p, ok := t.sk.find(s)
		if !ok {
			id = t.sk.insert(s, p)
			t.n++
			fresh = append(fresh, i)
		}
		memo[k] = id + 1
		ids[i] = id
	}
	return fresh, true
}

// plainKeys returns cols with dictionary arrays decoded, and whether it
// made new arrays (which the caller releases).
func plainKeys(cols []arrow.Array) ([]arrow.Array, bool) {
	var out []arrow.Array
	for i, c := range cols {
		d, ok := c.(*array.Dictionary)
		if !ok {
			continue
		}
		if out == nil {
			out = make([]arrow.Array, len(cols))
			for j, c := range cols {
				c.Retain()
				out[j] = c
			}
		}
		v, err := dictValues(d, nil)
		if err != nil {
			continue
		}
		out[i].Release()
		out[i] = v
	}
	if out == nil {
		return cols, false
	}
	return out, true
}
