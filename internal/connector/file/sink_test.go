package file

import (
	"context"
	"fmt"
	"path"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"sluice/internal/connector"
	"sluice/internal/types"
)

// makeBatch builds a batch of sch from rows of Go values (nil is NULL;
// int for INT/BIGINT, string for STRING and DATE).
func makeBatch(t *testing.T, sch *arrow.Schema, rows [][]any) arrow.RecordBatch {
	t.Helper()
	b := array.NewRecordBuilder(memory.DefaultAllocator, sch)
	defer b.Release()
	for _, r := range rows {
		for j, v := range r {
			fb := b.Field(j)
			if v == nil {
				fb.AppendNull()
				continue
			}
			switch bb := fb.(type) {
			case *array.Int32Builder:
				bb.Append(int32(v.(int)))
			case *array.Int64Builder:
				bb.Append(int64(v.(int)))
			case *array.StringBuilder:
				bb.Append(v.(string))
			case *array.Date32Builder:
				d, _ := types.ParseDate(v.(string))
				bb.Append(arrow.Date32(d))
			default:
				t.Fatalf("makeBatch: no case for %T", fb)
			}
		}
	}
	return b.NewRecordBatch()
}

func writeRows(t *testing.T, sink *Sink, batches ...[][]any) {
	t.Helper()
	ctx := context.Background()
	for _, rows := range batches {
		b := makeBatch(t, sink.Schema(), rows)
		if err := sink.Write(ctx, b); err != nil {
			t.Fatal(err)
		}
		b.Release()
	}
}

func names(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = path.Base(k)
	}
	return out
}

var sinkRows = [][]any{
	{1, "a", 2026, "eu"},
	{2, nil, 2026, "us"},
	{3, "c", 2025, "eu"},
	{4, "d", nil, "eu"},
	{5, "e", 2026, "eu"},
}

func sinkSpec(dir, using string, partitioned bool, opts map[string]string) connector.TableSpec {
	spec := connector.TableSpec{Name: "out", Using: using, Location: dir + "/out", Options: opts,
		Schema: schema(field("id", types.BigInt), field("name", types.String), field("year", types.Int), field("region", types.String))}
	if partitioned {
		spec.PartitionBy = []string{"year", "region"}
	}
	return spec
}

func rowStrings(rows [][]any) []string {
	var out []string
	for _, r := range rows {
		var vals []string
		for _, v := range r {
			if v == nil {
				vals = append(vals, "NULL")
			} else {
				vals = append(vals, fmt.Sprint(v))
			}
		}
		out = append(out, strings.Join(vals, "|"))
	}
	return out
}

func TestSinkRoundTrip(t *testing.T) {
	cases := []struct {
		using       string
		partitioned bool
		opts        map[string]string
		wantFiles   []string
	}{
		{"json", false, nil, []string{"part-q1-00000.json"}},
		{"json", false, map[string]string{"compression": "gzip"}, []string{"part-q1-00000.json.gz"}},
		{"json", false, map[string]string{"max_rows_per_file": "2"}, []string{"part-q1-00000.json", "part-q1-00001.json", "part-q1-00002.json"}},
		{"json", true, nil, []string{"part-q1-00000.json", "part-q1-00001.json", "part-q1-00002.json", "part-q1-00003.json"}},
		{"csv", false, map[string]string{"header": "true", "compression": "zstd"}, []string{"part-q1-00000.csv.zst"}},
		{"csv", true, map[string]string{"header": "true"}, []string{"part-q1-00000.csv", "part-q1-00001.csv", "part-q1-00002.csv", "part-q1-00003.csv"}},
		{"parquet", false, nil, []string{"part-q1-00000.parquet"}},
		{"parquet", true, map[string]string{"file_prefix": "x"}, []string{"part-x-q1-00000.parquet", "part-x-q1-00001.parquet", "part-x-q1-00002.parquet", "part-x-q1-00003.parquet"}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s partitioned=%v %v", c.using, c.partitioned, c.opts), func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			spec := sinkSpec(dir, c.using, c.partitioned, c.opts)
			sink, err := NewSink(ctx, spec, connector.SinkOptions{FilePrefix: "q1"})
			if err != nil {
				t.Fatal(err)
			}
			writeRows(t, sink, sinkRows[:3], sinkRows[3:])
			if err := sink.Flush(ctx, 0); err != nil {
				t.Fatal(err)
			}
			if err := sink.Close(); err != nil {
				t.Fatal(err)
			}
			if got := sorted(names(sink.Written())); !reflect.DeepEqual(got, c.wantFiles) {
				t.Errorf("files %v (%v), want %v", got, sink.Written(), c.wantFiles)
			}
			if c.partitioned {
				for _, k := range sink.Written() {
					if !strings.Contains(k, "year=") || !strings.Contains(k, "/region=") {
						t.Errorf("file %s is not in a partition folder", k)
					}
				}
			}
			src, err := NewSource(ctx, spec)
			if err != nil {
				t.Fatal(err)
			}
			got := readAll(t, src)
			if !reflect.DeepEqual(sorted(got), sorted(rowStrings(sinkRows))) {
				t.Errorf("read back %v, want %v", got, rowStrings(sinkRows))
			}
		})
	}
}

