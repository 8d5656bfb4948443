package exec

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// EventTime sits right above a streaming scan of a table with a
// watermark. It records the largest event time it passes, from which the
// stream derives the next watermark, and holds the epoch's watermark for
// the operators that judge lateness. It drops nothing itself: as in
// Spark, the watermark only matters to stateful operators that keep
// event-time state (a window aggregate drops a row whose window has
// been emitted or evicted, a session window one whose own session has
// closed); filters, projections and stream-static joins pass late rows
// through, and so do aggregates without an event-time window. The
// operators that drop count their drops here (AddLate), so Late stays
// the one count the stream reports. Rows with a NULL event time belong
// to no window.
type EventTime struct {
	Base
	schema    *arrow.Schema
	col       int
	name      string
	watermark int64
	lateMark  int64
	maxEvent  int64
	late      atomic.Int64
}

var _ Operator = (*EventTime)(nil)

// NewEventTime tracks TIMESTAMP column col of schema.
func NewEventTime(schema *arrow.Schema, col int) (*EventTime, error) {
	if col < 0 || col >= schema.NumFields() || schema.Field(col).Type.ID() != arrow.TIMESTAMP {
		return nil, fmt.Errorf("event time: column %d is not a TIMESTAMP", col)
	}
	return &EventTime{schema: schema, col: col, name: schema.Field(col).Name, watermark: math.MinInt64, lateMark: math.MinInt64, maxEvent: math.MinInt64}, nil
}

// StartEpoch sets the epoch's watermark (what windows are emitted and
// evicted at), the watermark rows are judged late against, and resets
// the per-epoch counters. As in Spark (IncrementalExecution's
// eventTimeWatermarkForLateEvents), the late one is the previous
// epoch's watermark: a row of a window the previous epoch left open is
// still added, and that window is emitted when this epoch ends.
func (e *EventTime) StartEpoch(watermark, late int64) {
	e.watermark, e.lateMark, e.maxEvent = watermark, late, math.MinInt64
	e.late.Store(0)
}

// Watermark is the watermark of the current epoch (MinInt64: none).
func (e *EventTime) Watermark() int64 { return e.watermark }

// LateWatermark is the watermark rows are judged late against in the
// current epoch (MinInt64: none), at most Watermark.
func (e *EventTime) LateWatermark() int64 { return e.lateMark }

// AddLate counts n rows dropped as late by a later operator.
func (e *EventTime) AddLate(n int64) { e.late.Add(n) }

// MaxEvent is the largest event time seen this epoch (MinInt64: none).
func (e *EventTime) MaxEvent() int64 { return e.maxEvent }

// Late is the number of rows dropped as late this epoch.
func (e *EventTime) Late() int64 { return e.late.Load() }

// Schema is the input's.
func (e *EventTime) Schema() *arrow.Schema { return e.schema }

// Process tracks the largest event time and passes the batch on.
func (e *EventTime) Process(ctx context.Context, batch arrow.RecordBatch, out Output) error {
	ts, ok := batch.Column(e.col).(*array.Timestamp)
	if !ok {
		return fmt.Errorf("event time: column %s is %s", e.name, batch.Column(e.col).DataType())
	}
	for i, n := 0, ts.Len(); i < n; i++ {
		if !ts.IsNull(i) {
			if v := int64(ts.Value(i)); v > e.maxEvent {
				e.maxEvent = v
			}
		}
	}
	return out.Send(ctx, Message{Batch: batch})
}

func (e *EventTime) String() string { return fmt.Sprintf("EventTime %s", e.name) }
