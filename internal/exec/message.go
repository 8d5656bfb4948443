// Package exec holds the physical operators and the driver that pushes
// record batches and watermarks through them.
//
// A batch query is a bounded stream: the driver feeds every batch of one
// epoch, then the watermark +infinity (WatermarkEnd), then EndEpoch. A
// streaming query feeds epoch after epoch with finite watermarks, and
// stateful operators keep their state in between.
package exec

import (
	"context"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
)

// WatermarkEnd is the watermark that ends input: every window closes.
const WatermarkEnd int64 = math.MaxInt64

// Message travels between operators: a batch, or (Batch == nil) a
// watermark in microseconds since the epoch.
type Message struct {
	Batch     arrow.RecordBatch
	Watermark int64
}

// IsWatermark reports whether m carries a watermark rather than rows.
func (m Message) IsWatermark() bool { return m.Batch == nil }

// Output receives what an operator emits. The operator keeps ownership of
// batches it sends: a receiver that holds one past the call must Retain it.
type Output interface {
	Send(ctx context.Context, m Message) error
}

// OutputFunc adapts a function to Output.
type OutputFunc func(ctx context.Context, m Message) error

// Send calls f.
func (f OutputFunc) Send(ctx context.Context, m Message) error { return f(ctx, m) }
