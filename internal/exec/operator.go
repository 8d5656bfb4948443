package exec

import (
	"context"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// Operator is one step of a physical plan with one input.
//
// Contract: Process is called for each input batch, OnWatermark when the
// input's watermark advances (it must forward a watermark downstream once
// everything before it is emitted), EndEpoch after the last message of an
// epoch. Calls are never concurrent. Input batches are borrowed: Retain
// what you keep. Errors stop the query.
type Operator interface {
	Schema() *arrow.Schema
	Process(ctx context.Context, batch arrow.RecordBatch, out Output) error
	OnWatermark(ctx context.Context, t int64, out Output) error
	EndEpoch(ctx context.Context, out Output) error
	// String is the operator's line in EXPLAIN.
	String() string
}

// Stateful operators keep state across epochs and snapshot it at each
// commit; Restore is called before the first message after a restart.
// StateDescription says what the snapshot means: a snapshot is only
// restored into an operator whose description has the same fingerprint.
type Stateful interface {
	Snapshot(w io.Writer) error
	Restore(r io.Reader) error
	StateDescription() StateDescription
}

// Base gives an operator no-op defaults: watermarks pass through and
// EndEpoch does nothing. Embed it and override what you need.
type Base struct{}

// OnWatermark forwards t.
func (Base) OnWatermark(ctx context.Context, t int64, out Output) error {
	return out.Send(ctx, Message{Watermark: t})
}

// EndEpoch does nothing.
func (Base) EndEpoch(ctx context.Context, out Output) error { return nil }
