package exec

import (
	"context"
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"sluice/internal/connector"
)

// BatchSource is a fixed source over batches already in memory (a VALUES
// list), one split per batch. Its offset is the number of batches, which
// never changes, so listing it is free: Splits gives the splits without a
// context.
type BatchSource struct {
	name    string
	schema  *arrow.Schema
	batches []arrow.RecordBatch
}

var (
	_ connector.Source    = (*BatchSource)(nil)
	_ connector.Describer = (*BatchSource)(nil)
)

// NewBatchSource returns a source named name (for EXPLAIN and split ids)
// over batches of schema; it takes over the caller's references.
func NewBatchSource(name string, schema *arrow.Schema, batches []arrow.RecordBatch) *BatchSource {
	return &BatchSource{name: name, schema: schema, batches: batches}
}

// Schema returns the batches' schema.
func (s *BatchSource) Schema() *arrow.Schema { return s.schema }

// Latest is the number of batches.
func (s *BatchSource) Latest(context.Context) (connector.Offset, error) {
	return connector.Offset(strconv.Itoa(len(s.batches))), nil
}

// Plan returns every split: the source never grows, so offsets do not
// matter.
func (s *BatchSource) Plan(context.Context, connector.Offset, connector.Offset) ([]connector.Split, error) {
	return s.Splits(), nil
}

// Splits is one split per batch, "<name>/<index>".
func (s *BatchSource) Splits() []connector.Split {
	out := make([]connector.Split, len(s.batches))
	for i, b := range s.batches {
		out[i] = batchSplit{name: s.name, index: i, size: connector.BatchBytes(b)}
	}
	return out
}

// Open yields the split's batch once, retained for the caller.
func (s *BatchSource) Open(ctx context.Context, split connector.Split) (connector.RecordReader, error) {
	sp, ok := split.(batchSplit)
	if !ok || sp.index < 0 || sp.index >= len(s.batches) {
		return nil, fmt.Errorf("%s: opening split %s: not one of its splits", s.name, split.ID())
	}
	return connector.BatchReader(s.batches[sp.index]), nil
}

// Describe is the EXPLAIN text: "values batches=1 rows=3".
func (s *BatchSource) Describe() string {
	var rows int64
	for _, b := range s.batches {
		rows += b.NumRows()
	}
	return fmt.Sprintf("%s batches=%d rows=%d", s.name, len(s.batches), rows)
}

type batchSplit struct {
	name  string
	index int
	size  int64
}

func (s batchSplit) ID() string  { return s.name + "/" + strconv.Itoa(s.index) }
func (s batchSplit) Size() int64 { return s.size }
