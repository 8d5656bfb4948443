package fuzz

// Settings equivalence: the same query must return the same multiset of
// rows however the engine is tuned. Each query runs as is and then under
// each variant:
//
//   - SET memory_limit = '1KB': every aggregate, DISTINCT, sort and join
//     spills its state to disk (the engine's only memory knob);
//   - SET split_size = '16B': files are read in many byte-range parts
//     (JSON lines and CSV split at line boundaries, Parquet by row group);
//   - a second engine with Options.Parallelism = 1 over the same files:
//     one reader at a time, so batches arrive in another order.
//
// There is no setting to turn off predicate pushdown, partition pruning
// or Parquet statistics (docs/sql.md lists none, and the session reads only
// memory_limit, split_size and s3.*), so that knob is not varied here;
// NoREC (norec.go) covers pushdown instead.
//
// A query that fails under the memory limit because its operator cannot
// spill (count(DISTINCT ...) fails "cannot spill to disk") is a documented
// limitation, not a divergence.
//
// It catches: spill paths (serialization of NULLs, NaN, -0.0, unicode and
// empty strings; merging spilled runs), split boundaries that lose or
// repeat rows (a quoted newline in CSV), order-dependent operators.
//
// It cannot catch: an answer that is wrong the same way in every
// configuration; rows compare as rendered text (doubles to 12 significant
// digits), so a difference below that is not seen.

import (
	"context"
	"fmt"
	"strings"
)

// activeSetting is the SET statement in force while a variant runs, so
// that a panic's reproduction names it.
var activeSetting string

// variant is one configuration a query is re-run under.
type variant struct {
	name      string
	set, undo string // statements around the query on the main engine
	serial    bool   // run on the one-reader engine instead
}

var variants = []variant{
	{name: "memory_limit", set: "SET memory_limit = '1KB'", undo: "SET memory_limit = 'none'"},
	{name: "split_size", set: "SET split_size = '16B'", undo: "RESET split_size"},
	{name: "parallelism=1", serial: true},
}

// drawSettings draws a query shape that exercises state: a filter, a
// GROUP BY with aggregates, DISTINCT, ORDER BY or a self-join.
func drawSettings(g *exprGen, t *Table) check {
	r := g.r
	col := func() Column { return t.Cols[r.IntN(len(t.Cols))] }
	var q string
	switch r.IntN(5) {
	case 0:
		q = "SELECT * FROM " + t.Name + " WHERE " + g.pred(2)
	case 1:
		k, c := col(), col()
		aggs := []string{"count(*)", "count(" + c.Name + ")", "min(" + c.Name + ")", "max(" + c.Name + ")"}
		if c.Type == Int || c.Type == Double {
			// Not BIGINT: a sum that overflows fails (ANSI) on one
			// side and maybe not on the other, by how the rows split
			// (testdata/slt/fuzz/aggregate_merge_error_panic.slt once
			// panicked on it).
			aggs = append(aggs, "sum("+c.Name+")")
		}
		if c.Type == String || c.Type.numeric() {
			aggs = append(aggs, "count(DISTINCT "+c.Name+")")
		}
		q = fmt.Sprintf("SELECT %s, %s FROM %s WHERE %s GROUP BY %s", k.Name, strings.Join(aggs, ", "), t.Name, g.pred(2), k.Name)
	case 2:
		a, b := col(), col()
		q = fmt.Sprintf("SELECT DISTINCT %s, %s FROM %s", a.Name, b.Name, t.Name)
	case 3:
		a := col()
		q = fmt.Sprintf("SELECT * FROM %s WHERE %s ORDER BY %s", t.Name, g.pred(1), a.Name)
	default:
		k, c := col(), col()
		join := []string{"JOIN", "LEFT JOIN", "FULL JOIN"}[r.IntN(3)]
		ga := &exprGen{r: r, cols: t.Cols, qual: "a."}
		q = fmt.Sprintf("SELECT a.%s, b.%s FROM %s a %s %s b ON a.%s = b.%s WHERE %s",
			k.Name, c.Name, t.Name, join, t.Name, k.Name, k.Name, ga.pred(1))
	}
	return check{oracle: "settings", pred: q, run: func(ctx context.Context, e env) *finding {
		want := query(ctx, e.eng, q)
		if want.err != nil {
			return skip(want.err)
		}
		for _, v := range variants {
			var got answer
			if v.serial {
				got = query(ctx, e.serial, q)
			} else {
				activeSetting = v.set
				if _, err := e.eng.Execute(ctx, v.set); err != nil {
					return &finding{query1: q, answer1: want.String(), query2: v.set, answer2: "error: " + err.Error()}
				}
				got = query(ctx, e.eng, q)
				activeSetting = ""
				if _, err := e.eng.Execute(ctx, v.undo); err != nil {
					return &finding{query1: q, answer1: want.String(), query2: v.undo, answer2: "error: " + err.Error()}
				}
			}
			if v.name == "memory_limit" && got.err != nil && strings.Contains(got.err.Error(), "cannot spill") {
				// DISTINCT aggregates hold their state in memory by
				// design (an error, not a wrong answer).
				continue
			}
			if !got.equal(want) {
				q2 := q
				if v.set != "" {
					q2 = joinQueries(v.set, q)
				} else {
					q2 = "-- " + v.name + "\n" + q
				}
				return &finding{query1: q, answer1: want.String(), query2: q2, answer2: got.String()}
			}
		}
		return nil
	}}
}
