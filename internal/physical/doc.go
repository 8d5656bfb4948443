// Package physical compiles an optimized logical plan (internal/plan)
// into exec stages (internal/exec): the physical plan a query runs.
//
// Compile does no I/O. It neither lists files nor reads join build sides:
// scans come out with no splits, and every hash join comes out empty,
// with its build side attached as a stage to load. The caller does that
// I/O when it runs the plan, which is why EXPLAIN can compile a plan
// without touching any data:
//
//	p, err := physical.Compile(n, physical.Options{Parallelism: 4})
//	if err != nil { ... }
//	fmt.Println(exec.Explain(p.Root))         // EXPLAIN: nothing read
//
//	listed, err := exec.ListScans(ctx, p.Root, p.StreamScan)  // splits now
//	for _, l := range p.Lookups {                              // inner joins first
//		err = exec.LoadBuildSide(ctx, l.Join)
//	}
//	err = exec.Run(ctx, p.Root, exec.WatermarkEnd, out, nil)
//	// listed.Splits and listed.Bytes are the totals progress counts against.
//
// With Options.Streaming the first scan on the probe path is the
// stream's input: Plan.StreamScan, fed one epoch of splits at a time by
// internal/stream (ListScans skips it), Plan.StreamTable its table.
// Plan.EventTime (and EventDelay) is the operator that tracks event time
// when that table has a watermark (it drops nothing: the window
// operators judge lateness), aggregations become per-window or
// whole-state streaming aggregates in OutputMode, and Plan.Lookups are the
// static sides of stream-static joins, which the stream loads again every
// lookup_refresh_interval.
//
// Stateless operators (filters, projections) directly over a scan run in
// the scan's workers (exec.Scan.Local); everything else runs in the
// stage's chain. Which GROUP BYs a source computes itself is decided
// earlier, by the plan rule push_aggregate_into_scan.
//
// CompileStream (compile_stream.go) compiles a streaming query: it sets
// Options.Streaming, swaps the input for its streaming form
// (connector.Streamable) in StreamPlan.Source, lists the stateful operators
// with their state ids (StreamPlan.State, "window_aggregate-0") and finds
// the keyed cut (KeyedSplit, StreamPlan.Keyed) where workers split an
// append- or update-mode windowed aggregation or an update-mode plain
// GROUP BY; it opens no connection. operators.go
// maps the remaining logical nodes to exec operators (newOperator).
package physical
