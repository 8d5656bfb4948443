// Package flint is the lifecycle of OpenSearch Flint's three kinds of
// derived data over Sluice tables: materialized views, covering indexes
// and skipping indexes. It creates, refreshes, alters, describes, lists,
// recovers and drops them; the engine only dispatches their statements
// here and lends what they need of it through Host.
//
// Each kind is a stream the Host runs: a view's (mv_<view>) writes its
// query into the view's sink table; a covering index is a view of the
// table's listed columns named as Flint names the index
// (flint_spark_catalog_<db>_<table>_<name>_index); a skipping index's
// (si_<flint name>) reads the table's _file and indexed columns and folds
// them, through a skipindex.Sink, into one row per file, which the engine
// hands back to the table's source when it binds the table (FileSkipping).
// Without auto_refresh a refresh is one catch-up from the checkpoint;
// with it, a stream Host.Launch keeps running every refresh_interval.
//
// Definitions live in the Host's catalog as JSON (kind "mview": ViewSpec;
// kind "flint_index", named fi_<flint name>: indexSpec), next to the
// sink tables. Their JSON keys are the stored format and never change.
//
// The engine wires it as (engine/flint_host.go):
//
//	type flintHost struct{ e *Engine } // implements flint.Host
//
//	if r, ok, err := flint.New(flintHost{e}).Execute(ctx, st); ok {
//		return flintResult(r, err) // a message, or string rows
//	}
//
// so that, for example,
//
//	CREATE MATERIALIZED VIEW by_status AS
//	  SELECT status, count(*) AS n FROM logs GROUP BY status
//
// plans the query (Host.PlanQuery) to find its columns, sees an aggregate
// without a window and picks output_mode = complete with the group key
// status as the sink's document id, creates the sink table and records
// the ViewSpec in the catalog, then runs the view's first catch-up
// (Host.RunStream) and answers "materialized view by_status created;
// stream mv_by_status stopped after 1 epoch: ...". A first refresh that
// fails before committing an epoch removes the view again: DDL here is
// atomic.
package flint
