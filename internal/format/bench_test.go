package format

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// logLines builds n typical access-log records of about 250 bytes with 10
// fields, a nested struct and a string array.
func logLines(n int) []byte {
	var buf bytes.Buffer
	for i := 0; i < n; i++ {
		fmt.Fprintf(&buf, `{"@timestamp":"2026-11-30T04:%02d:%02d.%03dZ","clientip":"10.%d.%d.%d","request":"GET /api/v1/items/%d?page=%d HTTP/1.1","status":%d,"size":%d,"agent":"Mozilla/5.0 (X11; Linux x86_64)","geo":{"country":"NZ","city":"Wellington","lat":-41.28,"lon":174.77},"tags":["web","prod","edge-%d"],"latency_ms":%d.%d,"ok":true}`+"\n",
			i/60%60, i%60, i%1000, i%256, (i/256)%256, i%7, i, i%10, 200+i%5*100, 1000+i*7%5000, i%4, i%300, i%10)
	}
	return buf.Bytes()
}

// benchRead reports MB/s of uncompressed input (plainSize, or len(data)).
func benchRead(b *testing.B, name string, data []byte, plainSize int, schema *arrow.Schema, opts Options) {
	b.Helper()
	f := memFile(name, data)
	if plainSize == 0 {
		plainSize = len(data)
	}
	b.SetBytes(int64(plainSize))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	defer func() {
		// MB per CPU-second: what one core does, however loaded the
		// shared machine is (wall-clock MB/s is reported as usual).
		if sec := (cpuTime() - cpu0).Seconds(); sec > 0 {
			b.ReportMetric(float64(plainSize)*float64(b.N)/1e6/sec, "MB/cpu-s")
		}
	}()
	for i := 0; i < b.N; i++ {
		rd, err := NewReader(context.Background(), f, schema, opts)
		if err != nil {
			b.Fatal(err)
		}
		for {
			rec, err := rd.Next(context.Background())
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			rec.Release()
		}
		rd.Close()
	}
}

func BenchmarkJSONProject3(b *testing.B) {
	data := logLines(20000)
	schema := schemaOf(fld("@timestamp", types.Timestamp), fld("status", types.Int), fld("request", types.String))
	benchRead(b, "bench.json", data, 0, schema, Options{Format: "json"})
}

func BenchmarkJSONAllColumns(b *testing.B) {
	data := logLines(20000)
	schema := schemaOf(fld("@timestamp", types.Timestamp), fld("clientip", types.String), fld("request", types.String),
		fld("status", types.Int), fld("size", types.BigInt), fld("agent", types.String),
		fld("geo", types.Struct(fld("country", types.String), fld("city", types.String), fld("lat", types.Double), fld("lon", types.Double))),
		fld("tags", types.Array(types.String)), fld("latency_ms", types.Double), fld("ok", types.Boolean))
	benchRead(b, "bench.json", data, 0, schema, Options{Format: "json"})
}

func BenchmarkJSONProject3Gzip(b *testing.B) {
	var buf bytes.Buffer
	w, _ := Compress(&buf, CodecGzip)
	plain := logLines(20000)
	w.Write(plain)
	w.Close()
	schema := schemaOf(fld("@timestamp", types.Timestamp), fld("status", types.Int), fld("request", types.String))
	benchRead(b, "bench.json.gz", buf.Bytes(), len(plain), schema, Options{Format: "json"})
}

// csvLines builds n rows of a 10-column CSV log (~150 bytes a row).
func csvLines(n int) []byte {
	var buf bytes.Buffer
	buf.WriteString("ts,clientip,request,status,size,agent,country,city,latency_ms,ok\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&buf, "2026-11-30T04:%02d:%02dZ,10.%d.%d.%d,\"GET /api/v1/items/%d?page=%d, HTTP/1.1\",%d,%d,Mozilla/5.0,NZ,Wellington,%d.%d,true\n",
			i/60%60, i%60, i%256, (i/256)%256, i%7, i, i%10, 200+i%5*100, 1000+i*7%5000, i%300, i%10)
	}
	return buf.Bytes()
}

func BenchmarkCSVProject3(b *testing.B) {
	schema := schemaOf(fld("ts", types.Timestamp), fld("status", types.Int), fld("request", types.String))
	benchRead(b, "bench.csv", csvLines(20000), 0, schema, Options{Format: "csv", Header: true})
}

func BenchmarkCSVAllColumns(b *testing.B) {
	data := csvLines(20000)
	s, err := Infer(context.Background(), []File{memFile("bench.csv", data)}, Options{Format: "csv", Header: true}, 100)
	if err != nil {
		b.Fatal(err)
	}
	benchRead(b, "bench.csv", data, 0, s, Options{Format: "csv", Header: true})
}

// BenchmarkParquetProject3 reports MB/s of the Parquet file's size.
func BenchmarkParquetProject3(b *testing.B) {
	data := logLines(50000)
	all := schemaOf(fld("@timestamp", types.Timestamp), fld("clientip", types.String), fld("request", types.String),
		fld("status", types.Int), fld("size", types.BigInt), fld("agent", types.String),
		fld("geo", types.Struct(fld("country", types.String), fld("city", types.String), fld("lat", types.Double), fld("lon", types.Double))),
		fld("tags", types.Array(types.String)), fld("latency_ms", types.Double), fld("ok", types.Boolean))
	rd, err := NewReader(context.Background(), memFile("x.json", data), all, Options{Format: "json", BatchSize: 50000})
	if err != nil {
		b.Fatal(err)
	}
	rec, err := rd.Next(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	var pq bytes.Buffer
	w, _ := NewWriter(&pq, all, Options{Format: "parquet"})
	if err := w.Write(rec); err != nil {
		b.Fatal(err)
	}
	w.Close()
	rec.Release()
	rd.Close()
	schema := schemaOf(fld("@timestamp", types.Timestamp), fld("status", types.Int), fld("request", types.String))
	benchRead(b, "bench.parquet", pq.Bytes(), 0, schema, Options{Format: "parquet"})
}

// cpuTime is the process's user+system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
