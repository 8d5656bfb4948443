package format

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/types"
)

// Text outside the column's range is a malformed value, never a wrapped
// number.
func TestParseIntRange(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"9223372036854775807", math.MaxInt64, true},
		{"-9223372036854775808", math.MinInt64, true},
		{"9223372036854775808", 0, false},
		{"9999999999999999999", 0, false},
		{"-9223372036854775809", 0, false},
		{"99999999999999999999", 0, false},
		{"999999999999999999", 999999999999999999, true},
		{"-999999999999999999", -999999999999999999, true},
		{"+123", 123, true},
		{"1e3", 1000, true},
		{"1e19", 0, false},
		{"12a", 0, false},
	} {
		got, ok := parseInt([]byte(c.in))
		if ok != c.ok || ok && got != c.want {
			t.Errorf("parseInt(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestAppendTextNarrowing(t *testing.T) {
	for _, c := range []struct {
		typ  arrow.DataType
		in   string
		good bool
	}{
		{types.BigInt, "9223372036854775807", true},
		{types.BigInt, "9223372036854775808", false},
		{types.BigInt, "-9223372036854775809", false},
		{types.Int, "2147483647", true},
		{types.Int, "2147483648", false},
		{types.Int, "-2147483649", false},
		{types.Int, "9223372036854775808", false},
		{arrow.PrimitiveTypes.Int16, "32768", false},
		{arrow.PrimitiveTypes.Int8, "-129", false},
		{types.Decimal(5, 2), "999.99", true},
		{types.Decimal(5, 2), "1000.00", false},
		{types.Date, "2147483648", false},
		{&arrow.TimestampType{Unit: arrow.Nanosecond}, "9000-01-01T00:00:00Z", false},
		{&arrow.TimestampType{Unit: arrow.Nanosecond}, "2000-01-01T00:00:00Z", true},
	} {
		k, _ := kindOf(c.typ)
		s := newScalar(c.typ, k, "")
		b := array.NewBuilder(memory.DefaultAllocator, c.typ)
		why := s.appendText(b, []byte(c.in), c.typ.ID() != arrow.TIMESTAMP)
		if !c.good && (why == "" || b.Len() != 1 || b.NullN() != 1) {
			t.Errorf("%s %q: reason %q, %d values, %d NULL; want a reason and one NULL", types.SQLName(c.typ), c.in, why, b.Len(), b.NullN())
		}
		if c.good && why != "" {
			t.Errorf("%s %q: %s", types.SQLName(c.typ), c.in, why)
		}
		b.Release()
	}
}

// A BIGINT past 2^63-1 is a malformed value under each mode, in JSON and
// in CSV alike: NULL with the raw record kept, the row dropped and
// reported, or an error with file and line.
func TestOutOfRangeIntegerByMode(t *testing.T) {
	for _, f := range []struct{ name, data string }{
		{"n.json", "{\"id\":1,\"n\":9223372036854775807}\n{\"id\":2,\"n\":9223372036854775808}\n"},
		{"n.csv", "id,n\n1,9223372036854775807\n2,9223372036854775808\n"},
	} {
		line := int64(2)
		if strings.HasSuffix(f.name, ".csv") {
			line = 3
		}
		schema := schemaOf(fld("id", types.BigInt), fld("n", types.BigInt), fld("_corrupt_record", types.String))
		opts := Options{Header: true, CorruptColumn: "_corrupt_record"}

		opts.Mode = Permissive
		rows := mustRead(t, memFile(f.name, []byte(f.data)), schema, opts)
		if len(rows) != 2 || !strings.Contains(rows[1], `"n":null`) || !strings.Contains(rows[1], `"_corrupt_record":"`) || !strings.Contains(rows[0], `"n":9223372036854775807`) {
			t.Errorf("%s PERMISSIVE: %v", f.name, rows)
		}

		var bad []BadRow
		opts.Mode = DropMalformed
		opts.OnBadRow = func(b BadRow) { bad = append(bad, b) }
		rows = mustRead(t, memFile(f.name, []byte(f.data)), schema, opts)
		if len(rows) != 1 || len(bad) != 1 || bad[0].Line != line || !strings.Contains(bad[0].Reason, "9223372036854775808") {
			t.Errorf("%s DROPMALFORMED: rows %v, bad %+v", f.name, rows, bad)
		}

		opts.Mode, opts.OnBadRow = FailFast, nil
		_, err := readAll(t, memFile(f.name, []byte(f.data)), schema, opts)
		want := fmt.Sprintf("%s:%d: column n: cannot read \"9223372036854775808\" as BIGINT", f.name, line)
		if err == nil || err.Error() != want {
			t.Errorf("%s FAILFAST: %v, want %s", f.name, err, want)
		}
	}
}

// A Parquet column read into a narrower table column fails on a value
// that does not fit instead of wrapping it.
func TestParquetNarrowingChecked(t *testing.T) {
	schema := schemaOf(fld("n", types.BigInt))
	var buf bytes.Buffer
	w, err := NewWriter(&buf, schema, Options{Format: "parquet"})
	if err != nil {
		t.Fatal(err)
	}
	rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	rb.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 3_000_000_000}, nil)
	rec := rb.NewRecordBatch()
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	rec.Release()
	rb.Release()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	_, err = readAll(t, memFile("n.parquet", buf.Bytes()), schemaOf(fld("n", types.Int)), Options{Format: "parquet"})
	if err == nil || !strings.Contains(err.Error(), "n.parquet") || !strings.Contains(err.Error(), "3000000000") {
		t.Fatalf("got %v, want an out-of-range error naming the file", err)
	}
}
