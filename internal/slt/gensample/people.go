package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os/exec"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"

	"sluice/internal/types"
)

// person is one row of the small typed table under testdata/data. The
// rows cover NULLs, empty strings, quotes and commas (for CSV), non-ASCII
// text, nested values and a fractional timestamp.
type person struct {
	ID     int      `json:"id"`
	Name   *string  `json:"name"`
	City   *string  `json:"city"`
	Score  *float64 `json:"score"`
	Active *bool    `json:"active"`
	Joined *string  `json:"joined"`
	Tags   []string `json:"tags"`
	Addr   *address `json:"address"`
}

type address struct {
	Street string `json:"street"`
	Zip    string `json:"zip"`
}

func ptr[T any](v T) *T { return &v }

var people = []person{
	{1, ptr("Ada"), ptr("London"), ptr(91.5), ptr(true), ptr("2026-01-05T09:00:00Z"), []string{"admin", "dev"}, &address{"12 Crescent Rd", "N1 1AA"}},
	{2, ptr("Brahim"), ptr("Paris"), ptr(78.25), ptr(true), ptr("2026-02-11T14:30:00Z"), []string{"dev"}, &address{"5 rue Oberkampf", "75011"}},
	{3, ptr("Chen"), ptr("Tokyo"), ptr(88.0), ptr(false), ptr("2026-03-20T00:00:00.25Z"), []string{}, nil},
	{4, ptr("Dana \"D\" O'Neil, Jr."), ptr("New York"), nil, ptr(true), ptr("2026-04-01T23:59:59Z"), []string{"ops"}, &address{"1 Main St", "10001"}},
	{5, ptr("Émile"), ptr("Lyon"), ptr(65.75), nil, ptr("2026-05-17T08:15:00Z"), nil, &address{"", "69001"}},
	{6, ptr(""), ptr("Paris"), ptr(70.0), ptr(false), nil, []string{"dev", "ops"}, nil},
	{7, nil, ptr("Berlin"), ptr(99.5), ptr(true), ptr("2026-07-04T12:00:00Z"), []string{"admin"}, &address{"Unter den Linden 1", "10117"}},
	{8, ptr("Grace"), nil, ptr(84.125), ptr(true), ptr("2026-08-30T18:45:30Z"), []string{"dev"}, &address{"42 Harbor Way", "94107"}},
	{9, ptr("Hiro"), ptr("Tokyo"), ptr(-3.5), ptr(false), ptr("2026-11-30T11:59:59Z"), []string{}, nil},
	{10, ptr("Ines"), ptr("São Paulo"), ptr(77.0), ptr(true), ptr("2026-11-30T12:00:00Z"), []string{"ops", "dev", "admin"}, &address{"Av. Paulista 1000", "01310-100"}},
}

// peopleSchema is the table's SQL schema, as a CREATE TABLE would declare it.
var peopleSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: types.Int, Nullable: true},
	{Name: "name", Type: types.String, Nullable: true},
	{Name: "city", Type: types.String, Nullable: true},
	{Name: "score", Type: types.Double, Nullable: true},
	{Name: "active", Type: types.Boolean, Nullable: true},
	{Name: "joined", Type: types.Timestamp, Nullable: true},
	{Name: "tags", Type: types.Array(types.String), Nullable: true},
	{Name: "address", Type: types.Struct(
		arrow.Field{Name: "street", Type: types.String},
		arrow.Field{Name: "zip", Type: types.String}), Nullable: true},
}, nil)

// peopleFiles writes data/json/people.json (+ .gz, .zst, .sz, .bz2),
// data/csv/people.csv (+ .gz) and data/parquet/people.parquet, plus
// data/json/bad.json whose third line is not JSON.
func peopleFiles(files map[string][]byte) error {
	var js bytes.Buffer
	for _, p := range people {
		b, err := json.Marshal(p)
		if err != nil {
			return fmt.Errorf("encoding person: %w", err)
		}
		js.Write(b)
		js.WriteByte('\n')
	}
	files["data/json/people.json"] = js.Bytes()
	gz, err := gzipBytes(js.Bytes())
	if err != nil {
		return err
	}
	files["data/json/people.json.gz"] = gz

	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		return fmt.Errorf("zstd: %w", err)
	}
	files["data/json/people.json.zst"] = enc.EncodeAll(js.Bytes(), nil)

	var sz bytes.Buffer
	sw := snappy.NewBufferedWriter(&sz) // the framed format, as .sz files use
	sw.Write(js.Bytes())
	if err := sw.Close(); err != nil {
		return fmt.Errorf("snappy: %w", err)
	}
	files["data/json/people.json.sz"] = sz.Bytes()

	// The standard library reads bzip2 but cannot write it; use the bzip2
	// tool when present and otherwise leave the committed file alone.
	if _, err := exec.LookPath("bzip2"); err == nil {
		cmd := exec.Command("bzip2", "-9", "-c")
		cmd.Stdin = bytes.NewReader(js.Bytes())
		out, err := cmd.Output()
		if err != nil {
			return fmt.Errorf("bzip2: %w", err)
		}
		files["data/json/people.json.bz2"] = out
	}

	files["data/json/bad.json"] = []byte(`{"id": 1, "name": "ok"}
{"id": 2, "name": "ok too"}
{"id": 3, "name": "broken
{"id": 4, "name": "never read"}
`)

	var cs bytes.Buffer
	cw := csv.NewWriter(&cs)
	cw.Write([]string{"id", "name", "city", "score", "active", "joined"})
	for _, p := range people {
		cw.Write([]string{strconv.Itoa(p.ID), str(p.Name), str(p.City), num(p.Score), boolean(p.Active), ts(p.Joined)})
	}
	cw.Flush()
	files["data/csv/people.csv"] = cs.Bytes()
	if gz, err = gzipBytes(cs.Bytes()); err != nil {
		return err
	}
	files["data/csv/people.csv.gz"] = gz

	pq, err := parquetBytes(js.Bytes())
	if err != nil {
		return err
	}
	files["data/parquet/people.parquet"] = pq
	return nil
}

// parquetBytes decodes the NDJSON with Arrow's own reader and writes it
// as one snappy-compressed row group, keeping the Arrow schema (so the
// timestamp stays microseconds, UTC).
func parquetBytes(ndjson []byte) ([]byte, error) {
	var rows []string
	for _, l := range strings.Split(strings.TrimSpace(string(ndjson)), "\n") {
		rows = append(rows, l)
	}
	rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, peopleSchema,
		strings.NewReader("["+strings.Join(rows, ",")+"]"))
	if err != nil {
		return nil, fmt.Errorf("building parquet rows: %w", err)
	}
	defer rec.Release()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(peopleSchema, &buf,
		parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy), parquet.WithCreatedBy("sluice gensample")),
		pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return nil, fmt.Errorf("parquet: %w", err)
	}
	if err := w.Write(rec); err != nil {
		return nil, fmt.Errorf("parquet: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("parquet: %w", err)
	}
	return buf.Bytes(), nil
}

// CSV spells NULL as an empty field.
func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func num(f *float64) string {
	if f == nil {
		return ""
	}
	return strconv.FormatFloat(*f, 'f', -1, 64)
}

func boolean(b *bool) string {
	if b == nil {
		return ""
	}
	return strconv.FormatBool(*b)
}

func ts(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
