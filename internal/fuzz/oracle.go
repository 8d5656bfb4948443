package fuzz

import (
	"context"
	"fmt"
	"strings"

	"sluice/internal/engine"
)

// env is what an oracle runs against: the engine the table was written
// with and a second one over the same files that reads with one reader
// at a time (see settings.go).
type env struct {
	eng    *engine.Engine
	serial *engine.Engine
	// duck is DuckDB over the same files (duckdb_oracle.go), or nil.
	duck *Duck
}

// check is one oracle check, drawn before anything runs (so the random
// stream never depends on the engine's answers) and run by run.
type check struct {
	oracle string
	// pred is the generated predicate or query the check is about.
	pred string
	run  func(ctx context.Context, e env) *finding
}

// finding is a check whose two sides disagreed, or one that was skipped.
type finding struct {
	query1, answer1 string
	query2, answer2 string
	// skipped is why a check could not run (the engine rejected a
	// generated query); such a check is counted, not reported.
	skipped error
	// failed names the engine that failed where the other answered
	// ("sluice", "duckdb"; skipped is its error, the queries and answers
	// are filled): recorded in Stats.OneSided, since an error one engine
	// raises and the other does not may be either's bug.
	failed string
}

func skip(err error) *finding { return &finding{skipped: err} }

// oracle draws a check for table t.
type oracle struct {
	name string
	draw func(g *exprGen, t *Table) check
}

// oracles are the ones that need no second engine.
var oracles = []oracle{
	{"tlp-count", drawTLPCount},
	{"tlp-groupby", drawTLPGroupBy},
	{"tlp-distinct", drawTLPDistinct},
	{"norec", drawNoREC},
	{"settings", drawSettings},
	{"formats", drawFormats},
	{"distinct", drawDistinct},
	{"skipping", drawSkipping},
}

// duckOracles are what a run with Config.Duck draws from.
var duckOracles = []oracle{
	{"duckdb", drawDuck},
}

// one runs q and returns its single value, or ok false if it failed.
func one(ctx context.Context, eng *engine.Engine, q string) (string, error) {
	a := query(ctx, eng, q)
	if a.err != nil {
		return "", a.err
	}
	if len(a.rows) != 1 {
		return "", fmt.Errorf("%d rows from %s", len(a.rows), q)
	}
	return a.rows[0], nil
}

// joinQueries lists queries one a line, each ended by a semicolon.
func joinQueries(qs ...string) string {
	var out []string
	for _, q := range qs {
		out = append(out, strings.TrimSuffix(q, ";"))
	}
	return strings.Join(out, ";\n") + ";"
}
