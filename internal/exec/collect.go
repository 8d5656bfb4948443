package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Collect is an Output that keeps every batch it receives, in order: query
// results and hash join build sides. Watermarks are remembered, not kept.
type Collect struct {
	batches   []arrow.RecordBatch
	rows      int64
	watermark int64
	hasWM     bool
}

var _ Output = (*Collect)(nil)

// NewCollect returns an empty collector.
func NewCollect() *Collect { return &Collect{} }

// Send retains a batch (empty ones are skipped) or records a watermark.
func (c *Collect) Send(ctx context.Context, m Message) error {
	if m.IsWatermark() {
		c.watermark, c.hasWM = m.Watermark, true
		return nil
	}
	if m.Batch.NumRows() == 0 {
		return nil
	}
	m.Batch.Retain()
	c.batches = append(c.batches, m.Batch)
	c.rows += m.Batch.NumRows()
	return nil
}

// Batches returns the collected batches; they stay owned by c.
func (c *Collect) Batches() []arrow.RecordBatch { return c.batches }

// NumRows is the total number of rows collected.
func (c *Collect) NumRows() int64 { return c.rows }

// Watermark returns the last watermark received and whether there was one.
func (c *Collect) Watermark() (int64, bool) { return c.watermark, c.hasWM }

// Table returns the batches as one table over schema (owned by the
// caller); schema is needed when nothing was collected.
func (c *Collect) Table(schema *arrow.Schema) arrow.Table {
	return array.NewTableFromRecords(schema, c.batches)
}

// Release drops every batch and resets c.
func (c *Collect) Release() {
	for _, b := range c.batches {
		b.Release()
	}
	c.batches, c.rows, c.hasWM = nil, 0, false
}
