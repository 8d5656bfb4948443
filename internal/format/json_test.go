package format

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/types"
)

func TestJSONTypes(t *testing.T) {
	geo := types.Struct(fld("country", types.String), fld("lat", types.Double))
	cases := []struct {
		name   string
		schema *arrow.Schema
		in     string
		want   []string
	}{
		{"scalars", schemaOf(fld("b", types.Boolean), fld("i", types.Int), fld("l", types.BigInt), fld("d", types.Double), fld("s", types.String)),
			`{"b":true,"i":7,"l":9007199254740993,"d":1.5,"s":"x"}`,
			[]string{`{"b":true,"d":1.5,"i":7,"l":9007199254740993,"s":"x"}`}},
		{"numbers as text and text as numbers", schemaOf(fld("i", types.Int), fld("s", types.String), fld("d", types.Double)),
			`{"i":"42","s":12.50,"d":"2.5"}`,
			[]string{`{"d":2.5,"i":42,"s":"12.50"}`}},
		{"integral floats fit ints", schemaOf(fld("i", types.BigInt)), `{"i":1e3}` + "\n" + `{"i":2.0}`,
			[]string{`{"i":1000}`, `{"i":2}`}},
		{"missing and null", schemaOf(fld("a", types.String), fld("b", types.BigInt)),
			`{"a":null}` + "\n" + `{}`,
			[]string{`{"a":null,"b":null}`, `{"a":null,"b":null}`}},
		{"projection skips others", schemaOf(fld("z", types.BigInt)),
			`{"x":{"deep":[1,2,{"q":"]}"}]},"y":"a\"b","z":3}`,
			[]string{`{"z":3}`}},
		{"case-insensitive, exact wins", schemaOf(fld("status", types.Int)),
			`{"STATUS":1}` + "\n" + `{"Status":1,"status":2}` + "\n" + `{"status":2,"Status":1}`,
			[]string{`{"status":1}`, `{"status":2}`, `{"status":2}`}},
		{"struct", schemaOf(fld("geo", geo)),
			`{"geo":{"lat":1.5,"country":"NZ","extra":[1]}}` + "\n" + `{"geo":{}}` + "\n" + `{"geo":null}`,
			[]string{`{"geo":{"country":"NZ","lat":1.5}}`, `{"geo":{"country":null,"lat":null}}`, `{"geo":null}`}},
		{"array", schemaOf(fld("tags", types.Array(types.String))),
			`{"tags":["a","b\u00e9"]}` + "\n" + `{"tags":[]}` + "\n" + `{"tags":[null,1]}`,
			[]string{`{"tags":["a","bé"]}`, `{"tags":[]}`, `{"tags":[null,"1"]}`}},
		{"map", schemaOf(fld("m", types.Map(types.BigInt))),
			`{"m":{"a":1,"b\n":2}}`,
			[]string{`{"m":[{"key":"a","value":1},{"key":"b\n","value":2}]}`}},
		{"object into string keeps raw JSON", schemaOf(fld("s", types.String)),
			`{"s":{"a": [1, 2]}}`,
			[]string{`{"s":"{\"a\": [1, 2]}"}`}},
		{"array of structs", schemaOf(fld("xs", types.Array(types.Struct(fld("k", types.BigInt))))),
			`{"xs":[{"k":1},{"k":2,"j":0}]}`,
			[]string{`{"xs":[{"k":1},{"k":2}]}`}},
		{"escapes and surrogates", schemaOf(fld("s", types.String)),
			`{"s":"tab\there \ud83d\ude00 lone \ud800 end"}`,
			[]string{`{"s":"tab\there 😀 lone ` + "\ufffd" + ` end"}`}},
		{"escaped key", schemaOf(fld("a b", types.BigInt)), `{"a\u0020b":5}`, []string{`{"a b":5}`}},
		{"blank lines and CRLF", schemaOf(fld("a", types.BigInt)), "\n{\"a\":1}\r\n   \n{\"a\":2}\r\n",
			[]string{`{"a":1}`, `{"a":2}`}},
		{"line holding an array", schemaOf(fld("a", types.BigInt)), `[{"a":1},{"a":2}]`,
			[]string{`{"a":1}`, `{"a":2}`}},
		{"decimal", schemaOf(fld("p", types.Decimal(10, 2))), `{"p":12.345}` + "\n" + `{"p":"7"}`,
			[]string{`{"p":"12.35"}`, `{"p":"7"}`}},
		{"date", schemaOf(fld("d", types.Date)), `{"d":"2026-11-30"}` + "\n" + `{"d":"2026-11-30T23:00:00Z"}`,
			[]string{`{"d":"2026-11-30"}`, `{"d":"2026-11-30"}`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := mustRead(t, memFile("file:///t.json", []byte(c.in)), c.schema, Options{Format: "json"})
			eqRows(t, got, c.want)
		})
	}
}

