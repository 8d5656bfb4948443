package exec

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// EventTime sits right above a streaming scan of a table with a
// watermark. It drops rows whose event time is older than the epoch's
// watermark (counting them), and records the largest event time it
// passes, from which the stream derives the next watermark. Rows with a
// NULL event time pass: they belong to no window.
//
// When a window aggregate follows (PassLate), it passes every row and
// the aggregate decides: as in Spark, a row is late only when its
// window has already been emitted or evicted, which the aggregate alone
// knows. The aggregate counts its drops here (AddLate), so Late stays
// the one count the stream reports.
type EventTime struct {
	Base
	schema    *arrow.Schema
	col       int
	name      string
	watermark int64
	maxEvent  int64
	late      atomic.Int64
	passLate  bool
}

var _ Operator = (*EventTime)(nil)

// NewEventTime tracks TIMESTAMP column col of schema.
func NewEventTime(schema *arrow.Schema, col int) (*EventTime, error) {
	if col < 0 || col >= schema.NumFields() || schema.Field(col).Type.ID() != arrow.TIMESTAMP {
		return nil, fmt.Errorf("event time: column %d is not a TIMESTAMP", col)
	}
	return &EventTime{schema: schema, col: col, name: schema.Field(col).Name, watermark: math.MinInt64, maxEvent: math.MinInt64}, nil
}

// StartEpoch sets the watermark rows are judged against and resets the
// per-epoch counters.
func (e *EventTime) StartEpoch(watermark int64) {
	e.watermark, e.maxEvent = watermark, math.MinInt64
	e.late.Store(0)
}

// PassLate makes Process keep rows older than the watermark: a later
// operator judges lateness and reports it through AddLate.
func (e *EventTime) PassLate() { e.passLate = true }

// Watermark is the watermark of the current epoch (MinInt64: none).
func (e *EventTime) Watermark() int64 { return e.watermark }

// AddLate counts n rows dropped as late by a later operator.
func (e *EventTime) AddLate(n int64) { e.late.Add(n) }

// MaxEvent is the largest event time seen this epoch (MinInt64: none).
func (e *EventTime) MaxEvent() int64 { return e.maxEvent }

// Late is the number of rows dropped as late this epoch.
func (e *EventTime) Late() int64 { return e.late.Load() }

// Schema is the input's.
func (e *EventTime) Schema() *arrow.Schema { return e.schema }

// Process drops late rows and tracks the largest event time.
func (e *EventTime) Process(ctx context.Context, batch arrow.RecordBatch, out Output) error {
	ts, ok := batch.Column(e.col).(*array.Timestamp)
	if !ok {
		return fmt.Errorf("event time: column %s is %s", e.name, batch.Column(e.col).DataType())
	}
	n := ts.Len()
	late := 0
	for i := 0; i < n; i++ {
		if ts.IsNull(i) {
			continue
		}
		v := int64(ts.Value(i))
		if v < e.watermark && !e.passLate {
			late++
			continue
		}
		if v > e.maxEvent {
			e.maxEvent = v
		}
	}
	if late == 0 {
		return out.Send(ctx, Message{Batch: batch})
	}
	e.late.Add(int64(late))
	if late == n {
		return nil
	}
	mb := array.NewBooleanBuilder(memory.DefaultAllocator)
	defer mb.Release()
	mb.Reserve(n)
	for i := 0; i < n; i++ {
		mb.UnsafeAppend(ts.IsNull(i) || int64(ts.Value(i)) >= e.watermark)
	}
	mask := mb.NewBooleanArray()
	defer mask.Release()
	kept, err := compute.FilterRecordBatch(ctx, batch, mask, compute.DefaultFilterOptions())
	if err != nil {
		return fmt.Errorf("event time: dropping late rows: %w", err)
	}
	defer kept.Release()
	return out.Send(ctx, Message{Batch: kept})
}

func (e *EventTime) String() string { return fmt.Sprintf("EventTime %s", e.name) }
