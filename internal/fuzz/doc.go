// Package fuzz is a seeded differential and metamorphic fuzzer for the SQL
// engine: it generates a random table (schema, data with NULLs, NaN, -0.0,
// empty and unicode strings and separators, written by the engine itself
// as JSON lines, CSV or Parquet, optionally Hive-partitioned), random
// predicates and GROUP BY queries over it, and checks each query with
// oracles that need no second engine: the engine must agree with itself
// across rewrites, settings and file formats that cannot change the answer.
//
// The oracles, one a file:
//
//   - tlp.go: ternary logic partitioning (count and GROUP BY split into
//     p, NOT p and p IS NULL);
//   - norec.go: non-optimizing reference (WHERE p against a
//     sum(CASE WHEN p ...) the scan cannot push down);
//   - settings.go: the same query with spilling forced, tiny splits and
//     one reader at a time;
//   - formats.go: the same rows written as JSON lines, CSV and Parquet
//     (and a partitioned table flat) answer alike;
//   - distinct.go: count/sum/avg(DISTINCT c) against the plain aggregate
//     over a DISTINCT subquery;
//   - skipping.go: the same query over a twin table with a Flint
//     skipping index (MIN_MAX, VALUE_SET, BLOOM_FILTER, PARTITION);
//   - duckdb_oracle.go: a second engine, DuckDB (duckdb.go runs it in
//     one python3 process), over the same files, on the subset of SQL
//     both define alike (Config.Duck; TestFuzzDuckDB);
//   - crash.go (RunCrash, apart from Run): a filter and projection as a
//     batch INSERT against INSERT STREAM over the same files landing in
//     random groups and order, with child processes SIGKILLed at random
//     crash points and restarted ("crash schedules").
//
// Everything is deterministic from the seed (math/rand/v2, PCG), so a
// divergence replays from its seed alone. Each Divergence carries a
// reproduction: the CREATE and INSERT statements and both queries.
//
// A worked example: seed 7 might generate
//
//	CREATE TABLE t0 (c0 BIGINT, c1 STRING, c2 DOUBLE) USING csv LOCATION '/tmp/x/t0/'
//	INSERT INTO t0 VALUES (1, 'a|b', CAST('NaN' AS DOUBLE)), (NULL, '', -0.5)
//	INSERT INTO t0 VALUES (3, NULL, 2.25)
//
// and the predicate p = (c0 > 1 OR c1 LIKE 'a%'). TLP then checks
//
//	SELECT count(*) FROM t0                                  -- 3
//	  = SELECT count(*) FROM t0 WHERE p                      -- 2
//	  + SELECT count(*) FROM t0 WHERE NOT p                  -- 0
//	  + SELECT count(*) FROM t0 WHERE (p) IS NULL            -- 1
//
// Run it:
//
//	divs, stats, err := fuzz.Run(ctx, fuzz.Config{Seed: 7, Queries: 200, Dir: t.TempDir()})
//
// TestFuzzSlice, TestFuzzDuckDB and TestCrashSlice run bounded slices in
// CI; see TESTING.md at the repository root for the longer runs.
package fuzz
