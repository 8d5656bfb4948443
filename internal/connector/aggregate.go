package connector

import "time"

// AggregatePusher is a source that can compute a simple GROUP BY itself.
//
// The planner calls it on the scan under an Aggregate whose group keys
// are plain columns (or date_trunc-like fixed buckets of a TIMESTAMP
// column) and whose aggregates are count(*), count(col), sum/avg/min/max(col),
// none DISTINCT, after filters and projection were pushed into the
// source. When ok is true the returned source yields one row per group:
// the keys in order, then the aggregates in order (its Schema says their
// types), and it replaces the Aggregate node entirely. When ok is false (a
// filter was pushed only approximately, a key is a text field, ...) the
// planner keeps the plan as it was. Results must equal the engine's: NULL
// keys form their own group, sum over no values is NULL. PushAggregate
// does no I/O: it runs while planning, EXPLAIN included.
type AggregatePusher interface {
	PushAggregate(groups []GroupKey, aggs []AggCall) (src Source, ok bool, err error)
}

// GroupKey is one GROUP BY key: a column, bucketed by Interval when set
// (a fixed-width date histogram, keyed by the bucket start).
type GroupKey struct {
	Column   string
	Interval time.Duration
}

// AggCall is one aggregate: Func is count, sum, avg, min or max; Column
// is "" for count(*).
type AggCall struct {
	Func   string
	Column string
}
