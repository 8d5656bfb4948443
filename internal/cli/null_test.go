package cli

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/types"
)

// An untyped NULL (SELECT NULL AS x) is an array of Arrow's Null type,
// whose IsNull is false: it printed as the string "NULL" in jsonl and csv.
func TestUntypedNullInEveryFormat(t *testing.T) {
	nulls := array.NewNull(1)
	defer nulls.Release()
	ib := array.NewInt32Builder(memory.DefaultAllocator)
	ib.Append(1)
	ints := ib.NewArray()
	defer ints.Release()
	lb := array.NewListBuilder(memory.DefaultAllocator, arrow.Null)
	lb.Append(true)
	lb.ValueBuilder().AppendNull()
	list := lb.NewArray()
	defer list.Release()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "x", Type: arrow.Null, Nullable: true},
		{Name: "y", Type: types.Int, Nullable: true},
		{Name: "l", Type: arrow.ListOf(arrow.Null), Nullable: true},
	}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{nulls, ints, list}, 1)
	defer rec.Release()
	want := map[string]string{
		"jsonl": `{"x":null,"y":1,"l":[null]}` + "\n",
		"json":  "[\n" + `{"x":null,"y":1,"l":[null]}` + "\n]\n",
		"csv":   "x,y,l\n,1,[null]\n",
		"table": "+------+---+--------+\n| x    | y | l      |\n+------+---+--------+\n| NULL | 1 | [null] |\n+------+---+--------+\n(1 row)\n",
	}
	for name, w := range want {
		f, _ := NewFormatter(name)
		var buf bytes.Buffer
		if err := f.Format(&buf, schema, []arrow.RecordBatch{rec}); err != nil {
			t.Fatal(err)
		}
		if buf.String() != w {
			t.Errorf("%s: got\n%s\nwant\n%s", name, buf.String(), w)
		}
	}
}