func TestJSONTimestamps(t *testing.T) {
	schema := schemaOf(fld("ts", types.Timestamp))
	want := int64(1764477416000000) // 2025-11-30T04:36:56Z
	cases := []struct {
		in     string
		layout string
		want   int64
	}{
		{`"2025-11-30T04:36:56Z"`, "", want},
		{`"2025-11-30 04:36:56"`, "", want},
		{`"2025-11-30T06:36:56+02:00"`, "", want},
		{`1764477416`, "", want},
		{`1764477416.5`, "", want + 500000},
		{`1764477416000`, "", want},
		{`1764477416000000`, "", want},
		{`"30/11/2025 04:36:56"`, "dd/MM/yyyy HH:mm:ss", want},
		{`"30/11/2025 04:36:56"`, "02/01/2006 15:04:05", want},
	}
	for _, c := range cases {
		rd, err := NewReader(context.Background(), memFile("x.json", []byte(`{"ts":`+c.in+`}`)), schema,
			Options{Format: "json", TimestampFormat: c.layout})
		if err != nil {
			t.Fatal(err)
		}
		rec, err := rd.Next(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		col := rec.Column(0)
		if col.IsNull(0) {
			t.Fatalf("%s: got NULL", c.in)
		}
		got := int64(col.(interface{ Value(int) arrow.Timestamp }).Value(0))
		if got != c.want {
			t.Errorf("%s (%s): got %d want %d", c.in, c.layout, got, c.want)
		}
		rec.Release()
		rd.Close()
	}
}

func TestJSONMetadataAndModes(t *testing.T) {
	in := `{"a":1}` + "\n" + `{"a":"x"}` + "\n" + `{"a":` + "\n" + `{"a":4}`
	schema := schemaOf(fld("a", types.Int), fld("_file", types.String), fld("_row", types.BigInt), fld("_corrupt_record", types.String))
	f := memFile("file:///m.json", []byte(in))

	var bad []BadRow
	got := mustRead(t, f, schema, Options{Format: "json", OnBadRow: func(b BadRow) { bad = append(bad, b) }})
	eqRows(t, got, []string{
		`{"_corrupt_record":null,"_file":"file:///m.json","_row":1,"a":1}`,
		`{"_corrupt_record":"{\"a\":\"x\"}","_file":"file:///m.json","_row":2,"a":null}`,
		`{"_corrupt_record":"{\"a\":","_file":"file:///m.json","_row":3,"a":null}`,
		`{"_corrupt_record":null,"_file":"file:///m.json","_row":4,"a":1}`[:0] +
			`{"_corrupt_record":null,"_file":"file:///m.json","_row":4,"a":4}`,
	})
	if len(bad) != 2 || bad[0].Line != 2 || bad[1].Line != 3 || !strings.Contains(bad[0].Reason, `cannot read "x" as INT`) {
		t.Fatalf("bad rows: %+v", bad)
	}

	bad = nil
	got = mustRead(t, f, schemaOf(fld("a", types.Int), fld("_row", types.BigInt)),
		Options{Format: "json", Mode: DropMalformed, OnBadRow: func(b BadRow) { bad = append(bad, b) }})
	eqRows(t, got, []string{`{"_row":1,"a":1}`, `{"_row":4,"a":4}`})
	if len(bad) != 2 {
		t.Fatalf("bad rows: %+v", bad)
	}

	_, err := readAll(t, f, schemaOf(fld("a", types.Int)), Options{Format: "json", Mode: FailFast})
	if err == nil || !strings.HasPrefix(err.Error(), "file:///m.json:2: column a: cannot read") {
		t.Fatalf("FAILFAST error: %v", err)
	}

	rd, _ := NewReader(context.Background(), f, schemaOf(fld("a", types.Int)), Options{Format: "json"})
	for {
		rec, err := rd.Next(context.Background())
		if err != nil {
			break
		}
		rec.Release()
	}
	if st := rd.(StatsReader).Stats(); st.Rows != 4 || st.BadRows != 2 {
		t.Fatalf("stats %+v", st)
	}
	rd.Close()
	rd.Close()
}

func TestJSONBadInput(t *testing.T) {
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	deepObj := `{"a":` + strings.Repeat(`{"a":`, 100000) + "1" + strings.Repeat("}", 100001)
	cases := []struct {
		name string
		in   string
		rows int
		bad  int
	}{
		{"deep array in projected field", `{"a":` + deep + `}`, 1, 1},
		{"deep object in skipped field", `{"b":` + deep + `}`, 1, 1},
		{"deep object", deepObj, 1, 1},
		{"deep top-level array", deep, 1, 1},
		{"truncated", `{"a":"abc`, 1, 1},
		{"garbage after", `{"a":"x"} x`, 1, 1},
		{"not an object", `42`, 1, 1},
		{"bad escape", `{"a":"\q"}`, 1, 1},
		{"missing colon", `{"a" 1}`, 1, 1},
		{"trailing comma", `{"a":1,}`, 1, 1},
		{"invalid utf8", "{\"a\":\"\xff\xfe ok\"}", 1, 0},
		{"huge number as string", `{"a":1e999999}`, 1, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			nbad := 0
			rows := mustRead(t, memFile("x.json", []byte(c.in)), schemaOf(fld("a", types.String)),
				Options{Format: "json", OnBadRow: func(BadRow) { nbad++ }})
			if len(rows) != c.rows || nbad != c.bad {
				t.Fatalf("rows %d bad %d, want %d %d: %v", len(rows), nbad, c.rows, c.bad, rows)
			}
			for _, r := range rows {
				if strings.Contains(r, "\\xff") {
					t.Fatalf("invalid utf-8 leaked: %s", r)
				}
			}
		})
	}
}

