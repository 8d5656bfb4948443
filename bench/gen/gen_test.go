package gen

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/klauspost/compress/gzip"
)

func generate(t *testing.T, o Options) *Manifest {
	t.Helper()
	if o.Dir == "" {
		o.Dir = t.TempDir()
	}
	m, err := Generate(context.Background(), o)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	return m
}

func TestDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	ma := generate(t, Options{Dir: a, Rows: 7000, Files: 3, Seed: 42, Parallelism: 1})
	mb := generate(t, Options{Dir: b, Rows: 7000, Files: 3, Seed: 42, Parallelism: 3})
	for _, l := range Layouts {
		if ma.Layouts[l].Bytes != mb.Layouts[l].Bytes {
			t.Errorf("%s: %d bytes vs %d", l, ma.Layouts[l].Bytes, mb.Layouts[l].Bytes)
		}
		for _, f := range ma.Layouts[l].Files {
			x, err := os.ReadFile(filepath.Join(a, f))
			if err != nil {
				t.Fatal(err)
			}
			y, err := os.ReadFile(filepath.Join(b, f))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(x, y) {
				t.Errorf("%s differs between runs", f)
			}
		}
	}
	c := t.TempDir()
	generate(t, Options{Dir: c, Rows: 7000, Files: 3, Seed: 43})
	x, _ := os.ReadFile(filepath.Join(a, "ndjson", "part-0000.json"))
	y, _ := os.ReadFile(filepath.Join(c, "ndjson", "part-0000.json"))
	if bytes.Equal(x, y) {
		t.Errorf("seeds 42 and 43 gave the same data")
	}
}

// ndjsonRow mirrors one NDJSON line.
type ndjsonRow struct {
	Timestamp string  `json:"@timestamp"`
	ClientIP  string  `json:"clientip"`
	Method    string  `json:"method"`
	Path      string  `json:"path"`
	Status    int32   `json:"status"`
	Bytes     int64   `json:"bytes"`
	LatencyMs float64 `json:"latency_ms"`
	UserAgent string  `json:"user_agent"`
	Geo       struct {
		Country string `json:"country"`
		City    string `json:"city"`
	} `json:"geo"`
	Tags []string `json:"tags"`
}

func readNDJSON(t *testing.T, r io.Reader) []ndjsonRow {
	t.Helper()
	var rows []ndjsonRow
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		var row ndjsonRow
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&row); err != nil {
			t.Fatalf("bad line %q: %v", sc.Text(), err)
		}
		rows = append(rows, row)
	}
	return rows
}

