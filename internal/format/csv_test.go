package format

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

func TestCSV(t *testing.T) {
	cases := []struct {
		name   string
		opts   Options
		schema *arrow.Schema
		in     string
		want   []string
		bad    int
	}{
		{"header and types", Options{Header: true},
			schemaOf(fld("name", types.String), fld("n", types.Int), fld("x", types.Double), fld("ok", types.Boolean), fld("ts", types.Timestamp)),
			"name,n,x,ok,ts\nann,1,1.5,true,2026-11-30T04:36:56Z\nbob,2,,FALSE,1764477416\n",
			[]string{`{"n":1,"name":"ann","ok":true,"ts":"2026-11-30T04:36:56Z","x":1.5}`,
				`{"n":2,"name":"bob","ok":false,"ts":"2025-11-30T04:36:56Z","x":null}`}, 0},
		{"projection and case-insensitive header", Options{Header: true},
			schemaOf(fld("c", types.BigInt), fld("A", types.String), fld("missing", types.String)),
			"a,b,c\n1,2,3\n", []string{`{"A":"1","c":3,"missing":null}`}, 0},
		{"no header uses _cN", Options{},
			schemaOf(fld("_c2", types.String), fld("_c0", types.BigInt)),
			"1,x,y\n2,z,w\n", []string{`{"_c0":1,"_c2":"y"}`, `{"_c0":2,"_c2":"w"}`}, 0},
		{"quotes, doubled quotes, escapes, embedded newlines", Options{Header: true, MultiLine: true},
			schemaOf(fld("a", types.String), fld("b", types.String), fld("_row", types.BigInt)),
			"a,b\n\"x,1\",\"say \"\"hi\"\"\"\n\"line1\nline2\",\"esc \\\" q\"\nlast,\"\"\n",
			[]string{`{"_row":2,"a":"x,1","b":"say \"hi\""}`, `{"_row":3,"a":"line1\nline2","b":"esc \" q"}`,
				`{"_row":5,"a":"last","b":""}`}, 0},
		{"null value and empty", Options{NullValue: "NA"},
			schemaOf(fld("_c0", types.String), fld("_c1", types.BigInt), fld("_c2", types.String)),
			"NA,,\"\"\n", []string{`{"_c0":null,"_c1":null,"_c2":""}`}, 0},
		{"ragged rows", Options{Header: true},
			schemaOf(fld("a", types.String), fld("c", types.String)),
			// PERMISSIVE drops extra tokens, as Spark does; too few become NULL.
			"a,b,c\n1,2\n1,2,3,4\n5,6,7\n", []string{`{"a":"1","c":null}`, `{"a":"1","c":"3"}`, `{"a":"5","c":"7"}`}, 0},
		{"bad field", Options{},
			schemaOf(fld("_c0", types.Int), fld("_corrupt_record", types.String)),
			"1\nx\n", []string{`{"_c0":1,"_corrupt_record":null}`, `{"_c0":null,"_corrupt_record":"x"}`}, 1},
		{"tab delimiter, CRLF, blank lines", Options{Delimiter: '\t'},
			schemaOf(fld("_c1", types.String)), "a\tb\r\n\r\nc\td\r\n", []string{`{"_c1":"b"}`, `{"_c1":"d"}`}, 0},
		{"newline in quotes without multiLine", Options{Header: true},
			schemaOf(fld("a", types.String), fld("b", types.String), fld("_row", types.BigInt)),
			"a,b\n\"line1\nline2\",x\n",
			[]string{`{"_row":2,"a":null,"b":null}`, `{"_row":3,"a":"line2\"","b":"x"}`}, 1},
		{"unterminated quote", Options{},
			schemaOf(fld("_c0", types.String)), "ok\n\"never closed\nmore\n", []string{`{"_c0":"ok"}`, `{"_c0":null}`, `{"_c0":"more"}`}, 1},
		{"unterminated quote, multiLine", Options{MultiLine: true},
			schemaOf(fld("_c0", types.String), fld("_row", types.BigInt)), "ok\n\"never closed\nmore\n",
			[]string{`{"_c0":"ok","_row":1}`, `{"_c0":null,"_row":2}`, `{"_c0":"more","_row":3}`}, 1},
		{"multiLine quote past the cap", Options{MultiLine: true, MaxLineBytes: 10},
			schemaOf(fld("_c0", types.String), fld("_row", types.BigInt)), "\"abc\nd\ne\nfghijkl\nm\"\n",
			[]string{`{"_c0":null,"_row":1}`, `{"_c0":"d","_row":2}`, `{"_c0":"e","_row":3}`, `{"_c0":"fghijkl","_row":4}`, `{"_c0":"m\"","_row":5}`}, 1},
		{"quoting disabled", Options{QuoteSet: true},
			schemaOf(fld("_c0", types.String)), "\"a\n", []string{`{"_c0":"\"a"}`}, 0},
		{"multi-byte delimiter", Options{Delimiter: '§'},
			schemaOf(fld("_c1", types.String)), "a§b\n", []string{`{"_c1":"b"}`}, 0},
		{"trailing delimiter", Options{},
			schemaOf(fld("_c1", types.String)), "a,\n", []string{`{"_c1":null}`}, 0},
		{"timestamp format", Options{TimestampFormat: "dd/MM/yyyy HH:mm"},
			schemaOf(fld("_c0", types.Timestamp), fld("_c1", types.Date)), "30/11/2026 04:36,2026-11-30\n",
			[]string{`{"_c0":"2026-11-30T04:36:00Z","_c1":"2026-11-30"}`}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			nbad := 0
			opts := c.opts
			opts.Format = "csv"
			opts.OnBadRow = func(BadRow) { nbad++ }
			got := mustRead(t, memFile("file:///t.csv", []byte(c.in)), c.schema, opts)
			eqRows(t, got, c.want)
			if nbad != c.bad {
				t.Fatalf("bad rows %d, want %d", nbad, c.bad)
			}
		})
	}
}