func TestJSONWholeFileArray(t *testing.T) {
	in := "\xef\xbb\xbf[\n  {\"a\": 1},\n  {\"a\": 2,\n   \"b\": 3},\n  {\"a\": 3}\n]\n"
	got := mustRead(t, memFile("x.json", []byte(in)), schemaOf(fld("a", types.BigInt), fld("_row", types.BigInt)), Options{})
	eqRows(t, got, []string{`{"_row":2,"a":1}`, `{"_row":3,"a":2}`, `{"_row":5,"a":3}`})

	// A broken array yields its good elements, then one bad row.
	nbad := 0
	got = mustRead(t, memFile("x.json", []byte(`[{"a":1},{"a":2`)), schemaOf(fld("a", types.BigInt)),
		Options{Mode: DropMalformed, OnBadRow: func(BadRow) { nbad++ }})
	eqRows(t, got, []string{`{"a":1}`})
	if nbad != 1 {
		t.Fatalf("bad %d", nbad)
	}
}

func TestJSONLongLinesAndBatches(t *testing.T) {
	long := strings.Repeat("x", 3<<20)
	var buf bytes.Buffer
	for i := 0; i < 20000; i++ {
		if i == 5 {
			buf.WriteString(`{"a":"` + long + `"}` + "\n")
			continue
		}
		buf.WriteString(`{"a":"v"}` + "\n")
	}
	rd, err := NewReader(context.Background(), memFile("x.json", buf.Bytes()), schemaOf(fld("a", types.String)), Options{BatchSize: 8192})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	var sizes []int64
	for {
		rec, err := rd.Next(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec.NumRows() > 5 && sizes == nil {
			if n := len(rec.Column(0).ValueStr(5)); n != len(long) {
				t.Fatalf("long line read as %d bytes", n)
			}
		}
		sizes = append(sizes, rec.NumRows())
		rec.Release()
	}
	if len(sizes) != 3 || sizes[0] != 8192 || sizes[2] != 20000-2*8192 {
		t.Fatalf("batch sizes %v", sizes)
	}

	// Past MaxLineBytes the line is a bad row, and reading goes on.
	nbad := 0
	got := mustRead(t, memFile("x.json", []byte(`{"a":"`+long+`"}`+"\n"+`{"a":"ok"}`)), schemaOf(fld("a", types.String)),
		Options{MaxLineBytes: 1 << 20, Mode: DropMalformed, OnBadRow: func(BadRow) { nbad++ }})
	eqRows(t, got, []string{`{"a":"ok"}`})
	if nbad != 1 {
		t.Fatalf("bad %d", nbad)
	}
}

func TestJSONCompressed(t *testing.T) {
	plain := []byte(`{"a":1}` + "\n" + `{"a":2}` + "\n")
	for _, codec := range []string{CodecGzip, CodecZstd, CodecSnappy} {
		var buf bytes.Buffer
		w, err := Compress(&buf, codec)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(plain)
		w.Close()
		for _, name := range []string{"x.json" + Extension(codec), "x.json"} { // by extension, by sniffing
			got := mustRead(t, memFile(name, buf.Bytes()), schemaOf(fld("a", types.BigInt)), Options{Format: "json"})
			eqRows(t, got, []string{`{"a":1}`, `{"a":2}`})
		}
	}
}

func TestJSONUnsupportedType(t *testing.T) {
	_, err := NewReader(context.Background(), memFile("x.json", nil), schemaOf(fld("i", arrow.BinaryTypes.Binary)), Options{Format: "json"})
	if err == nil || !strings.Contains(err.Error(), "not supported") {
		t.Fatalf("err %v", err)
	}
}

func TestJSONContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rd, err := NewReader(context.Background(), memFile("x.json", []byte(`{"a":1}`)), schemaOf(fld("a", types.BigInt)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	if _, err := rd.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
}

func TestEmptyInputs(t *testing.T) {
	schema := schemaOf(fld("a", types.BigInt))
	for _, name := range []string{"e.json", "e.json.gz", "e.csv", "e.json.zst"} {
		var data []byte
		if c := CodecFromName(name); c == CodecZstd {
			data = compressBytes(t, c, nil)
		}
		if got := mustRead(t, memFile(name, data), schema, Options{}); len(got) != 0 {
			t.Fatalf("%s: %v", name, got)
		}
	}
	if _, err := readAll(t, memFile("file:///e.parquet", nil), schema, Options{}); err == nil || !strings.Contains(err.Error(), "file:///e.parquet") {
		t.Fatalf("empty parquet: %v", err)
	}
	// Whitespace only, and a file that is only "[]".
	for _, in := range []string{" \n\t\n", "[]", "[ ]\n"} {
		if got := mustRead(t, memFile("w.json", []byte(in)), schema, Options{}); len(got) != 0 {
			t.Fatalf("%q: %v", in, got)
		}
	}
}

func TestJSONWholeFileStreams(t *testing.T) {
	var buf bytes.Buffer
	buf.WriteString("[\n")
	const n = 60000
	for i := 0; i < n; i++ {
		if i > 0 {
			buf.WriteString(",\n")
		}
		if i == 30000 {
			buf.WriteString(`{"a":` + strings.Repeat(" ", 3<<20) + `7}`) // spans several read chunks
			continue
		}
		buf.WriteString(`{"a":1,"pad":"` + strings.Repeat("x", 40) + `"}`)
	}
	buf.WriteString("\n]\n")
	got := mustRead(t, memFile("big.json", buf.Bytes()), schemaOf(fld("a", types.BigInt), fld("_row", types.BigInt)), Options{})
	if len(got) != n || got[n-1] != `{"_row":60001,"a":1}` || got[30000] != `{"_row":30002,"a":7}` {
		t.Fatalf("%d rows, last %s, mid %s", len(got), got[len(got)-1], got[30000])
	}
	// An element longer than MaxLineBytes ends the file as one bad row.
	nbad := 0
	got = mustRead(t, memFile("big.json", buf.Bytes()), schemaOf(fld("a", types.BigInt)),
		Options{MaxLineBytes: 1 << 20, Mode: DropMalformed, OnBadRow: func(BadRow) { nbad++ }})
	if len(got) != 30000 || nbad != 1 {
		t.Fatalf("%d rows, %d bad", len(got), nbad)
	}
}

// Intervals read from the words SQL users write and from the display form
// ("1h0m0s"); the JSON and CSV writers write words that read back exactly.
func TestIntervalText(t *testing.T) {
	in := `{"iv":"5 minutes"}
{"iv":"1 day 2 hours"}
{"iv":"1 month 2 days 1h30m0.5s"}
{"iv":null}
`
	schema := schemaOf(fld("iv", types.Interval))
	got := mustRead(t, memFile("x.json", []byte(in)), schema, Options{Format: "json"})
	eqRows(t, got, []string{
		`{"iv":{"days":0,"months":0,"nanoseconds":300000000000}}`,
		`{"iv":{"days":1,"months":0,"nanoseconds":7200000000000}}`,
		`{"iv":{"days":2,"months":1,"nanoseconds":5400500000000}}`,
		`{"iv":null}`,
	})

	rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	ib := rb.Field(0).(*array.MonthDayNanoIntervalBuilder)
	for _, iv := range []arrow.MonthDayNanoInterval{
		{Months: 14, Days: -3, Nanoseconds: 3723_123456789},
		{Nanoseconds: -90_000_000_001},
		{},
	} {
		ib.Append(iv)
	}
	ib.AppendNull()
	rec := rb.NewRecordBatch()
	rb.Release()
	defer rec.Release()
	for _, opts := range []Options{{Format: "json"}, {Format: "csv", Header: true, NullValue: "NULL"}} {
		var buf bytes.Buffer
		w, err := NewWriter(&buf, schema, opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), "14 months -3 days 1 hour 2 minutes 3 seconds 123 milliseconds 456 microseconds 789 nanoseconds") {
			t.Errorf("%s: written as %q", opts.Format, buf.String())
		}
		eqRows(t, mustRead(t, memFile("x", buf.Bytes()), schema, opts), rowsJSON(t, rec))
	}
}
