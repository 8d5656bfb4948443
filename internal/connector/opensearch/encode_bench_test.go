package opensearch_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector/conformance"
	"sluice/internal/connector/opensearch"
)

// BenchmarkEncodeBulk is the sink's CPU per document without a node: one
// op turns a batch of 1,000 rows of the search schema into documents
// (JSON sources, content-hash ids) and those into a _bulk body, as the
// sink does before sending. The batches cycle through 200,000 distinct
// rows, one epoch per cycle, so the encoder's id counts grow as in
// BenchmarkIndexing's loads. The package's TestMain starts a node; point
// it at none to keep the node's CPU out:
//
//	SLUICE_OPENSEARCH_URL=http://127.0.0.1:9 go test -run XXX -bench EncodeBulk ./internal/connector/opensearch/
func BenchmarkEncodeBulk(b *testing.B) {
	const rows, cycle = 1000, 200
	batches := make([]arrow.RecordBatch, cycle)
	for i := range batches {
		batches[i] = conformance.SearchBatch(i*rows, rows)
	}
	// A stream's checkpoint from before write ids names no write; an
	// INSERT's and a new stream's rows hash 8 bytes more.
	for _, write := range []string{"", "insert-1"} {
		name := "write=" + write
		if write == "" {
			name = "write=none"
		}
		b.Run(name, func(b *testing.B) { encodeBulk(b, batches, rows, write) })
	}
}

func encodeBulk(b *testing.B, batches []arrow.RecordBatch, rows int, write string) {
	cycle := len(batches)
	enc, err := opensearch.NewEncoder(conformance.SearchSchema, nil, "", "")
	if err != nil {
		b.Fatal(err)
	}
	enc.SetWrite(write)
	b.ReportAllocs()
	b.ResetTimer()
	bytes := 0
	for i := 0; i < b.N; i++ {
		if i%cycle == 0 {
			enc.BeginEpoch(int64(i / cycle))
		}
		docs, err := enc.Encode(batches[i%cycle])
		if err != nil {
			b.Fatal(err)
		}
		for j := range docs {
			docs[j].Index = "bench-sluice-1"
		}
		bytes += len(opensearch.BulkBody(docs, "index"))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows), "ns/doc")
	b.ReportMetric(float64(bytes)/float64(b.N*rows), "body-B/doc")
}
