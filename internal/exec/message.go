// Package exec holds the physical operators and the driver that pushes
// record batches and watermarks through them.
//
// A batch query is a bounded stream: the driver feeds every batch of one
// epoch, then the watermark +infinity (WatermarkEnd), then EndEpoch. A
// streaming query feeds epoch after epoch with finite watermarks, and
// stateful operators keep their state in between.
//
// A plan is a tree of stages: a Stage is a chain of operators fed by a
// Scan (or by other stages, for UNION ALL). Stateless operators built by
// Scan.Local run inside the scan workers; the rest run in the driver's
// goroutine. SELECT status, count(*) FROM t WHERE size > 0 GROUP BY status
// ORDER BY 2 DESC LIMIT 10 runs as:
//
//	scan := &exec.Scan{Source: src, Splits: splits, Local: func() ([]exec.Operator, error) {
//		f, err := exec.NewFilter(src.Schema(), sizePositive)
//		return []exec.Operator{f}, err
//	}}
//	agg, _ := exec.NewHashAggregate([]expr.Expr{status}, []string{"status", "n"}, []*expr.Aggregate{count})
//	top := exec.NewTopN(agg.Schema(), []exec.SortKey{{Expr: n, Desc: true}}, 10, 0)
//	out := exec.NewCollect()
//	err := exec.Run(ctx, &exec.Stage{Scan: scan, Ops: []exec.Operator{agg, top}}, exec.WatermarkEnd, out, nil)
//
// Operators that buffer (HashAggregate, Sort, TopN, the outer sides of
// HashJoin) emit when the watermark reaches WatermarkEnd; Limit returns
// ErrLimitReached, on which the driver stops reading but still flushes.
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
