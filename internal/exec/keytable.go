package exec

import (
	"encoding/binary"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// keyTable maps row keys (one or more columns) to dense ids 0, 1, 2, ...
// in first-seen order. HashAggregate uses the ids as group ids, Distinct
// as a set, HashJoin to find build rows.
//
// A single integer-like key uses a map[int64]; a single string key a
// stringKeyTable that reads the batch's bytes without copying; any
// other key shape is encoded row-wise into bytes (keyEncoder). NULL is a
// key like any other here (GROUP BY puts NULLs in one group); joins skip
// NULL keys themselves.
type keyTable struct {
	mode   keyMode
	ints   map[int64]uint32
	sk     *stringKeyTable // keyString, and keyBytes over the encoded keys
	memo   dictMemo        // keyString given dictionary arrays
	nullID int64           // id of the all-NULL single key, -1 when unseen
	n      uint32

	enc     keyEncoder
	scratch []int64
	// shared, when set, is used instead of enc: the window aggregate's
	// windows take turns on one encoder rather than each growing its own.
	shared *keyEncoder
}

func (t *keyTable) encoder() *keyEncoder {
	if t.shared != nil {
		return t.shared
	}
	return &t.enc
}

type keyMode int

const (
	keyNone keyMode = iota // no key columns: every row is id 0
	keyInt
	keyString
	keyBytes
)

func newKeyTable(keyTypes []arrow.DataType) *keyTable {
	t := &keyTable{nullID: -1}
	switch {
	case len(keyTypes) == 0:
		t.mode = keyNone
	case len(keyTypes) == 1 && intLike(keyTypes[0]):
		t.mode = keyInt
		t.ints = make(map[int64]uint32)
	case len(keyTypes) == 1 && (keyTypes[0].ID() == arrow.STRING || keyTypes[0].ID() == arrow.BINARY):
		t.mode = keyString
		t.sk = newStringKeyTable()
	default:
		t.mode = keyBytes
		t.sk = newStringKeyTable()
	}
	return t
}

// presize makes room for keys keys in an empty table: an aggregate that
// spilled expects about as many groups again, and regrowing the table
// from its smallest size after every spill was a tenth of a spilling
// GROUP BY's time.
func (t *keyTable) presize(keys int) {
	switch t.mode {
	case keyInt:
		t.ints = make(map[int64]uint32, keys)
	case keyString, keyBytes:
		t.sk = newStringKeyTableFor(keys)
	}
}

// size is the number of distinct keys seen.
func (t *keyTable) size() int { return int(t.n) }

// intLike reports types whose values fit losslessly in an int64 and whose
// equality is integer equality.
func intLike(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32,
		arrow.DATE32, arrow.DATE64, arrow.TIMESTAMP, arrow.TIME32, arrow.TIME64, arrow.DURATION, arrow.BOOL:
		return true
	}
	return false
}

// int64s returns the values of an int-like array widened to int64; buf is
// reused when possible. Values under NULL slots are unspecified.
func int64s(a arrow.Array, buf []int64) []int64 {
	switch v := a.(type) {
	case *array.Int64:
		return v.Int64Values()
	case *array.Timestamp:
		return *(*[]int64)(unsafe.Pointer(ptrSlice(v.TimestampValues())))
	case *array.Duration:
		return *(*[]int64)(unsafe.Pointer(ptrSlice(v.DurationValues())))
	case *array.Time64:
		return *(*[]int64)(unsafe.Pointer(ptrSlice(v.Time64Values())))
	case *array.Date64:
		return *(*[]int64)(unsafe.Pointer(ptrSlice(v.Date64Values())))
	}
	n := a.Len()
	if cap(buf) < n {
		buf = make([]int64, n)
	}
	buf = buf[:n]
	switch v := a.(type) {
	case *array.Int32:
		for i, x := range v.Int32Values() {
			buf[i] = int64(x)
		}
	case *array.Date32:
		for i, x := range v.Date32Values() {
			buf[i] = int64(x)
		}
	case *array.Time32:
		for i, x := range v.Time32Values() {
			buf[i] = int64(x)
		}
	case *array.Int16:
		for i, x := range v.Int16Values() {
			buf[i] = int64(x)
		}
	case *array.Int8:
		for i, x := range v.Int8Values() {
			buf[i] = int64(x)
		}
	case *array.Uint8:
		for i, x := range v.Uint8Values() {
			buf[i] = int64(x)
		}
	case *array.Uint16:
		for i, x := range v.Uint16Values() {
			buf[i] = int64(x)
		}
	case *array.Uint32:
		for i, x := range v.Uint32Values() {
			buf[i] = int64(x)
		}
	case *array.Boolean:
		for i := range buf {
			if v.Value(i) {
				buf[i] = 1
			} else {
				buf[i] = 0
			}
		}
	}
	return buf
}

