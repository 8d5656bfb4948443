package functions

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"sluice/internal/types"
)

// first(x[, ignoreNulls]), last(x[, ignoreNulls]): the first/last value
// in input order (within a partial, then in merge order), so they are
// only deterministic over ordered input, as in Spark.
func makeFirstLast(last bool) AggMaker {
	return func(args []Arg, distinct bool) (*AggBound, error) {
		ignore := false
		if len(args) == 2 {
			b, ok := args[1].Value.(bool)
			if !args[1].Const || !ok {
				return nil, fmt.Errorf("first/last: ignoreNulls must be a constant BOOLEAN")
			}
			ignore = b
		}
		t := fieldType(args[0].Type)
		return &AggBound{Type: t, Casts: []arrow.DataType{t, nil}[:len(args)], New: func() Accumulator {
			return &firstAcc{typ: t, last: last, ignoreNulls: ignore}
		}}, nil
	}
}

type firstAcc struct {
	typ               arrow.DataType
	last, ignoreNulls bool
	vals              []any
	set               []bool
}

func (a *firstAcc) Update(groups []uint32, args []arrow.Array) error {
	mg := maxGroup(groups)
	a.vals = sizeTo(a.vals, mg+1)
	a.set = sizeTo(a.set, mg+1)
	x := args[0]
	for i, g := range groups {
		if a.set[g] && !a.last {
			continue
		}
		if a.ignoreNulls && x.IsNull(i) {
			continue
		}
		a.vals[g], a.set[g] = types.ValueAt(x, i), true
	}
	return nil
}

func (a *firstAcc) Merge(other Accumulator, mapping []uint32) error {
	o, ok := other.(*firstAcc)
	if !ok {
		return mergeTypeError(a, other)
	}
	for g, s := range o.set {
		if !s {
			continue
		}
		t := mapping[g]
		a.vals = grow(a.vals, t)
		a.set = grow(a.set, t)
		if !a.set[t] || a.last {
			a.vals[t], a.set[t] = o.vals[g], true
		}
	}
	return nil
}

func (a *firstAcc) Result(n int) (arrow.Array, error) {
	b := array.NewBuilder(mem, a.typ)
	defer b.Release()
	for g := 0; g < n; g++ {
		var v any
		if g < len(a.vals) {
			v = a.vals[g]
		}
		if err := AppendValue(b, v); err != nil {
			return nil, err
		}
	}
	return b.NewArray(), nil
}

func (a *firstAcc) Snapshot(w io.Writer) error {
	arr, err := a.Result(len(a.vals))
	if err != nil {
		return err
	}
	defer arr.Release()
	if err := writeArray(w, arr); err != nil {
		return err
	}
	return snapshotGob(w, a.set)
}

func (a *firstAcc) Restore(r io.Reader) error {
	arr, err := readArray(r)
	if err != nil {
		return err
	}
	defer arr.Release()
	a.vals = make([]any, arr.Len())
	for i := range a.vals {
		a.vals[i] = types.ValueAt(arr, i)
	}
	return restoreGob(r, &a.set)
}

// collect_list(x) and collect_set(x) -> ARRAY, NULLs skipped; an empty
// group gives an empty array. collect_set keeps first occurrences.
func makeCollect(set bool) AggMaker {
	return func(args []Arg, distinct bool) (*AggBound, error) {
		t := fieldType(args[0].Type)
		return &AggBound{Type: types.Array(t), Casts: []arrow.DataType{t}, New: func() Accumulator {
			return &collectAcc{typ: t, set: set || distinct}
		}}, nil
	}
}

type collectAcc struct {
	typ  arrow.DataType
	set  bool
	vals [][]any
	seen []map[string]struct{}
}

func (a *collectAcc) add(g uint32, key string, v any) {
	a.vals = grow(a.vals, g)
	if a.set {
		a.seen = grow(a.seen, g)
		if a.seen[g] == nil {
			a.seen[g] = map[string]struct{}{}
		}
		if _, dup := a.seen[g][key]; dup {
			return
		}
		a.seen[g][key] = struct{}{}
	}
	a.vals[g] = append(a.vals[g], v)
}

