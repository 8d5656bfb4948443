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
//
// # Operators and their list
//
// Each operator has a file of its own (filter.go, hash_aggregate.go,
// window_aggregate.go, ...). Operators (registry.go) lists them for EXPLAIN
// readers and tests (registry_test.go checks it against real instances); it
// does not list WindowPartitioner (window_partials.go), the reader half of
// a keyed stream, which stream/partition puts at the keyed cut
// (WindowAggregate.Partitioner). Stateful operators
// implement Stateful, whose StateDescription says what a snapshot means by
// column name; Incremental ones (WindowAggregate) also save deltas.
//
// # How the driver feeds a stage
//
// An aggregate exact in any order takes batches unordered
// (driver_unordered.go) and, through Partials (partial_aggregate.go), each
// scan worker folds its own partial aggregate, merged once by the stage. An
// aggregate over DOUBLE sums or with approx_percentile keeps split order
// but, through InOrderPartials (driver_partials.go), workers fold each
// split into partials the stage merges in split order (float sums then
// round per partial: deterministic, not row by row). An ordered scan (a
// stream's input, a sink, a LIMIT) lets each split dispatched ahead buffer
// up to its share of BufferBytes (driver.go feedItems, a byte gate per
// feed), so its worker keeps decoding while the driver drains the split
// before.
//
// # Keys
//
// Group, join and DISTINCT keys map to dense ids in keyTable (keytable.go).
// Its single STRING/BINARY key path is stringKeyTable (string_key_table.go:
// open addressing, keys up to 16 bytes inline in the slot, longer ones in
// one arena), as are the row-encoded keys of several columns. A
// HashAggregate grouping by one bare STRING/BINARY column that no aggregate
// reads is a DictionaryPartials (hash_aggregate_dict.go): scan workers with
// no operators of their own read for its partials through
// connector.DictReader, the key arrives as an Arrow dictionary array, and
// keyTable.assignDict (keytable_dict.go) hashes each dictionary entry once
// per dictionary. Batches going anywhere else are decoded first
// (dict_columns.go plainBatch).
//
// # Memory and spilling
//
// Operators Reserve estimated bytes from a MemoryBudget as their state grows
// and Release what they drop; a nil budget costs nothing. Operator state
// gets StateShare (30%) of the limit; GoMemoryLimit is the limit less a
// fifth (at most 64 MiB), and GCPercent (400) the collector's target under
// it. Batch operators spill when a reservation fails, to
// <data dir>/tmp/spill-* (zstd Arrow IPC compressed by spill_codec.go, each
// file flock'ed while the query runs and removed when it ends):
// HashAggregate writes its groups in 32 hash partitions and merges one at a
// time; Sort writes sorted runs and k-way merges them; Distinct hands the
// rest of its input to a spilling aggregate; HashJoin partitions a build
// side that does not fit, and the probe side with it (a grace join). Rows
// carry sequence numbers through the spill, so the output is the in-memory
// run's, in the same order. Window sorts through its own Sort and holds one
// partition at a time. A sort codes every key as an order-preserving
// unsigned integer, packs the keys into 64-bit words and radix sorts them
// (sort_keys.go); DECIMAL and nested keys use the row comparator.
// Aggregates with DISTINCT cannot spill, nor can one partition that alone
// outgrows the budget. Streaming operators whose state is checkpointed
// whole fail past the budget with StateTooLargeError, naming the state id.
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
