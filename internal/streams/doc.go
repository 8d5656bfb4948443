// Package streams is the lifecycle of the engine's streams: INSERT
// STREAM, START STREAM, STOP STREAM, SHOW STREAMS and DESCRIBE STREAM,
// the planning that wires a stream's query to stream.Query (plan.go,
// run.go), workers sharing a stream (workers.go) and keyed streams cut
// through stream/partition (keyed.go, keyed_ids.go), EXPLAIN INSERT
// STREAM (explain.go), the streams API (Info, List, Get) and Resume. The
// engine dispatches their statements here and lends what they need of
// it through Host; the running streams themselves are internal/job's
// Manager (Host.Runs, Host.Launch), and materialized views and indexes
// run their refreshes here too (Run, ExplainLines) through the engine's
// flint adapter.
//
// Definitions live in the Host's catalog as JSON (kind "stream": Spec,
// its SQL the INSERT STREAM statement). Their JSON keys are the stored
// format and never change: a data dir written by an older binary resumes.
//
// The engine wires it as (engine/streams_host.go):
//
//	type streamsHost struct{ e *Engine } // implements streams.Host
//
//	if r, ok, err := streams.New(streamsHost{e}).Execute(ctx, st); ok {
//		return streamsResult(r, err) // a message, or string rows
//	}
//
// so that, for example,
//
//	INSERT STREAM INTO out SELECT status, count(*) AS n FROM logs
//	  GROUP BY status WITH (output_mode = 'update', trigger = 'available_now')
//
// names the stream out_stream (Name), checks its options against
// internal/job's table, records the Spec (checkpoint under the Host's
// data dir, checkpoints/out_stream) and hands the run to Host.Launch.
// The run binds the query with Streaming = true over Host.Tables,
// refuses a query that reads its own sink, gives the index sink the
// GROUP BY key status as its document id (keyedSinkSpec), compiles it
// with physical.CompileStream, opens the checkpoint and the sink, and
// runs stream.Query until the source is drained: "stream out_stream
// stopped after 1 epoch: 10 rows in, 3 rows out". Each run registers
// with the job manager (Runs.Register) and keeps its job.Status there,
// what SHOW, DESCRIBE and the API read, else the checkpoint. STOP STREAM reaches a
// run of this process through the job manager and one elsewhere through
// its checkpoint's stop marker (and, with workers, its queue's signal).
package streams