// int64s is int64s reusing the table's scratch buffer, which is kept
// only when it was written (not when it aliases the batch).
func (t *keyTable) int64s(col arrow.Array) []int64 {
	vals := int64s(col, t.scratch)
	if len(vals) > 0 && len(t.scratch) > 0 && &vals[0] == &t.scratch[:1][0] {
		return vals
	}
	switch col.(type) {
	case *array.Int64, *array.Timestamp, *array.Duration, *array.Time64, *array.Date64:
		return vals
	}
	t.scratch = vals
	return vals
}

// ptrSlice lets int64s view []T of an 8-byte integer type as []int64.
func ptrSlice[T ~int64](s []T) *[]T { return &s }

// assign writes the id of each row's key into ids (len rows), adding
// unseen keys. It returns the rows that introduced a new key, in order:
// the caller copies their key values out.
//
// A single STRING/BINARY key may be a dictionary array (see
// dictMemo); other key shapes take dictionary columns decoded.
func (t *keyTable) assign(cols []arrow.Array, rows int, ids []uint32, fresh []int) []int {
	fresh = fresh[:0]
	if t.mode != keyString {
		var made bool
		if cols, made = plainKeys(cols); made {
			defer releaseAll(cols)
		}
	}
	switch t.mode {
	case keyNone:
		for i := range ids[:rows] {
			ids[i] = 0
		}
		if t.n == 0 && rows > 0 {
			t.n = 1
			fresh = append(fresh, 0)
		}
	case keyInt:
		col := cols[0]
		vals := t.int64s(col)
		hasNulls := col.NullN() > 0
		// Runs of one key (a status code, a date) skip the map: the
		// previous row's key and id, valid within this call.
		var last int64
		var lastID uint32
		haveLast := false
		for i := 0; i < rows; i++ {
			if hasNulls && col.IsNull(i) {
				if t.nullID < 0 {
					t.nullID = int64(t.n)
					t.n++
					fresh = append(fresh, i)
				}
				ids[i] = uint32(t.nullID)
				continue
			}
			v := vals[i]
			if haveLast && v == last {
				ids[i] = lastID
				continue
			}
			id, ok := t.ints[v]
			if !ok {
				id = t.n
				t.ints[v] = id
				t.n++
				fresh = append(fresh, i)
			}
			ids[i] = id
			last, lastID, haveLast = v, id, true
		}
	case keyString:
		col := cols[0]
		if d, ok := col.(*array.Dictionary); ok {
			if f, ok := t.assignDict(d, rows, ids, fresh); ok {
				return f
			}
			if v, err := dictValues(d, nil); err == nil {
				defer v.Release()
				col = v
			}
		}
		hasNulls := col.NullN() > 0
		get := stringGetter(col)
		sa, _ := col.(*array.String)
		for i := 0; i < rows; i++ {
			if hasNulls && col.IsNull(i) {
				if t.nullID < 0 {
					t.nullID = int64(t.sk.reserve())
					t.n++
					fresh = append(fresh, i)
				}
				ids[i] = uint32(t.nullID)
				continue
			}
			var s string
			if sa != nil {
				s = sa.Value(i)
			} else {
				s = get(i)
			}
			id, p, ok := t.sk.find(s)
			if !ok {
				id = t.sk.insert(s, p)
				t.n++
				fresh = append(fresh, i)
			}
			ids[i] = id
		}
	case keyBytes:
		keys := t.encoder().encode(cols, rows)
		for i := 0; i < rows; i++ {
			// The table copies what it keeps, so the encoder's
			// buffer may be looked at in place.
			k := bytesView(keys[i])
			id, p, ok := t.sk.find(k)
			if !ok {
				id = t.sk.insert(k, p)
				t.n++
				fresh = append(fresh, i)
			}
			ids[i] = id
		}
	}
	return fresh
}

