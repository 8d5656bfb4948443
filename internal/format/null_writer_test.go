package format

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/types"
)

// CREATE TABLE ... AS SELECT NULL AS x wrote {"x":"(null)"}: Arrow's Null
// type (the untyped NULL) has no validity bitmap, so IsNull said false
// and ValueStr printed "(null)".
func TestWritersEncodeUntypedNull(t *testing.T) {
	nulls := array.NewNull(2)
	defer nulls.Release()
	ib := array.NewInt64Builder(memory.DefaultAllocator)
	ib.AppendValues([]int64{1, 2}, nil)
	ints := ib.NewArray()
	defer ints.Release()
	st := arrow.StructOf(arrow.Field{Name: "n", Type: arrow.Null, Nullable: true}, arrow.Field{Name: "v", Type: types.BigInt, Nullable: true})
	sarr := array.NewStructData(array.NewData(st, 2, []*memory.Buffer{nil}, []arrow.ArrayData{nulls.Data(), ints.Data()}, 0, 0))
	defer sarr.Release()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "x", Type: arrow.Null, Nullable: true},
		{Name: "y", Type: types.BigInt, Nullable: true},
		{Name: "s", Type: st, Nullable: true},
	}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{nulls, ints, sarr}, 2)
	defer rec.Release()
	for _, c := range []struct {
		opts Options
		want string
	}{
		{Options{Format: "json"}, `{"y":1,"s":{"v":1}}` + "\n" + `{"y":2,"s":{"v":2}}` + "\n"},
		{Options{Format: "csv", Header: true}, "x,y,s\n,1,\"{\"\"v\"\":1}\"\n,2,\"{\"\"v\"\":2}\"\n"},
		{Options{Format: "csv", Header: true, NullValue: "NA"}, "x,y,s\nNA,1,\"{\"\"v\"\":1}\"\nNA,2,\"{\"\"v\"\":2}\"\n"},
	} {
		var buf bytes.Buffer
		w, err := NewWriter(&buf, schema, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if buf.String() != c.want {
			t.Errorf("%s %+v: got %q, want %q", c.opts.Format, c.opts.NullValue, buf.String(), c.want)
		}
	}
}
