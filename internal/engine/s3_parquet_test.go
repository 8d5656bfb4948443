package engine

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"sluice/internal/testutil/faultproxy"
)

// wideParquet builds a Parquet file of cols BIGINT columns c0..c<n> and
// rows rows, in row groups of groupRows, with values that do not
// compress away (so column chunks have real sizes).
func wideParquet(t testing.TB, cols, rows, groupRows int) []byte {
	t.Helper()
	fields := make([]arrow.Field, cols)
	for i := range fields {
		fields[i] = arrow.Field{Name: fmt.Sprintf("c%d", i), Type: arrow.PrimitiveTypes.Int64}
	}
	schema := arrow.NewSchema(fields, nil)
	var buf bytes.Buffer
	props := parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(int64(groupRows)),
		parquet.WithCompression(compress.Codecs.Snappy), parquet.WithDictionaryDefault(false))
	w, err := pqarrow.NewFileWriter(schema, &buf, props, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for start := 0; start < rows; start += groupRows {
		for c := 0; c < cols; c++ {
			fb := b.Field(c).(*array.Int64Builder)
			for r := start; r < start+groupRows && r < rows; r++ {
				if c == 0 {
					fb.Append(int64(r))
				} else {
					fb.Append(rng.Int64())
				}
			}
		}
		rec := b.NewRecordBatch()
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestS3ParquetRanged reads one column of a wide multi-row-group Parquet
// object: only the footer and that column's chunks cross the wire, a
// small fraction of the object. Through resets and 503s the rows are the
// same.
func TestS3ParquetRanged(t *testing.T) {
	srv := needS3(t)
	proxy := countingProxy(t)
	bucket := newBucket(t)
	const cols, rows, group = 40, 40000, 5000
	data := wideParquet(t, cols, rows, group)
	putObject(t, bucket, "wide/w.parquet", data)
	eng := newTestEngine(t)
	mustExec(t, eng, fmt.Sprintf("CREATE TABLE wide USING parquet LOCATION 's3://%s/wide/' %s", bucket, s3Opts(proxy.URL)))
	proxy.ResetCounts()
	got := sortedRows(t, eng, "SELECT c0 FROM wide")
	c := proxy.Counts()
	if len(got) != rows {
		t.Fatalf("read %d rows, want %d", len(got), rows)
	}
	size := int64(len(data))
	t.Logf("object %d bytes, one column read %d bytes in %d GETs (%d ranged)", size, c.BodyBytes, c.ObjectGets, c.RangedGets)
	if c.BodyBytes*10 > size {
		t.Errorf("reading 1 of %d columns transferred %d of %d bytes, want < 10%%", cols, c.BodyBytes, size)
	}
	if c.RangedGets == 0 || c.RangedGets != c.ObjectGets {
		t.Errorf("%d object GETs, %d ranged: every Parquet read should be ranged", c.ObjectGets, c.RangedGets)
	}
	// Row-group statistics skip the groups a filter rules out.
	proxy.ResetCounts()
	if got := sortedRows(t, eng, "SELECT c0, c1 FROM wide WHERE c0 < 100"); len(got) != 100 {
		t.Errorf("filtered read %d rows, want 100", len(got))
	}
	if f := proxy.Counts(); f.BodyBytes*int64(rows/group) > size {
		t.Errorf("a filter matching one row group read %d of %d bytes", f.BodyBytes, size)
	}

	// The same reads through 503s and mid-body resets.
	faulty, err := faultproxy.Start(srv.Endpoint, faultproxy.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer faulty.Close()
	mustExec(t, eng, fmt.Sprintf("CREATE TABLE wide_f USING parquet LOCATION 's3://%s/wide/' %s", bucket,
		s3Opts(faulty.URL, "max_retries '12'", "retry_max_backoff '20ms'")))
	faulty.SetConfig(faultproxy.Config{SlowDownRate: 0.2, ResetRate: 0.3, Latency: time.Millisecond, Seed: 4})
	for _, q := range []string{"SELECT c0, c7 FROM %s", "SELECT c0, c39 FROM %s WHERE c0 >= 39000"} {
		want := sortedRows(t, eng, fmt.Sprintf(q, "wide"))
		if got := sortedRows(t, eng, fmt.Sprintf(q, "wide_f")); !reflect.DeepEqual(got, want) {
			t.Errorf("%s through faults: %d rows, clean %d", q, len(got), len(want))
		}
	}
	if _, slow, resets := faulty.Stats(); slow == 0 || resets == 0 {
		t.Errorf("the proxy injected %d 503s and %d resets", slow, resets)
	}
}
