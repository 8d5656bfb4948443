package format

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"sluice/internal/types"
)

// byteArrayFile writes rows of (k BIGINT, s STRING, b BINARY NOT NULL,
// i INT, d DOUBLE)
// with the writer properties given, in row groups of groupRows: s is
// NULL every 7th row and cycles through distinct values, of which there
// are many once i passes manyFrom (so a small dictionary limit makes the
// writer fall back to PLAIN pages mid-chunk).
func byteArrayFile(t *testing.T, n, groupRows, manyFrom int, props ...parquet.WriterProperty) []byte {
	t.Helper()
	sch := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: types.BigInt, Nullable: true},
		{Name: "s", Type: types.String, Nullable: true},
		{Name: "b", Type: arrow.BinaryTypes.Binary, Nullable: false},
		{Name: "i", Type: types.Int, Nullable: true},
		{Name: "d", Type: types.Double, Nullable: true},
	}, nil)
	var buf bytes.Buffer
	props = append([]parquet.WriterProperty{parquet.WithCompression(compress.Codecs.Snappy), parquet.WithMaxRowGroupLength(int64(groupRows))}, props...)
	w, err := pqarrow.NewFileWriter(sch, &buf, parquet.NewWriterProperties(props...), pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	rb := array.NewRecordBuilder(memory.DefaultAllocator, sch)
	defer rb.Release()
	for i := 0; i < n; i++ {
		rb.Field(0).(*array.Int64Builder).Append(int64(i))
		if i%7 == 3 || manyFrom == allNull {
			rb.Field(1).AppendNull()
		} else {
			rb.Field(1).(*array.StringBuilder).Append(byteArrayValue(i, manyFrom))
		}
		rb.Field(2).(*array.BinaryBuilder).Append([]byte(fmt.Sprintf("b%d", i%5)))
		iv, dv := int32(i%11), float64(i%9)/3
		if i >= manyFrom && manyFrom >= 0 {
			iv, dv = int32(i), float64(i)/7
		}
		if i%5 == 1 || manyFrom == allNull {
			rb.Field(3).AppendNull()
		} else {
			rb.Field(3).(*array.Int32Builder).Append(iv)
		}
		if i%4 == 2 {
			rb.Field(4).AppendNull()
		} else {
			rb.Field(4).(*array.Float64Builder).Append(dv)
		}
	}
	rec := rb.NewRecordBatch()
	defer rec.Release()
	if err := w.WriteBuffered(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func byteArrayValue(i, manyFrom int) string {
	switch manyFrom {
	case oneValue:
		return "only"
	case allNull:
		return ""
	}
	if i >= manyFrom {
		return fmt.Sprintf("distinct-value-%06d", i)
	}
	return fmt.Sprintf("10.0.%d.%d", i%13, i%17)
}

// Special manyFrom values: every s the same, every s NULL.
const (
	oneValue = -1
	allNull  = -2
)

// readBatches reads every batch, through NextDict when dict is set, and
// returns them with how many had a dictionary column.
func readBatches(t *testing.T, data []byte, sch *arrow.Schema, opts Options, dict bool) (rows []string, dictBatches, batches int) {
	t.Helper()
	opts.Format = "parquet"
	rd, err := NewReader(context.Background(), memFile("file:///d.parquet", data), sch, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	dr, ok := rd.(DictReader)
	if !ok {
		t.Fatal("parquet reader is not a DictReader")
	}
	for {
		var rec arrow.RecordBatch
		if dict {
			rec, err = dr.NextDict(context.Background())
		} else {
			rec, err = rd.Next(context.Background())
		}
		if errors.Is(err, io.EOF) {
			return rows, dictBatches, batches
		}
		if err != nil {
			t.Fatal(err)
		}
		batches++
		cols := make([]arrow.Array, rec.NumCols())
		fields := make([]arrow.Field, rec.NumCols())
		hasDict := false
		for i := range cols {
			c := rec.Column(i)
			fields[i] = rec.Schema().Field(i)
			if d, ok := c.(*array.Dictionary); ok {
				hasDict = true
				if !arrow.TypeEqual(d.Dictionary().DataType(), sch.Field(i).Type) {
					t.Fatalf("dictionary of %s, want %s", d.Dictionary().DataType(), sch.Field(i).Type)
				}
				cols[i] = decodeDict(t, d)
				fields[i].Type = sch.Field(i).Type
				continue
			}
			if !arrow.TypeEqual(c.DataType(), sch.Field(i).Type) {
				t.Fatalf("column %d is %s, want %s", i, c.DataType(), sch.Field(i).Type)
			}
			c.Retain()
			cols[i] = c
		}
		if hasDict {
			dictBatches++
		}
		plain := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, rec.NumRows())
		releaseArrays(cols)
		rows = append(rows, rowsJSON(t, plain)...)
		plain.Release()
		rec.Release()
	}
}

func releaseArrays(cols []arrow.Array) {
	for _, c := range cols {
		c.Release()
	}
}

// decodeDict materializes a dictionary array the slow, obvious way.
func decodeDict(t *testing.T, d *array.Dictionary) arrow.Array {
	t.Helper()
	b := array.NewBuilder(memory.DefaultAllocator, d.Dictionary().DataType())
	defer b.Release()
	for i := 0; i < d.Len(); i++ {
		if d.IsNull(i) {
			b.AppendNull()
			continue
		}
		switch v := d.Dictionary().(type) {
		case *array.String:
			b.(*array.StringBuilder).Append(v.Value(d.GetValueIndex(i)))
		case *array.Binary:
			b.(*array.BinaryBuilder).Append(v.Value(d.GetValueIndex(i)))
		}
	}
	return b.NewArray()
}

// mixedChunk reports whether some chunk of leaf col has dictionary and
// PLAIN data pages both.
func mixedChunk(t *testing.T, data []byte, col int) bool {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	for g := 0; g < pf.NumRowGroups(); g++ {
		cc, err := pf.MetaData().RowGroup(g).ColumnChunk(col)
		if err != nil {
			t.Fatal(err)
		}
		var dict, plain bool
		for _, st := range cc.EncodingStats() {
			if st.PageType != file.PageTypeDataPage && st.PageType != file.PageTypeDataPageV2 {
				continue
			}
			dict = dict || st.Encoding == parquet.Encodings.RLEDict || st.Encoding == parquet.Encodings.PlainDict
			plain = plain || st.Encoding == parquet.Encodings.Plain
		}
		if dict && plain {
			return true
		}
	}
	return false
}

// pqarrowRows is what pqarrow's own reader makes of the file.
func pqarrowRows(t *testing.T, data []byte, sch *arrow.Schema) []string {
	t.Helper()
	tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(data), parquet.NewReaderProperties(memory.DefaultAllocator), pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	tr := array.NewTableReader(tbl, 1000)
	defer tr.Release()
	var rows []string
	for tr.Next() {
		rec := tr.RecordBatch()
		cols := make([]arrow.Array, sch.NumFields())
		for i, f := range sch.Fields() {
			idx := rec.Schema().FieldIndices(f.Name)
			cols[i] = rec.Column(idx[0])
			cols[i].Retain()
		}
		b := array.NewRecordBatch(sch, cols, rec.NumRows())
		releaseArrays(cols)
		rows = append(rows, rowsJSON(t, b)...)
		b.Release()
	}
	return rows
}

// pageColumn reads STRING, BINARY and fixed-width columns as pqarrow
// does, through dictionary and plain pages, NULLs and row groups.
func TestParquetPageColumns(t *testing.T) {
	const n = 5000
	sch := schemaOf(fld("s", types.String), fld("k", types.BigInt), fld("b", arrow.BinaryTypes.Binary), fld("i", types.Int), fld("d", types.Double))
	cases := []struct {
		name     string
		manyFrom int
		props    []parquet.WriterProperty
		// wantDict: some NextDict batches carry a dictionary; wantPlain:
		// some do not (fallback pages, batches across row groups).
		wantDict, wantPlain bool
	}{
		{name: "dictionary pages", manyFrom: n, props: []parquet.WriterProperty{parquet.WithDataPageSize(512)}, wantDict: true, wantPlain: true},
		{name: "fallback to plain mid-chunk", manyFrom: 1500, props: []parquet.WriterProperty{parquet.WithDictionaryPageSizeLimit(2048), parquet.WithDataPageSize(256)}, wantDict: true, wantPlain: true},
		{name: "data page v2", manyFrom: 3000, props: []parquet.WriterProperty{parquet.WithDataPageVersion(parquet.DataPageV2), parquet.WithDictionaryPageSizeLimit(4096), parquet.WithDataPageSize(300)}, wantDict: true, wantPlain: true},
		{name: "no dictionary", manyFrom: 0, props: []parquet.WriterProperty{parquet.WithDictionaryDefault(false)}, wantPlain: true},
		{name: "one value", manyFrom: oneValue, wantDict: true, wantPlain: true},
		{name: "all NULL", manyFrom: allNull, wantDict: true, wantPlain: true},
		// 5,000 distinct values per row group: 13-bit indices.
		{name: "wide indices", manyFrom: 0, props: []parquet.WriterProperty{parquet.WithDictionaryPageSizeLimit(1 << 20)}, wantDict: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rows, group := n, 1200
			if tc.name == "wide indices" {
				rows, group = 20000, 5000
			}
			data := byteArrayFile(t, rows, group, tc.manyFrom, tc.props...)
			if tc.name == "fallback to plain mid-chunk" {
				for _, col := range []int{1, 3, 4} {
					if !mixedChunk(t, data, col) {
						t.Fatalf("no chunk of column %d has both dictionary and plain data pages", col)
					}
				}
			}
			want := pqarrowRows(t, data, sch)
			if len(want) != rows {
				t.Fatalf("pqarrow read %d rows, want %d", len(want), rows)
			}
			for _, bs := range []int{7, 300, 1000, 4096} {
				got, _, _ := readBatches(t, data, sch, Options{BatchSize: bs}, false)
				eqRows(t, got, want)
				got, dicts, batches := readBatches(t, data, sch, Options{BatchSize: bs}, true)
				eqRows(t, got, want)
				if bs == 300 && tc.wantDict && dicts == 0 {
					t.Errorf("batch size %d: no batch had a dictionary column", bs)
				}
				if bs == 1000 && tc.wantPlain && dicts == batches {
					t.Errorf("batch size %d: every batch had a dictionary column", bs)
				}
				if !tc.wantDict && dicts > 0 {
					t.Errorf("batch size %d: %d batches had a dictionary column", bs, dicts)
				}
			}
		})
	}
}

// A batch's dictionary is the chunk's: the same array for each batch of
// one row group, a new one for the next row group.
func TestParquetDictionarySharedPerChunk(t *testing.T) {
	data := byteArrayFile(t, 3000, 1000, 3000)
	sch := schemaOf(fld("s", types.String))
	rd, err := NewReader(context.Background(), memFile("file:///d.parquet", data), sch, Options{Format: "parquet", BatchSize: 250})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	var dicts []arrow.ArrayData
	for {
		rec, err := rd.(DictReader).NextDict(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		d, ok := rec.Column(0).(*array.Dictionary)
		if !ok {
			t.Fatalf("batch %d: column is %s, want a dictionary", len(dicts), rec.Column(0).DataType())
		}
		dicts = append(dicts, d.Data().Dictionary())
		rec.Release()
	}
	if len(dicts) != 12 {
		t.Fatalf("%d batches, want 12", len(dicts))
	}
	for i, d := range dicts {
		same := d == dicts[i/4*4]
		if !same {
			t.Errorf("batch %d: dictionary differs from its row group's first batch", i)
		}
		if i%4 == 0 && i > 0 && d == dicts[i-1] {
			t.Errorf("batch %d: shares the previous row group's dictionary", i)
		}
	}
}

// Row groups pruned by statistics are skipped by the page reader too,
// and _row still numbers rows in the file.
func TestParquetByteArrayRowGroupFilter(t *testing.T) {
	data := byteArrayFile(t, 3000, 1000, 3000)
	sch := schemaOf(fld("s", types.String), fld("_row", types.BigInt))
	keepMiddle := func(s RowGroupStats) bool { return s.Index == 1 }
	got, _, _ := readBatches(t, data, sch, Options{BatchSize: 333, RowGroupFilter: keepMiddle}, true)
	if len(got) != 1000 {
		t.Fatalf("%d rows, want 1000", len(got))
	}
	for _, i := range []int{0, 3, 999} {
		r := 1000 + i
		s := `"s":"` + byteArrayValue(r, 3000) + `"`
		if r%7 == 3 {
			s = `"s":null`
		}
		want := fmt.Sprintf(`{"_row":%d,%s}`, r+1, s)
		if got[i] != want {
			t.Errorf("row %d: %s, want %s", i, got[i], want)
		}
	}
}
