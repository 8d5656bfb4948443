package format

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/klauspost/compress/gzip"

	"sluice/internal/types"
)

// rangedFile is memFile with OpenRange, the way the file connector serves
// a part.
func rangedFile(name string, data []byte) File {
	f := memFile(name, data)
	f.OpenRange = func(_ context.Context, off, n int64) (io.ReadCloser, error) {
		if off > int64(len(data)) {
			off = int64(len(data))
		}
		end := int64(len(data))
		if n >= 0 && off+n < end {
			end = off + n
		}
		return io.NopCloser(bytes.NewReader(data[off:end])), nil
	}
	return f
}

// readParts reads f cut into parts of size bytes, in order, concatenating
// the rows and the bad rows reported.
func readParts(t *testing.T, f File, size int64, schema *arrow.Schema, opts Options) ([]string, []BadRow, error) {
	t.Helper()
	var rows []string
	var bad []BadRow
	opts.OnBadRow = func(b BadRow) { bad = append(bad, b) }
	for start := int64(0); start < f.Size || start == 0; start += size {
		p := f
		p.Part = &Part{Start: start, End: min(start+size, f.Size)}
		r, err := readAll(t, p, schema, opts)
		rows = append(rows, r...)
		if err != nil {
			return rows, bad, err
		}
		if f.Size == 0 {
			break
		}
	}
	return rows, bad, nil
}

func readWhole(t *testing.T, f File, schema *arrow.Schema, opts Options) ([]string, []BadRow, error) {
	t.Helper()
	var bad []BadRow
	opts.OnBadRow = func(b BadRow) { bad = append(bad, b) }
	rows, err := readAll(t, f, schema, opts)
	return rows, bad, err
}

// jsonLinesCorpus has lines of every length crossing the small part sizes,
// blank lines, CRLF endings, a bad line, a BOM at the start and a last
// line without its newline.
func jsonLinesCorpus() []byte {
	var b strings.Builder
	b.WriteString("\xef\xbb\xbf")
	for i := 0; i < 120; i++ {
		pad := strings.Repeat("x", (i*37)%300)
		eol := "\n"
		if i%5 == 0 {
			eol = "\r\n"
		}
		switch {
		case i%17 == 3:
			b.WriteString(`{"id": ` + fmt.Sprint(i) + `, "s": "oops` + eol)
		case i%13 == 4:
			b.WriteString(eol)
		default:
			fmt.Fprintf(&b, `{"id": %d, "s": "%s"}%s`, i, pad, eol)
		}
	}
	b.WriteString(`{"id": 999, "s": "last"}`)
	return []byte(b.String())
}

func TestPartsReadEveryLineOnce(t *testing.T) {
	data := jsonLinesCorpus()
	sch := schemaOf(fld("id", types.BigInt), fld("s", types.String), fld(RowColumn, types.BigInt), fld(DefaultCorruptColumn, types.String))
	for _, mode := range []Mode{Permissive, DropMalformed} {
		opts := Options{Format: "json", Mode: mode, BatchSize: 64}
		want, wantBad, err := readWhole(t, rangedFile("a.json", data), sch, opts)
		if err != nil || len(want) < 100 || len(wantBad) == 0 {
			t.Fatalf("whole: %d rows, %d bad, %v", len(want), len(wantBad), err)
		}
		for _, size := range []int64{7, 64, 333, 1024, int64(len(data)) - 1, int64(len(data)) + 5} {
			got, gotBad, err := readParts(t, rangedFile("a.json", data), size, sch, opts)
			if err != nil {
				t.Fatalf("mode %v, parts of %d: %v", mode, size, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("mode %v, parts of %d: %d rows, want %d\n got %.300v\nwant %.300v", mode, size, len(got), len(want), got, want)
			}
			if !reflect.DeepEqual(gotBad, wantBad) {
				t.Fatalf("mode %v, parts of %d: bad rows %v, want %v", mode, size, gotBad, wantBad)
			}
		}
	}
}

func TestPartsFailFastNamesTheFileLine(t *testing.T) {
	data := jsonLinesCorpus()
	sch := schemaOf(fld("id", types.BigInt))
	opts := Options{Format: "json", Mode: FailFast}
	_, _, wantErr := readWhole(t, rangedFile("a.json", data), sch, opts)
	_, _, err := readParts(t, rangedFile("a.json", data), 100, sch, opts)
	if wantErr == nil || err == nil || err.Error() != wantErr.Error() {
		t.Fatalf("parts: %v, whole: %v", err, wantErr)
	}
}

func TestPartsCSV(t *testing.T) {
	var b strings.Builder
	b.WriteString("id,name\r\n")
	for i := 0; i < 150; i++ {
		switch {
		case i%19 == 5:
			b.WriteString("1,2,3,4\n") // too many fields
		case i%11 == 2:
			b.WriteString("\n")
		default:
			fmt.Fprintf(&b, "%d,\"n %s\"\n", i, strings.Repeat("y", (i*29)%200))
		}
	}
	b.WriteString("7,tail")
	data := []byte(b.String())
	for _, header := range []bool{true, false} {
		sch := schemaOf(fld("id", types.String), fld("name", types.String), fld(RowColumn, types.BigInt))
		if !header {
			sch = schemaOf(fld("_c0", types.String), fld("_c1", types.String), fld(RowColumn, types.BigInt))
		}
		opts := Options{Format: "csv", Header: header, Mode: DropMalformed, BatchSize: 64}
		want, wantBad, err := readWhole(t, rangedFile("a.csv", data), sch, opts)
		if err != nil || len(want) < 100 || len(wantBad) == 0 {
			t.Fatalf("whole: %d rows, %d bad, %v", len(want), len(wantBad), err)
		}
		for _, size := range []int64{5, 64, 1024} {
			got, gotBad, err := readParts(t, rangedFile("a.csv", data), size, sch, opts)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotBad, wantBad) {
				t.Fatalf("header %v, parts of %d: %d rows %d bad, want %d, %d\n got %.300v\nwant %.300v", header, size, len(got), len(gotBad), len(want), len(wantBad), got, want)
			}
		}
	}
}