// lookup writes each row's id into ids, or -1 when the key is absent or
// any key column is NULL (join semantics: NULL never matches).
func (t *keyTable) lookup(cols []arrow.Array, rows int, ids []int32) {
	var made bool
	if cols, made = plainKeys(cols); made {
		defer releaseAll(cols)
	}
	switch t.mode {
	case keyNone:
		for i := range ids[:rows] {
			if t.n > 0 {
				ids[i] = 0
			} else {
				ids[i] = -1
			}
		}
	case keyInt:
		col := cols[0]
		vals := t.int64s(col)
		for i := 0; i < rows; i++ {
			ids[i] = -1
			if col.IsNull(i) {
				continue
			}
			if id, ok := t.ints[vals[i]]; ok {
				ids[i] = int32(id)
			}
		}
	case keyString:
		col := cols[0]
		get := stringGetter(col)
		for i := 0; i < rows; i++ {
			ids[i] = -1
			if col.IsNull(i) {
				continue
			}
			if id, _, ok := t.sk.find(get(i)); ok {
				ids[i] = int32(id)
			}
		}
	case keyBytes:
		keys := t.encoder().encode(cols, rows)
		for i := 0; i < rows; i++ {
			ids[i] = -1
			if anyNull(cols, i) {
				continue
			}
			if id, _, ok := t.sk.find(bytesView(keys[i])); ok {
				ids[i] = int32(id)
			}
		}
	}
}

func anyNull(cols []arrow.Array, i int) bool {
	for _, c := range cols {
		if c.IsNull(i) {
			return true
		}
	}
	return false
}

// stringGetter returns a no-copy accessor for a STRING or BINARY array;
// the strings alias the batch and must be cloned before being kept.
func stringGetter(a arrow.Array) func(int) string {
	switch v := a.(type) {
	case *array.String:
		return v.Value
	case *array.Binary:
		return func(i int) string { b := v.Value(i); return unsafe.String(unsafe.SliceData(b), len(b)) }
	}
	return a.ValueStr
}

// keyEncoder turns each row's key columns into bytes such that two rows
// encode equally exactly when their keys are equal (NULL equal to NULL,
// -0.0 to 0.0, NaN to NaN). Buffers are reused across batches.
type keyEncoder struct {
	rows [][]byte
}

func (e *keyEncoder) encode(cols []arrow.Array, n int) [][]byte {
	if cap(e.rows) < n {
		e.rows = make([][]byte, n)
	}
	e.rows = e.rows[:n]
	for i := range e.rows {
		e.rows[i] = e.rows[i][:0]
	}
	for _, c := range cols {
		if e.encodeColumn(c, n) {
			continue
		}
		switch c.(type) {
		case *array.Int64, *array.Int32, *array.Timestamp, *array.Date32, *array.Boolean:
		default:
			if intLike(c.DataType()) {
				vals := int64s(c, nil)
				for i := 0; i < n; i++ {
					if c.IsNull(i) {
						e.rows[i] = append(e.rows[i], 0)
					} else {
						e.rows[i] = binary.LittleEndian.AppendUint64(append(e.rows[i], 1), uint64(vals[i]))
					}
				}
				continue
			}
		}
		for i := 0; i < n; i++ {
			e.rows[i] = appendValue(e.rows[i], c, i)
		}
	}
	return e.rows
}

// encodeColumn is appendValue for a whole column of a common type, with
// the type switch hoisted out of the row loop. It reports false for
// other types.
func (e *keyEncoder) encodeColumn(c arrow.Array, n int) bool {
	rows := e.rows
	nulls := c.NullN() > 0
	switch v := c.(type) {
	case *array.Int64:
		vals := v.Int64Values()
		for i := 0; i < n; i++ {
			if nulls && v.IsNull(i) {
				rows[i] = append(rows[i], 0)
				continue
			}
			rows[i] = binary.LittleEndian.AppendUint64(append(rows[i], 1), uint64(vals[i]))
		}
	case *array.Timestamp:
		vals := v.TimestampValues()
		for i := 0; i < n; i++ {
			if nulls && v.IsNull(i) {
				rows[i] = append(rows[i], 0)
				continue
			}
			rows[i] = binary.LittleEndian.AppendUint64(append(rows[i], 1), uint64(vals[i]))
		}
	case *array.Int32:
		vals := v.Int32Values()
		for i := 0; i < n; i++ {
			if nulls && v.IsNull(i) {
				rows[i] = append(rows[i], 0)
				continue
			}
			rows[i] = binary.LittleEndian.AppendUint32(append(rows[i], 1), uint32(vals[i]))
		}
	case *array.String:
		for i := 0; i < n; i++ {
			if nulls && v.IsNull(i) {
				rows[i] = append(rows[i], 0)
				continue
			}
			s := v.Value(i)
			rows[i] = append(binary.AppendUvarint(append(rows[i], 1), uint64(len(s))), s...)
		}
	case *array.Struct:
		// A window key: appendValue's tag then its fields, column by
		// column.
		if nulls {
			return false
		}
		for i := 0; i < n; i++ {
			rows[i] = append(rows[i], 1)
		}
		for f := 0; f < v.NumField(); f++ {
			if fc := v.Field(f); !e.encodeColumn(fc, n) {
				for i := 0; i < n; i++ {
					rows[i] = appendValue(rows[i], fc, i)
				}
			}
		}
	default:
		return false
	}
	return true
}

