package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Dictionary columns: a scan whose consumer asks for them
// (DictionaryPartials) reads STRING/BINARY columns through
// connector.DictReader, so a column may arrive as an Arrow dictionary
// array. Only the consumer that asked sees them: everything else gets
// batches through plainBatch first.

// hasDictionaries reports whether any column of b is a dictionary array.
func hasDictionaries(b arrow.RecordBatch) bool {
	for _, f := range b.Schema().Fields() {
		if f.Type.ID() == arrow.DICTIONARY {
			return true
		}
	}
	return false
}

// plainBatch returns b with every dictionary column except column keep
// (-1: none) replaced by its values; b itself, retained, when there is
// nothing to replace. The caller releases the result.
func plainBatch(b arrow.RecordBatch, keep int) (arrow.RecordBatch, error) {
	var fields []arrow.Field
	var cols []arrow.Array
	for i, f := range b.Schema().Fields() {
		d, ok := b.Column(i).(*array.Dictionary)
		if !ok || i == keep {
			continue
		}
		if cols == nil {
			fields = b.Schema().Fields()
			cols = make([]arrow.Array, b.NumCols())
			for j := range cols {
				cols[j] = b.Column(j)
				cols[j].Retain()
			}
		}
		v, err := dictValues(d, nil)
		if err != nil {
			releaseAll(cols)
			return nil, fmt.Errorf("decoding dictionary column %s: %w", f.Name, err)
		}
		cols[i].Release()
		cols[i] = v
		fields[i].Type = v.DataType()
	}
	if cols == nil {
		b.Retain()
		return b, nil
	}
	md := b.Schema().Metadata()
	out := array.NewRecordBatch(arrow.NewSchema(fields, &md), cols, b.NumRows())
	releaseAll(cols)
	return out, nil
}

// dictValues returns the values of d's rows (every row when rows is
// nil) as an array of the dictionary's value type, NULL where the index
// is NULL.
func dictValues(d *array.Dictionary, rows []int) (arrow.Array, error) {
	idx, ok := d.Indices().(*array.Int32)
	dict := d.Dictionary()
	if !ok || dict.NullN() > 0 || (dict.DataType().ID() != arrow.STRING && dict.DataType().ID() != arrow.BINARY) {
		all, err := compute.CastArray(context.Background(), d, compute.SafeCastOptions(dict.DataType()))
		if err != nil || rows == nil {
			return all, err
		}
		defer all.Release()
		return gather(context.Background(), all, rows)
	}
	get := stringGetter(dict)
	n := d.Len()
	if rows != nil {
		n = len(rows)
	}
	row := func(i int) int {
		if rows != nil {
			return rows[i]
		}
		return i
	}
	vals := idx.Int32Values()
	nulls := d.NullN() > 0
	size := 0
	for i := 0; i < n; i++ {
		if r := row(i); !nulls || d.IsValid(r) {
			size += len(get(int(vals[r])))
		}
	}
	offsets := make([]int32, n+1)
	data := make([]byte, 0, size)
	var valid []byte
	nullN := 0
	if nulls {
		valid = make([]byte, (n+7)/8)
	}
	for i := 0; i < n; i++ {
		r := row(i)
		if nulls {
			if d.IsNull(r) {
				nullN++
				offsets[i+1] = int32(len(data))
				continue
			}
			valid[i/8] |= 1 << (i % 8)
		}
		data = append(data, get(int(vals[r]))...)
		offsets[i+1] = int32(len(data))
	}
	var vb *memory.Buffer
	if nullN > 0 {
		vb = memory.NewBufferBytes(valid)
	}
	ad := array.NewData(dict.DataType(), n, []*memory.Buffer{vb, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offsets)), memory.NewBufferBytes(data)}, nil, nullN, 0)
	defer ad.Release()
	return array.MakeFromData(ad), nil
}