func TestSinkDeterministicReplay(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	spec := sinkSpec(dir, "json", true, nil)
	run := func(epoch int64) []string {
		sink, err := NewSink(ctx, spec, connector.SinkOptions{FilePrefix: "stream1"})
		if err != nil {
			t.Fatal(err)
		}
		if err := sink.BeginEpoch(ctx, epoch); err != nil {
			t.Fatal(err)
		}
		writeRows(t, sink, sinkRows)
		if err := sink.Flush(ctx, epoch); err != nil {
			t.Fatal(err)
		}
		return sink.Written()
	}
	first := run(7)
	replay := run(7)
	if !reflect.DeepEqual(first, replay) {
		t.Fatalf("replay wrote %v, first attempt %v", replay, first)
	}
	if !strings.HasPrefix(path.Base(first[0]), "part-stream1-7-") {
		t.Errorf("epoch missing from name %s", first[0])
	}
	src, err := NewSource(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, src); len(got) != len(sinkRows) {
		t.Errorf("after replay %d rows, want %d (no duplicates)", len(got), len(sinkRows))
	}
	// Another epoch adds files and never touches epoch 7's.
	next := run(8)
	if got := readAll(t, src); len(got) != 2*len(sinkRows) || len(next) != len(first) {
		t.Errorf("after epoch 8: %d rows", len(got))
	}
}

func TestSinkCloseWithoutFlushWritesNothing(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	spec := sinkSpec(dir, "json", false, nil)
	sink, err := NewSink(ctx, spec, connector.SinkOptions{FilePrefix: "q"})
	if err != nil {
		t.Fatal(err)
	}
	writeRows(t, sink, sinkRows)
	sink.Close()
	if len(sink.Written()) != 0 {
		t.Errorf("wrote %v", sink.Written())
	}
}

func TestSinkErrors(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	spec := sinkSpec(dir, "json", false, nil)
	spec.Location = dir + "/out/*.json"
	if _, err := NewSink(ctx, spec, connector.SinkOptions{}); err == nil || !strings.Contains(err.Error(), "glob") {
		t.Errorf("glob location: %v", err)
	}
	spec = sinkSpec(dir, "json", false, nil)
	spec.Schema = nil
	if _, err := NewSink(ctx, spec, connector.SinkOptions{}); err == nil {
		t.Error("sink without schema accepted")
	}
	spec = sinkSpec(dir, "json", false, nil)
	sink, err := NewSink(ctx, spec, connector.SinkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b := makeBatch(t, schema(field("id", types.BigInt)), [][]any{{1}})
	defer b.Release()
	if err := sink.Write(ctx, b); err == nil {
		t.Error("batch with the wrong column count accepted")
	}
}

func TestSinkConvertsColumnTypes(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	spec := sinkSpec(dir, "json", false, nil)
	sink, err := NewSink(ctx, spec, connector.SinkOptions{FilePrefix: "q"})
	if err != nil {
		t.Fatal(err)
	}
	// id arrives as INT, the table says BIGINT: widened.
	in := schema(field("id", types.Int), field("name", types.String), field("year", types.Int), field("region", types.String))
	b := makeBatch(t, in, [][]any{{1, "a", 2026, "eu"}})
	if err := sink.Write(ctx, b); err != nil {
		t.Fatal(err)
	}
	b.Release()
	// A string where BIGINT is expected is an error, not a panic.
	bad := schema(field("id", types.String), field("name", types.String), field("year", types.Int), field("region", types.String))
	b = makeBatch(t, bad, [][]any{{"abc", "a", 2026, "eu"}})
	if err := sink.Write(ctx, b); err == nil {
		t.Error("'abc' accepted as BIGINT")
	}
	b.Release()
	if err := sink.Flush(ctx, 0); err != nil {
		t.Fatal(err)
	}
	src, err := NewSource(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, src); !reflect.DeepEqual(got, []string{"1|a|2026|eu"}) {
		t.Errorf("got %v", got)
	}
}

func TestSinkManyPartitions(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	spec := sinkSpec(dir, "json", true, nil)
	sink, err := NewSink(ctx, spec, connector.SinkOptions{FilePrefix: "q"})
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]any
	for i := range 2 * maxOpenFiles {
		rows = append(rows, []any{i, "x", 2000 + i, "eu"})
	}
	writeRows(t, sink, rows, rows[:1])
	if len(sink.open) > maxOpenFiles {
		t.Errorf("%d files open", len(sink.open))
	}
	if err := sink.Flush(ctx, 0); err != nil {
		t.Fatal(err)
	}
	// The first partition was stored early and reopened for the last row.
	if n := len(sink.Written()); n != 2*maxOpenFiles+1 {
		t.Errorf("%d files written, want %d", n, 2*maxOpenFiles+1)
	}
	src, err := NewSource(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, src); len(got) != len(rows)+1 {
		t.Errorf("read %d rows, want %d", len(got), len(rows)+1)
	}
}
