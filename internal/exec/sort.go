package exec

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// Sort buffers its input and, at WatermarkEnd, emits it ordered by its
// keys. The sort is stable: rows with equal keys keep arrival order.
//
// With a memory budget, a buffer that outgrows it is sorted and written
// to disk as a run; at the end the runs are merged (k-way, ties to the
// earlier run, so still stable).
type Sort struct {
	schema *arrow.Schema
	keys   []SortKey
	buf    []arrow.RecordBatch

	budget *MemoryBudget
	held   int64 // bytes of buf reserved from budget
	runs   []*spillRun
}

var (
	_ Operator   = (*Sort)(nil)
	_ Stateful   = (*Sort)(nil)
	_ MemoryUser = (*Sort)(nil)
)

// SetMemoryBudget makes the sort spill sorted runs when over b.
func (s *Sort) SetMemoryBudget(b *MemoryBudget) { s.budget = b }

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
	if s.budget != nil {
		if err := s.reserve(ctx, rowBytes(batch)); err != nil {
			return err
		}
	}
	batch.Retain()
	s.buf = append(s.buf, batch)
	return nil
}

// reserve takes n bytes for a batch about to be buffered, spilling the
// buffer first when they do not fit. A batch bigger than the whole budget
// is still taken: it becomes a run of its own at the next spill.
func (s *Sort) reserve(ctx context.Context, n int64) error {
	if s.budget.Reserve(n) == nil {
		s.held += n
		return nil
	}
	if err := s.spill(ctx); err != nil {
		return err
	}
	if s.budget.Reserve(n) != nil {
		n = 0 // over budget on its own: held uncounted until spilled
	}
	s.held += n
	return nil
}

// spill writes the buffer as one sorted run.
func (s *Sort) spill(ctx context.Context) error {
	if len(s.buf) == 0 {
		return nil
	}
	sorted, err := s.sorted(ctx)
	if err != nil {
		return err
	}
	run, err := writeRun(s.budget, s.schema, []arrow.RecordBatch{sorted})
	sorted.Release()
	if err != nil {
		return fmt.Errorf("sort: %w", err)
	}
	s.runs = append(s.runs, run)
	return nil
}

// emitRuns spills what is left and merges every run into out.
func (s *Sort) emitRuns(ctx context.Context, out Output) error {
	defer func() {
		removeRuns(s.runs)
		s.runs = nil
	}()
	if err := s.spill(ctx); err != nil {
		return err
	}
	err := mergeRuns(ctx, s.schema, s.runs, s.keys, func(b arrow.RecordBatch) error {
		return out.Send(ctx, Message{Batch: b})
	})
	if err != nil {
		return fmt.Errorf("sort: %w", err)
	}
	return nil
}

// OnWatermark emits everything sorted at WatermarkEnd, then forwards t.
func (s *Sort) OnWatermark(ctx context.Context, t int64, out Output) error {
	if t == WatermarkEnd && len(s.runs) > 0 {
		if err := s.emitRuns(ctx, out); err != nil {
			return err
		}
	} else if t == WatermarkEnd && len(s.buf) > 0 {
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
	s.budget.Release(s.held)
	s.held = 0
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
	if len(s.runs) > 0 {
		return fmt.Errorf("sort snapshot: rows spilled to disk cannot be checkpointed")
	}
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