// A file that cannot be cut is read whole by the first part, and the
// other parts are empty, whatever its name says.
func TestPartsOfUncuttableFiles(t *testing.T) {
	lines := []byte("{\"id\": 1}\n{\"id\": 2}\n{\"id\": 3}\n{\"id\": 4}\n")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(lines)
	zw.Close()
	array := []byte("[\n  {\"id\": 1},\n  {\"id\": 2},\n  {\"id\": 3}\n]\n")
	var gzCSV bytes.Buffer
	zw = gzip.NewWriter(&gzCSV)
	zw.Write([]byte("id\n1\n2\n3\n4\n5\n6\n"))
	zw.Close()
	csvSch := schemaOf(fld("id", types.BigInt))
	want, _, err := readWhole(t, rangedFile("a.csv", gzCSV.Bytes()), csvSch, Options{Format: "csv", Header: true, Mode: FailFast})
	got, _, gerr := readParts(t, rangedFile("a.csv", gzCSV.Bytes()), 8, csvSch, Options{Format: "csv", Header: true, Mode: FailFast})
	if err != nil || gerr != nil || len(want) != 6 || !reflect.DeepEqual(got, want) {
		t.Fatalf("gzip CSV named .csv in parts: %v (%v), want %v (%v)", got, gerr, want, err)
	}
	sch := schemaOf(fld("id", types.BigInt))
	for name, data := range map[string][]byte{"gzip named .json": gz.Bytes(), "array": array} {
		f := rangedFile("a.json", data)
		want, _, err := readWhole(t, f, sch, Options{Format: "json"})
		if err != nil || len(want) < 3 {
			t.Fatalf("%s whole: %v %v", name, want, err)
		}
		got, _, err := readParts(t, f, 8, sch, Options{Format: "json"})
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s in parts: %v (%v), want %v", name, got, err, want)
		}
	}
	if Splittable("json", Options{}, "s3://b/a.json.gz") || Splittable("json", Options{Compression: "zstd"}, "a.json") ||
		Splittable("csv", Options{MultiLine: true}, "a.csv") || !Splittable("json", Options{}, "a.json") || !Splittable("parquet", Options{}, "a.parquet") {
		t.Error("Splittable: compressed, zstd by option, multiLine CSV must not split; plain JSON and Parquet must")
	}
}

func TestPartsEmptyAndLongLines(t *testing.T) {
	sch := schemaOf(fld("id", types.BigInt))
	f := rangedFile("e.json", nil)
	if got, _, err := readParts(t, f, 4, sch, Options{Format: "json"}); err != nil || len(got) != 0 {
		t.Fatalf("empty file: %v %v", got, err)
	}
	// One line much longer than the parts: the parts inside it are empty.
	data := []byte(`{"id": 1, "pad": "` + strings.Repeat("z", 5000) + "\"}\n{\"id\": 2}\n")
	want, _, _ := readWhole(t, rangedFile("l.json", data), sch, Options{Format: "json"})
	got, _, err := readParts(t, rangedFile("l.json", data), 100, sch, Options{Format: "json"})
	if err != nil || !reflect.DeepEqual(got, want) || len(want) != 2 {
		t.Fatalf("long line: %v %v, want %v", got, err, want)
	}
}

// Parquet parts hold the row groups starting in them: every row once, in
// order, with _row still the ordinal in the whole file.
func TestPartsParquetByRowGroup(t *testing.T) {
	data := parquetFile(t, 95, 10)
	sch := schemaOf(fld("id", types.BigInt), fld(RowColumn, types.BigInt))
	f := rangedFile("p.parquet", data)
	want, _, err := readWhole(t, f, sch, Options{Format: "parquet"})
	if err != nil || len(want) != 95 {
		t.Fatalf("whole: %d rows, %v", len(want), err)
	}
	for _, size := range []int64{50, 333, int64(len(data)) / 3, int64(len(data))} {
		got, _, err := readParts(t, f, size, sch, Options{Format: "parquet"})
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("parts of %d: %d rows (%v), want %d", size, len(got), err, len(want))
		}
	}
}