// appendValue appends a self-delimiting encoding of a[i]: a tag byte (0
// NULL, 1 value) then the value.
func appendValue(b []byte, a arrow.Array, i int) []byte {
	if a.IsNull(i) {
		return append(b, 0)
	}
	b = append(b, 1)
	switch v := a.(type) {
	case *array.Int64:
		return binary.LittleEndian.AppendUint64(b, uint64(v.Value(i)))
	case *array.Int32:
		return binary.LittleEndian.AppendUint32(b, uint32(v.Value(i)))
	case *array.Float64:
		return binary.LittleEndian.AppendUint64(b, normFloat(v.Value(i)))
	case *array.Float32:
		return binary.LittleEndian.AppendUint64(b, normFloat(float64(v.Value(i))))
	case *array.String:
		s := v.Value(i)
		b = binary.AppendUvarint(b, uint64(len(s)))
		return append(b, s...)
	case *array.Binary:
		s := v.Value(i)
		b = binary.AppendUvarint(b, uint64(len(s)))
		return append(b, s...)
	case *array.Boolean:
		if v.Value(i) {
			return append(b, 1)
		}
		return append(b, 0)
	case *array.Timestamp:
		return binary.LittleEndian.AppendUint64(b, uint64(v.Value(i)))
	case *array.Date32:
		return binary.LittleEndian.AppendUint32(b, uint32(v.Value(i)))
	case *array.Decimal128:
		n := v.Value(i)
		b = binary.LittleEndian.AppendUint64(b, n.LowBits())
		return binary.LittleEndian.AppendUint64(b, uint64(n.HighBits()))
	case *array.Struct:
		for f := 0; f < v.NumField(); f++ {
			b = appendValue(b, v.Field(f), i)
		}
		return b
	case *array.List:
		start, end := v.ValueOffsets(i)
		b = binary.AppendUvarint(b, uint64(end-start))
		for j := start; j < end; j++ {
			b = appendValue(b, v.ListValues(), int(j))
		}
		return b
	case *array.Map:
		start, end := v.ValueOffsets(i)
		b = binary.AppendUvarint(b, uint64(end-start))
		for j := start; j < end; j++ {
			b = appendValue(b, v.Keys(), int(j))
			b = appendValue(b, v.Items(), int(j))
		}
		return b
	case *array.Null:
		return b
	}
	if intLike(a.DataType()) {
		one := array.NewSlice(a, int64(i), int64(i+1))
		defer one.Release()
		return binary.LittleEndian.AppendUint64(b, uint64(int64s(one, nil)[0]))
	}
	s := a.ValueStr(i)
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// normFloat makes -0.0 equal 0.0 and every NaN equal, as SQL grouping
// expects.
func normFloat(f float64) uint64 {
	if f == 0 {
		return 0
	}
	if math.IsNaN(f) {
		return 0x7ff8000000000001
	}
	return math.Float64bits(f)
}

// forget takes back an assign that added the keys of rows fresh (as it
// returned them) to a table that had before keys: the ids it handed out
// are free again.
func (t *keyTable) forget(cols []arrow.Array, rows int, fresh []int, before int) {
	if len(fresh) == 0 {
		return
	}
	t.memo.reset()
	var made bool
	if cols, made = plainKeys(cols); made {
		defer releaseAll(cols)
	}
	switch t.mode {
	case keyInt:
		col := cols[0]
		vals := t.int64s(col)
		for _, i := range fresh {
			if col.IsNull(i) {
				continue
			}
			delete(t.ints, vals[i])
		}
	case keyString:
		col := cols[0]
		get := stringGetter(col)
		keys := make([]string, 0, len(fresh))
		for _, i := range fresh {
			if !col.IsNull(i) {
				keys = append(keys, get(i))
			}
		}
		t.sk.truncate(before, keys)
	case keyBytes:
		enc := t.encoder().encode(cols, rows)
		keys := make([]string, len(fresh))
		for j, i := range fresh {
			keys[j] = bytesView(enc[i])
		}
		t.sk.truncate(before, keys)
	}
	if t.nullID >= int64(before) {
		t.nullID = -1
	}
	t.n = uint32(before)
}

// bytesView is b as a string without a copy, for lookups that do not
// keep it.
func bytesView(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}
