package format

import (
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/types"
)

// BenchmarkBenchDataJSON decodes a file of the bench data set (say the
// first 8 MB of /tmp/sluice-bench-1g/ndjson/part-0000.json, cut at a line)
// named by SLUICE_BENCH_JSON, with the projection each of Q1-Q4 reads.
// BENCHMARKS.md counts its instructions under valgrind.
func BenchmarkBenchDataJSON(b *testing.B) {
	path := os.Getenv("SLUICE_BENCH_JSON")
	if path == "" {
		b.Skip("SLUICE_BENCH_JSON is not set")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	for _, q := range []struct {
		name   string
		schema *arrow.Schema
	}{
		{"Q1", schemaOf(fld("status", types.Int))},
		{"Q2", schemaOf(fld("status", types.Int), fld("bytes", types.BigInt))},
		{"Q3", schemaOf(fld("@timestamp", types.Timestamp), fld("path", types.String), fld("latency_ms", types.Double))},
		{"Q4", schemaOf(fld("clientip", types.String), fld("bytes", types.BigInt))},
	} {
		b.Run(q.name, func(b *testing.B) {
			benchRead(b, "bench.json", data, 0, q.schema, Options{Format: "json"})
		})
	}
}