func TestLayoutsAgree(t *testing.T) {
	dir := t.TempDir()
	m := generate(t, Options{Dir: dir, Rows: 40_000, Files: 2, Seed: 7})
	if m.Rows != 40_000 || m.Files != 2 {
		t.Fatalf("manifest %+v", m)
	}
	if got, err := ReadManifest(dir); err != nil || got.Layouts["csv"].Bytes != m.Layouts["csv"].Bytes {
		t.Fatalf("ReadManifest: %+v, %v", got, err)
	}

	f, err := os.Open(filepath.Join(dir, "ndjson", "part-0001.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	plain := readNDJSON(t, f)
	if len(plain) != 20_000 {
		t.Fatalf("ndjson part 1 has %d rows, want 20000", len(plain))
	}
	avg := float64(m.Layouts["ndjson"].Bytes) / float64(m.Rows)
	if avg < 250 || avg > 300 {
		t.Errorf("average NDJSON line is %.0f bytes, want 250-300", avg)
	}

	gf, err := os.Open(filepath.Join(dir, "ndjson_gz", "part-0001.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer gf.Close()
	zr, err := gzip.NewReader(gf)
	if err != nil {
		t.Fatal(err)
	}
	if gz := readNDJSON(t, zr); len(gz) != len(plain) || gz[len(gz)-1].ClientIP != plain[len(plain)-1].ClientIP {
		t.Errorf("gzip layout differs from plain NDJSON")
	}

	cf, err := os.Open(filepath.Join(dir, "csv", "part-0001.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer cf.Close()
	recs, err := csv.NewReader(cf).ReadAll()
	if err != nil {
		t.Fatalf("csv: %v", err)
	}
	if strings.Join(recs[0], ",")+"\n" != CSVHeader || len(recs) != len(plain)+1 {
		t.Fatalf("csv header %v, %d records", recs[0], len(recs))
	}
	for i, want := range plain[:1000] {
		r := recs[i+1]
		if r[0] != want.Timestamp || r[3] != want.Path || r[7] != want.UserAgent || r[9] != want.Geo.City ||
			r[10] != strings.Join(want.Tags, ";") {
			t.Fatalf("csv row %d = %v, ndjson %+v", i, r, want)
		}
	}

	checkParquet(t, filepath.Join(dir, "parquet", "part-0001.parquet"), plain)
}

func checkParquet(t *testing.T, name string, want []ndjsonRow) {
	t.Helper()
	rd, err := file.OpenParquetFile(name, false)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	if rd.NumRows() != int64(len(want)) {
		t.Fatalf("parquet has %d rows, want %d", rd.NumRows(), len(want))
	}
	if rd.NumRowGroups() != 1 {
		// 20,000 rows fit one 128k-row group.
		t.Errorf("parquet has %d row groups", rd.NumRowGroups())
	}
	fr, err := pqarrow.NewFileReader(rd, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	for i, f := range Schema.Fields() {
		got := tbl.Schema().Field(i)
		if got.Name != f.Name || got.Type.ID() != f.Type.ID() {
			t.Fatalf("parquet column %d is %s %s, want %s %s", i, got.Name, got.Type, f.Name, f.Type)
		}
	}
	ts := tbl.Column(0).Data().Chunk(0).(*array.Timestamp)
	st := tbl.Column(4).Data().Chunk(0).(*array.Int32)
	lat := tbl.Column(6).Data().Chunk(0).(*array.Float64)
	geo := tbl.Column(8).Data().Chunk(0).(*array.Struct)
	tags := tbl.Column(9).Data().Chunk(0).(*array.List)
	for i, w := range want[:1000] {
		got := ts.Value(i).ToTime(arrow.Microsecond).Format("2006-01-02T15:04:05.000Z")
		if got != w.Timestamp || st.Value(i) != w.Status || lat.Value(i) != w.LatencyMs ||
			geo.Field(1).(*array.String).Value(i) != w.Geo.City {
			t.Fatalf("parquet row %d: %s %d %v, ndjson %+v", i, got, st.Value(i), lat.Value(i), w)
		}
		start, end := tags.ValueOffsets(i)
		if int(end-start) != len(w.Tags) {
			t.Fatalf("parquet row %d has %d tags, want %v", i, end-start, w.Tags)
		}
	}
}

func TestDistributions(t *testing.T) {
	p := newPools(1)
	const n = 200_000
	g := newRowGen(p, 1, 0, 0, n)
	var row Row
	var s5xx, get, noTags int
	var prev int64
	var backwards int
	for i := 0; i < n; i++ {
		g.fill(&row)
		if row.Status >= 500 {
			s5xx++
		}
		if row.Method == "GET" {
			get++
		}
		if len(row.Tags) == 0 {
			noTags++
		}
		if row.TimestampMs < prev-5000 {
			backwards++
		}
		prev = row.TimestampMs
	}
	for _, c := range []struct {
		name   string
		got    int
		lo, hi float64
	}{
		{"5xx share", s5xx, 0.01, 0.025},
		{"GET share", get, 0.75, 0.85},
		{"untagged share", noTags, 0.35, 0.45},
		{"late rows", backwards, 0.005, 0.015},
	} {
		if f := float64(c.got) / n; f < c.lo || f > c.hi {
			t.Errorf("%s = %.4f, want %.3f-%.3f", c.name, f, c.lo, c.hi)
		}
	}
	last := Start.Add(Span).UnixMilli()
	if prev < last-10_000 || prev > last+2000 {
		t.Errorf("last timestamp %d, want near %d", prev, last)
	}
}

func TestSizeTarget(t *testing.T) {
	m := generate(t, Options{Size: 2_000_000, Files: 2, Seed: 3, Layouts: []string{"ndjson"}})
	if b := m.Layouts["ndjson"].Bytes; b < 1_900_000 || b > 2_100_000 {
		t.Errorf("asked for 2 MB of NDJSON, got %d bytes", b)
	}
	if len(m.Layouts) != 1 {
		t.Errorf("layouts %v, want only ndjson", m.Layouts)
	}
}

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		err  bool
	}{
		{"1GB", 1e9, false},
		{"250MB", 250e6, false},
		{"1.5 gb", 15e8, false},
		{"64k", 64e3, false},
		{"1000", 1000, false},
		{"", 0, true},
		{"-1MB", 0, true},
		{"lots", 0, true},
	} {
		got, err := ParseSize(c.in)
		if (err != nil) != c.err || got != c.want {
			t.Errorf("ParseSize(%q) = %d, %v", c.in, got, err)
		}
	}
}

func TestBadOptions(t *testing.T) {
	for _, o := range []Options{
		{Rows: 10},
		{Dir: t.TempDir()},
		{Dir: t.TempDir(), Rows: 10, Layouts: []string{"xml"}},
	} {
		if _, err := Generate(context.Background(), o); err == nil {
			t.Errorf("Generate(%+v) succeeded", o)
		}
	}
}