func TestCSVModes(t *testing.T) {
	in := "a\n1\nx\n3\n"
	f := memFile("file:///m.csv", []byte(in))
	got := mustRead(t, f, schemaOf(fld("a", types.Int)), Options{Format: "csv", Header: true, Mode: DropMalformed})
	eqRows(t, got, []string{`{"a":1}`, `{"a":3}`})
	_, err := readAll(t, f, schemaOf(fld("a", types.Int)), Options{Format: "csv", Header: true, Mode: FailFast})
	if err == nil || !strings.HasPrefix(err.Error(), `file:///m.csv:3: column a: cannot read "x" as INT`) {
		t.Fatalf("err %v", err)
	}
}

// One stray quote near the top of a large file used to swallow the rest
// of it: every mode must cost that one line and read the others.
func TestCSVUnterminatedQuoteCostsOneLine(t *testing.T) {
	const rows = 100000
	var b strings.Builder
	b.WriteString("id,name\n")
	for i := 1; i <= rows; i++ {
		if i == 2 { // line 3 of the file
			b.WriteString("2,\"broken\n")
			continue
		}
		fmt.Fprintf(&b, "%d,n%d\n", i, i)
	}
	f := memFile("file:///big.csv", []byte(b.String()))
	schema := schemaOf(fld("id", types.BigInt), fld("name", types.String), fld("_corrupt_record", types.String))
	for _, multi := range []bool{false, true} {
		var bad []BadRow
		opts := Options{Format: "csv", Header: true, MultiLine: multi, OnBadRow: func(r BadRow) { bad = append(bad, r) }}
		got := mustRead(t, f, schema, opts)
		if len(got) != rows {
			t.Fatalf("multiLine=%v PERMISSIVE: %d rows, want %d", multi, len(got), rows)
		}
		if got[1] != `{"_corrupt_record":"2,\"broken","id":null,"name":null}` || got[2] != `{"_corrupt_record":null,"id":3,"name":"n3"}` {
			t.Fatalf("multiLine=%v: rows 2-3 %s %s", multi, got[1], got[2])
		}
		if len(bad) != 1 || bad[0].Line != 3 {
			t.Fatalf("multiLine=%v: bad rows %+v", multi, bad)
		}
		bad = nil
		opts.Mode = DropMalformed
		got = mustRead(t, f, schema, opts)
		if len(got) != rows-1 || len(bad) != 1 || bad[0].Line != 3 {
			t.Fatalf("multiLine=%v DROPMALFORMED: %d rows, bad %+v", multi, len(got), bad)
		}
		opts.Mode = FailFast
		_, err := readAll(t, f, schema, opts)
		if err == nil || !strings.HasPrefix(err.Error(), "file:///big.csv:3: ") {
			t.Fatalf("multiLine=%v FAILFAST: err %v", multi, err)
		}
	}
}

func TestCSVCompressedAndUnsupported(t *testing.T) {
	data := compressBytes(t, CodecZstd, []byte("a\n1\n"))
	got := mustRead(t, memFile("x.csv.zst", data), schemaOf(fld("a", types.BigInt)), Options{Format: "csv", Header: true})
	eqRows(t, got, []string{`{"a":1}`})
	_, err := readAll(t, memFile("x.csv", nil), schemaOf(fld("s", types.Struct(fld("a", types.Int)))), Options{Format: "csv"})
	if err == nil || !strings.Contains(err.Error(), "not supported by the CSV reader") {
		t.Fatalf("err %v", err)
	}
}
