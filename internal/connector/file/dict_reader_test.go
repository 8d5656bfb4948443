package file

import (
	"context"
	"errors"
	"io"
	"os"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/connector"
	"sluice/internal/types"
)

// NextDict passes the decoder's dictionary columns through, with
// partition columns added as Next adds them; Next stays plain.
func TestReaderNextDictKeepsDictionaryColumns(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(dir+"/t/p=7", 0o755); err != nil {
		t.Fatal(err)
	}
	writeParquet(t, dir+"/t/p=7/a.parquet", 30, 30) // one row group: batches do not span chunks
	spec := connector.TableSpec{Name: "t", Using: "parquet", Location: dir + "/t",
		Schema:      schema(field("id", types.BigInt), field("tag", types.String), field("p", types.Int)),
		PartitionBy: []string{"p"}}
	src, err := NewSource(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	want := readAll(t, src)
	ctx := context.Background()
	off, err := src.Latest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	splits, err := src.Plan(ctx, nil, off)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	dicts := 0
	for _, sp := range splits {
		rr, err := src.Open(ctx, sp)
		if err != nil {
			t.Fatal(err)
		}
		dr, ok := rr.(connector.DictReader)
		if !ok {
			t.Fatal("a file reader is not a connector.DictReader")
		}
		for {
			b, err := dr.NextDict(ctx)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			cols := make([]arrow.Array, b.NumCols())
			for i := range cols {
				cols[i] = b.Column(i)
				if d, ok := cols[i].(*array.Dictionary); ok {
					if i != 1 || !arrow.TypeEqual(b.Schema().Field(i).Type, d.DataType()) {
						t.Fatalf("column %d is a dictionary typed %s in the schema", i, b.Schema().Field(i).Type)
					}
					dicts++
					cols[i] = dictPlain(t, d)
					defer cols[i].Release()
				}
			}
			plain := array.NewRecordBatch(src.Schema(), cols, b.NumRows())
			got = append(got, printRows(plain)...)
			plain.Release()
			b.Release()
		}
		rr.Close()
	}
	if dicts == 0 {
		t.Fatal("no batch had a dictionary column")
	}
	if !slices.Equal(got, want) {
		t.Fatalf("NextDict rows\n%v\nwant\n%v", got, want)
	}
}

func dictPlain(t *testing.T, d *array.Dictionary) arrow.Array {
	t.Helper()
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	dict := d.Dictionary().(*array.String)
	for i := 0; i < d.Len(); i++ {
		if d.IsNull(i) {
			b.AppendNull()
		} else {
			b.Append(dict.Value(d.GetValueIndex(i)))
		}
	}
	return b.NewArray()
}
