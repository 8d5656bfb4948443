// Command gen writes the binary files under testdata/data2 that cannot be
// written by hand: framed-snappy copies of comp/t.json and comp/t.csv, and
// a Parquet file with three row groups of three rows each, so row-group
// pruning on statistics is visible. Run from the repository root:
//
//	go run ./testdata/data2/gen
package main

import (
	"fmt"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/golang/snappy"
)

const dir = "testdata/data2/"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run() error {
	for _, name := range []string{"comp/t.json", "comp/t.csv"} {
		if err := snappyFile(dir+name, dir+name+".snappy"); err != nil {
			return err
		}
	}
	return parquetFile(dir + "parquet/rg.parquet")
}

func snappyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return fmt.Errorf("reading %s: %w", src, err)
	}
	f, err := os.Create(dst)
	if err != nil {
		return err
	}
	w := snappy.NewBufferedWriter(f)
	if _, err := w.Write(data); err != nil {
		return fmt.Errorf("writing %s: %w", dst, err)
	}
	if err := w.Close(); err != nil {
		return err
	}
	return f.Close()
}

func parquetFile(dst string) error {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "score", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	names := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i"}
	for i := 0; i < 9; i++ {
		b.Field(0).(*array.Int64Builder).Append(int64(i + 1))
		if i == 4 {
			b.Field(1).AppendNull()
			b.Field(2).AppendNull()
			continue
		}
		b.Field(1).(*array.StringBuilder).Append(names[i])
		b.Field(2).(*array.Float64Builder).Append(float64(i+1) * 1.5)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	tbl := array.NewTableFromRecords(schema, []arrow.RecordBatch{rec})
	defer tbl.Release()
	f, err := os.Create(dst)
	if err != nil {
		return err
	}
	props := parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(3), parquet.WithStats(true))
	// WriteTable closes f.
	if err := pqarrow.WriteTable(tbl, f, 3, props, pqarrow.DefaultWriterProps()); err != nil {
		return fmt.Errorf("writing %s: %w", dst, err)
	}
	return nil
}
