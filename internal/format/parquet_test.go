package format

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/types"
)

// parquetFile writes n rows of (id int32, name string, ts timestamp[ns],
// geo struct) in row groups of groupRows.
func parquetFile(t *testing.T, n, groupRows int) []byte {
	t.Helper()
	schema := schemaOf(fld("id", arrow.PrimitiveTypes.Int32), fld("Name", types.String),
		fld("ts", &arrow.TimestampType{Unit: arrow.Nanosecond}), fld("geo", types.Struct(fld("city", types.String))))
	var buf bytes.Buffer
	w, err := NewWriter(&buf, schema, Options{Format: "parquet"})
	if err != nil {
		t.Fatal(err)
	}
	for start := 0; start < n; start += groupRows {
		rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for i := start; i < min(n, start+groupRows); i++ {
			rb.Field(0).(*array.Int32Builder).Append(int32(i))
			if i%10 == 0 {
				rb.Field(1).AppendNull()
			} else {
				rb.Field(1).(*array.StringBuilder).Append("n" + string(rune('a'+i%26)))
			}
			rb.Field(2).(*array.TimestampBuilder).Append(arrow.Timestamp(int64(i) * 1_000_000_123))
			sb := rb.Field(3).(*array.StructBuilder)
			sb.Append(true)
			sb.FieldBuilder(0).(*array.StringBuilder).Append("c")
		}
		rec := rb.NewRecordBatch()
		// One pqarrow row group per Write call keeps group boundaries exact.
		if err := w.(*parquetWriter).fw.Write(rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
		rb.Release()
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestParquetProjectionAndCasts(t *testing.T) {
	data := parquetFile(t, 25, 10)
	schema := schemaOf(fld("name", types.String), fld("id", types.BigInt), fld("missing", types.Double),
		fld("ts", types.Timestamp), fld("_file", types.String), fld("_row", types.BigInt))
	got := mustRead(t, memFile("file:///p.parquet", data), schema, Options{Format: "parquet", BatchSize: 7})
	if len(got) != 25 {
		t.Fatalf("%d rows", len(got))
	}
	eqRows(t, got[:2], []string{
		`{"_file":"file:///p.parquet","_row":1,"id":0,"missing":null,"name":null,"ts":"1970-01-01T00:00:00Z"}`,
		`{"_file":"file:///p.parquet","_row":2,"id":1,"missing":null,"name":"nb","ts":"1970-01-01T00:00:01Z"}`,
	})
}

func TestParquetRowGroupPruning(t *testing.T) {
	data := parquetFile(t, 30, 10) // groups: ids 0-9, 10-19, 20-29
	var seen []RowGroupStats
	keepMiddle := func(s RowGroupStats) bool {
		seen = append(seen, s)
		mn, mx, _, ok := s.Column("ID") // case-insensitive
		return !ok || mn.(int64) <= 15 && mx.(int64) >= 15
	}
	f := memFile("p.parquet", data)
	schema := schemaOf(fld("id", types.BigInt), fld("_row", types.BigInt))
	rd, err := NewReader(context.Background(), f, schema, Options{Format: "parquet", RowGroupFilter: keepMiddle})
	if err != nil {
		t.Fatal(err)
	}
	if st := rd.(StatsReader).Stats(); st.RowGroups != 3 || st.RowGroupsSkipped != 2 {
		t.Fatalf("stats %+v", st)
	}
	rd.Close()
	seen = nil
	got := mustRead(t, f, schema, Options{Format: "parquet", RowGroupFilter: keepMiddle})
	if len(got) != 10 || got[0] != `{"_row":11,"id":10}` || got[9] != `{"_row":20,"id":19}` {
		t.Fatalf("got %v", got)
	}
	if len(seen) != 3 {
		t.Fatalf("stats seen %d", len(seen))
	}
	mn, mx, nulls, ok := seen[1].Column("Name")
	if !ok || mn != "nl" || mx != "nt" || nulls != 1 {
		t.Fatalf("name stats %v %v %v %v", mn, mx, nulls, ok)
	}
	mn, mx, _, ok = seen[2].Column("ts")
	if !ok || mn.(int64) != 20_000_002 || mx.(int64) != 29_000_003 {
		t.Fatalf("ts stats %v %v %v", mn, mx, ok)
	}
	if _, _, _, ok := seen[0].Column("geo"); ok {
		t.Fatal("nested column has stats")
	}

	// Everything pruned; only metadata columns projected.
	got = mustRead(t, f, schema, Options{Format: "parquet", RowGroupFilter: func(RowGroupStats) bool { return false }})
	if len(got) != 0 {
		t.Fatalf("got %v", got)
	}
	got = mustRead(t, f, schemaOf(fld("_row", types.BigInt), fld("nope", types.String)), Options{Format: "parquet", BatchSize: 8})
	if len(got) != 30 || got[29] != `{"_row":30,"nope":null}` {
		t.Fatalf("got %d %v", len(got), got)
	}
}

func TestParquetNested(t *testing.T) {
	data := parquetFile(t, 3, 3)
	got := mustRead(t, memFile("p.parquet", data), schemaOf(fld("geo", types.Struct(fld("city", types.String)))), Options{Format: "parquet"})
	eqRows(t, got, []string{`{"geo":{"city":"c"}}`, `{"geo":{"city":"c"}}`, `{"geo":{"city":"c"}}`})
}

func TestParquetErrors(t *testing.T) {
	_, err := readAll(t, memFile("file:///bad.parquet", []byte("this is not parquet at all")), schemaOf(fld("a", types.BigInt)), Options{Format: "parquet"})
	if err == nil || !strings.HasPrefix(err.Error(), "reading file:///bad.parquet: parquet footer") {
		t.Fatalf("err %v", err)
	}
	data := parquetFile(t, 3, 3)
	_, err = readAll(t, memFile("file:///p.parquet", data), schemaOf(fld("geo", types.BigInt)), Options{Format: "parquet"})
	if err == nil || !strings.Contains(err.Error(), "column geo: cannot convert") {
		t.Fatalf("err %v", err)
	}
	// Without ReaderAt the file is read through Open.
	f := memFile("p.parquet", data)
	f.ReaderAt = nil
	rd, err := NewReader(context.Background(), f, schemaOf(fld("id", types.Int)), Options{Format: "parquet"})
	if err != nil {
		t.Fatal(err)
	}
	rd.Close()
}
