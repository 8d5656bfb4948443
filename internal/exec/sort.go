package exec

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// Sort buffers its input and, at WatermarkEnd, emits it ordered by its
// keys. The sort is stable: rows with equal keys keep arrival order.
type Sort struct {
	schema *arrow.Schema
	keys   []SortKey
	buf    []arrow.RecordBatch
}

var (
	_ Operator = (*Sort)(nil)
	_ Stateful = (*Sort)(nil)
)

// NewSort sorts rows of schema by keys.
func NewSort(schema *arrow.Schema, keys []SortKey) *Sort {
	return &Sort{schema: schema, keys: keys}
}

// Schema is the input schema.
func (s *Sort) Schema() *arrow.Schema { return s.schema }

// Keys returns the sort keys.
func (s *Sort) Keys() []SortKey { return s.keys }

// Process buffers the batch.
func (s *Sort) Process(ctx context.Context, batch arrow.RecordBatch, out Output) error {
	if batch.NumRows() == 0 {
		return nil
	}
	batch.Retain()
	s.buf = append(s.buf, batch)
	return nil
}

// OnWatermark emits everything sorted at WatermarkEnd, then forwards t.
func (s *Sort) OnWatermark(ctx context.Context, t int64, out Output) error {
	if t == WatermarkEnd && len(s.buf) > 0 {
		sorted, err := s.sorted(ctx)
		if err != nil {
			return err
		}
		err = sendSliced(ctx, sorted, out)
		sorted.Release()
		if err != nil {
			return err
		}
	}
	return out.Send(ctx, Message{Watermark: t})
}

// sorted drains the buffer into one sorted batch.
func (s *Sort) sorted(ctx context.Context) (arrow.RecordBatch, error) {
	all, err := concatRows(s.schema, s.buf)
	releaseBatches(s.buf)
	s.buf = nil
	if err != nil {
		return nil, fmt.Errorf("sort: %w", err)
	}
	defer all.Release()
	idx, err := sortedIndices(ctx, s.keys, all)
	if err != nil {
		return nil, fmt.Errorf("sort: %w", err)
	}
	res, err := takeRows(ctx, all, idx)
	if err != nil {
		return nil, fmt.Errorf("sort: %w", err)
	}
	return res, nil
}

// EndEpoch does nothing: rows wait for the end watermark.
func (s *Sort) EndEpoch(ctx context.Context, out Output) error { return nil }

// Snapshot writes the buffered rows as Arrow IPC.
func (s *Sort) Snapshot(w io.Writer) error {
	if err := writeRows(w, s.schema, s.buf); err != nil {
		return fmt.Errorf("sort snapshot: %w", err)
	}
	return nil
}

// StateDescription is the buffered rows' columns; the sort keys apply
// only when the rows are written, so they are not part of the state.
func (s *Sort) StateDescription() StateDescription {
	return StateDescription{Kind: "sort", Props: []StateProperty{{Name: "columns", Value: describeSchema(s.schema)}}}
}

// Restore replaces the buffer with the snapshot's rows.
func (s *Sort) Restore(r io.Reader) error {
	_, rows, err := readRows(r)
	if err != nil {
		return fmt.Errorf("sort restore: %w", err)
	}
	releaseBatches(s.buf)
	s.buf = rows
	return nil
}

// String is the EXPLAIN line: Sort [count DESC].
func (s *Sort) String() string { return "Sort " + sortKeysString(s.keys) }
