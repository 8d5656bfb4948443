package format

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

func schemaString(s *arrow.Schema) string {
	var parts []string
	for _, f := range s.Fields() {
		parts = append(parts, types.QuoteIdent(f.Name)+" "+types.SQLName(f.Type))
	}
	return strings.Join(parts, ", ")
}

func TestInferJSON(t *testing.T) {
	cases := []struct {
		name  string
		files []string
		rows  int
		want  string
	}{
		{"widening and order", []string{
			`{"a":1,"b":"x","c":1}` + "\n" + `{"c":2.5,"d":null,"a":2}` + "\n",
			`{"e":true,"b":3}`},
			0, "a BIGINT, b STRING, c DOUBLE, d STRING, e BOOLEAN"},
		{"timestamps only when all parse", []string{
			`{"t":"2026-11-30T04:36:56Z","u":"2026-11-30 04:36:56"}` + "\n" + `{"t":"2026-11-30","u":"soon"}`},
			0, "t TIMESTAMP, u STRING"},
		{"nested merge", []string{
			`{"geo":{"city":"x"},"tags":["a"],"xs":[{"k":1}]}` + "\n" + `{"geo":{"lat":1.5,"city":null},"tags":[],"xs":[{"j":"q","k":2.5}]}`},
			0, "geo STRUCT<city: STRING, lat: DOUBLE>, tags ARRAY<STRING>, xs ARRAY<STRUCT<k: DOUBLE, j: STRING>>"},
		{"mixed is string, bad rows ignored, arrays of rows", []string{
			`{"m":1}` + "\n" + `{"m":{"x":1}}` + "\n" + `{"broken":` + "\n" + `[{"n":1},{"n":2}]`},
			0, "m STRING, n BIGINT"},
		{"sample limit", []string{`{"a":1}` + "\n" + `{"b":1}`, `{"c":1}`}, 1, "a BIGINT"},
		{"whole-file array", []string{"[\n{\"a\":[1,2.5]},\n{\"b\":{}}\n]"}, 0, "a ARRAY<DOUBLE>, b STRING"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var files []File
			for i, s := range c.files {
				files = append(files, memFile("f"+string(rune('0'+i))+".json", []byte(s)))
			}
			s, err := Infer(context.Background(), files, Options{Format: "json"}, c.rows)
			if err != nil {
				t.Fatal(err)
			}
			if got := schemaString(s); got != c.want {
				t.Fatalf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestInferCSV(t *testing.T) {
	in := "i,l,d,b,ts,s,empty\n1,3000000000,1.5,true,2026-11-30T04:36:56Z,x,\n-2,4,2,FALSE,2026-11-30,7,\n"
	s, err := Infer(context.Background(), []File{memFile("x.csv", []byte(in))}, Options{Format: "csv", Header: true}, 100)
	if err != nil {
		t.Fatal(err)
	}
	if got := schemaString(s); got != "i INT, l BIGINT, d DOUBLE, b BOOLEAN, ts TIMESTAMP, s STRING, empty STRING" {
		t.Fatal(got)
	}
	s, err = Infer(context.Background(), []File{memFile("x.csv.gz", compressBytes(t, CodecGzip, []byte("1,a\n2,b,c\n")))}, Options{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := schemaString(s); got != "_c0 INT, _c1 STRING, _c2 STRING" {
		t.Fatal(got)
	}
	// The inferred schema reads the file back.
	got := mustRead(t, memFile("x.csv", []byte(in)), mustInfer(t, in), Options{Format: "csv", Header: true})
	if len(got) != 2 || !strings.Contains(got[0], `"l":3000000000`) {
		t.Fatal(got)
	}
}

func mustInfer(t *testing.T, csv string) *arrow.Schema {
	t.Helper()
	s, err := Infer(context.Background(), []File{memFile("x.csv", []byte(csv))}, Options{Format: "csv", Header: true}, 0)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestInferParquet(t *testing.T) {
	data := parquetFile(t, 3, 3)
	s, err := Infer(context.Background(), []File{memFile("a.parquet", data), memFile("b.parquet", data)}, Options{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := schemaString(s); got != "id INT, Name STRING, ts TIMESTAMP, geo STRUCT<city: STRING>" {
		t.Fatal(got)
	}
	_, err = Infer(context.Background(), []File{memFile("file:///bad.parquet", []byte("nope"))}, Options{Format: "parquet"}, 0)
	if err == nil || !strings.Contains(err.Error(), "file:///bad.parquet") {
		t.Fatalf("err %v", err)
	}
	if _, err := Infer(context.Background(), nil, Options{}, 0); err == nil {
		t.Fatal("no files accepted")
	}
}