func (a *collectAcc) Update(groups []uint32, args []arrow.Array) error {
	a.vals = sizeTo(a.vals, maxGroup(groups)+1)
	one := args[:1]
	var buf []byte
	for i, g := range groups {
		k, ok := rowKey(one, i, buf)
		if !ok {
			continue
		}
		buf = k
		key := ""
		if a.set {
			key = string(k)
		}
		a.add(g, key, types.ValueAt(args[0], i))
	}
	return nil
}

func (a *collectAcc) Merge(other Accumulator, mapping []uint32) error {
	o, ok := other.(*collectAcc)
	if !ok {
		return mergeTypeError(a, other)
	}
	for g, vs := range o.vals {
		t := mapping[g]
		a.vals = grow(a.vals, t)
		if !a.set {
			a.vals[t] = append(a.vals[t], vs...)
			continue
		}
		if len(vs) == 0 {
			continue
		}
		// Re-key through a one-group array to reuse rowKey's encoding.
		arr, err := a.listOf(vs)
		if err != nil {
			return err
		}
		one := []arrow.Array{arr}
		for i := range vs {
			k, _ := rowKey(one, i, nil)
			a.add(t, string(k), vs[i])
		}
		arr.Release()
	}
	return nil
}

func (a *collectAcc) listOf(vs []any) (arrow.Array, error) {
	b := array.NewBuilder(mem, a.typ)
	defer b.Release()
	for _, v := range vs {
		if err := AppendValue(b, v); err != nil {
			return nil, err
		}
	}
	return b.NewArray(), nil
}

func (a *collectAcc) Result(n int) (arrow.Array, error) {
	b := array.NewListBuilder(mem, a.typ)
	defer b.Release()
	vb := b.ValueBuilder()
	for g := 0; g < n; g++ {
		b.Append(true)
		if g < len(a.vals) {
			for _, v := range a.vals[g] {
				if err := AppendValue(vb, v); err != nil {
					return nil, err
				}
			}
		}
	}
	return b.NewArray(), nil
}

func (a *collectAcc) Snapshot(w io.Writer) error {
	arr, err := a.Result(len(a.vals))
	if err != nil {
		return err
	}
	defer arr.Release()
	return writeArray(w, arr)
}

func (a *collectAcc) Restore(r io.Reader) error {
	arr, err := readArray(r)
	if err != nil {
		return err
	}
	defer arr.Release()
	a.vals, a.seen = nil, nil
	l := arr.(*array.List)
	vals := l.ListValues()
	one := []arrow.Array{vals}
	for g := 0; g < l.Len(); g++ {
		s, e := l.ValueOffsets(g)
		a.vals = grow(a.vals, uint32(g))
		for j := int(s); j < int(e); j++ {
			k, _ := rowKey(one, j, nil)
			a.add(uint32(g), string(k), types.ValueAt(vals, j))
		}
	}
	return nil
}

// writeArray writes arr as a length-prefixed Arrow IPC stream.
func writeArray(w io.Writer, arr arrow.Array) error {
	var buf bytes.Buffer
	schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: arr.DataType(), Nullable: true}}, nil)
	iw := ipc.NewWriter(&buf, ipc.WithSchema(schema))
	rec := array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
	defer rec.Release()
	if err := iw.Write(rec); err != nil {
		return fmt.Errorf("snapshotting aggregate state: %w", err)
	}
	if err := iw.Close(); err != nil {
		return fmt.Errorf("snapshotting aggregate state: %w", err)
	}
	var hdr [8]byte
	binary.LittleEndian.PutUint64(hdr[:], uint64(buf.Len()))
	if _, err := w.Write(hdr[:]); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func readArray(r io.Reader) (arrow.Array, error) {
	var hdr [8]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, fmt.Errorf("restoring aggregate state: %w", err)
	}
	n := binary.LittleEndian.Uint64(hdr[:])
	if n > 1<<34 {
		return nil, fmt.Errorf("restoring aggregate state: implausible length %d", n)
	}
	data := make([]byte, n)
	if _, err := io.ReadFull(r, data); err != nil {
		return nil, fmt.Errorf("restoring aggregate state: %w", err)
	}
	ir, err := ipc.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("restoring aggregate state: %w", err)
	}
	defer ir.Release()
	if !ir.Next() {
		return nil, fmt.Errorf("restoring aggregate state: no batch")
	}
	col := ir.RecordBatch().Column(0)
	col.Retain()
	return col, nil
}
