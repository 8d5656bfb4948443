package format

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"strings"
	"testing"

	"sluice/internal/types"
)

// plainSchema reads a few of the keys randRecord writes, in the case
// they are written and not; the rest are skipped.
func plainSchema() []string { return []string{"status", "Bytes", "geo", "s"} }

// randValue writes a JSON value, sometimes not quite one.
func randValue(rng *rand.Rand, depth int) string {
	scalars := []string{
		`0`, `-0`, `200`, `-17`, `3.25`, `-0.5`, `1e5`, `1E+5`, `2.5e-3`, `12345678901234567890`,
		`01`, `1.`, `.5`, `-`, `1e`, `+1`, `0x10`, `true`, `false`, `null`, `tru`, `nul`, `x`,
		`""`, `"abc"`, `"é ünï 😀"`, "\"tab\there\"", `"a,b}c]d{e[f:"`, "\"\x01\x7f\xff\"", `"2026-11-01T00:00:00.294Z"`,
		`"\"quoted\""`, `"back\\slash"`, `"\u00e9\ud83d\ude00"`, `"\q"`, `"unterminated`,
	}
	switch r := rng.Intn(10); {
	case r < 6 || depth > 3:
		return scalars[rng.Intn(len(scalars))]
	case r < 8:
		var parts []string
		for n := rng.Intn(4); n > 0; n-- {
			parts = append(parts, randValue(rng, depth+1))
		}
		return "[" + strings.Join(parts, ",") + "]"
	default:
		return randObject(rng, depth+1)
	}
}

func randObject(rng *rand.Rand, depth int) string {
	keys := []string{`"status"`, `"STATUS"`, `"bytes"`, `"Bytes"`, `"geo"`, `"s"`, `"path"`, `"tags"`,
		`"@timestamp"`, `"ünï"`, `"st\u0061tus"`, `""`, `"a\"b"`}
	var b strings.Builder
	b.WriteByte('{')
	for n := rng.Intn(7); n > 0; n-- {
		b.WriteString(keys[rng.Intn(len(keys))])
		b.WriteString([]string{":", ":", ":", " : ", "\t:\r"}[rng.Intn(5)])
		b.WriteString(randValue(rng, depth))
		if n > 1 {
			b.WriteString([]string{",", ",", ",", " , ", ",\t"}[rng.Intn(5)])
		}
	}
	b.WriteByte('}')
	return b.String()
}

// mutate sometimes breaks a record: cut short, a byte dropped, one
// added, trailing garbage or whitespace.
func mutate(rng *rand.Rand, s string) string {
	if s == "" {
		return s
	}
	switch rng.Intn(8) {
	case 0:
		return s[:rng.Intn(len(s))]
	case 1:
		i := rng.Intn(len(s))
		return s[:i] + s[i+1:]
	case 2:
		i := rng.Intn(len(s) + 1)
		return s[:i] + string(`"{}[],: x\`[rng.Intn(10)]) + s[i:]
	case 3:
		return s + []string{" x", "}", ",", " ", "\t", "{}"}[rng.Intn(6)]
	case 4:
		return " " + s
	}
	return s
}

// On records of every shape, broken or not, the plain scan accepts only
// what the bytewise scan accepts and finds the same spans; it takes the
// usual compact records itself.
func TestScanTopPlainAgreesWithBytewise(t *testing.T) {
	fields := plainSchema()
	schema := schemaOf(fld(fields[0], types.Int), fld(fields[1], types.BigInt),
		fld(fields[2], types.Struct(fld("country", types.String))), fld(fields[3], types.String))
	rd, err := NewReader(context.Background(), memFile("x.json", []byte("{}\n")), schema, Options{Format: "json"})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	r := rd.(*jsonReader)
	rng := rand.New(rand.NewSource(7))
	plainOK, compact := 0, 0
	for n := 0; n < 100000; n++ {
		rec := []byte(mutate(rng, randObject(rng, 0)))
		if bytes.IndexByte(rec, '\\') >= 0 {
			continue // never scanned the plain way
		}
		clear(r.top.spans)
		ok := r.scanTopPlain(rec, masksOf(rec))
		got := append([]span(nil), r.top.spans...)
		clear(r.top.spans)
		err := r.scanTopBytewise(rec)
		if ok && err != nil {
			t.Fatalf("%s: plain accepted, bytewise: %v", rec, err)
		}
		if !ok && err == nil && !bytes.ContainsAny(rec, " \t\r") {
			// Whitespace aside, everything bytewise accepts is plain.
			t.Fatalf("%s: plain refused what bytewise accepts", rec)
		}
		if ok {
			plainOK++
			for k, sp := range r.top.spans {
				if sp != got[k] {
					t.Fatalf("%s: field %s: plain %+v, bytewise %+v", rec, fields[k], got[k], sp)
				}
			}
			if !bytes.ContainsAny(rec, " \t\r") {
				compact++
			}
		}
	}
	if plainOK < 10000 || compact < 5000 {
		t.Fatalf("plain scan took only %d records (%d compact)", plainOK, compact)
	}
}

// A file read the plain way and the bytewise way gives the same rows and
// the same bad rows (file, line, reason): CRLF line ends, blank lines,
// lines longer than the read buffer, escapes, nested values skipped,
// trailing garbage.
func TestJSONPlainScanSameRowsAndErrors(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	var buf bytes.Buffer
	for n := 0; n < 3000; n++ {
		switch rng.Intn(40) {
		case 0:
			buf.WriteString(`{"s":"` + strings.Repeat("long ", 1<<12) + `","status":1}`)
		case 1:
			buf.WriteString("")
		case 2:
			buf.WriteString(`[{"status":2},{"status":3}]`)
		default:
			buf.WriteString(mutate(rng, randObject(rng, 0)))
		}
		buf.WriteString([]string{"\n", "\n", "\r\n"}[rng.Intn(3)])
	}
	schema := schemaOf(fld("status", types.Int), fld("Bytes", types.BigInt),
		fld("geo", types.Struct(fld("country", types.String))), fld("s", types.String), fld("_row", types.BigInt))
	read := func(bytewise bool) ([]string, []string) {
		var bad []string
		opts := Options{Format: "json", BatchSize: 100, OnBadRow: func(b BadRow) {
			bad = append(bad, fmt.Sprintf("%s:%d: %s", b.File, b.Line, b.Reason))
		}}
		rd, err := NewReader(context.Background(), memFile("mixed.json", buf.Bytes()), schema, opts)
		if err != nil {
			t.Fatal(err)
		}
		defer rd.Close()
		rd.(*jsonReader).bytewise = bytewise
		var rows []string
		for {
			rec, err := rd.Next(context.Background())
			if errors.Is(err, io.EOF) {
				return rows, bad
			}
			if err != nil {
				t.Fatal(err)
			}
			rows = append(rows, rowsJSON(t, rec)...)
			rec.Release()
		}
	}
	rows, bad := read(false)
	wantRows, wantBad := read(true)
	eqRows(t, rows, wantRows)
	if strings.Join(bad, "\n") != strings.Join(wantBad, "\n") {
		t.Fatalf("bad rows differ\nplain:\n%s\nbytewise:\n%s", strings.Join(bad, "\n"), strings.Join(wantBad, "\n"))
	}
	if len(bad) < 100 || len(rows)-len(bad) < 500 {
		t.Fatalf("%d rows, %d bad: the test data lost its mix", len(rows), len(bad))
	}
}
