package exec

// OperatorInfo describes one physical operator: the one list of them, for
// documentation (EXPLAIN readers, SHOW-style listings) and tests.
type OperatorInfo struct {
	// Name is how EXPLAIN starts the operator's line.
	Name string
	// Stateful operators implement Stateful and are snapshotted at each
	// streaming commit.
	Stateful bool
	// Buffers reports operators that hold rows until WatermarkEnd.
	Buffers     bool
	Description string
}

// Operators lists every operator in this package; TestOperatorsListed
// fails when a type asserting Operator is missing from it.
func Operators() []OperatorInfo {
	return []OperatorInfo{
		{Name: "Filter", Description: "keeps rows where the predicate is TRUE"},
		{Name: "Project", Description: "computes one column per expression"},
		{Name: "Limit", Stateful: true, Description: "passes n rows after an offset, then stops the input early"},
		{Name: "HashAggregate", Stateful: true, Buffers: true, Description: "GROUP BY with aggregate accumulators"},
		{Name: "Sort", Stateful: true, Buffers: true, Description: "stable ORDER BY of all rows"},
		{Name: "TopN", Stateful: true, Buffers: true, Description: "ORDER BY ... LIMIT keeping only candidate rows"},
		{Name: "Distinct", Stateful: true, Description: "passes each distinct row once"},
		{Name: "HashJoin", Stateful: true, Description: "equi-join against an in-memory build side (inner, outer, semi, anti, cross)"},
		{Name: "Generate", Description: "explode/posexplode of an ARRAY or MAP"},
		{Name: "EventTime", Description: "drops rows older than the epoch's watermark (unless a window aggregate judges them) and tracks the largest event time"},
		{Name: "WindowAggregate", Stateful: true, Description: "streaming GROUP BY an event-time window: per-window state, written when the watermark closes the window (append) or each epoch (update)"},
		{Name: "StreamAggregate", Stateful: true, Description: "streaming GROUP BY without a window: every group written each epoch (complete, update)"},
		{Name: "Window", Buffers: true, Description: "window functions (batch only): sorts by partition and order keys (spilling under a budget), then computes each partition"},
		{Name: "SessionWindow", Stateful: true, Buffers: true, Description: "assigns SESSION(ts, gap) windows per key, emitting each session's rows when the watermark closes it"},
		{Name: "WindowPartitioner", Description: "a keyed stream's reader side in place of a WindowAggregate: folds rows into one partial aggregate per (window, key partition) and emits nothing; partition.Publisher takes the partials at each epoch's flush"},
	}
}
